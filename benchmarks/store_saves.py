"""How long the store takes for what the app does while a player waits: the autosave after
every play (small and 99-deal games), opening the store (with its integrity check and the
saved game's validation), and finishing a game; and, with another process holding the
database, how long opening and each save are held up (bounded by ``Store.open_wait`` and
``Store.busy_timeout``). Prints milliseconds.

    python benchmarks/store_saves.py [--history 500] [--dir /some/disk/folder]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from nil_tui.engine import Game
from nil_tui.engine.game import Phase
from nil_tui.game.options import PlayOptions
from nil_tui.store import Store

OPTIONS = dataclasses.asdict(PlayOptions(deals=8, bots=("easy", "easy", "easy")))


def played(deals: int, seed: int, plays: int | None = None) -> Game:
    rng = random.Random(seed)
    game = Game(deals, seed=seed)
    done = 0
    while not game.is_over and (plays is None or done < plays):
        if game.phase is Phase.DEAL_OVER:
            game.next_deal()
        game.play(rng.choice(list(game.deal.legal_moves())))
        done += 1
    return game


def ms(values: list[float]) -> str:
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
    return (f"median {statistics.median(values) * 1000:7.2f} ms   p95 {p95 * 1000:7.2f} ms   "
            f"max {values[-1] * 1000:7.2f} ms   (n={len(values)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--history", type=int, default=500, help="finished games in the store")
    parser.add_argument("--dir", default=None, help="folder for the store (default: a temp dir)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        home = Path(tmp)
        store = Store.open(home)

        for deals in (8, 99):
            rng = random.Random(deals)
            game = Game(deals, seed=deals)
            times: list[float] = []
            while not game.is_over:
                if game.phase is Phase.DEAL_OVER:
                    game.next_deal()
                game.play(rng.choice(list(game.deal.legal_moves())))
                record = game.to_record()
                start = time.perf_counter()
                store.save_current(record, OPTIONS)
                times.append(time.perf_counter() - start)
            print(f"save_current, {deals:2}-deal game, every play:   {ms(times)}")

        finish: list[float] = []
        for n in range(args.history):
            record = played(8, 1000 + n).to_record()
            start = time.perf_counter()
            store.finish_game(record, OPTIONS)
            finish.append(time.perf_counter() - start)
        print(f"finish_game (record file + history + stats): {ms(finish)}")

        big = played(99, 7, plays=99 * 20).to_record()
        store.save_current(big, OPTIONS)
        store.close()
        size = (home / "nil-tui.db").stat().st_size
        opens: list[float] = []
        for _ in range(10):
            start = time.perf_counter()
            s = Store.open(home)
            opens.append(time.perf_counter() - start)
            s.close()
        print(f"open ({args.history} games, {size // 1024} KiB, 99-deal saved game): "
              f"{ms(opens)}")
        s = Store.open(home)
        reads: list[float] = []
        for _ in range(10):
            start = time.perf_counter()
            s.history()
            s.stats()
            reads.append(time.perf_counter() - start)
        print(f"history() + stats() with {args.history} games:   {ms(reads)}")
        s.close()
        locked(home)


HOLD = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA journal_mode = " + sys.argv[2])
conn.execute("BEGIN EXCLUSIVE")
print("held", flush=True)
time.sleep(60)
"""


def locked(home: Path) -> None:
    """Opening and saving while another process holds ``BEGIN EXCLUSIVE``: in the store's own
    WAL journal (reads go on) and in a rollback journal (nothing can be read)."""
    for journal in ("WAL", "DELETE"):
        holder = subprocess.Popen([sys.executable, "-c", HOLD, str(home / "nil-tui.db"),
                                   journal], stdout=subprocess.PIPE, text=True)
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
            start = time.perf_counter()
            s = Store.open(home)
            opened = time.perf_counter() - start
            saves: list[float] = []
            game = Game(8, seed=3)
            rng = random.Random(3)
            for _ in range(20):
                game.play(rng.choice(list(game.deal.legal_moves())))
                start = time.perf_counter()
                s.save_current(game.to_record(), OPTIONS)
                saves.append(time.perf_counter() - start)
            print(f"locked ({journal}): open {opened * 1000:.0f} ms (busy={s.busy}); "
                  f"save_current: {ms(saves)}")
        finally:
            holder.kill()
            holder.wait(timeout=10)
        start = time.perf_counter()
        done = s.retry_pending()
        print(f"  released: retry_pending() -> {done} in "
              f"{(time.perf_counter() - start) * 1000:.2f} ms; problem={s.problem!r}")
        s.close()


if __name__ == "__main__":
    main()
