"""Your statistics: games played and lost (under the table), deals kept clean and points per
deal, by difficulty; and a sparkline of points per deal, game by game."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Sparkline, Static

from ...store import Store
from ..words import count
from .history import close_screen

SERIES_LENGTH = 60  # the most recent games in the chart


def share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "—"


def figures_row(name: str, f: dict[str, Any]) -> tuple[str | Text, ...]:
    return (name, str(f["games"]), f"{f['lost']} ({share(f['lost'], f['games'])})",
            str(f["deals"]), f"{f['clean_deals']} ({share(f['clean_deals'], f['deals'])})",
            f"{f['points_per_deal']:.2f}" if f["deals"] else "—")


class StatsScreen(Screen[None]):
    """Statistics by difficulty and a chart of results over time."""

    DEFAULT_CSS = """
    StatsScreen #stats-body { height: 1fr; padding: 0 1; }
    StatsScreen #stats-head { height: auto; }
    StatsScreen #stats-table { height: auto; max-height: 12; margin: 1 0; }
    StatsScreen #stats-chart-title { height: auto; }
    StatsScreen #stats-chart { height: 4; margin: 0 0 1 0; }
    StatsScreen #stats-chart-range { height: auto; color: $text-muted; }
    StatsScreen #stats-empty { height: auto; padding: 1 0; color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Back")]

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="stats-body"):
            yield Static(id="stats-head")
            yield DataTable(id="stats-table", cursor_type="row", zebra_stripes=True)
            yield Static(id="stats-chart-title")
            yield Sparkline([], id="stats-chart")
            yield Static(id="stats-chart-range")
            yield Static("No finished games yet: play a game to the end to see your "
                         "statistics.", id="stats-empty")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_figures()

    def refresh_figures(self) -> None:
        stats = self.store.stats() or {}
        zero: dict[str, Any] = {"games": 0, "lost": 0, "deals": 0, "clean_deals": 0,
                                "points": 0, "points_per_deal": 0.0}
        overall = stats.get("overall") or zero
        by = stats.get("by_difficulty") or {}
        played = overall["games"] > 0
        head = Text("Statistics", style="bold")
        if played:
            head.append(f"   {count(overall['games'], 'game')}, under the table in "
                        f"{overall['lost']} "
                        f"({share(overall['lost'], overall['games'])})", style="dim")
        self.query_one("#stats-head", Static).update(head)

        table = self.query_one(DataTable)
        table.clear(columns=True)
        for label in ("Difficulty", "Games", "Lost", "Deals", "Clean deals", "Pts/deal"):
            table.add_column(label)
        for name, figures in by.items():
            table.add_row(*figures_row(name, figures), key=name)
        if len(by) > 1:
            table.add_row(*figures_row("all", overall), key="all")

        series = list(stats.get("series") or [])[-SERIES_LENGTH:]
        values = [float(s["points_per_deal"]) for s in series]
        self.query_one(Sparkline).data = values
        chart_title = Text("Points per deal, game by game ", style="bold")
        chart_title.append("(oldest on the left; higher is safer)", style="dim")
        self.query_one("#stats-chart-title", Static).update(chart_title)
        marks = Text()
        if series:
            marks.append(f"{series[0]['finished_at'][:10]} to {series[-1]['finished_at'][:10]}"
                         f": low {min(values):.2f}, high {max(values):.2f}\n")
            marks.append("Results: ")
            for s in series[-40:]:
                marks.append("▼" if s["lost"] else "·", style="bold red" if s["lost"] else "")
            marks.append("  (▼ under the table)", style="dim")
        self.query_one("#stats-chart-range", Static).update(marks)

        for widget_id in ("#stats-table", "#stats-chart-title", "#stats-chart",
                          "#stats-chart-range"):
            self.query_one(widget_id).display = played
        self.query_one("#stats-empty").display = not played

    def action_close(self) -> None:
        close_screen(self)
