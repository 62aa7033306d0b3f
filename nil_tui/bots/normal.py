"""The normal level: sound rules of thumb, no search.

While clean it plays the highest card that still loses, sheds dangerous high cards when void
and leads low where others cannot duck; once it has a trick it hunts the clean players, and it
takes every remaining trick when that turns its 0 into 3.
"""

from __future__ import annotations

from ..engine import DECK, Card, PlayerView
from .heuristic import policy_index


def view_masks(view: PlayerView) -> tuple[int, int, int]:
    """(hand, legal, played) bitmasks of a view."""
    hand = 0
    for c in view.hand:
        hand |= c.bit
    legal = 0
    for c in view.legal:
        legal |= c.bit
    return hand, legal, view.played_mask


class NormalBot:
    name = "Normal"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: PlayerView) -> Card:
        hand, legal, played = view_masks(view)
        return DECK[policy_index(view.seat, hand, legal, view.trick, view.leader, view.taken,
                                 played, view.voids_mask)]
