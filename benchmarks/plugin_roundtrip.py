"""The cost of a plugin bot's own process: one decision's round trip, and starting a game.

    python benchmarks/plugin_roundtrip.py [--decisions 2000] [--seed 1]

A trivial plugin (``Trivial`` below: the first legal card) plays from its own process, as every
plugin does in a game. Printed: the round trip of ``decide`` (the view sent, the answer read
and checked) as median, p95 and worst, against the same bot asked directly in this process;
and the time to open a player (a new host process, then a pooled one forked for a new game).
Target: under 2 ms median round trip.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any


class Trivial:
    """The first legal card: all that is measured is the way there and back."""

    name = "Trivial"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: Any) -> Any:
        return view.legal[0]


def views(count: int, seed: int) -> list[Any]:
    from nil_tui.engine import Deal

    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        deal = Deal.new(rng.randrange(4), rng)
        while not deal.is_over and len(out) < count:
            seat = deal.to_move
            assert seat is not None
            out.append(deal.view(seat))
            deal.play(rng.choice(deal.legal_moves()))
    return out


def summary(label: str, times: list[float]) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    return (f"{label:<34} median {statistics.median(times) * 1000:7.3f} ms   "
            f"p95 {p95 * 1000:7.3f} ms   max {times[-1] * 1000:7.3f} ms   (n={len(times)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from nil_tui.bots import open_player
    from nil_tui.bots.players import shutdown

    spec = "plugin_roundtrip:Trivial"
    shutdown()
    t0 = time.perf_counter()
    player = open_player(spec, 1, log=None)
    first_open = time.perf_counter() - t0
    positions = views(args.decisions, args.seed)
    for view in positions[:50]:  # warm up
        player.decide(view)
    trips = []
    for view in positions:
        t = time.perf_counter()
        choice = player.decide(view)
        trips.append(time.perf_counter() - t)
        assert choice.incident is None and choice.card == view.legal[0]
    player.close()
    reopen = []
    for k in range(30):
        t = time.perf_counter()
        p = open_player(spec, k, log=None)
        reopen.append(time.perf_counter() - t)
        p.decide(positions[k])
        p.close()
    bot = Trivial()
    direct = []
    for view in positions:
        t = time.perf_counter()
        bot.choose(view)
        direct.append(time.perf_counter() - t)
    print(summary("plugin decision round trip", trips))
    print(summary("same bot called in this process", direct))
    print(f"{'open a player, new host process':<34} {first_open * 1000:7.1f} ms")
    print(summary("open a player, pooled host (fork)", reopen))
    print("target: round trip under 2 ms median")
    shutdown()


if __name__ == "__main__":
    main()
