"""Past games: a table of finished games, newest first; Enter opens one in the review screen."""

from __future__ import annotations

import datetime as _dt
from typing import ClassVar

from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from ...engine import Game, RecordError
from ...store import HistoryRow, Store
from ...store.summaries import ASSISTED
from ...util.textsafe import one_line
from ..widgets.cards import CardLook
from ..words import count
from .base import close_screen


def local_time(stamp: str | None) -> str:
    """"2026-11-29T18:00:00Z" as local "2026-11-29 19:00" (or the text as it is)."""
    if not stamp:
        return "?"
    try:
        when = _dt.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(
            tzinfo=_dt.timezone.utc)
    except ValueError:
        return stamp
    return when.astimezone().strftime("%Y-%m-%d %H:%M")


RESULT_STYLE = {"under the table": "bold red", "under the table (shared)": "red",
                "safe": "green", "draw": "yellow"}


RESULT_SHORT = {"under the table (shared)": "under (shared)"}


def result_text(row: HistoryRow) -> Text:
    """"Safe", "Draw", "Under the table", "Under (shared)" (short enough for 80 columns)."""
    result = row.result
    short = RESULT_SHORT.get(result, result)
    return Text(one_line(short[:1].upper() + short[1:]), style=RESULT_STYLE.get(result, ""))


LEVEL_SHORT = {"normal": "norm", "expert": "exp"}


def opponents_text(row: HistoryRow) -> Text:
    """Who played against you, short: "easy x3", "easy/norm/hard" for mixed levels,
    "challenge 11-30" for a daily challenge; ``*`` marks an assisted game (hints, meter or
    undo). Plain text, with anything a terminal would obey escaped: the levels are the bot
    specs the store kept, which may name any plugin."""
    text = row.opponents
    assisted = text.endswith(ASSISTED)
    if assisted:
        text = text[: -len(ASSISTED)]
    challenge = row.challenge
    if challenge:
        text = f"challenge {challenge[5:] or challenge}"
    elif ", " in text:
        text = "/".join(LEVEL_SHORT.get(level, level) for level in text.split(", "))
    return Text(one_line(text + ("*" if assisted else "")))


def points_text(totals: list[int]) -> str:
    """Your points first, then West, North, East: "9 | 7 10 5"."""
    if len(totals) != 4:
        return "?"
    return f"{totals[0]} | {totals[1]} {totals[2]} {totals[3]}"


class HistoryScreen(Screen[None]):
    """Finished games (date, deals, result, opponents, points); Enter reviews one."""

    DEFAULT_CSS = """
    HistoryScreen { layout: vertical; }
    HistoryScreen #history-head { height: auto; padding: 0 1; }
    HistoryScreen #history-table { height: 1fr; }
    HistoryScreen #history-empty { height: 1fr; padding: 1 2; color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Review", priority=True),
        Binding("a", "analyse", "Analysis"),
        Binding("r", "resume", "Resume"),
        Binding("escape,q", "close", "Back"),
    ]

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store
        self.rows: list[HistoryRow] = []

    def compose(self) -> ComposeResult:
        yield Static(id="history-head")
        yield DataTable(id="history-table", cursor_type="row", zebra_stripes=True)
        yield Static("No games yet. Games you play to the end, and unfinished games you set "
                     "aside for a new one, appear here.",
                     id="history-empty")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_rows()

    def refresh_rows(self) -> None:
        self.rows = self.store.history()
        table = self.query_one(DataTable)
        table.clear(columns=True)
        table.add_column("Date", key="date")
        table.add_column("Deals", key="deals")
        table.add_column("Result", key="result")
        table.add_column("Opponents", key="opponents")
        table.add_column("You | W N E", key="points")
        for row in self.rows:
            result = result_text(row) if row.finished else Text("Unfinished", style="italic")
            table.add_row(Text(one_line(local_time(row.finished_at))), str(row.deals), result,
                          opponents_text(row), points_text(row.totals), key=str(row.id))
        empty = not self.rows
        table.display = not empty
        self.query_one("#history-empty").display = empty
        finished = [r for r in self.rows if r.finished]
        lost = sum(1 for r in finished if r.lost)
        head = Text("Game history", style="bold")
        if self.rows:
            head.append(f"   {count(len(finished), 'game')}, {lost} under the table",
                        style="dim")
            unfinished = len(self.rows) - len(finished)
            if unfinished:
                head.append(f", {unfinished} unfinished", style="dim")
            head.append("   Enter: review   a: analysis", style="dim")
            if any(r.opponents.endswith(ASSISTED) for r in self.rows):
                head.append("\n* assisted (hints, meter or undo)", style="dim")
        self.query_one("#history-head", Static).update(head)
        if not empty:
            table.focus()

    def _chosen(self) -> HistoryRow | None:
        table = self.query_one(DataTable)
        if not self.rows or not 0 <= table.cursor_row < len(self.rows):
            return None
        return self.rows[table.cursor_row]

    def _chosen_game(self) -> tuple[HistoryRow, Game] | None:
        """The selected row and its game, or None (said why when it cannot be read)."""
        row = self._chosen()
        if row is None:
            return None
        record = self.store.load_record(row.id)
        if record is None:
            self.notify("This game's record is missing from the store.", severity="error")
            return None
        try:
            game = Game.from_record(record)
        except RecordError as exc:
            self.notify(escape(f"This game's record cannot be read: {exc}"), severity="error")
            return None
        return row, game

    def action_analyse(self) -> None:
        """The analysis of your plays in every finished deal of the selected game."""
        chosen = self._chosen_game()
        if chosen is None:
            return
        from .analysis import analysis_of, finished_deals

        game = chosen[1]
        if not finished_deals(game):
            self.notify("No deal of this game was finished: there is nothing to analyse.",
                        severity="warning")
            return
        self.app.push_screen(analysis_of(game, None, self._look().ascii))

    def action_open(self) -> None:
        chosen = self._chosen_game()
        if chosen is None:
            return
        row, game = chosen
        from .review import ReviewScreen

        title = f"{local_time(row.finished_at)} · {row.result}"
        self.app.push_screen(ReviewScreen(game, title=title, look=self._look()))

    def action_resume(self) -> None:
        """Continue an unfinished game (the one saved now, if any, goes to history)."""
        row = self._chosen()
        if row is None:
            return
        if row.finished:
            self.notify("This game is over: Enter reviews it.", severity="warning")
            return
        from ..face import AppFace

        app = self.app
        if isinstance(app, AppFace):
            app.resume_from_history(row.id)

    def _look(self) -> CardLook:
        """Cards drawn as the player chose (ASCII suits, four colours)."""
        try:
            settings = self.store.load_settings() or {}
        except Exception:  # noqa: BLE001 - a look is not worth an error
            settings = {}
        return CardLook(ascii=bool(settings.get("ascii")),
                        four_color=bool(settings.get("four_color")))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """A mouse click (or Enter handled by the table) opens the game too."""
        event.stop()
        self.action_open()

    def action_close(self) -> None:
        close_screen(self)
