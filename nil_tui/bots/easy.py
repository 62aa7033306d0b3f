"""The easy level: a beginner's play."""

from __future__ import annotations

import random

from ..engine import Card, PlayerView


def decision_rng(seed: int, view: PlayerView, salt: str = "") -> random.Random:
    """A random stream for one decision, derived from the bot's seed and the public position,
    so that the same seed and view always give the same card (also after a resume)."""
    played = len(view.tricks) * 4 + len(view.trick)
    return random.Random(f"{salt}:{seed}:{view.deal_number}:{view.seat}:{played}")


class EasyBot:
    name = "Easy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: PlayerView) -> Card:
        return decision_rng(self.seed, view, "easy").choice(view.legal)
