"""The card tracker: per suit, the cards still out (neither played nor in your hand), and the
suits each opponent has shown to be out of. Drawn from public information only: the table
hands it what your own view of the deal says (``PlayerView.unseen`` and ``voids``)."""

from __future__ import annotations

from typing import NamedTuple

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ...engine import Card, PlayerView
from ..words import SEAT_LABELS
from .cards import CardLook

SUITS_HIGH_FIRST = (3, 2, 1, 0)


class TrackerInfo(NamedTuple):
    out: tuple[Card, ...] = ()  # cards not played and not in your hand
    voids: tuple[frozenset[int], ...] = (frozenset(),) * 4  # suits each seat has shown out of

    @classmethod
    def of(cls, view: PlayerView) -> TrackerInfo:
        """What your view of the deal tells: the unseen cards and the shown voids."""
        return cls(tuple(view.unseen), tuple(frozenset(int(s) for s in v)
                                             for v in view.voids()))


def ranks_text(ranks: list[str], width: int) -> str:
    """Ranks spaced out when they fit in ``width`` cells, packed together when not; a suit
    with every rank out says so."""
    if len(ranks) == 13:
        return "all 13"
    spaced = " ".join(ranks)
    return spaced if len(spaced) <= width else "".join(ranks)


class CardTracker(Widget):
    """A small panel: "♠ A Q 9 4" per suit, then "Out of: West ♥ · East ♣♦"."""

    DEFAULT_CSS = """
    CardTracker { height: auto; border: round $panel-lighten-2; padding: 0 0 0 1; }
    """

    info: reactive[TrackerInfo] = reactive(TrackerInfo())
    look: reactive[CardLook] = reactive(CardLook())

    def on_mount(self) -> None:
        self.border_title = "Cards out"

    def follow(self, view: PlayerView) -> None:
        """Show what this view of the deal tells (your own view: public information)."""
        self.info = TrackerInfo.of(view)

    def render(self) -> Text:
        info = self.info
        look = self.look
        width = max(8, self.content_region.width - 2)  # after the suit and a space
        text = Text()
        for suit in SUITS_HIGH_FIRST:
            ranks = [c.rank_label for c in sorted(info.out, reverse=True) if c.suit == suit]
            text.append(look.suit_text(suit) + " ", style=look.colour(suit))
            text.append(ranks_text(ranks, width) if ranks else "—",
                        style="" if ranks else "dim")
            text.append("\n")
        shown = [(seat, info.voids[seat]) for seat in (1, 2, 3) if info.voids[seat]]
        text.append("Out of: ", style="dim")
        if not shown:
            text.append("none shown", style="dim")
        for n, (seat, suits) in enumerate(shown):
            if n:
                text.append(" · ", style="dim")
            text.append(SEAT_LABELS[seat] + " ")
            for suit in SUITS_HIGH_FIRST:
                if suit in suits:
                    text.append(look.suit_text(suit), style=look.colour(suit))
        return text
