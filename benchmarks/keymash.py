"""The long key mash: thousands of seeded random keys and clicks across games in the headless
app, then the engine's invariants on every game seen and the saved game against the table;
then seeded keys on every screen the app starts on (setup, a game, a replay, history,
statistics, the daily challenge, a resumed game), the command palette and the quit keys among
them, an app that a key ends started again for the keys left. Keys come in bursts with no pause
between them (up to 20 on the table between two looks, 1 to 6 on the screens), as a terminal
delivers what is typed quickly: the app handles none of a burst before all of it has arrived.

The tests run the same mashes short (100 keys per seed on the table, 30 per screen:
tests/tui/test_keymash.py); this one runs them long, for the rare states a short mash does not
reach. It prints, per seed, the keys sent, the time they took, the games seen and finished,
and whether every check held; per screen, the keys, the time, the starts and the screens
reached. The exit status is 1 if any check failed or the app raised.

Then (``--terminal SECONDS``) the real app on a pseudo-terminal for that long per seed:
seeded bursts of keys written in one go, the app started again whenever a key ends it; any
crash report fails the run.

    python benchmarks/keymash.py [--keys 2000] [--deals 3] [--seeds 2026 1 2]
                                 [--screen-keys 400] [--starts setup play ...]
                                 [--terminal 0]
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

from test_keymash import (
    SIZE,
    STARTS,
    QuickReference,
    check_invariants,
    keys_on_screens,
    mash,
    mash_app,
    prepare,
)
from tui_helpers import settle

from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.table import TableScreen


async def one_run(seed: int, keys: int, deals: int) -> tuple[float, int, int, str]:
    """Seconds taken, games seen, games finished, and the first failed check ('' if none)."""
    app = mash_app(seed, deals)
    start = time.perf_counter()
    try:
        return await _checked_run(app, seed, keys)
    except Exception as exc:  # noqa: BLE001 - the app raised: reported as the run's result
        return (time.perf_counter() - start, 0, 0,
                f"the app raised {type(exc).__name__}: {exc}"[:200])


async def _checked_run(app: NilApp, seed: int, keys: int) -> tuple[float, int, int, str]:
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


def quick_analysis() -> None:
    """The analysis screen's search on a small budget, in its thread, and the challenge's
    reference known at once (as in the tests)."""
    from nil_tui import analysis
    from nil_tui.analysis import Budget

    quick = Budget(batch=20, min_layouts=20, max_layouts=40, max_playouts=400)
    full = analysis.analyse_deal

    def analyse_deal(*args: object, **kwargs: object) -> object:
        kwargs.update(budget=quick, jobs=0)
        return full(*args, **kwargs)  # type: ignore[arg-type]

    analysis.analyse_deal = analyse_deal  # type: ignore[assignment]
    from nil_tui.game import daily_challenge as challenge

    challenge.ReferenceProcess = QuickReference  # type: ignore[assignment,misc]


async def one_screen_run(start: str, seed: int, keys: int) -> tuple[float, int, set[str], str]:
    """Seconds, app starts, screens reached, and the exception the app raised ('' if none)."""
    await prepare(start)
    begin = time.perf_counter()
    try:
        seen, starts = await keys_on_screens(start, seed, keys)
    except Exception as exc:  # noqa: BLE001 - reported as the run's result
        return time.perf_counter() - begin, 0, set(), f"{type(exc).__name__}: {exc}"[:200]
    return time.perf_counter() - begin, starts, seen, ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=2000, help="keys per seed (default 2000)")
    parser.add_argument("--deals", type=int, default=3, help="deals per game (default 3)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[2026, 1, 2],
                        help="one mash per seed (default 2026 1 2)")
    parser.add_argument("--screen-keys", type=int, default=400,
                        help="keys per starting screen and seed (default 400; 0: none)")
    parser.add_argument("--starts", nargs="+", default=STARTS, choices=STARTS,
                        help="the starting screens (default: all)")
    parser.add_argument("--terminal", type=float, default=0.0,
                        help="seconds of bursts in a real terminal per seed (default 0: none)")
    args = parser.parse_args()
    failed = 0
    print(f"{'seed':>6}  {'keys':>6}  {'seconds':>8}  {'keys/s':>7}  {'games':>5}  "
          f"{'finished':>8}  checks")
    for seed in args.seeds:
        elapsed, seen, finished, problem = asyncio.run(one_run(seed, args.keys, args.deals))
        failed += bool(problem)
        print(f"{seed:>6}  {args.keys:>6}  {elapsed:>8.1f}  {args.keys / elapsed:>7.1f}  "
              f"{seen:>5}  {finished:>8}  {problem or 'all held'}", flush=True)
    if args.screen_keys:
        quick_analysis()
        home = tempfile.mkdtemp(prefix="nil-tui-bench-")
        os.chdir(home)  # a screenshot taken from the palette lands here
        print(f"\n{'start':>9}  {'seed':>6}  {'keys':>5}  {'seconds':>8}  {'starts':>6}  "
              "screens reached / problem")
        for start in args.starts:
            for seed in args.seeds:
                os.environ["NIL_TUI_HOME"] = tempfile.mkdtemp(prefix="nil-tui-bench-")
                elapsed, starts, screens, problem = asyncio.run(
                    one_screen_run(start, seed, args.screen_keys))
                failed += bool(problem)
                print(f"{start:>9}  {seed:>6}  {args.screen_keys:>5}  {elapsed:>8.1f}  "
                      f"{starts:>6}  {problem or ', '.join(sorted(screens))}", flush=True)
    if args.terminal:
        print(f"\n{'seed':>6}  {'seconds':>7}  {'runs':>4}  {'keys':>6}  crash reports")
        for seed in args.seeds:
            runs, keys, crashes = terminal_mash(seed, args.terminal)
            failed += bool(crashes)
            print(f"{seed:>6}  {args.terminal:>7.0f}  {runs:>4}  {keys:>6}  "
                  f"{'; '.join(crashes) or 'none'}", flush=True)
    return 1 if failed else 0


TERMINAL_KEYS = {
    "left": b"\x1b[D", "right": b"\x1b[C", "up": b"\x1b[A", "down": b"\x1b[B", "enter": b"\r",
    "space": b" ", "tab": b"\t", "shift+tab": b"\x1b[Z", "home": b"\x1b[H", "end": b"\x1b[F",
    "pageup": b"\x1b[5~", "pagedown": b"\x1b[6~", "escape": b"\x1b", "ctrl+p": b"\x10",
    "ctrl+c": b"\x03", "ctrl+q": b"\x11", "ctrl+s": b"\x13", "f1": b"\x1bOP", "f2": b"\x1bOQ",
    "backspace": b"\x7f", "delete": b"\x1b[3~", "question_mark": b"?"}
"""What a terminal sends for each of the screens' keys that is not its own letter."""


