"""Your statistics: games played and lost (under the table), deals kept clean and points per
deal, by difficulty; a sparkline of points per deal, game by game; and charts: points per deal
over your last games, your difference against the expert in the daily challenges, and how often
you stayed clean against each level of opponents."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Sparkline, Static

from ...store import ChallengeResult, SeriesPoint, Shares, Store
from ...util.textsafe import one_line
from ..widgets.charts import BarChart, LineChart, Series
from ..words import count
from .base import close_screen

SERIES_LENGTH = 60  # the most recent games in the sparkline
CHART_GAMES = 30  # the most recent games in the chart of points per deal
AVERAGE_OVER = 5  # games in the running average of that chart
CHART_CHALLENGES = 12  # the most recent challenges in their chart

NO_CHALLENGE = ("No daily challenge played yet. Press c in setup (or run nil-tui challenge) to "
                "play the day's deals against three expert bots; the expert then plays the "
                "same deals from your seat, and the difference shows here.")
NO_GAMES = "No finished games yet: play a game to the end to see this chart."


def share(part: int, whole: int, ascii: bool = False) -> str:
    return f"{100 * part / whole:.0f}%" if whole else ("-" if ascii else "—")


def running_average(values: list[float], over: int) -> list[float]:
    """The average of each value with up to ``over - 1`` values before it."""
    out = []
    for n in range(len(values)):
        window = values[max(0, n - over + 1):n + 1]
        out.append(sum(window) / len(window))
    return out


def figures_row(name: str, f: Shares, ascii: bool = False) -> tuple[str | Text, ...]:
    """A level's figures; its name (a bot spec the store kept) as plain text, with anything
    a terminal would obey escaped."""
    return (Text(one_line(name)), str(f.games), f"{f.lost} ({share(f.lost, f.games, ascii)})", str(f.deals),
            f"{f.clean_deals} ({share(f.clean_deals, f.deals, ascii)})",
            f"{f.points_per_deal:.2f}" if f.deals else ("-" if ascii else "—"))


class StatsScreen(Screen[None]):
    """Statistics by difficulty and charts of results over time."""

    DEFAULT_CSS = """
    StatsScreen #stats-body { height: 1fr; padding: 0 1; }
    StatsScreen #stats-head { height: auto; }
    StatsScreen #stats-table { height: auto; max-height: 12; margin: 1 0; }
    StatsScreen #stats-chart-title { height: auto; }
    StatsScreen #stats-chart { height: 4; margin: 0 0 1 0; }
    StatsScreen #stats-chart-range { height: auto; color: $text-muted; }
    StatsScreen #stats-empty { height: auto; padding: 1 0; color: $text-muted; }
    StatsScreen .stats-title { height: auto; margin: 1 0 0 0; }
    StatsScreen .stats-note { height: auto; color: $text-muted; }
    StatsScreen Chart { height: 13; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Back")]

    def __init__(self, store: Store, ascii: bool | None = None) -> None:
        super().__init__()
        self.store = store
        self._ascii = ascii

    @property
    def ascii(self) -> bool:
        """ASCII only (``--ascii`` or the setting): said by the caller, else by the options
        of the app, else by the settings kept."""
        if self._ascii is None:
            options = getattr(self.app, "options", None)
            chosen = bool(getattr(options, "ascii", False))
            if not chosen:
                try:
                    chosen = bool((self.store.load_settings() or {}).get("ascii"))
                except Exception:  # noqa: BLE001 - a look is not worth an error
                    chosen = False
            self._ascii = chosen
        return self._ascii

    def compose(self) -> ComposeResult:
        ascii = self.ascii
        with VerticalScroll(id="stats-body"):
            yield Static(id="stats-head")
            yield DataTable(id="stats-table", cursor_type="row", zebra_stripes=True)
            yield Static(id="stats-chart-title")
            yield Sparkline([], id="stats-chart")
            yield Static(id="stats-chart-range")
            yield Static("No finished games yet: play a game to the end to see your "
                         "statistics.", id="stats-empty")
            yield Static(id="stats-games-title", classes="stats-title")
            yield LineChart([], [], ascii=ascii, empty=NO_GAMES, x_label="game",
                            id="stats-games")
            yield Static(id="stats-challenges-title", classes="stats-title")
            yield Static(id="stats-challenges-note", classes="stats-note")
            yield BarChart([], [], ascii=ascii, signed=True, empty=NO_CHALLENGE,
                           id="stats-challenges")
            yield Static(id="stats-clean-title", classes="stats-title")
            yield BarChart([], [], ascii=ascii, unit="%", horizontal=True, top=100.0,
                           empty=NO_GAMES, id="stats-clean")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_figures()

    def refresh_figures(self) -> None:
        stats = self.store.stats()
        overall, by = stats.overall, stats.by_difficulty
        played = overall.games > 0
        self._show_head(overall, by, played)
        series = list(stats.series)
        sparkline = self._show_results(series[-SERIES_LENGTH:])
        for widget_id in ("#stats-table", "#stats-chart-range"):
            self.query_one(widget_id).display = played
        self.query_one("#stats-chart-title").display = played and not self.ascii
        self.query_one("#stats-chart").display = played and sparkline
        self.query_one("#stats-empty").display = not played
        self._draw_games(series)
        self._draw_challenges(list(stats.challenges))
        self._draw_clean(by)

    def _show_head(self, overall: Shares, by: dict[str, Shares], played: bool) -> None:
        """The headline and the table of figures by level of opponents."""
        ascii = self.ascii
        head = Text("Statistics", style="bold")
        if played:
            head.append(f"   {count(overall.games, 'game')}, under the table in "
                        f"{overall.lost} ({share(overall.lost, overall.games, ascii)})",
                        style="dim")
        self.query_one("#stats-head", Static).update(head)
        table = self.query_one(DataTable)
        table.clear(columns=True)
        for label in ("Difficulty", "Games", "Lost", "Deals", "Clean deals", "Pts/deal"):
            table.add_column(label)
        for name, figures in by.items():
            table.add_row(*figures_row(name, figures, ascii), key=name)
        if len(by) > 1:
            table.add_row(*figures_row("all", overall, ascii), key="all")

    def _show_results(self, series: list[SeriesPoint]) -> bool:
        """The sparkline of points per deal and the results game by game; whether the
        sparkline is shown."""
        ascii = self.ascii
        values = [s.points_per_deal for s in series]
        # The sparkline needs two games to draw a line (one value fills it solid), and its
        # blocks are no ASCII: in ASCII the chart below shows the same figures, and here
        # stay only the results, game by game.
        sparkline = len(values) >= 2 and not ascii
        self.query_one(Sparkline).data = values
        chart_title = Text("Points per deal, game by game ", style="bold")
        chart_title.append("(oldest on the left; higher is safer)", style="dim")
        self.query_one("#stats-chart-title", Static).update(chart_title)
        marks = Text()
        if series:
            lost_mark, safe_mark = ("v", ".") if ascii else ("▼", "·")
            if sparkline:
                marks.append(f"{series[0].finished_at[:10]} to "
                             f"{series[-1].finished_at[:10]}: low {min(values):.2f}, "
                             f"high {max(values):.2f}\n")
            elif not ascii:
                marks.append(f"One game so far ({values[0]:.2f} points per deal): this "
                             "chart starts with your second game.\n")
            marks.append("Results, game by game: " if ascii else "Results: ")
            for s in series[-40:]:
                marks.append(lost_mark if s.lost else safe_mark,
                             style="bold red" if s.lost else "")
            marks.append(f"  ({lost_mark} under the table)", style="dim")
        self.query_one("#stats-chart-range", Static).update(marks)
        return sparkline

    def _title(self, widget_id: str, title: str, note: str) -> None:
        text = Text(title, style="bold")
        text.append(f" {note}", style="dim")
        self.query_one(widget_id, Static).update(text)

    def _draw_games(self, series: list[SeriesPoint]) -> None:
        last = series[-CHART_GAMES:]
        first = len(series) - len(last) + 1
        values = [s.points_per_deal for s in last]
        self._title("#stats-games-title", "Points per deal in your last games",
                    f"(the last {count(len(last), 'game')}; higher is safer)"
                    if last else "")
        lines = [Series("points per deal in the game", "o", tuple(values)),
                 Series(f"average of the last {AVERAGE_OVER} games", "a",
                        tuple(running_average(values, AVERAGE_OVER)))] if values else []
        self.query_one("#stats-games", LineChart).update(
            lines, list(range(first, first + len(last))))

    def _draw_challenges(self, challenges: list[ChallengeResult]) -> None:
        known = [c for c in challenges if c.diff is not None]
        shown = known[-CHART_CHALLENGES:]
        note = ""
        if known:
            average = sum(c.diff or 0 for c in known) / len(known)
            note = (f"(the same deals from your seat; above 0 you did better; average "
                    f"{average:+.2f} over {count(len(known), 'challenge')})")
        self._title("#stats-challenges-title", "Daily challenges: your points minus the "
                    "expert's", note)
        waiting = len(challenges) - len(known)
        words = (f"{count(waiting, 'challenge')} still waiting for the expert's result."
                 if waiting else "")
        note_widget = self.query_one("#stats-challenges-note", Static)
        note_widget.update(words)
        note_widget.display = bool(words)
        self.query_one("#stats-challenges", BarChart).update(
            [one_line(c.date[5:]) for c in shown], [float(c.diff or 0) for c in shown])

    def _draw_clean(self, by: dict[str, Shares]) -> None:
        levels = [(name, f) for name, f in by.items() if f.deals]
        self._title("#stats-clean-title", "How often you stayed clean",
                    "(share of your deals without a trick, by the level of your opponents)"
                    if levels else "")
        chart = self.query_one("#stats-clean", BarChart)
        chart.styles.height = max(5, len(levels) + 3)  # a row a level, the frame and axis
        chart.update(
            [one_line(name) for name, _ in levels],
            [round(100 * f.clean_deals / f.deals, 1) for _, f in levels])

    def action_close(self) -> None:
        close_screen(self)
