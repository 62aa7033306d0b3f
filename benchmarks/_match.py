"""A small rotated match loop for benchmarks and tests (independent of the simulator)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from nil_tui.bots import make_bot, seat_seed
from nil_tui.bots.heuristic import edge
from nil_tui.engine import Deal
from nil_tui.engine.scoring import DealRule


def rotated_edges(hero: str, field: str, deals: int | range, seed: int,
                  scoring: str = "classic") -> list[float]:
    """Play each deal four times, hero in every seat, three ``field`` bots elsewhere.
    Returns the hero's edge (its points minus the others' mean) per deal, averaged over
    the four rotations. ``deals`` is a count or a range of deal numbers (the same number
    and seed give the same cards). Under the pool scoring each deal is a middle deal (not
    the first: no perfect game) with a pool of 0 to 12 drawn from its number and seed, and a
    deal that leaves a tie-break to come counts half the pool for each of its two seats
    (``Deal.worth``)."""
    edges: list[float] = []
    for i in (range(deals) if isinstance(deals, int) else deals):
        dealer = i & 3
        base = Deal.new(dealer, random.Random(f"match:{seed}:{i}"))
        if scoring == "pool":
            base.rule = DealRule("pool", random.Random(f"pool:{seed}:{i}").randrange(13))
        total = 0.0
        for rot in range(4):
            bots = [make_bot(hero if s == rot else field, seed=seat_seed(seed * 1000 + i, s))
                    for s in range(4)]
            d = base.copy()
            d.context = (1, 99, (0, 0, 0, 0))  # mid-game: points, not the match, decide
            while not d.is_over:
                seat = d.to_move
                bot = bots[seat]
                if hasattr(bot, "choose_perfect"):
                    d.play(bot.choose_perfect(d.view(seat), d.copy()))
                else:
                    d.play(bot.choose(d.view(seat)))
            total += edge(d.worth, rot)
        edges.append(total / 4)
    return edges


def summary(edges: Sequence[float]) -> tuple[float, float]:
    n = len(edges)
    mean = sum(edges) / n
    var = sum((e - mean) ** 2 for e in edges) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n)