def terminal_mash(seed: int, seconds: float) -> tuple[int, int, list[str]]:
    """``nil-tui`` on a pty for ``seconds``: seeded bursts of 1 to 6 of the screens' keys,
    each written in one go, a few hundredths of a second apart. Runs, keys, and the last line
    of each crash report."""
    import random

    from test_key_bursts_terminal import Terminal
    from test_keymash import SCREEN_KEYS

    rng = random.Random(seed)
    end = time.monotonic() + seconds
    runs = keys = 0
    crashes: list[str] = []
    while time.monotonic() < end:
        home = Path(tempfile.mkdtemp(prefix="nil-tui-bench-"))
        terminal = Terminal(home)
        runs += 1
        try:
            terminal.wait_for(b"Statistics")
            while time.monotonic() < end and terminal.proc.poll() is None:
                burst = [rng.choice(SCREEN_KEYS) for _ in range(rng.randint(1, 6))]
                try:
                    terminal.type(b"".join(TERMINAL_KEYS.get(k, k.encode()) for k in burst))
                except OSError:  # the app ended
                    break
                keys += len(burst)
                terminal.read(rng.choice([0.02, 0.05, 0.1, 0.3]))
        finally:
            terminal.close()
        for report in sorted(home.glob("crash-*")):
            crashes.append(report.read_text(encoding="utf-8").strip().splitlines()[-1][:160])
    return runs, keys, crashes


if __name__ == "__main__":
    raise SystemExit(main())
