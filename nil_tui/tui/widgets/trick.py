"""The trick in the middle of the table: each card placed towards the seat that played it."""

from __future__ import annotations

from typing import NamedTuple

from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ...engine import Card
from .cards import CARD_WIDTH, CardLook, card_box

# Where each seat's card goes in a 7-row cross: (row, column) of its box's top-left.
# South 0 at the bottom, West 1 left, North 2 at the top, East 3 right.
_SPOTS = {0: (4, 8), 1: (2, 0), 2: (0, 8), 3: (2, 16)}
_WIDTH = 21
_ROWS = 7


class TrickInfo(NamedTuple):
    cards: tuple[tuple[int, Card], ...] = ()  # (seat, card) in play order
    winner: int | None = None
    caption: str = ""


class TrickView(Widget):
    """The cross of cards, centred, and a caption under it ("West led")."""

    DEFAULT_CSS = """
    TrickView { height: 8; width: 1fr; }
    """

    info: reactive[TrickInfo] = reactive(TrickInfo())
    look: reactive[CardLook] = reactive(CardLook())

    _drawn: object = None  # what the kept lines show (see render_line)
    _lines: tuple[Strip, ...] = ()

    def render_line(self, y: int) -> Strip:
        """A line of the trick. The lines are drawn together, straight into segments (the
        trick is in the table's first frame and changes with every card: Textual's general
        text layout takes several times longer), and kept until something shown changes.
        They are the segments that layout would make of the same text, a cell to each span
        of a card: the same picture, segment for segment."""
        width, base = self.size.width, self.rich_style
        shown = (self.info, self.look, width, base)
        if shown != self._drawn:
            self._lines = self._draw(width, base)
            self._drawn = shown
        return self._lines[y] if y < len(self._lines) else Strip.blank(width, base)

    def _draw(self, width: int, base: Style) -> tuple[Strip, ...]:
        console = self.app.console
        # Each row of the cross: the lines of the boxes that cross it, left to right, with
        # spaces between them (no two boxes share a column on one row).
        rows: list[list[tuple[int, Text]]] = [[] for _ in range(_ROWS)]
        for seat, card in self.info.cards:
            row, col = _SPOTS[seat]
            box = card_box(self.look, card, winner=seat == self.info.winner)
            for r in range(3):
                rows[row + r].append((col, box[r]))
        left = " " * max(0, (width - _WIDTH) // 2)
        lines = [_cross_row(sorted(pieces, key=lambda p: p[0]), left, base, console, y)
                 for y, pieces in enumerate(rows)]
        lines.append(_caption(self.info.caption, width, base, console, _ROWS))
        return tuple(lines)


def _at(style: Style, x: int, y: int) -> Style:
    """``style`` marked with where its text begins in the widget, as Textual marks the text
    it lays out (where a click or a selection falls)."""
    return style + Style.from_meta({"offset": (x, y)})


def _cross_row(pieces: list[tuple[int, Text]], left: str, base: Style, console: Console,
               y: int) -> Strip:
    """One row of the cross: the spaces between the boxes as one segment each, and a
    segment to each cell of a box."""
    segments: list[Segment] = []
    space, at = left, 0
    for col, piece in pieces:
        space += " " * (col - at)
        x = len(left) + col
        if space:
            segments.append(Segment(space, _at(base, x - len(space), y)))
        for offset, cell in enumerate(piece.plain):
            style = base + piece.get_style_at_offset(console, offset)
            segments.append(Segment(cell, _at(style, x + offset, y)))
        space, at = "", col + CARD_WIDTH
    space += " " * (_WIDTH - at)
    if space:
        segments.append(Segment(space, _at(base, len(left) + _WIDTH - len(space), y)))
    return Strip(segments, len(left) + _WIDTH)


def _caption(caption: str, width: int, base: Style, console: Console, y: int) -> Strip:
    """The caption centred in bold; one longer than the width shows its first line, broken
    between words."""
    style = _at(base + Style(bold=True), 0, y)
    length = cell_len(caption)
    if length > width:
        first = Text(caption).wrap(console, width)[0].plain.rstrip() if width > 0 else ""
        return Strip([Segment(first, style)], cell_len(first)) if first else Strip([], 0)
    before = (width - length) // 2
    text = " " * before + caption + " " * (width - length - before)
    return Strip([Segment(text, style)], width) if text else Strip([], 0)
