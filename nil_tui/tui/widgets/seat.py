"""A seat at the table: name and level, cards left, tricks taken, clean mark, dealer, turn."""

from __future__ import annotations

from typing import NamedTuple

from rich.cells import cell_len
from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from ..words import count


class SeatInfo(NamedTuple):
    name: str
    level: str
    cards: int = 13
    tricks: int = 0
    clean: bool = True
    dealer: bool = False
    to_move: bool = False
    thinking: bool = False
    away: str = ""  # a shared table's person who is away: what the box says of it


_LINES = 10  # the widest of the other lines a seat shows: "⠋ thinking", "12 tricks"...
THINKING_FRAMES = ("⠋ thinking", "⠙ thinking", "⠹ thinking", "⠸ thinking", "⠼ thinking",
                   "⠴ thinking", "⠦ thinking", "⠧ thinking", "⠇ thinking", "⠏ thinking")


class Seat(Widget):
    """One bot's seat, drawn from an immutable ``SeatInfo``."""

    DEFAULT_CSS = """
    Seat { height: auto; border: round $panel-lighten-2; padding: 0 1; }
    Seat.-turn { border: round $accent; }
    """

    info: reactive[SeatInfo | None] = reactive(None)
    frame: reactive[int] = reactive(0)
    _away = ""  # what the box says of its person being away (a shared table's)

    def on_mount(self) -> None:
        self._spinner = self.set_interval(0.1, self._tick, pause=True)

    def _tick(self) -> None:
        self.frame = (self.frame + 1) % len(THINKING_FRAMES)

    def watch_info(self, info: SeatInfo | None) -> None:
        if info is None:
            return
        self.set_class(info.to_move, "-turn")
        if info.away != self._away:  # a line or two more or fewer: the box's height changes
            self._away = info.away
            self.refresh(layout=True)
        self.border_title = info.name
        self.border_subtitle = "dealer" if info.dealer else ""
        spinner = getattr(self, "_spinner", None)
        if spinner is not None:
            if info.thinking:
                spinner.resume()
            else:
                spinner.pause()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """Five lines, when the level fits the box's width and nobody is away (the seats are
        in the table's first frame: working this out by laying the text out takes longer);
        otherwise as laid out."""
        info = self.info
        if info is not None and not info.away and max(cell_len(info.level), _LINES) <= width:
            return 5
        return super().get_content_height(container, viewport, width)

    def render(self) -> Text:
        info = self.info
        if info is None:
            return Text("")
        text = Text()
        text.append(info.level, style="italic")
        text.append("\n")
        if info.away:  # (wrapped to the box's width by the renderer)
            text.append(info.away, style="bold yellow")
            text.append("\n")
        text.append(f"{count(info.cards, 'card')}\n")
        text.append(f"{count(info.tricks, 'trick')}\n")
        if info.clean:
            text.append("● clean", style="bold green")
        else:
            text.append("○ taken", style="dim")
        text.append("\n")
        if info.thinking:
            text.append(THINKING_FRAMES[self.frame], style="bold yellow")
        elif info.to_move:
            text.append("to play", style="bold")
        else:
            text.append(" ")
        return text
