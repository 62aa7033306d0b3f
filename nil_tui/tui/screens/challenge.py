"""The daily challenge's result: deal by deal, the player's points against the expert's on the
same cards from the same seat, and what the difference means."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich import box
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, ProgressBar, Static

from ...engine import Game
from ...game.daily_challenge import compare, totals, verdict
from ...game.options import PlayOptions
from .base import NilScreen
from .gameover import headline, record_place
from .summary import last_deal_text, standings_text


def signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def comparison_table(game: Game, reference: list[int] | None, ascii: bool = False) -> Table:
    """Deal, your points, the expert's from your seat, the difference; totals below."""
    rows = compare(game, reference)
    waiting = "..." if ascii else "…"
    table = Table(box=box.ASCII if ascii else box.SIMPLE_HEAD, show_footer=True,
                  show_edge=False, header_style="bold", footer_style="bold", pad_edge=False,
                  padding=(0, 2))
    yours, expert, diff = totals(rows)
    table.add_column("Deal", justify="right", footer="Total")
    table.add_column("You", justify="right", footer=str(yours))
    table.add_column("Expert", justify="right", footer=waiting if expert is None
                     else str(expert))
    table.add_column("Difference", justify="right",
                     footer=waiting if diff is None else Text(signed(diff), style=_tone(diff)))
    for row in rows:
        d = row.difference
        table.add_row(str(row.deal), "-" if row.yours is None else str(row.yours),
                      waiting if row.expert is None else str(row.expert),
                      waiting if d is None else Text(signed(d), style=_tone(d)))
    return table


def _tone(diff: int) -> str:
    return "bold green" if diff > 0 else "bold red" if diff < 0 else ""


