"""Same seed, same card, however busy the machine: the hard and expert levels decide 30
positions from seeded games on a quiet machine, then again while two CPU-bound processes run,
and the number of decisions that differ is printed. It must be 0: the search budgets count
work, never time.

    python benchmarks/determinism_under_load.py [--positions 30] [--seed 2026] [--burners 2]
                                                [--safety-cap 10]

The bots keep their default safety cap (10 s), as in a game (``--safety-cap 0``: none); the
script also prints how often it fired (on a quiet 2-core machine it does not, even with the
burners; a cap that fires may change a card, which a game records as an incident) and the
slowest decision of each run. Exit status 1 when any decision differs.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from typing import Any

LEVELS = ("hard", "expert")


def seeded_positions(count: int, seed: int) -> list[Any]:
    """Views with more than one legal card, picked at random points of seeded games played by
    normal bots, in varied game contexts."""
    from nil_tui.bots import make_bot
    from nil_tui.engine import Deal

    rng = random.Random(seed)
    driver = make_bot("normal", seed=0)
    out: list[Any] = []
    n = 0
    while len(out) < count:
        deal = Deal.new(n & 3, rng)
        deal.context = (n % 8 + 1, 8, (n, 2 * n % 7, n % 5, 3))
        n += 1
        while deal.to_move is not None and len(out) < count:
            view = deal.view(deal.to_move)
            if len(view.legal) > 1 and rng.random() < 0.12:
                out.append(view)
            deal.play(driver.choose(view))
    return out


def decide(views: list[Any], seed: int, cap: float | None
           ) -> tuple[dict[str, list[str]], int, float]:
    """Each level's cards for the views (fresh bots with this safety cap), how many times the
    cap fired, and the slowest decision in seconds."""
    from nil_tui.bots import make_bot

    cards: dict[str, list[str]] = {}
    fired = 0
    slowest = 0.0
    for level in LEVELS:
        bot = make_bot(level, seed=seed)
        bot.safety_cap = cap  # type: ignore[attr-defined]
        cards[level] = []
        for view in views:
            start = time.perf_counter()
            cards[level].append(str(bot.choose(view)))
            slowest = max(slowest, time.perf_counter() - start)
            fired += bool(getattr(bot, "cap_fired", False))
    return cards, fired, slowest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--burners", type=int, default=2, help="CPU-bound processes to run")
    parser.add_argument("--safety-cap", type=float, default=10.0, metavar="SECONDS",
                        help="the search levels' safety cap (default 10; 0: none)")
    args = parser.parse_args(argv)
    cap = args.safety_cap or None

    views = seeded_positions(args.positions, args.seed)
    quiet, quiet_fired, quiet_slowest = decide(views, args.seed, cap)
    print(f"quiet: {len(views)} positions x {len(LEVELS)} levels, slowest "
          f"{quiet_slowest:.2f} s, safety cap fired {quiet_fired} times", flush=True)
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
               for _ in range(args.burners)]
    try:
        loaded, loaded_fired, loaded_slowest = decide(views, args.seed, cap)
    finally:
        for proc in burners:
            proc.kill()
            proc.wait()
    print(f"with {args.burners} CPU burners: slowest {loaded_slowest:.2f} s, safety cap fired "
          f"{loaded_fired} times")
    differing = 0
    for level in LEVELS:
        diff = [k for k, (a, b) in enumerate(zip(quiet[level], loaded[level])) if a != b]
        differing += len(diff)
        print(f"{level}: {len(diff)} of {len(views)} decisions differ"
              + (f" (positions {diff})" if diff else ""))
    print(f"differing decisions: {differing}")
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main())
