"""The scoreboard panel: points so far per player, tricks this deal, deal k of N."""

from __future__ import annotations

from typing import NamedTuple

from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from ..words import SEAT_LABELS


class ScoreInfo(NamedTuple):
    names: tuple[str, ...] = SEAT_LABELS
    totals: tuple[int, ...] = (0, 0, 0, 0)
    lowest: tuple[int, ...] = ()  # seats that would crawl under the table now (the engine's)
    taken: tuple[int, ...] = (0, 0, 0, 0)
    deal_number: int = 1
    deals_planned: int = 1
    pool: int | None = None  # the points in the pool (pool scoring), None under the classic
    tiebreak: tuple[int, ...] = ()  # the two seats of a tie-break deal (pool scoring)


class Scoreboard(Widget):
    DEFAULT_CSS = """
    Scoreboard { height: auto; border: round $panel-lighten-2; }
    """

    info: reactive[ScoreInfo] = reactive(ScoreInfo())

    def watch_info(self, info: ScoreInfo) -> None:
        self.border_title = ("Tie-break deal" if info.tiebreak else
                             f"Deal {info.deal_number} of {info.deals_planned}")

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """A head line and a line per seat, whatever the width (working it out by drawing
        would ask for the panel's size while the screen is still being laid out, which lays
        the whole screen out once more)."""
        return 1 + len(self.info.names) + (self.info.pool is not None)

    def render(self) -> Text:
        """A small table as text: names, points, tricks this deal, and a mark for a seat
        still clean. (Plain text, not a Rich table: this is drawn with the table's first
        frame and again after every trick.)"""
        info = self.info
        width = self.size.width
        tricks_head = "Tricks"
        names = max(len(n) for n in info.names)
        points = max(3, *(len(str(t)) for t in info.totals))
        # one space at each edge and two between columns, as a Rich table pads them
        if width and 1 + names + 2 + points + 2 + len(tricks_head) + 2 + 1 + 1 > width:
            tricks_head = "Tr"
        tricks = len(tricks_head)
        name_width = max(names, width - (1 + 2 + points + 2 + tricks + 2 + 1 + 1))
        out = Text(no_wrap=True, overflow="ellipsis")
        out.append(" " + " " * name_width + "  " + "Pts".rjust(points) + "  "
                   + tricks_head.rjust(tricks) + "    ", style="bold")
        for s in (0, 1, 2, 3):
            row = Text(style="bold" if s == 0 else "")
            row.append(" " + info.names[s].ljust(name_width) + "  ")
            row.append(str(info.totals[s]).rjust(points), style="red" if s in info.lowest else "")
            row.append("  " + str(info.taken[s]).rjust(tricks) + "  ")
            row.append("" if info.taken[s] else "●", style="green")
            row.append(" " if info.taken[s] == 0 else "  ")
            out.append("\n")
            out.append_text(row)
        if info.pool is not None:
            out.append("\n " + "Pool".ljust(name_width) + "  ", style="bold")
            out.append(str(info.pool).rjust(points), style="bold yellow")
        return out
