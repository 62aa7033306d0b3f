"""Widgets of the table's first frame that do Textual's work themselves, to be drawn sooner:
what they give must be what Textual would have made. The trick draws its lines: they are the
lines Textual's text layout makes of the same text, segment for segment, style for style (the
picture and the snapshots stay the same). A seat says its height without laying its text
out: the height as laid out."""

from __future__ import annotations

from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widget import Widget

from nil_tui.engine import DECK
from nil_tui.tui.widgets.cards import CARD_WIDTH, CardLook, card_box
from nil_tui.tui.widgets.trick import TrickInfo, TrickView

SPOTS = {0: (4, 8), 1: (2, 0), 2: (0, 8), 3: (2, 16)}

INFOS = [
    TrickInfo(),
    TrickInfo(((1, DECK[3]), (2, DECK[20]), (3, DECK[40]), (0, DECK[51])), 2, "dealer: North"),
    TrickInfo(((0, DECK[8]),), None, "You led"),
    TrickInfo(((3, DECK[8]), (0, DECK[9])), None,
              "A caption far longer than the trick is wide, broken between its words"),
    TrickInfo(((2, DECK[8]),), 2, "Aloneword-longer-than-the-widget-is-wide then more"),
    TrickInfo(((2, DECK[8]), (3, DECK[12])), 3, "North ♠ takes: the trick,   spaced"),
]
LOOKS = [CardLook(), CardLook(ascii=True), CardLook(four_color=True)]


class LaidOut(Widget):
    """The reference: the trick as one text, laid out by Textual (cell by cell)."""

    DEFAULT_CSS = "LaidOut { height: 8; width: 1fr; }"

    def __init__(self, info: TrickInfo, look: CardLook) -> None:
        super().__init__()
        self.info, self.look = info, look

    def render(self) -> Text:
        rows: list[list[tuple[int, Text]]] = [[] for _ in range(7)]
        for seat, card in self.info.cards:
            row, col = SPOTS[seat]
            box = card_box(self.look, card, winner=seat == self.info.winner)
            for r in range(3):
                rows[row + r].append((col, box[r]))
        left = " " * max(0, (self.size.width - 21) // 2)
        lines = []
        for pieces in rows:
            line = Text(left)
            at = 0
            for col, piece in sorted(pieces, key=lambda p: p[0]):
                line.append(" " * (col - at))
                for cell in piece.divide(range(1, CARD_WIDTH)):
                    line.append_text(cell)
                at = col + CARD_WIDTH
            line.append(" " * (21 - at))
            lines.append(line)
        caption = Text(self.info.caption, style="bold")
        caption.align("center", max(self.size.width, len(self.info.caption)))
        lines.append(caption)
        return Text("\n").join(lines)


def segments(widget: Widget) -> list[list[tuple[str, str, Any]]]:
    """Each line's segments: text, style, and where Textual marks them as laid out."""
    return [[(s.text, str(s.style), s.style and s.style.meta) for s in widget.render_line(y)]
            for y in range(widget.size.height)]


@pytest.mark.parametrize("width", [21, 30, 49, 80])
async def test_the_trick_is_drawn_as_textual_lays_out_its_text(width: int) -> None:
    class Both(App[None]):
        CSS = "TrickView, LaidOut { background: #1b1b1b; }"

        def compose(self) -> ComposeResult:
            yield TrickView()
            yield LaidOut(TrickInfo(), CardLook())

    app = Both()
    async with app.run_test(size=(width, 16)) as pilot:
        drawn, laid_out = app.query_one(TrickView), app.query_one(LaidOut)
        for look in LOOKS:
            for info in INFOS:
                drawn.look, drawn.info = look, info
                laid_out.look, laid_out.info = look, info
                laid_out.refresh()
                await pilot.pause()
                assert segments(drawn) == segments(laid_out), (look, info)


async def test_a_seats_height_is_the_height_of_its_text_laid_out() -> None:
    """A seat says its height without laying its text out when it can (five lines): the same
    height as laid out, at every width, with a long level and with someone away."""
    from textual.geometry import Size

    from nil_tui.tui.widgets.seat import Seat, SeatInfo

    infos = [
        SeatInfo("West", "Normal"),
        SeatInfo("West", "Expert", cards=12, tricks=12, clean=False, thinking=True),
        SeatInfo("West", "Expert", cards=13, tricks=13, to_move=True),
        SeatInfo("North", "a plugin bot with a long name"),
        SeatInfo("East", "Normal", away="Ann is away: a stand-in plays"),
    ]

    class OneSeat(App[None]):
        def compose(self) -> ComposeResult:
            yield Seat()

    app = OneSeat()
    async with app.run_test(size=(40, 20)) as pilot:
        seat = app.query_one(Seat)
        for info in infos:
            seat.info = info
            await pilot.pause()
            for width in range(4, 30):
                size = Size(width, 20)
                assert seat.get_content_height(size, size, width) == Widget.get_content_height(
                    seat, size, size, width), (info, width)
