"""How long the store takes for what the app does while a player waits: the autosave after
every play (small and 99-deal games), opening the store (with its integrity check and the
saved game's validation), and finishing a game. Prints milliseconds.

    python benchmarks/store_saves.py [--history 500] [--dir /some/disk/folder]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import tempfile
import time
from pathlib import Path

from nil_tui.engine import Game
from nil_tui.engine.game import Phase
from nil_tui.options import PlayOptions
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


if __name__ == "__main__":
    main()
