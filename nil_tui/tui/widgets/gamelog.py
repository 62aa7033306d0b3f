"""The game log: a readable line per play and per trick.

A line shows in the same frame as the card it tells of. ``RichLog.write`` scrolls to the end
only after the screen's next refresh, and a quiet table may not refresh again for a second
(its next timer): the new line would sit below the visible part until then. ``add`` scrolls
at once instead."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog


class GameLog(RichLog, can_focus=False):
    DEFAULT_CSS = """
    GameLog { border: round $panel-lighten-2; height: 1fr; scrollbar-size-vertical: 1; }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(wrap=True, markup=False, min_width=20, **kwargs)  # type: ignore[arg-type]
        self.border_title = "Log"
        self.history: list[str] = []  # every line as plain text, oldest first

    def add(self, line: Text | str) -> None:
        self.history.append(line.plain if isinstance(line, Text) else line)
        self.write(line, scroll_end=False)
        if self.auto_scroll:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        self.refresh()
