"""The deal summary / scoreboard (after every deal, and on ``s``), with the trick that ended
the deal; the review screen shows the hands as dealt and that trick with all four hands."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import events
from textual._time import get_time
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Static

from ...engine import Deal, Game, describe_result, lowest
from ..widgets.cards import CardLook
from ..widgets.trick import TrickInfo, TrickView
from ..words import SEAT_LABELS, Labels, seat_labels, seat_subject
from .base import NilScreen
from .review import ANALYSIS_WAITS

KEY_GRACE = 0.8
"""Seconds after the summary's first frame during which Enter and Space do not go on to the
next deal (a key held down to play the last card), except at the instant speed."""


def deals_table(game: Game, labels: Labels = SEAT_LABELS) -> Table:
    """Every finished deal (rows) by player (columns), with totals."""
    table = Table(expand=False, show_footer=True, header_style="bold", footer_style="bold",
                  title_style="bold")
    table.add_column("Deal", justify="right", footer="Total")
    totals = game.totals
    for s, name in enumerate(labels):
        table.add_column(name, justify="right", footer=str(totals[s]))
    table.add_column("", justify="left", style="dim")
    agreed = 0
    for deal in game.deals:
        label = "tie" if deal.rule.tiebreak else str(agreed := agreed + 1)
        if not deal.is_over:
            table.add_row(label, *["·"] * 4, "playing")
            continue
        pts = deal.points
        note = "early" if deal.ended_early else "13 tricks"
        if deal.rule.is_pool:
            note += f", pool {deal.settle().pool}"
        table.add_row(label, *[str(p) if p else "-" for p in pts], note)
    return table


def deal_label(game: Game, deal: Deal) -> str:
    """"Deal 3 of 8", or under the pool scoring "The tie-break deal" (it is not one of the
    agreed deals, which it does not count in)."""
    if deal.rule.tiebreak:
        return "The tie-break deal"
    number = sum(1 for d in game.deals[:game.deals.index(deal) + 1] if not d.rule.tiebreak)
    return f"Deal {number} of {game.deals_planned}"


def names_list(seats: tuple[int, ...] | list[int], *, start: bool = True,
               labels: Labels = SEAT_LABELS) -> str:
    """"You", "You and West", "You, West and North"; within a sentence (``start`` False)
    "you", "you and West"."""
    names = ["you" if seat == 0 and (k or not start) else labels[seat]
             for k, seat in enumerate(seats)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def challenge_words(game: Game) -> str:
    """" (daily challenge 2026-11-30)" for a daily challenge's game, else nothing."""
    return "" if game.challenge is None else f" (daily challenge {game.challenge['date']})"


def standings_text(game: Game, final: bool, labels: Labels = SEAT_LABELS) -> Text:
    """The standings; between deals also who would crawl under the table if the game ended
    now (at the end the game-over headline says who does)."""
    totals = game.totals
    order = sorted(range(4), key=lambda s: (-totals[s], s))
    text = Text()
    text.append("Standings: ", style="bold")
    text.append(",  ".join(f"{labels[s]} {totals[s]}" for s in order))
    if game.scoring == "pool":
        text.append(f",  pool {game.pool}" + (" (nobody's)" if final else ""), style="yellow")
    if final:
        return text
    text.append("\n")
    losers = lowest(totals)
    if not losers:
        text.append("All four are level: nobody goes under the table if the game ended now.")
    else:
        text.append(f"If the game ended now, {names_list(losers, start=False, labels=labels)} would crawl "
                    "under the table.", style="red")
    return text


def last_deal_text(game: Game, labels: Labels = SEAT_LABELS) -> Text | None:
    """How the last finished deal was scored and who took how many tricks; None before the
    first deal is over."""
    last = next((d for d in reversed(game.deals) if d.is_over), None)
    if last is None:
        return None
    text = Text(f"{deal_label(game, last)}: ", style="bold")
    text.append(describe_result(last.taken, last.points, labels, last.rule))
    tk = ", ".join(f"{labels[s]} {last.taken[s]}" for s in range(4))
    text.append(f"\nTricks taken: {tk}", style="dim")
    return text


def ending_trick_info(deal: Deal, labels: Labels = SEAT_LABELS) -> TrickInfo:
    """The trick that ended a deal, its winner marked, with who led and who took it."""
    trick = deal.tricks[-1]
    placed = tuple((trick.player_of(k), c) for k, c in enumerate(trick.cards))
    winner = "you" if trick.winner == 0 else seat_subject(trick.winner, labels)
    caption = f"{seat_subject(trick.leader, labels)} led, {winner} took it"
    return TrickInfo(placed, trick.winner, caption)


