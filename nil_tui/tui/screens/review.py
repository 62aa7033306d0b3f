"""Review a game: step through each deal trick by trick with all four hands shown."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Static

from ...engine import SEAT_NAMES, Card, Deal, Game, describe_result
from ..widgets.cards import CardLook
from ..widgets.trick import TrickInfo, TrickView


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


class ReviewScreen(Screen[None]):
    """All four hands and each trick of a completed (or saved) game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,d,space", "step(1)", "Next trick"),
        Binding("left,a", "step(-1)", "Previous"),
        Binding("down,pagedown,n", "deal(1)", "Next deal"),
        Binding("up,pageup,p", "deal(-1)", "Prev deal"),
        Binding("home", "ends(0)", "First", show=False),
        Binding("end", "ends(1)", "Last", show=False),
        Binding("escape,q", "close", "Back"),
        Binding("question_mark,f1", "app.rules", "Rules"),
    ]

    deal_index: reactive[int] = reactive(0)
    step: reactive[int] = reactive(0)

    def __init__(self, game: Game, title: str | None = None, look: CardLook | None = None
                 ) -> None:
        super().__init__()
        self.game = game
        self.title_text = title or f"Game of {game.deals_planned} deals (seed {game.seed})"
        self.look = look or CardLook()

    def compose(self) -> ComposeResult:
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
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(TrickView).look = self.look
        self.show()

    @property
    def deal(self) -> Deal:
        return self.game.deals[self.deal_index]

    def _tricks(self) -> list[tuple[int, tuple[Card, ...], int | None]]:
        """(leader, cards, winner) of each trick of the deal, the unfinished one included."""
        deal = self.deal
        out: list[tuple[int, tuple[Card, ...], int | None]] = [
            (t.leader, t.cards, t.winner) for t in deal.tricks]
        if deal.trick:
            out.append((deal.leader, deal.trick, None))
        return out

    def show(self) -> None:
        deal = self.deal
        tricks = self._tricks()
        step = min(self.step, len(tricks))
        played: set[Card] = set()
        for leader, cards, _ in tricks[:step]:
            played.update(cards)
        taken = [0, 0, 0, 0]
        for _, _, w in tricks[:step]:
            if w is not None:
                taken[w] += 1
        for seat in range(4):
            cards = tuple(c for c in deal.dealt_hand(seat) if c not in played)
            head = Text(f"{SEAT_NAMES[seat]}", style="bold")
            if deal.dealer == seat:
                head.append(" (dealer)", style="dim")
            head.append(f"  {taken[seat]} tk" if taken[seat] else "  clean",
                        style="" if taken[seat] else "green")
            head.append("\n")
            head.append_text(hand_lines(cards, self.look))
            self.query_one(f"#hand-{seat}", Static).update(head)
        if step == 0:
            self.query_one(TrickView).info = TrickInfo((), None, "The hands as dealt")
        else:
            leader, cards, winner = tricks[step - 1]
            placed = tuple(((leader + k) & 3, c) for k, c in enumerate(cards))
            caption = (f"Trick {step}: {SEAT_NAMES[winner]} wins" if winner is not None
                       else f"Trick {step}: unfinished")
            self.query_one(TrickView).info = TrickInfo(placed, winner, caption)
        head = Text(self.title_text, style="bold")
        head.append(f"   deal {self.deal_index + 1} of {len(self.game.deals)}, "
                    f"trick {step} of {len(tricks)}")
        if deal.is_over and step == len(tricks):
            head.append("   " + describe_result(deal.taken, deal.points, deal.ended_early,
                                                SEAT_NAMES), style="cyan")
        self.query_one("#review-head", Static).update(head)

    def action_step(self, delta: int) -> None:
        total = len(self._tricks())
        self.step = min(max(self.step + delta, 0), total)
        self.show()

    def action_ends(self, last: int) -> None:
        self.step = len(self._tricks()) if last else 0
        self.show()

    def action_deal(self, delta: int) -> None:
        index = min(max(self.deal_index + delta, 0), len(self.game.deals) - 1)
        if index != self.deal_index:
            self.deal_index = index
            self.step = 0
            self.show()

    def action_close(self) -> None:
        if not self.is_active:
            return
        if len(self.app.screen_stack) <= 2:
            self.app.exit()
        else:
            self.dismiss(None)