class ChallengeScreen(NilScreen):
    """A finished challenge against the expert's play of the same deals from the player's
    seat, and how the game against the three experts ended (its last deal, the standings).
    While the expert's game is still being worked out, how far it got; the table fills in
    when it arrives. ``s`` shows every deal's scores, ``a`` the analysis of the last deal;
    Enter or Esc leaves (to setup; or ends the app when the result was all it was opened
    for), q quits."""

    DEFAULT_CSS = """
    ChallengeScreen #challenge { padding: 0 2; }
    ChallengeScreen #challenge > Static { margin-bottom: 1; }
    ChallengeScreen #challenge > #challenge-standings { margin-bottom: 0; }
    ChallengeScreen #challenge > #challenge-path { margin-bottom: 0; }
    ChallengeScreen #challenge-progress { height: auto; margin-bottom: 1; }
    ChallengeScreen #challenge-status { width: 1fr; }
    ChallengeScreen #challenge-bar { width: auto; margin-left: 2; }
    ChallengeScreen #challenge-bar Bar { width: 20; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,escape", "leave", "Back"),
        Binding("s", "scores", "Scoreboard"),
        Binding("a", "analyse", "Analysis"),
        Binding("q", "app.quit", "Quit"),
        Binding("question_mark,f1", "app.rules", "Rules"),
    ]

    def __init__(self, game: Game, options: PlayOptions, path: Path | None,
                 problem: str | None = None, *, played: bool = True) -> None:
        super().__init__()
        if game.challenge is None:
            raise ValueError("this game is not a daily challenge")
        self.game = game
        self.date = game.challenge.date
        self.options = options
        self.path = path
        self.problem = problem
        self.played = played  # just played (else opened to show the result again)

    @property
    def reference(self) -> list[int] | None:
        ref = self.game.challenge.reference if self.game.challenge else None
        return None if ref is None else list(ref)

    def compose(self) -> ComposeResult:
        ascii = self.options.ascii
        with VerticalScroll(id="challenge"):
            yield Static(self._head(), id="challenge-head")
            yield Static(comparison_table(self.game, self.reference, ascii),
                         id="challenge-table")
            with Horizontal(id="challenge-progress"):
                yield Static(id="challenge-status")
                yield ProgressBar(total=None, show_eta=False, id="challenge-bar")
            yield Static(self._standings(), id="challenge-standings")
            yield Static(self._where(), id="challenge-path")
            leave = "Enter or Esc: back to setup" if self._to_setup() else "Enter or Esc: close"
            yield Static(Text(f"{leave}   s: scoreboard   a: analyse deal "
                              f"{len(self.game.deals)}   q: quit", style="dim"),
                         id="challenge-keys")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#challenge-path").display = bool(self._where())
        self.reference_news(self.reference)

    def _head(self) -> Text:
        text = Text(f"Daily challenge {self.date}: you against the expert in your seat",
                    style="bold")
        text.append("\nDifference: your points minus the expert's. Points are good: + is "
                    "better.", style="dim")
        return text

    def _standings(self) -> Text:
        """The game against the three experts: who crawls under the table, how its last
        deal ended, the totals."""
        text = headline(self.game.losers)
        last = last_deal_text(self.game)
        if last is not None:
            text.append("\n")
            text.append_text(last)
        text.append("\n")
        text.append_text(standings_text(self.game, final=True))
        return text

    def _where(self) -> Text:
        if self.path is None and not self.played:
            return Text("")
        return record_place(self.path, self.problem, self.options.ascii, "challenge")

    def kept(self, path: Path) -> None:
        """The game is in history after all: say where its record is."""
        self.path, self.problem = path, None
        where = self.query_one("#challenge-path", Static)
        where.update(self._where())
        where.display = True

    def reference_news(self, points: list[int] | None = None) -> None:
        """The app heard from the expert's game: how far it got, or its points (then the
        table is filled in)."""
        if points is not None and self.game.challenge is not None:
            self.game.challenge = self.game.challenge.with_reference(points)
        reference = self.reference
        status = self.query_one("#challenge-status", Static)
        bar = self.query_one("#challenge-bar", ProgressBar)
        if reference is not None:
            self.query_one("#challenge-table", Static).update(
                comparison_table(self.game, reference, self.options.ascii))
            _, _, diff = totals(compare(self.game, reference))
            status.update(Text(verdict(diff) if diff is not None else "", style="bold"))
            self._show_bar(False)
            return
        failed = self.nil_app.home.references.failed.get(self.date)
        if failed is not None:
            status.update(Text.assemble(
                ("The expert's game could not be played: ", "bold yellow"), failed,
                ". It is tried again whenever this challenge is opened "
                f"(nil-tui challenge --date {self.date})."))
            self._show_bar(False)
            return
        progress = self.nil_app.home.references.progress.get(self.date)
        if progress is None or progress.total <= 0:
            status.update("The expert is about to play your seat.")
            bar.update(total=None)
        else:
            status.update(f"The expert is playing your seat: deal {progress.deal} of "
                          f"{progress.deals}.")
            bar.update(total=progress.total, progress=progress.done)
        self._show_bar(True)

    def _show_bar(self, show: bool) -> None:
        """The progress bar beside the status line, or nothing there."""
        self.query_one("#challenge-bar", ProgressBar).display = show

    def _to_setup(self) -> bool:
        """Where Enter goes: setup, unless the result was all the app was opened for."""
        return self.played or self.nil_app.start != "challenge"

    def action_scores(self) -> None:
        """Every deal's scores by seat (the scoreboard); Enter or Esc comes back here."""
        from .summary import ScoresScreen

        self.app.push_screen(ScoresScreen(self.game))

    def action_analyse(self) -> None:
        """The analysis of your plays in the last deal (the earlier ones are in history), as
        at game over: the challenge is over, so it is no help any more."""
        from .analysis import analysis_of

        self.app.push_screen(analysis_of(self.game, len(self.game.deals), self.options.ascii))

    def action_leave(self) -> None:
        if self._to_setup():
            self.nil_app.open_setup()
        else:
            self.app.exit(0)
