"""The clean-chance meter of one game: your chance to take no trick for the rest of the deal.
Certain where it is (you took a trick, the deal ended with you clean, every card you may play
takes the trick), else an estimate from your view, worked out by the front end in a thread
(:class:`EstimateMeter`) once per trick."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..engine import Card, PlayerView
from .messages import MeterReading

if TYPE_CHECKING:
    from ..engine import Game

MeterKey = tuple[int, int, int]  # deal number, tricks done, undos: a position of the meter


class EstimateMeter(NamedTuple):
    """Estimate the chance to stay clean from this view (in a thread), then call
    :meth:`GameSession.meter_estimated` with ``key``."""

    key: MeterKey
    view: PlayerView
    seed: int


def meter_seed(game: Game | None, deal_number: int, tricks: int) -> int:
    """The meter's seed for a position: the same game at the same trick gives the same
    figure (a shared table's seat, which does not know the game's seed: the same deal and
    trick)."""
    seed = game.seed if game is not None else None
    return ((seed or 0) * 1009 + deal_number * 31 + tricks) % (2**31)


def sure_to_take(view: PlayerView) -> bool:
    """Whether every card the seat may play now takes the trick, whatever the hidden cards
    are: each is of the suit led (or leads), beats the trick's cards, and (unless the seat
    plays last) no higher card of its suit is still out."""
    if not view.legal:
        return False
    led = view.led_suit
    last = len(view.trick) == 3
    out = view.unseen_mask
    for card in view.legal:
        if led is not None and card.suit != led:
            return False
        if any(c.suit == card.suit and c.rank > card.rank for c in view.trick):
            return False
        if not last and out & _higher_mask(card):
            return False
    return True


def _higher_mask(card: Card) -> int:
    """The cards of the same suit above ``card``, as a mask."""
    top = (card.suit + 1) * 13  # the index after the suit's ace
    return ((1 << top) - 1) & ~((1 << (card.index + 1)) - 1)


class Meter:
    """Whether the meter is on in this game, the position its figure is for, the figure."""

    def __init__(self, on: bool) -> None:
        self.on = on
        self.key: MeterKey | None = None
        self.reading: MeterReading | None = None

    def turn_to(self, on: bool) -> None:
        self.on, self.key, self.reading = on, None, None

    def at(self, view: PlayerView, *, over: bool, key: MeterKey, seed: int,
           turn: int) -> list[EstimateMeter]:
        """The figure for the position of ``view`` (``over``: its deal has ended; ``key``:
        the position, whose estimate is asked once): certain when it is, else an estimate
        to work out with ``seed``."""
        if not self.on:
            return []
        if view.taken[view.seat]:
            self.reading = MeterReading(turn, 0.0, True)
            return []
        if over:
            self.reading = MeterReading(turn, 1.0, True)
            return []
        if view.to_move == view.seat and sure_to_take(view):
            self.reading, self.key = MeterReading(turn, 0.0, True), None
            return []
        if key == self.key:
            return []
        self.key, self.reading = key, None
        return [EstimateMeter(key, view, seed)]

    def estimated(self, key: MeterKey, chance: float | None,
                  turn: int) -> list[MeterReading]:
        """An estimate for ``key``: dropped when the position is gone or the meter off."""
        if not self.on or key != self.key:
            return []
        if chance is None:
            self.key = None  # tried again at the next position
            return []
        self.reading = MeterReading(turn, min(max(chance, 0.0), 1.0), False)
        return [self.reading]


__all__ = ["EstimateMeter", "Meter", "MeterKey", "meter_seed", "sure_to_take"]
