"""The analysis of a seat's plays: for each deal, the plays that cost points first (in words),
then every decision with the card played, the best card and the cost, and on the selected
row what each legal card was worth. The figures are the expert's estimates from what the seat
could see at the time; they are computed in the background (a thread that farms the work out
to processes), kept in the store so a deal is not analysed again (the newest results are
kept), and the screen never waits."""

from __future__ import annotations

import contextlib
import threading
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import DataTable, Footer, ProgressBar, Static

from ...engine import SEAT_NAMES, Game
from ...game.driver import short_text
from ...util.textsafe import one_line
from ..widgets.cards import CardLook
from ..words import count, percent
from .base import NilScreen, close_screen

if TYPE_CHECKING:
    from ...analysis import DealAnalysis, Decision

COSTLY = 0.1  # a play that cost this many points or more is told in words
SHOWN_SENTENCES = 3  # at most this many sentences above the table; the rest are marked "!"


def human_seat(game: Game) -> int | None:
    """The seat a person played, or None for a game of bots only."""
    humans = game.human_seats
    if humans:
        return humans[0]
    players = game.players
    return None if all(p.get("kind") == "bot" for p in players) else 0


def analysed_seat(game: Game) -> tuple[int, str | None]:
    """The seat to analyse in a game, and a note when it is not a person's (bots only)."""
    seat = human_seat(game)
    if seat is not None:
        return seat, None
    return 0, "Bots only: South's plays are analysed (\"you\" is South)."


def finished_deals(game: Game) -> list[int]:
    """The 1-based numbers of the deals that are over and had a trick."""
    return [n for n, deal in enumerate(game.deals, 1) if deal.is_over and deal.tricks]


class AnalysisProgress(Message):
    """``done`` of ``total`` decisions of ``deal`` analysed (0 of 0: the deal starts)."""

    def __init__(self, deal: int, done: int, total: int) -> None:
        super().__init__()
        self.deal = deal
        self.done = done
        self.total = total


class AnalysisDone(Message):
    """A deal's analysis, or why it could not be made."""

    def __init__(self, deal: int, result: DealAnalysis | None, problem: str | None) -> None:
        super().__init__()
        self.deal = deal
        self.result = result
        self.problem = problem


