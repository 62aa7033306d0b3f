"""Decision times per level: median, 90th percentile and worst over the positions of a few
deals, and the speed of the exact endgame search.

    python benchmarks/bot_timing.py [--deals 6] [--levels easy,normal,hard,expert] [--seed 1]
    python benchmarks/bot_timing.py --endgame [--deals 6]   # exact-search nodes per second

The positions come from deals played by normal bots; every level decides at every position
where it has more than one legal card. Budgets: easy and normal 5 ms per decision, hard 250 ms
median, expert 1.0 s median and 2.5 s worst.

The search levels' budgets count work, not time, so the safety cap is switched off here: the
figures are what the work budgets cost. Each time is given as wall-clock seconds and as the
process's CPU seconds; on a quiet machine the two agree, on a busy one the CPU time is what a
quiet machine would show. The work columns (most playouts and exact-search nodes in one
decision) do not depend on the machine at all.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from typing import Any

BUDGETS = {"easy": (0.005, 0.005), "normal": (0.005, 0.005), "hard": (0.25, None),
           "expert": (1.0, 2.5), "advise": (1.0, None)}


def positions(deals: int, seed: int) -> list[Any]:
    """Views of the seat to move with more than one legal card, in deals played by normal
    bots (varied game contexts, so the expert sometimes plays for the match)."""
    from nil_tui.bots import make_bot
    from nil_tui.engine import Deal

    driver = make_bot("normal", seed=0)
    rng = random.Random(seed)
    out = []
    for n in range(deals):
        deal = Deal.new(n & 3, rng)
        deal.context = (n % 8 + 1, 8, (n, n, n, n))
        while deal.to_move is not None:
            view = deal.view(deal.to_move)
            if len(view.legal) > 1:
                out.append(view)
            deal.play(driver.choose(view))
    return out


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of the values (nearest rank: a time one decision actually took)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def decision_times(levels: list[str], views: list[Any], seed: int) -> None:
    from nil_tui.bots import advise, make_bot

    bots = {lv: (None if lv == "advise" else make_bot(lv, seed=seed)) for lv in levels}
    for bot in bots.values():
        if hasattr(bot, "safety_cap"):
            bot.safety_cap = None  # type: ignore[union-attr]
    times: dict[str, list[tuple[float, float]]] = {lv: [] for lv in levels}
    work: dict[str, tuple[int, int]] = {}
    for view in views:
        for lv, bot in bots.items():
            start, cpu = time.perf_counter(), time.process_time()
            if bot is None:
                advise(view)
            else:
                bot.choose(view)
            times[lv].append((time.perf_counter() - start, time.process_time() - cpu))
            searcher = getattr(bot, "searcher", None)
            if searcher is not None:
                most = work.get(lv, (0, 0))
                work[lv] = (max(most[0], searcher.rollouts), max(most[1], searcher.nodes))
    print(f"{'level':8} {'decisions':>9} {'median ms':>10} {'p90 ms':>9} {'worst ms':>9} "
          f"{'cpu median':>10} {'cpu p90':>9} {'cpu worst':>9} {'playouts':>8} {'nodes':>7}  budget")
    for lv, ts in times.items():
        if not ts:
            continue
        wall = [t for t, _ in ts]
        cpus = [c for _, c in ts]
        med, p90, worst = statistics.median(wall), percentile(wall, 0.9), max(wall)
        cmed, cp90, cworst = statistics.median(cpus), percentile(cpus, 0.9), max(cpus)
        b_med, b_worst = BUDGETS.get(lv, (None, None))
        ok = (b_med is None or cmed <= b_med) and (b_worst is None or cworst <= b_worst)
        budget = "" if b_med is None else f"median <= {b_med * 1000:g} ms"
        if b_worst is not None:
            budget += f", worst <= {b_worst * 1000:g} ms"
        rollouts, nodes = work.get(lv, (0, 0))
        print(f"{lv:8} {len(ts):9d} {med * 1000:10.2f} {p90 * 1000:9.2f} {worst * 1000:9.2f} "
              f"{cmed * 1000:10.2f} {cp90 * 1000:9.2f} {cworst * 1000:9.2f} {rollouts:8d} "
              f"{nodes:7d}  {budget} "
              f"{'ok' if ok else 'OVER'} (cpu)")


def endgame_speed(views: list[Any], seed: int) -> None:
    """Nodes per second of the exact search (``maxn``) from every position of the last four
    tricks, on one sampled layout each, with the expert's node budget per search."""
    from nil_tui.bots.expert import EXPERT
    from nil_tui.bots.knowledge import Knowledge
    from nil_tui.bots.search import edge_utility, maxn

    utils = [edge_utility(s) for s in range(4)]
    rng = random.Random(seed)
    nodes = 0
    cpu = 0.0
    searches = 0
    for view in views:
        if sum(view.hand_sizes) > 16:
            continue
        know = Knowledge(view)
        deal = know.deal(know.sample(rng))
        budget = [EXPERT.endgame_nodes]
        start = time.process_time()
        maxn(deal, utils, budget)
        cpu += time.process_time() - start
        nodes += EXPERT.endgame_nodes - budget[0]
        searches += 1
    print(f"exact search: {searches} searches, {nodes} nodes, {cpu:.2f} s CPU, "
          f"{nodes / max(cpu, 1e-9):,.0f} nodes/s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--levels", default="easy,normal,hard,expert,advise")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--endgame", action="store_true",  # use with --deals 100
                        help="measure the exact endgame search's nodes per second instead")
    args = parser.parse_args(argv)
    views = positions(args.deals, args.seed)
    if args.endgame:
        endgame_speed(views, args.seed)
        return 0
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    decision_times(levels, views, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
