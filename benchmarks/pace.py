"""The pace of play: the time from your card to your next turn (median and 90th percentile),
at each speed, with normal and with expert opponents, and in the daily challenge (three
experts, with the expert's reference game worked out beside the table).

The app runs headless (Textual's test harness, its real timers and worker threads) with a
fixed seed; each round presses Enter on your turn (your leftmost legal card; forced cards are
not played for you, so every turn is one of yours) and stops the clock when your hand can be
played again. A round that ends a deal is not counted (the summary waits for a key).

Targets at the default speed (normal) with three experts: median at most 2.0 s, 90th
percentile at most 3.5 s. The challenge (level ``challenge``: the day's cards, its expert
reference worked out at the same time) is played on the same cards as the experts' game (the
seed of the challenge's date), so the two differ only by the reference: within 1.1x, also
with ``--burners 2`` (two CPU-burning processes beside the table for the whole run).

The ratios compare mean rounds. A round is a sum of the pauses (a quarter of a second a card,
0.8 s a trick) and the bots' thinking, so most rounds take close to 0.82, 1.07, 1.32, 1.58
or 1.83 s, and a median jumps a quarter of a second when two rounds change sides: a median
ratio of two runs of the same game swings by up to 1.2x. The mean moves with every round.

    python benchmarks/pace.py [--rounds 20] [--speeds fast,normal] [--levels expert,challenge]
                              [--burners 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time

DATE = "2026-11-30"  # the challenge's date (its seed is the experts' game's too)


def percentile(times: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``times`` lie (nearest rank)."""
    ordered = sorted(times)
    rank = max(1, min(len(ordered), round(fraction * len(ordered) + 0.5)))
    return ordered[rank - 1]


async def measure(speed: str, level: str, rounds: int, seed: int | None) -> list[float]:
    from nil_tui.game.daily_challenge import challenge_seed
    from nil_tui.game.options import PlayOptions
    from nil_tui.tui.app import NilApp
    from nil_tui.tui.screens.table import TableScreen
    from nil_tui.tui.widgets.hand import Hand

    os.environ["NIL_TUI_HOME"] = tempfile.mkdtemp(prefix="nil-pace-")
    seed = challenge_seed(DATE) if seed is None else seed
    times: list[float] = []
    if level == "challenge":
        app = NilApp(start="setup")
    else:
        options = PlayOptions(deals=8, bots=(level, level, level), seed=seed, speed=speed,
                              auto_play=False)
        app = NilApp(start="play", options=options)

    def my_turn() -> bool:
        screen = app.screen
        if not isinstance(screen, TableScreen) or not screen.is_mounted:
            return False
        hands = screen.query(Hand)
        return bool(hands and hands.first().legal)

    async with app.run_test(size=(100, 32)) as pilot:
        if level == "challenge":
            from nil_tui.tui.screens.setup import SetupScreen

            while not (isinstance(app.screen, SetupScreen) and app.screen.is_mounted):
                await pilot.pause()
            await pilot.pause()
            app.start_challenge(DATE, PlayOptions(speed=speed, auto_play=False))
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
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--speeds", default="fast,normal,slow")
    parser.add_argument("--levels", default="normal,expert,challenge")
    parser.add_argument("--seed", type=int, default=None,
                        help="the games' seed (default: the challenge date's)")
    parser.add_argument("--burners", type=int, default=0,
                        help="this many CPU-burning processes run beside the table")
    args = parser.parse_args()
    burners = [subprocess.Popen([sys.executable, "-c", "while 1: pass"])
               for _ in range(args.burners)]
    try:
        figures: dict[tuple[str, str], float] = {}
        print(f"load average: {os.getloadavg()[0]:.1f}  ({os.cpu_count()} cores), "
              f"{args.burners} CPU burners", flush=True)
        for speed in args.speeds.split(","):
            for level in args.levels.split(","):
                times = asyncio.run(measure(speed, level, args.rounds, args.seed))
                mean = statistics.mean(times)
                figures[speed, level] = mean
                print(f"{speed:8} {level:9} median {statistics.median(times):5.2f} s  "
                      f"p90 {percentile(times, 0.9):5.2f} s  mean {mean:5.2f} s  "
                      f"(min {min(times):.2f}, max {max(times):.2f}, {len(times)} rounds)",
                      flush=True)
        for speed in args.speeds.split(","):
            normal, expert = figures.get((speed, "normal")), figures.get((speed, "expert"))
            daily = figures.get((speed, "challenge"))
            if normal and expert:
                print(f"{speed:8} expert / normal (means): {expert / normal:.2f}x")
            if expert and daily:
                print(f"{speed:8} challenge / expert (means): {daily / expert:.2f}x  "
                      "(target <= 1.1x)")
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


if __name__ == "__main__":
    sys.exit(main())
