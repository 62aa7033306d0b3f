"""The scoreboard panel: points so far per player, tricks this deal, deal k of N."""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table
from textual.reactive import reactive
from textual.widget import Widget

from ..words import SEAT_LABELS


@dataclass(frozen=True)
class ScoreInfo:
    names: tuple[str, ...] = SEAT_LABELS
    totals: tuple[int, ...] = (0, 0, 0, 0)
    lowest: tuple[int, ...] = ()  # seats that would crawl under the table now (the engine's)
    taken: tuple[int, ...] = (0, 0, 0, 0)
    deal_number: int = 1
    deals_planned: int = 1


class Scoreboard(Widget):
    DEFAULT_CSS = """
    Scoreboard { height: auto; border: round $panel-lighten-2; }
    """

    info: reactive[ScoreInfo] = reactive(ScoreInfo())

    def watch_info(self, info: ScoreInfo) -> None:
        self.border_title = f"Deal {info.deal_number} of {info.deals_planned}"

    def render(self) -> Table:
        info = self.info
        table = Table(box=None, expand=True, padding=(0, 1), show_edge=False)
        table.add_column("", no_wrap=True)
        table.add_column("Pts", justify="right")
        table.add_column("Tricks", justify="right")
        table.add_column("", width=1, no_wrap=True)
        for s in (0, 1, 2, 3):
            pts = str(info.totals[s])
            if s in info.lowest:
                pts = f"[red]{pts}[/]"
            table.add_row(info.names[s], pts, str(info.taken[s]),
                          "" if info.taken[s] else "[green]●[/]",
                          style="bold" if s == 0 else "")
        return table
