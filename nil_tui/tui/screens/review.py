"""Review a game: step through each deal trick by trick with all four hands shown."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import Footer, Static

from ...engine import SEAT_NAMES, Card, Deal, Game, describe_result
from ...util.textsafe import one_line
from ..widgets.cards import CardLook
from ..widgets.trick import TrickInfo, TrickView
from .base import NilScreen, close_screen
from .table_words import cut_trick

ANALYSIS_WAITS = "The analysis of your plays opens once the challenge is over (in history)."


def hand_lines(cards: tuple[Card, ...], look: CardLook) -> Text:
    """A hand as one line per suit, high cards first: "♠ A K 10 7"."""
    text = Text()
    for suit in (3, 2, 1, 0):
        if suit != 3:
            text.append("\n")
        text.append(look.suit_text(suit) + " ", style=look.colour(suit))
        ranks = [c.rank_label for c in sorted(cards, reverse=True) if c.suit == suit]
        text.append(" ".join(ranks) if ranks else "—")
    return text


class ReviewScreen(NilScreen):
    """All four hands and each trick of a completed (or saved) game."""

    DEFAULT_CSS = """
    ReviewScreen #review-title { height: 1; padding: 0 1; background: $panel;
                                 text-wrap: nowrap; text-overflow: ellipsis; }
    ReviewScreen #review-head { height: auto; padding: 0 1; background: $panel; }
    ReviewScreen #review-table { height: 1fr; align-horizontal: center; }
    ReviewScreen .review-hand { width: 24; height: 5; padding: 0 1; }
    ReviewScreen .review-row { height: auto; align: center top; }
    ReviewScreen #review-middle { height: 9; }
    ReviewScreen #review-trick { width: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,d,space", "step(1)", "Next trick"),
        Binding("left,a", "step(-1)", "Previous"),
        Binding("down,pagedown,n", "deal(1)", "Next deal"),
        # (hidden from the footer, so that it fits 80 columns with keys in words: up goes
        # back a deal as down goes on, and ? is the rules everywhere)
        Binding("up,pageup,p", "deal(-1)", "Prev deal", show=False),
        Binding("home", "ends(0)", "First", show=False),
        Binding("end", "ends(1)", "Last", show=False),
        Binding("e", "analyse(0)", "Analysis"),
        Binding("E", "analyse(1)", "Analysis of every deal", show=False),
        Binding("escape,q", "close", "Back"),
        Binding("question_mark,f1", "app.rules", "Rules", show=False),
    ]

    deal_index: reactive[int] = reactive(0)
    step: reactive[int] = reactive(0)

    def __init__(self, game: Game, title: str | None = None, look: CardLook | None = None,
                 home: int = 0) -> None:
        super().__init__()
        self.game = game
        # Each seat by its true name (a shared table's game is turned: its seat 0 sits there).
        self.names = tuple(SEAT_NAMES[(seat + home) & 3] for seat in range(4))
        # The title may quote a file's name or the store's words: shown, never obeyed.
        self.title_text = one_line(title or
                                   f"Game of {game.deals_planned} deals (seed {game.seed})")
        self.look = look or CardLook()
        self._ready = False  # the widgets exist (``is_mounted`` is still False in on_mount)

    def compose(self) -> ComposeResult:
        yield Static(Text(self.title_text, style="bold"), id="review-title")
        yield Static(id="review-head")
        with Vertical(id="review-table"):
            with Horizontal(classes="review-row"):
                yield Static(id="hand-2", classes="review-hand")
            with Horizontal(id="review-middle"):
                yield Static(id="hand-1", classes="review-hand")
                yield TrickView(id="review-trick")
                yield Static(id="hand-3", classes="review-hand")
            with Horizontal(classes="review-row"):
                yield Static(id="hand-0", classes="review-hand")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one(TrickView).look = self.look
        self._ready = True
        self.show()

    def watch_deal_index(self) -> None:
        self.step = 0
        self.show()

    def watch_step(self) -> None:
        self.show()

    @property
    def deal(self) -> Deal:
        return self.game.deals[self.deal_index]

    @property
    def steps(self) -> int:
        """Tricks to step through: the completed ones, and an unfinished last one."""
        deal = self.deal
        return len(deal.tricks) + (1 if deal.trick else 0)

    def position(self) -> Deal:
        """The deal as it stood after ``step`` tricks, replayed by the engine."""
        deal = self.deal
        at = Deal.from_hands([deal.dealt_hand(s) for s in range(4)], deal.dealer)
        at.rule = deal.rule  # (a tie-break deal ends as it did)
        for trick in deal.tricks[: self.step]:
            for card in trick.cards:
                at.play(card)
        if self.step > len(deal.tricks):
            for card in deal.trick:
                at.play(card)
        return at

    def show(self) -> None:
        if not self._ready:
            return
        deal = self.deal
        step = self.step
        at = self.position()
        taken = at.taken
        for seat in range(4):
            head = Text(f"{self.names[seat]}", style="bold")
            if deal.dealer == seat:
                head.append(" (dealer)", style="dim")
            head.append(f"  {taken[seat]} tk" if taken[seat] else "  clean",
                        style="" if taken[seat] else "green")
            head.append("\n")
            head.append_text(hand_lines(at.hand(seat), self.look))
            self.query_one(f"#hand-{seat}", Static).update(head)
        self.query_one(TrickView).info = self._trick_info(at)
        # Two lines that never wrap: the title (cut short with a mark if the terminal is too
        # narrow), then where you are, counted against the game's planned deals.
        planned = self.game.deals_planned
        played = len(self.game.deals)
        head = Text(f"deal {self.deal_index + 1} of {planned}")
        if played < planned:
            head.append(f" ({played} dealt so far)")
        head.append(f", trick {step} of {self.steps}")
        if deal.is_over and step == self.steps:
            head.append("   " + describe_result(deal.taken, deal.points,
                                                self.names, deal.rule), style="cyan")
        self.query_one("#review-head", Static).update(head)

    def _trick_info(self, at: Deal) -> TrickInfo:
        step = self.step
        if step == 0:
            cut = self.game.cut if self.deal_index == 0 else None
            if cut is None:
                return TrickInfo((), None, "The hands as dealt")
            shown = cut_trick(cut, (self.names[0], self.names[1], self.names[2], self.names[3]))
            return shown._replace(caption=f"{shown.caption}; the hands as dealt")
        if step <= len(at.tricks):
            trick = at.tricks[step - 1]
            placed = tuple((trick.player_of(k), c) for k, c in enumerate(trick.cards))
            return TrickInfo(placed, trick.winner,
                             f"Trick {step}: {self.names[trick.winner]} wins")
        placed = tuple(((at.leader + k) & 3, c) for k, c in enumerate(at.trick))
        return TrickInfo(placed, None, f"Trick {step}: unfinished")

    def action_step(self, delta: int) -> None:
        self.step = min(max(self.step + delta, 0), self.steps)

    def action_ends(self, last: int) -> None:
        self.step = self.steps if last else 0

    def action_deal(self, delta: int) -> None:
        self.deal_index = min(max(self.deal_index + delta, 0), len(self.game.deals) - 1)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "analyse" and self.game.challenge_under_way:
            return False
        return super().check_action(action, parameters)

    def on_key(self, event: events.Key) -> None:
        """``e`` / ``E`` (hidden during a challenge under way) say when the analysis opens."""
        if event.character in ("e", "E") and self.game.challenge_under_way:
            event.stop()
            self.notify(ANALYSIS_WAITS, severity="warning")

    def action_analyse(self, every: int) -> None:
        """The analysis of the deal on show (``e``), or of every finished deal (``E``)."""
        from .analysis import analysis_of, finished_deals

        if self.game.challenge_under_way:
            self.notify(ANALYSIS_WAITS, severity="warning")
            return

        number = self.deal_index + 1
        deals = finished_deals(self.game)
        if not deals:
            self.notify("No deal of this game is finished: there is nothing to analyse yet.",
                        severity="warning")
            return
        if not every and number not in deals:
            self.notify("This deal is not finished: only a finished deal can be analysed "
                        "(E: every finished deal).", severity="warning")
            return
        self.app.push_screen(analysis_of(self.game, None if every else number,
                                         self.look.ascii,
                                         first=number if number in deals else None))

    def action_close(self) -> None:
        close_screen(self)
