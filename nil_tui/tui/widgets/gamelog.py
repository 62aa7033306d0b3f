"""The game log: a readable line per play and per trick.

A line shows in the same frame as the card it tells of: ``add`` wraps it, grows the scrollable
area and scrolls to the end at once (Textual's ``RichLog`` scrolls only after the screen's next
refresh, and a quiet table may not refresh again for a second). Lines are wrapped again when
the log's width changes, so a resized terminal never cuts a line short.

The log is a small line-based scroll view of its own rather than a ``RichLog``: that one loads
Rich's pretty-printer (and with it any ``attrs`` installed) before the table's first frame, for
features a list of styled lines does not use."""

from __future__ import annotations

from rich.segment import Segment
from rich.text import Text
from textual.events import Resize
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

MIN_WIDTH = 20  # narrower than this, lines are wrapped at this width and scroll sideways


class GameLog(ScrollView, can_focus=False):
    DEFAULT_CSS = """
    GameLog {
        border: round $panel-lighten-2; height: 1fr; scrollbar-size-vertical: 1;
        background: $surface; color: $foreground; overflow-y: scroll; overflow-x: hidden;
    }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.border_title = "Log"
        self.history: list[str] = []  # every line as plain text, oldest first
        self.auto_scroll = True  # keep the newest line in view
        self._texts: list[Text] = []  # every line as written
        self._strips: list[Strip] = []  # the lines wrapped at ``_width``
        self._width = 0  # 0 until the log's size is known
        self._last_rows = 0  # the rows of the last line as wrapped

    def add(self, line: Text | str) -> None:
        text = line if isinstance(line, Text) else Text(line)
        self.history.append(text.plain)
        self._texts.append(text)
        if self._width:
            wrapped = self._wrap(text, self._width)
            self._strips.extend(wrapped)
            self._last_rows = len(wrapped)
            self._resized()
        self.refresh()

    def amend_last(self, more: Text | str) -> None:
        """Add ``more`` to the end of the last line (a short log's trick grows card by
        card); only that line is wrapped again."""
        if not self._texts:
            self.add(more)
            return
        text = self._texts[-1].copy()
        text.append_text(more if isinstance(more, Text) else Text(more))
        self._texts[-1] = text
        self.history[-1] = text.plain
        if self._width:
            kept = self._strips[:len(self._strips) - self._last_rows]
            wrapped = self._wrap(text, self._width)
            self._strips = kept + wrapped
            self._last_rows = len(wrapped)
            self._resized()
        self.refresh()

    def shows_whole(self, line: Text) -> bool:
        """Whether ``line``, written last, would be in view whole (the log may be only a
        row or two high: the card tracker open at 80x24)."""
        rows = self.scrollable_content_region.height
        return rows > 0 and len(self._wrap(line, self._wrap_width())) <= rows

    def _wrap_width(self) -> int:
        return max(MIN_WIDTH, self.scrollable_content_region.width)

    def _wrap(self, text: Text, width: int) -> list[Strip]:
        console = self.app.console
        segments = console.render(text, console.options.update(width=width, no_wrap=False))
        lines = list(Segment.split_and_crop_lines(segments, width, pad=False,
                                                        include_new_lines=False))
        return [Strip(line) for line in lines] or [Strip.blank(0)]

    def _resized(self) -> None:
        self.virtual_size = Size(self._width, len(self._strips))
        if self.auto_scroll:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def _to_end(self) -> None:
        if self.auto_scroll:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def on_resize(self, event: Resize) -> None:
        """Any change of size, of the terminal or of the panels beside the log (the card
        tracker opening), keeps the newest line in view: lines are wrapped again for a new
        width, and the end is scrolled to once the new height is laid out."""
        width = self._wrap_width()
        if event.size.width and width != self._width:
            self._width = width
            self._strips = [strip for text in self._texts for strip in self._wrap(text, width)]
            self._last_rows = len(self._wrap(self._texts[-1], width)) if self._texts else 0
        self._resized()
        self.call_after_refresh(self._to_end)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.refresh()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        index = scroll_y + y
        if index >= len(self._strips):
            return Strip.blank(width, self.rich_style)
        strip = self._strips[index].crop_extend(scroll_x, scroll_x + width, self.rich_style)
        return strip.apply_style(self.rich_style)
