"""Time to analyse a whole deal, with 1 and 2 worker processes, and how precise the figures are;
the time of one clean-chance estimate (the meter).

    python benchmarks/analysis.py [--deals 6] [--seed 1] [--jobs 1,2] [--meter-positions 40]

The deals come from seeded games of four normal bots, keeping deals that run all 13 tricks;
each is analysed for the seat with the most real decisions (more than one distinct card), so
the seat decides in every trick. Target: a whole deal in 10 s or less on 2 cores.

Wall-clock seconds include starting the workers. The CPU column adds the workers' CPU time to
this process's: on a busy machine the wall time grows, the CPU time much less. The figures
themselves are the same with any number of workers (checked here too); the standard errors
say how precise they are ("about 0.4 points" needs a standard error of 0.05 or less).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from typing import Any


def full_deals(count: int, seed: int) -> list[tuple[Any, int]]:
    """(one-deal game, seat) for ``count`` deals of four normal bots that run 13 tricks, each
    with the seat that has the most real decisions."""
    from nil_tui.analysis.estimate import choices
    from nil_tui.bots.normal import NormalBot
    from nil_tui.engine import Deal, Game

    out: list[tuple[Any, int]] = []
    n = seed
    while len(out) < count:
        n += 1
        game = Game(1, seed=n, players=[{"name": f"Normal {s + 1}", "kind": "bot",
                                         "bot": "normal"} for s in range(4)])
        bots = [NormalBot(n * 4 + s) for s in range(4)]
        deal = game.deal
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            game.play(bots[seat].choose(deal.view(seat)))
        if len(deal.tricks) < 13:
            continue
        replay = Deal(list(deal.dealt), deal.dealer)
        real = [0, 0, 0, 0]
        for trick in deal.tricks:
            for card in trick.cards:
                seat = replay.to_move
                assert seat is not None
                real[seat] += len(choices(replay.view(seat))) > 1
                replay.play(card)
        out.append((game, max(range(4), key=lambda s: (real[s], -s))))
    return out


def cpu_seconds() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def analyse(game: Any, seat: int, jobs: int) -> tuple[Any, float, float]:
    from nil_tui.analysis import analyse_deal

    cpu = cpu_seconds()
    start = time.perf_counter()
    found = analyse_deal(game, 1, seat, jobs=jobs)
    return found, time.perf_counter() - start, cpu_seconds() - cpu


def meter_times(deals: list[tuple[Any, int]], positions: int) -> list[tuple[float, float]]:
    """(wall, CPU) seconds per clean_chance call (default 300 layouts), after each trick of
    the deals, for the seat analysed while it is still clean."""
    from nil_tui.analysis import clean_chance
    from nil_tui.engine import Deal

    times: list[tuple[float, float]] = []
    for game, seat in deals:
        deal = game.deal
        replay = Deal(list(deal.dealt), deal.dealer)
        for trick in deal.tricks:
            if len(times) >= positions:
                return times
            if replay.taken[seat] == 0:
                start, cpu = time.perf_counter(), time.process_time()
                clean_chance(replay.view(seat), seed=1)
                times.append((time.perf_counter() - start, time.process_time() - cpu))
            for card in trick.cards:
                replay.play(card)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", default="1,2", help="worker counts to time, e.g. 1,2")
    parser.add_argument("--meter-positions", type=int, default=40)
    args = parser.parse_args()
    jobs_list = [int(j) for j in args.jobs.split(",")]
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}")
    deals = full_deals(args.deals, args.seed)
    walls: dict[int, list[float]] = {j: [] for j in jobs_list}
    cost_se: list[float] = []
    small_se: list[float] = []  # of costs under half a point, the ones said "about 0.x"
    option_se: list[float] = []
    header = "deal  seat  decisions  searched  layouts  cost  ±se   " + "  ".join(
        f"{j} job{'s' if j > 1 else ' '} wall/cpu s" for j in jobs_list)
    print(header)
    for k, (game, seat) in enumerate(deals, 1):
        results = []
        cells = []
        for jobs in jobs_list:
            found, wall, cpu = analyse(game, seat, jobs)
            results.append(found)
            walls[jobs].append(wall)
            cells.append(f"{wall:8.2f} / {cpu:5.2f}  ")
        first = results[0]
        assert all(r == first for r in results), "the figures differ between worker counts"
        searched = [d for d in first.decisions if not d.forced]
        cost_se.extend(d.cost_se for d in searched)
        small_se.extend(d.cost_se for d in searched if d.cost < 0.5)
        option_se.extend(o.se for d in searched for o in d.options)
        layouts = sum(d.layouts for d in searched)
        print(f"{k:>4}  {seat:>4}  {len(first.decisions):>9}  {len(searched):>8}  "
              f"{layouts:>7}  {first.total_cost:4.2f}  {first.total_cost_se:4.2f}  "
              + "  ".join(cells))
    print()
    for jobs in jobs_list:
        times = sorted(walls[jobs])
        print(f"{jobs} job{'s' if jobs > 1 else ''}: per deal median {statistics.median(times):.2f} s,"
              f" worst {times[-1]:.2f} s (target 10 s on 2 cores)")
    print(f"standard error of a decision's cost: mean {statistics.mean(cost_se):.3f}, "
          f"worst {max(cost_se):.3f} points (costs under 0.5: worst {max(small_se):.3f}); of a "
          f"card's expected points: mean {statistics.mean(option_se):.3f}, worst "
          f"{max(option_se):.3f}")
    print("the same figures with every worker count: yes")
    meter = meter_times(deals, args.meter_positions)
    if meter:
        wall = sorted(w for w, _ in meter)
        cpu = sorted(c for _, c in meter)
        print(f"clean chance (300 layouts), {len(meter)} positions: median "
              f"{1000 * statistics.median(wall):.0f} ms, worst {1000 * wall[-1]:.0f} ms "
              f"(CPU: median {1000 * statistics.median(cpu):.0f} ms, worst "
              f"{1000 * cpu[-1]:.0f} ms; aim: under 100 ms)")


if __name__ == "__main__":
    main()
