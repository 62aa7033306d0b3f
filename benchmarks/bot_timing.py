"""Decision times per level: median and worst over the positions of a few deals.

    python benchmarks/bot_timing.py [--deals 6] [--levels easy,normal,hard,expert] [--seed 1]

The positions come from deals played by normal bots; every level decides at every position
where it has more than one legal card. Budgets: easy and normal 5 ms per decision, hard 250 ms
median, expert 1.0 s median and 2.5 s worst.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

BUDGETS = {"easy": (0.005, 0.005), "normal": (0.005, 0.005), "hard": (0.25, None),
           "expert": (1.0, 2.5), "advise": (1.0, None)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--levels", default="easy,normal,hard,expert,advise")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    from nil_tui.bots import advise, make_bot
    from nil_tui.engine import Deal

    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    bots = {lv: (None if lv == "advise" else make_bot(lv, seed=args.seed)) for lv in levels}
    driver = make_bot("normal", seed=0)
    times: dict[str, list[float]] = {lv: [] for lv in levels}
    rng = random.Random(args.seed)
    for n in range(args.deals):
        deal = Deal.new(n & 3, rng)
        deal.context = (n % 8 + 1, 8, (n, n, n, n))
        while not deal.is_over:
            view = deal.view(deal.to_move)
            if len(view.legal) > 1:
                for lv, bot in bots.items():
                    start = time.perf_counter()
                    if bot is None:
                        advise(view)
                    else:
                        bot.choose(view)
                    times[lv].append(time.perf_counter() - start)
            deal.play(driver.choose(view))
    print(f"{'level':8} {'decisions':>9} {'median ms':>10} {'worst ms':>9}  budget")
    for lv, ts in times.items():
        if not ts:
            continue
        med, worst = statistics.median(ts), max(ts)
        b_med, b_worst = BUDGETS.get(lv, (None, None))
        ok = (b_med is None or med <= b_med) and (b_worst is None or worst <= b_worst)
        budget = "" if b_med is None else f"median <= {b_med * 1000:g} ms"
        if b_worst is not None:
            budget += f", worst <= {b_worst * 1000:g} ms"
        print(f"{lv:8} {len(ts):9d} {med * 1000:10.2f} {worst * 1000:9.2f}  {budget} "
              f"{'ok' if ok else 'OVER'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
