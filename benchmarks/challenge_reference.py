"""The daily challenge's reference: how long the expert takes to play the player's seat over
the challenge's deals against the same three experts, and whether it gives the same points
twice.

    python benchmarks/challenge_reference.py [--date 2026-11-30] [--dates 1] [--twice]

The app works the reference out in a process of its own while the player plays, so this is
the time a player may have to wait at the end of a challenge played faster than that. Each
time is given as wall-clock and CPU seconds (on a busy machine the CPU time is what a quiet
one would show). ``--twice`` plays each date again and checks the points are the same.
"""

from __future__ import annotations

import argparse
import datetime
import time


def main() -> int:
    from nil_tui.game.daily_challenge import CHALLENGE_DEALS, challenge_seed, reference_points

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--date", default="2026-11-30")
    parser.add_argument("--dates", type=int, default=1, help="this many dates from --date")
    parser.add_argument("--twice", action="store_true", help="play each date twice")
    args = parser.parse_args()
    first = datetime.date.fromisoformat(args.date)
    walls, cpus = [], []
    for k in range(args.dates):
        date = (first + datetime.timedelta(days=k)).isoformat()
        wall, cpu = time.perf_counter(), time.process_time()
        points = reference_points(date)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        walls.append(wall)
        cpus.append(cpu)
        line = (f"{date} (seed {challenge_seed(date)}): expert's points {points}, "
                f"{wall:.1f} s wall, {cpu:.1f} s CPU for {CHALLENGE_DEALS} deals")
        if args.twice:
            again = reference_points(date)
            line += "; same again" if again == points else f"; DIFFERENT again: {again}"
        print(line, flush=True)
    if len(walls) > 1:
        print(f"mean {sum(walls) / len(walls):.1f} s wall, {sum(cpus) / len(cpus):.1f} s CPU, "
              f"worst {max(walls):.1f} s wall")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