class AnalysisScreen(NilScreen):
    """The analysis of one deal (``deal``, 1-based) or of every finished deal (None) of
    ``game``, for ``seat``. ``note`` is shown under the title (whose plays these are);
    ``first`` is the deal shown first."""

    DEFAULT_CSS = """
    AnalysisScreen { layout: vertical; }
    AnalysisScreen #analysis-head { height: auto; padding: 0 1; }
    AnalysisScreen #analysis-progress { height: 1; padding: 0 1; }
    AnalysisScreen #analysis-progress-label { width: auto; margin-right: 2; }
    AnalysisScreen #analysis-costly { height: auto; max-height: 9; padding: 0 1; }
    AnalysisScreen #analysis-table { height: 1fr; min-height: 4; }
    AnalysisScreen #analysis-detail { height: auto; max-height: 4; padding: 0 1;
                                      color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Back"),
        Binding("n", "deal(1)", "Next deal"),
        Binding("p", "deal(-1)", "Prev deal"),
        Binding("question_mark,f1", "app.rules", "Rules", show=False),
    ]

    def __init__(self, game: Game, deal: int | None, seat: int, ascii: bool, *,
                 note: str | None = None, first: int | None = None) -> None:
        super().__init__()
        # A copy: the game in progress goes on (the next deal) while this one is analysed.
        self.game = Game.from_record(game.to_record())
        self.seat = seat
        self.look = CardLook(ascii=ascii)
        self.note = note
        self.deals = [deal] if deal is not None else finished_deals(self.game)
        self.index = self.deals.index(first) if first in self.deals else 0
        self.results: dict[int, DealAnalysis] = {}
        self.problems: dict[int, str] = {}
        self.cached: set[int] = set()  # deals read from the store, not computed here
        self.running: int | None = None  # the deal being analysed
        self._stop = threading.Event()
        self._rows: list[Decision] = []
        self._composed = False

    # --- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="analysis-head")
        with Horizontal(id="analysis-progress"):
            yield Static(id="analysis-progress-label")
            yield ProgressBar(id="analysis-bar", show_eta=False)
        yield Static(id="analysis-costly")
        yield DataTable(id="analysis-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="analysis-detail")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("Trick", key="trick")
        table.add_column("You played", key="played")
        table.add_column("Best", key="best")
        table.add_column("Cost", key="cost")
        table.add_column("+/-" if self.look.ascii else "±", key="se")
        table.add_column("", key="note")
        self._composed = True
        self.set_focus(table)
        missing = [d for d in self.deals if not self._from_store(d)]
        self.query_one("#analysis-progress").display = bool(missing)
        if missing:
            self.analyse(missing)
        self.show()

    @property
    def deal(self) -> int | None:
        return self.deals[self.index] if self.deals else None

    # --- the store ------------------------------------------------------------------------
    def _key(self, deal: int) -> str | None:
        from ...analysis import cache_key

        try:
            return str(cache_key(self.game, deal, self.seat))
        except Exception:  # noqa: BLE001 - without a key the deal is simply computed
            return None

    def _from_store(self, deal: int) -> bool:
        """The deal's analysis kept by an earlier run, if the store has it."""
        from ...analysis import DealAnalysis

        key = self._key(deal)
        if key is None:
            return False
        try:
            data = self.nil_app.store.computed(key)
            if data is None:
                return False
            # Kept for the same cards and plays, maybe from another game: numbered as here.
            self.results[deal] = DealAnalysis.from_json(data).with_deal(deal)
        except Exception:  # noqa: BLE001 - a damaged or unreadable entry is computed again
            return False
        self.cached.add(deal)
        return True

    def _keep(self, deal: int, result: DealAnalysis) -> None:
        key = self._key(deal)
        if key is None:
            return
        # Not kept (a store that cannot write): it is computed again next time.
        with contextlib.suppress(Exception):
            self.nil_app.store.remember(key, result.to_json())

    # --- the work -------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="analysis")
    def analyse(self, deals: list[int]) -> None:
        """In a thread: each deal in turn (the analysis itself uses worker processes)."""
        from ...analysis import analyse_deal

        for deal in deals:
            if self._stop.is_set():
                return
            self.post_message(AnalysisProgress(deal, 0, 0))

            def progress(done: int, total: int, deal: int = deal) -> None:
                self.post_message(AnalysisProgress(deal, done, total))

            try:
                result = analyse_deal(self.game, deal, self.seat, progress=progress,
                                      should_stop=self._stop.is_set)
            except Exception as exc:  # noqa: BLE001 - said on the screen, never a traceback
                self.post_message(AnalysisDone(deal, None, short_text(exc)))
                continue
            if result is None:  # stopped
                return
            self.post_message(AnalysisDone(deal, result, None))

    def on_analysis_progress(self, message: AnalysisProgress) -> None:
        self.running = message.deal
        left = sum(1 for d in self.deals if d not in self.results and d not in self.problems)
        label = Text(f"Analysing deal {message.deal}", style="bold")
        if message.total:
            label.append(f": {message.done} of {message.total} plays")
        if left > 1:
            label.append(f" ({left} deals to go)", style="dim")
        self.query_one("#analysis-progress-label", Static).update(label)
        bar = self.query_one(ProgressBar)
        bar.update(total=message.total or None, progress=message.done)
        if message.deal == self.deal:
            self.show()

    def on_analysis_done(self, message: AnalysisDone) -> None:
        if message.result is not None:
            self.results[message.deal] = message.result
            self._keep(message.deal, message.result)
        else:
            self.problems[message.deal] = one_line(message.problem or "unknown problem")
        if all(d in self.results or d in self.problems for d in self.deals):
            self.running = None
            self.query_one("#analysis-progress").display = False
        if message.deal == self.deal:
            self.show()

    # --- drawing --------------------------------------------------------------------------
    def _whose(self) -> str:
        return "your" if self.note is None else f"{SEAT_NAMES[self.seat]}'s"

    def show(self) -> None:
        if not self._composed:
            return
        deal = self.deal
        head = Text(f"Analysis of {self._whose()} plays", style="bold")
        if deal is not None:
            head.append(f": deal {deal} of {self.game.deals_planned}", style="bold")
            if len(self.deals) > 1:
                others = len(self.deals) - 1
                head.append(f"   (n/p: the other {count(others, 'deal')})", style="dim")
        head.append("\nEstimates from what you could see at each play, never the hidden hands.",
                    style="dim")
        if self.note:
            head.append(f"\n{self.note}", style="italic")
        self.query_one("#analysis-head", Static).update(head)
        self.query_one("#analysis-costly", Static).update(self._costly_text(deal))
        self._fill_table(self.results.get(deal) if deal is not None else None)

    def _costly_text(self, deal: int | None) -> Text:
        if deal is None:
            return Text("No deal of this game is finished: there is nothing to analyse yet.")
        result = self.results.get(deal)
        if result is None:
            if deal in self.problems:
                return Text(f"Deal {deal} could not be analysed: {self.problems[deal]}",
                            style="bold red")
            if self.running == deal:
                return Text(f"Deal {deal} is being analysed…" if not self.look.ascii else
                            f"Deal {deal} is being analysed...", style="dim")
            return Text(f"Deal {deal} waits its turn to be analysed.", style="dim")
        costly = result.costly(COSTLY)
        text = Text()
        total = result.total_cost
        if not costly:
            text.append("No play cost 0.1 points or more by these estimates", style="green")
            text.append(f" (about {total:.1f} in all)." if total >= 0.05 else ".")
            return text
        text.append(f"Your plays cost about {total:.1f} points in all against the best cards; "
                    if self.note is None else
                    f"South's plays cost about {total:.1f} points in all against the best "
                    "cards; ", style="bold")
        text.append("the costly ones:" if len(costly) > 1 else "the costly one:", style="bold")
        for decision in costly[:SHOWN_SENTENCES]:
            text.append("\n" + self._sentence(decision))
        if len(costly) > SHOWN_SENTENCES:
            more = len(costly) - SHOWN_SENTENCES
            text.append(f"\n…and {more} more, marked ! below." if not self.look.ascii else
                        f"\n...and {more} more, marked ! below.", style="dim")
        return text

    def _sentence(self, decision: Decision) -> str:
        subject = None if self.note is None else SEAT_NAMES[self.seat]
        return str(decision.sentence(ascii=self.look.ascii, subject=subject))

    def _fill_table(self, result: DealAnalysis | None) -> None:
        table = self.query_one(DataTable)
        rows = list(result.decisions) if result is not None else []
        if rows == self._rows and table.row_count == len(rows):
            return
        self._rows = rows
        table.clear()
        look = self.look
        for decision in rows:
            costly = decision.cost >= COSTLY and not decision.forced
            if decision.forced:
                cost, se = Text("-", style="dim"), Text("")
                note = Text(decision.no_choice or "", style="dim")
            else:
                cost = Text(f"{decision.cost:.2f}", style="bold red" if costly else "")
                se = Text(f"{decision.cost_se:.2f}", style="dim")
                note = Text("!", style="bold red") if costly else Text("")
            table.add_row(str(decision.trick), look.styled(decision.played),
                          look.styled(decision.best, bold=False), cost, se, note)
        self._show_detail()

    def _show_detail(self) -> None:
        table = self.query_one(DataTable)
        detail = self.query_one("#analysis-detail", Static)
        row = table.cursor_row
        if not self._rows or not 0 <= row < len(self._rows):
            detail.update("")
            return
        detail.update(self.detail_text(self._rows[row]))

    def detail_text(self, decision: Decision) -> Text:
        """Every legal card of a decision with its expected points, best first."""
        look = self.look
        if decision.forced or not decision.options:
            return Text(self._sentence(decision))
        text = Text(f"Trick {decision.trick}, expected points for the rest of the deal")
        if decision.layouts:
            text.append(f" (over {decision.layouts} layouts of the unseen cards)")
        text.append(":\n")
        options = sorted(decision.options, key=lambda o: (-o.points, o.card))
        for n, option in enumerate(options):
            if n:
                text.append("  ")
            text.append_text(look.styled(option.card, bold=option.card == decision.played))
            text.append(f" {option.points:.2f}")
        if decision.was_clean and not decision.forced:
            played = next((o for o in options if o.card == decision.played), None)
            best = next((o for o in options if o.card == decision.best), None)
            if played is not None and best is not None:
                text.append("\nChance to stay clean: ")
                text.append_text(look.styled(decision.played, bold=False))
                text.append(f" {percent(played.clean)}")
                if best.card != played.card:
                    text.append(", ")
                    text.append_text(look.styled(decision.best, bold=False))
                    text.append(f" {percent(best.clean)}")
        return text

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_detail()

    # --- keys -----------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "deal" and len(self.deals) < 2:
            return False
        return super().check_action(action, parameters)

    def action_deal(self, step: int) -> None:
        if not self.deals:
            return
        self.index = (self.index + step) % len(self.deals)
        self._rows = []
        self.show()

    def action_close(self) -> None:
        """Back, and the analysis still running stops."""
        self.stop()
        close_screen(self)

    def stop(self) -> None:
        self._stop.set()
        self.workers.cancel_group(self, "analysis")

    def on_unmount(self) -> None:
        self.stop()

    @property
    def finished(self) -> bool:
        """Every deal asked for is analysed (or could not be)."""
        return all(d in self.results or d in self.problems for d in self.deals)


def analysis_of(game: Game, deal: int | None, ascii: bool, **kwargs: Any) -> AnalysisScreen:
    """The analysis screen for the person's seat of ``game`` (South for bots only)."""
    seat, note = analysed_seat(game)
    return AnalysisScreen(game, deal, seat, ascii, note=note, **kwargs)
