"""The pace of play: the median time from your card to your next turn, at each speed, with
normal and with expert opponents (issue: "the expert's thinking comes on top of the pause").

The app runs headless (Textual's test harness, its real timers and worker threads) with a
fixed seed; each round presses Enter on your turn (your leftmost legal card; forced cards are
not played for you, so every turn is one of yours) and stops the clock when your hand can be
played again. A round that ends a deal is not counted (the summary waits for a key). Target:
at the default speed (normal), experts within 1.2x of normal bots.

    python benchmarks/pace.py [--rounds 10] [--speeds fast,normal] [--levels normal,expert]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time


async def measure(speed: str, level: str, rounds: int, seed: int) -> list[float]:
    from nil_tui.options import PlayOptions
    from nil_tui.tui.app import NilApp
    from nil_tui.tui.screens.table import TableScreen
    from nil_tui.tui.widgets.hand import Hand

    options = PlayOptions(deals=8, bots=(level, level, level), seed=seed, speed=speed,
                          auto_play=False)
    app = NilApp(start="play", options=options)
    times: list[float] = []

    def my_turn() -> bool:
        screen = app.screen
        if not isinstance(screen, TableScreen):
            return False
        hand = screen.query_one(Hand)
        return bool(hand.legal)

    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(rounds * 3):
            if len(times) >= rounds:
                break
            limit = time.monotonic() + 60
            while not my_turn():
                if not isinstance(app.screen, TableScreen):
                    await pilot.press("enter")  # a deal's summary: go on
                await asyncio.sleep(0.005)
                if time.monotonic() > limit:
                    raise SystemExit("the turn never came back")
            deal = app.screen.game.deal_number  # type: ignore[attr-defined]
            started = time.monotonic()
            await pilot.press("enter")
            while True:
                await asyncio.sleep(0.005)
                if not isinstance(app.screen, TableScreen):
                    break  # the deal ended: not a round
                if my_turn() and app.screen.game.deal_number == deal:
                    times.append(time.monotonic() - started)
                    break
                if time.monotonic() - started > 60:
                    raise SystemExit("the turn never came back")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--speeds", default="fast,normal,slow")
    parser.add_argument("--levels", default="normal,expert")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    os.environ["NIL_TUI_HOME"] = tempfile.mkdtemp(prefix="nil-pace-")
    figures: dict[tuple[str, str], float] = {}
    print(f"load average: {os.getloadavg()[0]:.1f}  ({os.cpu_count()} cores)")
    for speed in args.speeds.split(","):
        for level in args.levels.split(","):
            times = asyncio.run(measure(speed, level, args.rounds, args.seed))
            median = statistics.median(times)
            figures[speed, level] = median
            print(f"{speed:8} {level:8} median {median:5.2f} s  (min {min(times):.2f}, "
                  f"max {max(times):.2f}, {len(times)} rounds)", flush=True)
    for speed in args.speeds.split(","):
        normal, expert = figures.get((speed, "normal")), figures.get((speed, "expert"))
        if normal and expert:
            print(f"{speed:8} expert / normal: {expert / normal:.2f}x"
                  + ("  (target <= 1.2x)" if speed == "normal" else ""))


if __name__ == "__main__":
    sys.exit(main())
