"""The long key mash: thousands of seeded random keys and clicks across games in the headless
app, then the engine's invariants on every game seen and the saved game against the table.

The tests run the same mash for 150 keys per seed (tests/tui/test_keymash.py); this one runs
it long, for the rare states a short mash does not reach. It prints, per seed, the keys sent,
the time they took, the games seen and finished, and whether every check held; the exit
status is 1 if any check failed.

    python benchmarks/keymash.py [--keys 2000] [--deals 3] [--seeds 2026 1 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

os.environ.setdefault("NIL_TUI_HOME", tempfile.mkdtemp(prefix="nil-tui-bench-"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "tui"))

from test_keymash import SIZE, check_invariants, mash, mash_app
from tui_helpers import settle

from nil_tui.tui.screens.table import TableScreen


async def one_run(seed: int, keys: int, deals: int) -> tuple[float, int, int, str]:
    """Seconds taken, games seen, games finished, and the first failed check ('' if none)."""
    app = mash_app(seed, deals)
    problem = ""
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        start = time.perf_counter()
        games = await mash(app, pilot, seed, keys)
        elapsed = time.perf_counter() - start
        try:
            assert app.is_running, "the app stopped"
            assert games, "the mash never reached the table"
            for game in games:
                check_invariants(game)
            screen = app.screen
            if isinstance(screen, TableScreen) and not screen.game.is_over:
                saved = app.store.load_current()
                assert saved is not None, "no saved game while one is on the table"
                assert saved[0]["deals"] == screen.game.to_record()["deals"], \
                    "the saved game is not the game on the table"
        except AssertionError as exc:
            problem = str(exc) or traceback.format_exc(limit=1).strip().splitlines()[-1]
    return elapsed, len(games), sum(g.is_over for g in games), problem


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=2000, help="keys per seed (default 2000)")
    parser.add_argument("--deals", type=int, default=3, help="deals per game (default 3)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[2026, 1, 2],
                        help="one mash per seed (default 2026 1 2)")
    args = parser.parse_args()
    failed = 0
    print(f"{'seed':>6}  {'keys':>6}  {'seconds':>8}  {'keys/s':>7}  {'games':>5}  "
          f"{'finished':>8}  checks")
    for seed in args.seeds:
        elapsed, seen, finished, problem = asyncio.run(one_run(seed, args.keys, args.deals))
        failed += bool(problem)
        print(f"{seed:>6}  {args.keys:>6}  {elapsed:>8.1f}  {args.keys / elapsed:>7.1f}  "
              f"{seen:>5}  {finished:>8}  {problem or 'all held'}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
