"""A sample nil-tui bot plugin: it ducks every trick it can.

A bot is any class (or factory) called as ``Name(seed=...)`` whose objects have a ``name`` and
a ``choose(view)`` method returning one of ``view.legal``. The view holds only what the seat
may know: its hand, the cards played so far, tricks taken, hand sizes and the score.

The game runs a plugin in a process of its own, a fresh one for every game, and sends it a
copy of the view at each decision; what it prints goes to ``plugins.log`` in the data folder.
"""

from __future__ import annotations

import random

from nil_tui.engine import Card, PlayerView


class DuckerBot:
    name = "Ducker"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: PlayerView) -> Card:
        legal = sorted(view.legal, key=lambda c: c.rank)
        if view.trick:
            led = view.trick[0].suit
            top = max(c.rank for c in view.trick if c.suit == led)
            under = [c for c in legal if c.suit == led and c.rank < top]
            if under:
                return under[-1]  # the highest card that still loses the trick
            if legal[0].suit != led:
                return legal[-1]  # void in the led suit: throw away the highest card
            return legal[0]  # must beat it: the lowest, so that someone may beat it again
        # Lead the lowest card; the seed and the position break ties the same way every time.
        played = len(view.tricks) * 4 + len(view.trick)
        rng = random.Random(f"{self.seed}:{view.deal_number}:{played}")
        lowest = [c for c in legal if c.rank == legal[0].rank]
        return rng.choice(lowest)