class SummaryScreen(NilScreen):
    """What happened in the last deal, every deal so far, standings, who is under the table.
    Between deals it also shows the trick that ended the deal; ``d`` opens the review at the
    hands as dealt, ``t`` at that last trick with all four hands."""

    DEFAULT_CSS = """
    SummaryScreen #summary { padding: 0 2; }
    SummaryScreen #summary > Static { margin-bottom: 1; }
    SummaryScreen #summary-row { height: auto; margin-bottom: 1; }
    SummaryScreen #summary-table { width: auto; }
    SummaryScreen #summary-trick { height: 8; width: 28; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "close", "Next deal"),
        Binding("escape,s", "close", "Back", show=False),
        Binding("d", "review(0)", "Hands dealt"),
        Binding("t", "review(1)", "Last trick"),
        Binding("a", "analyse", "Analysis"),
        Binding("question_mark,f1", "app.rules", "Rules"),
        Binding("q", "app.request_quit", "Quit"),
    ]

    def __init__(self, game: Game, between_deals: bool, look: CardLook | None = None,
                 speed: str = "instant", home: int = 0) -> None:
        super().__init__()
        self.game = game
        self.home = home
        self.labels = seat_labels(home)  # the true seats, for a seat at a shared table
        self.between_deals = between_deals
        self.look = look or CardLook()
        # Keys typed before the page was on screen were meant for the table (the last card,
        # a second Enter queued behind it): they do not go past a page nobody has seen.
        self._shown_at = float("inf")
        self._grace = 0.0 if speed == "instant" else KEY_GRACE

    @property
    def finished_deal(self) -> int | None:
        """The index of the last finished deal that has a trick, or None."""
        for index in range(len(self.game.deals) - 1, -1, -1):
            deal = self.game.deals[index]
            if deal.is_over and deal.tricks:
                return index
        return None

    def compose(self) -> ComposeResult:
        game = self.game
        with VerticalScroll(id="summary"):
            last = next((d for d in reversed(game.deals) if d.is_over), None)
            if self.between_deals and last is not None:
                head = Text(f"{deal_label(game, last)} is over"
                            f"{challenge_words(game)}", style="bold")
                head.append("\n")
                head.append(describe_result(last.taken, last.points, self.labels, last.rule))
                tk = ", ".join(f"{self.labels[s]} {last.taken[s]}" for s in range(4))
                head.append(f"\nTricks taken: {tk}", style="dim")
            elif game.is_over:
                head = Text(f"Scoreboard: the game is over{challenge_words(game)}",
                            style="bold")
            else:
                head = Text(f"Scoreboard: deal {game.deal_number} of {game.deals_planned}"
                            f"{challenge_words(game)}", style="bold")
            yield Static(head, id="summary-head")
            with Horizontal(id="summary-row"):
                yield Static(deals_table(game, self.labels), id="summary-table")
                index = self.finished_deal
                if self.between_deals and index is not None:
                    # The trick that ended the deal, beside the scores.
                    trick = TrickView(id="summary-trick")
                    trick.look = self.look
                    trick.info = ending_trick_info(self.game.deals[index], self.labels)
                    yield trick
            yield Static(standings_text(game, game.is_over, self.labels), id="summary-standings")
            hint = ("Enter: next deal   d: the hands as dealt   t: the last trick with all hands"
                    + ("\n" + ANALYSIS_WAITS if self.game.challenge_under_way else
                       "\na: the analysis of your plays in this deal")
                    if self.between_deals else "Enter or Esc: back" if game.is_over
                    else "Enter or Esc: back to the table")
            yield Static(Text(hint, style="dim"), id="summary-hint")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.call_after_refresh(self._first_frame)

    def _first_frame(self) -> None:
        self._shown_at = get_time()
        self.refresh_bindings()

    def on_key(self, event: events.Key) -> None:
        """A key typed before the page's first frame is dropped, and for a moment after it
        Enter and Space too (a key held down); keys carry the time they were typed, so a
        busy moment does not let one through late."""
        settled = self._shown_at + (self._grace if event.key in ("enter", "space") else 0.0)
        if event.time < settled:
            event.stop()
            event.prevent_default()

    def action_close(self) -> None:
        self.dismiss(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("review", "analyse") and (not self.between_deals
                                                or self.finished_deal is None):
            return False
        if action == "analyse" and self.game.challenge_under_way:
            return False
        if action in ("close", "review", "analyse") and self._shown_at == float("inf"):
            # Not drawn yet: a key for it was typed at the table (one queued behind the
            # card that ended the deal comes up to the app's keys only once this is in front).
            return None
        return super().check_action(action, parameters)

    def action_review(self, at_end: int) -> None:
        """The review of the deal just finished: at the hands as dealt, or at its last
        trick (all four hands as they stood)."""
        from .review import ReviewScreen

        index = self.finished_deal
        if index is None:
            return
        review = ReviewScreen(self.game, "The game so far", self.look, self.home)
        # Placed before it is shown (set without the watchers, which would go to step 0).
        review.set_reactive(ReviewScreen.deal_index, index)
        review.set_reactive(ReviewScreen.step,
                            len(self.game.deals[index].tricks) if at_end else 0)
        self.app.push_screen(review)
        # Drawn at that place once it is mounted, unless a key closed it before then.
        self.app.call_after_refresh(lambda: review.show() if review.is_attached else None)


    def action_analyse(self) -> None:
        """The analysis of your plays in the deal just finished (computed in the background;
        Enter on the summary goes on meanwhile once you come back)."""
        from .analysis import analysis_of

        index = self.finished_deal
        if index is None:
            return
        self.app.push_screen(analysis_of(self.game, index + 1, self.look.ascii))


class ScoresScreen(SummaryScreen, inherit_bindings=False):
    """The scoreboard in the middle of a deal (``s``): the same page, and back to the table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape,s", "close", "Back"),
        Binding("question_mark,f1", "app.rules", "Rules"),
        Binding("q", "app.request_quit", "Quit"),
    ]

    def __init__(self, game: Game, home: int = 0) -> None:
        super().__init__(game, between_deals=False, home=home)
