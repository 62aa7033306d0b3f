"""The easy level: a beginner's play. Often random, never counts cards, but not absurd: it
ducks under a trick when it can and nothing forces it to win."""

from __future__ import annotations

import random

from ..engine import Card, PlayerView, trick_winner


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
        rng = decision_rng(self.seed, view, "easy")
        legal = list(view.legal)
        if view.trick and view.clean[view.seat]:
            led = view.trick[0].suit
            top = view.trick[(trick_winner(view.leader, view.trick) - view.leader) & 3].rank
            ducks = [c for c in legal if c.suit == led and c.rank < top]
            if ducks:
                # a beginner ducks, though not always with the best card
                return rng.choice(ducks)
            if legal[0].suit != led and rng.random() < 0.5:
                # void in the led suit: throw away a high card half of the time
                return max(legal, key=lambda c: c.rank)
        if not view.trick and rng.random() < 0.4:
            return min(legal, key=lambda c: c.rank)  # lead something small
        return rng.choice(legal)
