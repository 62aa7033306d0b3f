"""Two bots on the same deals: each one's edge against a field, and the paired difference.

    python benchmarks/paired.py expert hard [--field normal] [--deals 160] [--seed 5] [--jobs 2]
    python benchmarks/paired.py hard normal --scoring pool --jobs 1   # middle deals of a pool game

Every deal is played four times for each bot (the bot in each seat in turn, three field bots
elsewhere), on the same cards for both bots, mid-game (points decide, not the match). The
difference of the two edges is measured deal by deal, so the luck of the cards cancels out
and much smaller differences show than in two separate matches. Any bot spec works,
``module:Name`` included. No wall clock limits a decision (the search levels' safety cap is
off), so the figures depend only on the seed.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _match import rotated_edges


def _chunk(args: tuple[str, str, int, int, int, str]) -> list[float]:
    spec, field, start, stop, seed, scoring = args
    return rotated_edges(spec, field, range(start, stop), seed, scoring)


def edges(spec: str, field: str, deals: int, seed: int, jobs: int,
          scoring: str = "classic") -> list[float]:
    step = max(1, -(-deals // (jobs * 4)))
    chunks = [(spec, field, a, min(deals, a + step), seed, scoring)
              for a in range(0, deals, step)]
    if jobs <= 1:
        return [e for c in chunks for e in _chunk(c)]
    with ProcessPoolExecutor(jobs) as pool:
        return [e for part in pool.map(_chunk, chunks) for e in part]


def mean_ci(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--field", default="normal")
    parser.add_argument("--deals", type=int, default=160)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--scoring", choices=("classic", "pool"), default="classic",
                        help="under the pool every deal is a middle deal with a pool of 0 to "
                        "12 (drawn from the seed), scored in the pool's points")
    parser.add_argument("--save", type=Path, help="write the per-deal edges as JSON")
    args = parser.parse_args(argv)

    from nil_tui.bots import BotSpecError, check_spec, search

    # no wall clock at all: the search levels' safety cap off (before the workers are forked),
    # so the figures depend only on the seed, however busy the machine
    search.DEFAULT_SAFETY_CAP = None
    try:
        for spec in (args.first, args.second, args.field):
            check_spec(spec)
    except BotSpecError as exc:
        print(f"paired: {exc}", file=sys.stderr)
        return 2
    results: dict[str, list[float]] = {}
    for spec in (args.first, args.second):
        start = time.perf_counter()
        results[spec] = edges(spec, args.field, args.deals, args.seed, args.jobs, args.scoring)
        m, ci = mean_ci(results[spec])
        print(f"{spec:>12} vs 3 {args.field}: edge {m:+.3f} ± {ci:.3f} per deal "
              f"({args.deals} deals x 4 seats, {time.perf_counter() - start:.0f} s)")
    a, b = results[args.first], results[args.second]
    diff = [x - y for x, y in zip(a, b)]
    m, ci = mean_ci(diff)
    same = sum(1 for d in diff if abs(d) < 1e-12)
    print(f"{args.first} - {args.second}: {m:+.3f} ± {ci:.3f} per deal "
          f"(identical results on {same} of {len(diff)} deals)")
    if args.save:
        args.save.write_text(json.dumps({"seed": args.seed, "field": args.field,
                                         "scoring": args.scoring, **results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
