"""PlayerView: the immutable snapshot one seat may see. Bots get this and nothing else."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import DECK, FULL_MASK, SUIT_MASKS, Card, Suit, cards_of
from .deal import Trick, voids_mask, voids_of
from .scoring import CLASSIC_RULE, DealRule


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one seat knows: its own hand, and every card played so far (public)."""

    seat: int
    hand: tuple[Card, ...]
    legal: tuple[Card, ...]
    trick: tuple[Card, ...]
    leader: int
    tricks: tuple[Trick, ...]
    taken: tuple[int, int, int, int]
    hand_sizes: tuple[int, int, int, int]
    dealer: int
    deal_number: int = 1
    deals_planned: int = 1
    totals: tuple[int, int, int, int] = (0, 0, 0, 0)
    to_move: int | None = None
    # the game's scoring and what this deal needs of it: the pool before the deal, the two
    # seats of a tie-break deal (scoring.py)
    rule: DealRule = CLASSIC_RULE
    # the agreed deals still to come after this one (a tie-break deal is not one of them, and
    # one may come after the last agreed deal: then 0); -1 when built without it: reckoned
    # as ``deals_planned - deal_number``
    deals_left: int = -1

    def __post_init__(self) -> None:
        if self.deals_left < 0:
            object.__setattr__(self, "deals_left", max(0, self.deals_planned - self.deal_number))

    @property
    def scoring(self) -> str:
        """The game's scoring: "classic" or "pool" (``nil_tui.engine.scoring``)."""
        return self.rule.scoring

    @property
    def tiebreak(self) -> tuple[int, ...]:
        """The two seats of a tie-break deal (under the pool: it ends the moment one of them
        takes a trick, and the other collects the pool), () for an agreed deal."""
        return self.rule.tiebreak

    @property
    def pool(self) -> int:
        """The pool before this deal (always 0 under the classic scoring)."""
        return self.rule.pool

    @property
    def led_suit(self) -> Suit | None:
        return self.trick[0].suit if self.trick else None

    @property
    def clean(self) -> tuple[bool, bool, bool, bool]:
        """Per seat, whether it has taken no trick yet this deal."""
        t = self.taken
        return (t[0] == 0, t[1] == 0, t[2] == 0, t[3] == 0)

    @property
    def played_mask(self) -> int:
        mask = 0
        for t in self.tricks:
            for c in t.cards:
                mask |= c.bit
        for c in self.trick:
            mask |= c.bit
        return mask

    @property
    def hand_mask(self) -> int:
        mask = 0
        for c in self.hand:
            mask |= c.bit
        return mask

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card played this deal, sorted."""
        return tuple(cards_of(self.played_mask))

    @property
    def unseen_mask(self) -> int:
        """Cards held by the other seats (not in this hand, not played yet)."""
        return FULL_MASK & ~self.played_mask & ~self.hand_mask

    @property
    def unseen(self) -> tuple[Card, ...]:
        return tuple(cards_of(self.unseen_mask))

    @property
    def voids_mask(self) -> int:
        """The suits each seat has shown it lacks, as a 16-bit mask (bit ``4 * seat + suit``):
        the engine's rule, :func:`nil_tui.engine.voids_mask`, over this view's public play."""
        return voids_mask(self.tricks, self.trick, self.leader)

    def voids(self) -> tuple[frozenset[Suit], ...]:
        """Per seat, the suits it has shown it no longer holds (failed to follow)."""
        return voids_of(self.voids_mask)

    def suit_cards(self, suit: int) -> tuple[Card, ...]:
        """This seat's cards of one suit, ascending (the bot authors' page lists it)."""
        return tuple(c for c in self.hand if c.suit == suit)


__all__ = ["DECK", "SUIT_MASKS", "PlayerView"]
