"""The trick in the middle of the table: each card placed towards the seat that played it."""

from __future__ import annotations

from typing import NamedTuple

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ...engine import Card
from .cards import CARD_WIDTH, CardLook, card_box

# Where each seat's card goes in a 7-row cross: (row, column) of its box's top-left.
# South 0 at the bottom, West 1 left, North 2 at the top, East 3 right.
_SPOTS = {0: (4, 8), 1: (2, 0), 2: (0, 8), 3: (2, 16)}
_WIDTH = 21


class TrickInfo(NamedTuple):
    cards: tuple[tuple[int, Card], ...] = ()  # (seat, card) in play order
    winner: int | None = None
    caption: str = ""


class TrickView(Widget):
    DEFAULT_CSS = """
    TrickView { height: 8; width: 1fr; }
    """

    info: reactive[TrickInfo] = reactive(TrickInfo())
    look: reactive[CardLook] = reactive(CardLook())

    def render(self) -> Text:
        # Each row of the cross: the lines of the boxes that cross it, left to right, with
        # spaces between them (no two boxes share a column on one row).
        rows: list[list[tuple[int, Text]]] = [[] for _ in range(7)]
        for seat, card in self.info.cards:
            row, col = _SPOTS[seat]
            box = card_box(self.look, card, winner=seat == self.info.winner)
            for r in range(3):
                rows[row + r].append((col, box[r]))
        left = " " * max(0, (self.size.width - _WIDTH) // 2)
        lines = []
        for pieces in rows:
            line = Text(left)
            at = 0
            for col, piece in sorted(pieces, key=lambda p: p[0]):
                line.append(" " * (col - at))
                for cell in piece.divide(range(1, CARD_WIDTH)):  # (a span to each cell)
                    line.append_text(cell)
                at = col + CARD_WIDTH
            line.append(" " * (_WIDTH - at))
            lines.append(line)
        caption = Text(self.info.caption, style="bold")
        caption.align("center", max(self.size.width, len(self.info.caption)))
        lines.append(caption)
        return Text("\n").join(lines)
