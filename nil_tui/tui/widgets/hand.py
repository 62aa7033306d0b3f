"""Your hand: one focusable widget with a cursor index (so a burst of arrow keys moves the
cursor the full count; no per-card focus)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Offset
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ...engine import Card
from .cards import CARD_WIDTH, CardLook, card_box

if TYPE_CHECKING:
    from rich.console import Console


class Hand(Widget, can_focus=True):
    """Cards sorted by suit then rank; the card under the cursor is raised and framed."""

    DEFAULT_CSS = """
    Hand { height: 4; width: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("home", "ends(0)", "First card", show=False),
        Binding("end", "ends(1)", "Last card", show=False),
    ]

    cards: reactive[tuple[Card, ...]] = reactive((), layout=False)
    legal: reactive[frozenset[Card]] = reactive(frozenset())
    cursor: reactive[int] = reactive(0)
    active: reactive[bool] = reactive(False)
    look: reactive[CardLook] = reactive(CardLook())

    class CardChosen(Message):
        """The player picked a card (Enter on the cursor, or a click)."""

        def __init__(self, index: int, card: Card) -> None:
            super().__init__()
            self.index = index
            self.card = card

    def __init__(self, *, every: bool = False, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        # The player's setting (cursor "every"): on your turn too the cursor stops on every
        # card, those you may not play dimmed (playing one is refused with the reason).
        self.every = every
        self._drawn: tuple[object, ...] = ()  # what ``_strips`` were drawn for
        self._strips: list[Strip] = []

    def set_hand(self, cards: tuple[Card, ...], legal: frozenset[Card], active: bool) -> None:
        self.cards = cards
        self.legal = legal
        self.active = active
        if cards:
            self.cursor = min(max(self.cursor, 0), len(cards) - 1)

    def stops(self) -> list[int]:
        """Where the cursor may stop: on your turn only the cards you may play (unless the
        player chose every card: :attr:`every`), else on any card."""
        if self.active and not self.every:
            stops = [i for i, card in enumerate(self.cards) if card in self.legal]
            if stops:
                return stops
        return list(range(len(self.cards)))

    def _place(self, stops: list[int]) -> int:
        """The cursor's place among ``stops`` (off them, which the table avoids by putting
        the cursor on a card you may play when your turn comes: the nearest stop on its
        left)."""
        return max(0, sum(1 for i in stops if i <= self.cursor) - 1)

    def move(self, step: int) -> None:
        """Move the cursor ``step`` stops (see :meth:`stops`); past either end it comes round
        to the other."""
        stops = self.stops()
        if stops:
            self.cursor = stops[(self._place(stops) + step) % len(stops)]

    def action_ends(self, last: int) -> None:
        """Home / End: the cursor to the first or the last stop, as the screen moves it (so
        a key during a finished trick's pause does what an arrow key does there)."""
        stops = self.stops()
        if not stops:
            return
        step = (len(stops) - 1 if last else 0) - self._place(stops)
        mover = getattr(self.screen, "action_move", None)
        if callable(mover):
            mover(step)
        else:
            self.move(step)

    def leftmost_legal(self) -> None:
        for i, card in enumerate(self.cards):
            if card in self.legal:
                self.cursor = i
                return

    # The terminal's own cursor sits on the card under the hand's cursor (Textual moves it
    # to ``App.cursor_position`` after each frame): a screen reader or a braille display that
    # follows the cursor reads that card.
    def watch_cursor(self) -> None:
        self.call_after_refresh(self.point_cursor)

    def watch_cards(self) -> None:
        self.call_after_refresh(self.point_cursor)

    def on_focus(self) -> None:
        self.point_cursor()

    def on_resize(self) -> None:
        self.call_after_refresh(self.point_cursor)

    def point_cursor(self) -> None:
        """The terminal's cursor on the face of the card under the cursor (while the hand
        has the focus on the screen in front)."""
        if not self.is_mounted or not self.has_focus or self.app.screen is not self.screen:
            return
        if not 0 <= self.cursor < len(self.cards):
            return
        region = self.content_region
        x = region.x + self._left() + self.cursor * CARD_WIDTH + 1
        self.app.cursor_position = Offset(x, region.y + 1)  # the raised card's face

    @property
    def current(self) -> Card | None:
        if 0 <= self.cursor < len(self.cards):
            return self.cards[self.cursor]
        return None

    def _left(self) -> int:
        return max(0, (self.size.width - len(self.cards) * CARD_WIDTH) // 2)

    def render(self) -> Text:
        return Text("\n").join(self._rows())

    def render_line(self, y: int) -> Strip:
        """A line of the hand. The four lines are drawn together by Rich from the rows of
        text (a few short lines; Textual's general text layout takes several times longer,
        and the hand is in the table's first frame), and kept until something shown
        changes."""
        width = self.size.width
        style = self.rich_style
        shown = (self.cards, self.legal, self.cursor, self.active, self.look, width, style)
        if shown != self._drawn:
            console = self.app.console
            self._strips = [self._strip(row, console, width, style) for row in self._rows()]
            self._drawn = shown
        return self._strips[y] if y < len(self._strips) else Strip.blank(width, style)

    @staticmethod
    def _strip(row: Text, console: Console, width: int, style: Style) -> Strip:
        return Strip(row.render(console)).crop_extend(0, width, style).apply_style(style)

    def _rows(self) -> list[Text]:
        rows = [Text(), Text(), Text(), Text()]
        pad = " " * self._left()
        for row in rows:
            row.append(pad)
        blank = " " * CARD_WIDTH
        for i, card in enumerate(self.cards):
            chosen = i == self.cursor
            dim = self.active and card not in self.legal
            box = card_box(self.look, card, dim=dim, cursor=chosen)
            if chosen:
                for r in range(3):
                    rows[r].append_text(box[r])
                rows[3].append(blank)
            else:
                rows[0].append(blank)
                for r in range(3):
                    rows[r + 1].append_text(box[r])
        if not self.cards:
            rows[1].append("(no cards)", style="dim")
        return rows

    def on_click(self, event: events.Click) -> None:
        index = (event.x - self._left()) // CARD_WIDTH
        if event.x >= self._left() and 0 <= index < len(self.cards):
            self.cursor = index
            self.post_message(self.CardChosen(index, self.cards[index]))
