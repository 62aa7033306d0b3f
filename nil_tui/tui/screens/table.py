"""The table: the screen that owns the Game, asks the bots (in a worker thread) and turns
the engine's events into the log, the trick, the seats and the scoreboard."""

from __future__ import annotations

import threading
import time
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static

from ...engine import Card, CardPlayed, DealEnded, Game, GameEnded, Phase, Suit, Trick, TrickWon
from ...options import PlayOptions
from ..messages import BotChose, BotFailed, HintReady
from ..widgets.cards import CardLook
from ..widgets.gamelog import GameLog
from ..widgets.hand import Hand
from ..widgets.scoreboard import Scoreboard, ScoreInfo
from ..widgets.seat import Seat, SeatInfo
from ..widgets.trick import TrickInfo, TrickView
from ..words import count

if TYPE_CHECKING:
    from ..app import NilApp

# Seconds a bot's card waits before it lands, and a finished trick stays in view, by speed.
PAUSES: dict[str, tuple[float, float]] = {
    "instant": (0.0, 0.0),
    "fast": (0.15, 0.6),
    "normal": (0.45, 1.3),
    "slow": (0.9, 2.5),
}
SEAT_LABELS = ("You", "West", "North", "East")


def seat_subject(seat: int) -> str:
    return "You" if seat == 0 else SEAT_LABELS[seat]


def verb(seat: int, plain: str, third: str) -> str:
    return plain if seat == 0 else third


class TableScreen(Screen[None]):
    """One game, from its current position to the game-over screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,a", "move(-1)", "Left", show=False),
        Binding("right,d", "move(1)", "Right", show=False),
        Binding("enter,space", "play", "Play card", priority=False),
        Binding("s", "scoreboard", "Scores"),
        Binding("t", "last_trick", "Last trick"),
        Binding("h", "hint", "Hint"),
        Binding("question_mark,f1", "app.rules", "Rules"),
        Binding("q", "app.request_quit", "Quit"),
    ]

    def __init__(self, game: Game, options: PlayOptions) -> None:
        super().__init__()
        self.game = game
        self.options = options
        self.look = CardLook(options.ascii, options.four_color)
        self.turn = 0  # counts plays: a bot's answer is for one turn only
        self._asked: int | None = None  # the turn a bot is deciding
        self._thinking: int | None = None
        self._holding: Trick | None = None
        self._hold_timer: Timer | None = None
        self._pending: BotChose | None = None
        self._peeking = False  # the last trick is on show (``t``) until a key
        self._moved_while_waiting = False
        self._finished = False
        self._bots: dict[int, Any] = {}
        self._bot_lock = threading.Lock()
        self._levels = self._level_titles()
        self._your_turn_started = -1

    # --- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="table-top"):
            with Vertical(id="felt"):
                with Horizontal(id="north-row"):
                    yield Seat(id="seat-2", classes="seat-north")
                with Horizontal(id="middle"):
                    yield Seat(id="seat-1", classes="seat-side")
                    yield TrickView(id="trick")
                    yield Seat(id="seat-3", classes="seat-side")
            with Vertical(id="side"):
                yield Scoreboard(id="scoreboard")
                yield GameLog(id="log")
        yield Static(id="status")
        yield Static(id="south")
        yield Hand(id="hand")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(TrickView).look = self.look
        self.query_one(Hand).look = self.look
        self.set_focus(self.query_one(Hand))
        game = self.game
        log = self.query_one(GameLog)
        if game.deal.tricks or game.deal.trick or game.deal_number > 1:
            log.add(Text(f"Game resumed: deal {game.deal_number} of {game.deals_planned}.",
                         style="bold"))
        self._log_deal_start()
        if not game.deal.tricks and not game.deal.trick:
            self._save()  # a deal starts
        self.refresh_view()
        self.call_after_refresh(self.advance)

    @property
    def nil_app(self) -> NilApp:
        return self.app  # type: ignore[return-value]

    def _level_titles(self) -> list[str]:
        from ...bots import LEVELS

        titles = ["you"]
        for spec in self.options.bots:
            level = LEVELS.get(spec)
            titles.append(level.title if level else spec.rsplit(":", 1)[-1])
        return titles

    # --- snapshots down -------------------------------------------------------------------
    def refresh_view(self) -> None:
        game = self.game
        deal = game.deal
        to_move = None if self._holding is not None else deal.to_move
        sizes = [len(deal.hand(s)) for s in range(4)]
        taken = deal.taken
        for seat in (1, 2, 3):
            self.query_one(f"#seat-{seat}", Seat).info = SeatInfo(
                name=SEAT_LABELS[seat], level=self._levels[seat], cards=sizes[seat],
                tricks=taken[seat], clean=taken[seat] == 0, dealer=deal.dealer == seat,
                to_move=to_move == seat, thinking=self._thinking == seat)
        south = Text()
        south.append("You (South)", style="bold")
        if deal.dealer == 0:
            south.append("  dealer", style="dim")
        south.append(f"  {count(sizes[0], 'card')}  {count(taken[0], 'trick')}  ")
        if taken[0] == 0:
            south.append("● clean", style="bold green")
        else:
            south.append("○ taken", style="dim")
        self.query_one("#south", Static).update(south)
        self.query_one(Scoreboard).info = ScoreInfo(
            names=tuple(SEAT_LABELS), totals=game.totals, taken=taken,
            deal_number=game.deal_number, deals_planned=game.deals_planned)
        if self._holding is not None:
            t = self._holding
            cards = tuple((t.player_of(k), c) for k, c in enumerate(t.cards))
            caption = f"{seat_subject(t.winner)} {verb(t.winner, 'win', 'wins')} the trick"
            if self._peeking:
                caption = f"Last trick: {seat_subject(t.winner)} took it"
            self.query_one(TrickView).info = TrickInfo(cards, t.winner, caption)
        else:
            cards = tuple(((deal.leader + k) & 3, c) for k, c in enumerate(deal.trick))
            self.query_one(TrickView).info = TrickInfo(cards, None, "")
        hand = self.query_one(Hand)
        mine = to_move == 0 and game.phase is Phase.PLAYING
        hand.set_hand(deal.hand(0), frozenset(deal.legal_moves()) if mine else frozenset(), mine)

    def status(self, message: str | Text, warn: bool = False) -> None:
        widget = self.query_one("#status", Static)
        widget.set_class(warn, "-warn")
        widget.update(message)

    # --- the flow of the game -------------------------------------------------------------
    def advance(self) -> None:
        """Do whatever comes next: wait for you, ask a bot, or show the deal's end."""
        if not self.is_active or self._holding is not None or self._finished:
            return
        game = self.game
        phase = game.phase
        if phase is Phase.DEAL_OVER:
            from .summary import SummaryScreen

            self.app.push_screen(SummaryScreen(game, between_deals=True),
                                 self._after_summary)
            return
        if phase is Phase.GAME_OVER:
            self._game_over()
            return
        seat = game.to_move
        if seat == 0:
            if self._your_turn_started != self.turn:
                self._your_turn_started = self.turn
                hand = self.query_one(Hand)
                current = hand.current
                if not (self._moved_while_waiting and current in hand.legal):
                    hand.leftmost_legal()
                self._moved_while_waiting = False
            self.status(self._your_turn_text())
            return
        if self._asked != self.turn:
            self._asked = self.turn
            self._thinking = seat
            self.refresh_view()
            self.status(Text(f"{SEAT_LABELS[seat]} is thinking…", style="dim"))
            view = game.deal.view(seat)
            pause = PAUSES.get(self.options.speed, PAUSES["normal"])[0]
            self.ask_bot(self.turn, seat, view, pause)

    def _your_turn_text(self) -> Text:
        deal = self.game.deal
        text = Text("Your turn", style="bold")
        led = deal.led_suit
        if led is not None and deal.hand_mask(0) and any(c.suit == led for c in deal.hand(0)):
            text.append(f": follow {self.look.suit_text(led)}")
        elif led is not None:
            text.append(f": no {self.look.suit_text(led)}, play any card")
        else:
            text.append(": you lead")
        text.append("   ←/→ choose, Enter plays", style="dim")
        return text

    @work(thread=True, group="bots")
    def ask_bot(self, turn: int, seat: int, view: Any, pause: float) -> None:
        """In a thread: build the seat's bot if needed, ask it (isolated), post its card."""
        from ...bots.safety import choose_safely

        started = time.monotonic()
        bot = self._bot_for(seat)
        choice = choose_safely(bot, view)  # the configured cap (NIL_TUI_BOT_TIME_CAP)
        rest = pause - (time.monotonic() - started)
        if rest > 0:
            time.sleep(rest)
        self.post_message(BotChose(turn, seat, choice.card, choice.incident))

    def _bot_for(self, seat: int) -> Any:
        with self._bot_lock:
            bot = self._bots.get(seat)
            if bot is None:
                from ...bots import BotSpecError, make_bot, seat_seed

                spec = self.options.bots[seat - 1]
                seed = seat_seed(self.game.seed, seat)
                try:
                    bot = make_bot(spec, seed=seed)
                except BotSpecError as exc:
                    from ...options import fallback_spec

                    substitute = fallback_spec(spec)
                    self.post_message(BotFailed(seat, f"{exc}; {substitute} plays instead"))
                    bot = make_bot(substitute, seed=seed)
                self._bots[seat] = bot
            return bot

    def on_bot_failed(self, message: BotFailed) -> None:
        self.query_one(GameLog).add(Text(f"{SEAT_LABELS[message.seat]}: {message.reason}",
                                         style="yellow"))

    def on_bot_chose(self, message: BotChose) -> None:
        if message.turn != self.turn or self.game.to_move != message.seat:
            return  # an answer for a position that is gone
        if not self.is_active or self._peeking:
            self._pending = message
            return
        self._thinking = None
        self._apply(message.seat, message.card, message.incident)

    def on_screen_resume(self) -> None:
        if self._peeking:
            self.refresh_view()
            return
        pending, self._pending = self._pending, None
        if pending is not None and pending.turn == self.turn:
            self._thinking = None
            self._apply(pending.seat, pending.card, pending.incident)
        elif self._holding is not None and self._hold_timer is None:
            self._release_hold()
        else:
            self.refresh_view()
            self.advance()

    def _apply(self, seat: int, card: Card, incident: str | None) -> None:
        game = self.game
        log = self.query_one(GameLog)
        if incident:
            game.record_incident(seat, card, incident)
            log.add(Text(f"⚠ {incident}", style="yellow"))
        events = game.play(card)
        self.turn += 1
        for event in events:
            if isinstance(event, CardPlayed):
                line = Text(f"{seat_subject(event.seat)} {verb(event.seat, 'play', 'plays')} ")
                line.append_text(self.look.styled(event.card))
                log.add(line)
            elif isinstance(event, TrickWon):
                w = event.winner
                line = Text(f"{seat_subject(w)} {verb(w, 'win', 'wins')} the trick with ",
                            style="bold")
                line.append_text(self.look.styled(event.trick.card_of(w)))
                if event.first_trick_for_winner:
                    line.append(" — " + ("you are no longer clean" if w == 0 else
                                         f"{SEAT_LABELS[w]} is no longer clean"))
                log.add(line)
                self._hold(event.trick)
            elif isinstance(event, DealEnded):
                log.add(Text(f"Deal {event.deal_number}: "
                             f"{event.summary(SEAT_LABELS)}", style="bold cyan"))
            elif isinstance(event, GameEnded):
                log.add(Text("The game is over.", style="bold"))
        self._save()
        self.refresh_view()
        self.advance()

    def _hold(self, trick: Trick) -> None:
        pause = PAUSES.get(self.options.speed, PAUSES["normal"])[1]
        if pause <= 0:
            return
        self._holding = trick
        if self._hold_timer is not None:
            self._hold_timer.stop()
        self._hold_timer = self.set_timer(pause, self._hold_over)
        self.status(Text(f"{seat_subject(trick.winner)} "
                         f"{verb(trick.winner, 'take', 'takes')} the trick "
                         "(any key to go on)", style="dim"))

    def _hold_over(self) -> None:
        self._hold_timer = None
        if self.is_active:
            self._release_hold()

    def _release_hold(self) -> None:
        if self._hold_timer is not None:
            self._hold_timer.stop()
            self._hold_timer = None
        self._holding = None
        self._peeking = False
        pending, self._pending = self._pending, None
        if pending is not None and pending.turn == self.turn and self.is_active:
            self._thinking = None
            self._apply(pending.seat, pending.card, pending.incident)
            return
        self._pending = pending
        self.refresh_view()
        self.advance()

    def _log_deal_start(self) -> None:
        deal = self.game.deal
        if deal.tricks or deal.trick:
            return
        self.query_one(GameLog).add(Text(
            f"Deal {self.game.deal_number} of {self.game.deals_planned}: "
            f"{'you deal' if deal.dealer == 0 else SEAT_LABELS[deal.dealer] + ' deals'}; "
            f"{seat_subject((deal.dealer + 1) & 3)} "
            f"{verb((deal.dealer + 1) & 3, 'lead', 'leads')}.", style="bold cyan"))

    def _after_summary(self, _: object = None) -> None:
        if self.game.phase is Phase.DEAL_OVER:
            self.game.next_deal()
            self.turn += 1
            self._log_deal_start()
            self._save()
        self.refresh_view()
        self.advance()

    def _save(self) -> None:
        if not self.game.is_over:
            self.nil_app.save_current(self.game, asdict(self.options))

    def _game_over(self) -> None:
        from .gameover import GameOverScreen

        self._finished = True
        path = self.nil_app.finish_game(self.game, asdict(self.options))
        self.app.switch_screen(GameOverScreen(self.game, self.options, path))

    # --- keys up --------------------------------------------------------------------------
    def _waiting(self) -> bool:
        return self.game.phase is Phase.PLAYING and self.game.to_move != 0

    def action_move(self, step: int) -> None:
        if not self.is_active:
            return  # a key that reached the table while another screen opens
        if self._holding is not None:
            self._release_hold()
        if self._waiting():
            self._moved_while_waiting = True
        self.query_one(Hand).move(step)

    def action_play(self) -> None:
        if not self.is_active:
            return  # a key that reached the table while another screen opens
        if self._holding is not None:
            self._release_hold()
            return
        self._play_card(self.query_one(Hand).current)

    def on_hand_card_chosen(self, message: Hand.CardChosen) -> None:
        if not self.is_active:
            return
        if self._holding is not None:
            self._release_hold()
            return
        self._play_card(message.card)

    def _play_card(self, card: Card | None) -> None:
        game = self.game
        if game.phase is not Phase.PLAYING or card is None:
            return
        if game.to_move != 0:
            who = SEAT_LABELS[game.to_move or 0]
            self.status(Text(f"Wait: it is {who}'s turn.", style="dim"))
            return
        problem = game.deal.why_illegal(card)
        if problem is not None:
            if problem.led_suit is not None:
                led = Suit(problem.led_suit)
                why = f"You must follow {self.look.suit_text(led)} ({led.label})."
            else:
                why = f"You cannot play {self.look.face(card)}: {problem.reason}."
            self.status(Text(why, style="bold"), warn=True)
            self.app.bell()
            return
        self._apply(0, card, None)

    def action_scoreboard(self) -> None:
        if not self.is_active:
            return  # a key that reached the table while another screen opens
        from .summary import ScoresScreen

        self.app.push_screen(ScoresScreen(self.game))

    def action_last_trick(self) -> None:
        """Show the last completed trick in the middle of the table until a key is pressed."""
        if not self.is_active:
            return
        if self._peeking:
            self._release_hold()
            return
        if self._holding is not None:
            return  # the trick just finished is on show already
        tricks = self.game.deal.tricks
        if not tricks and self.game.deal_number > 1:
            tricks = self.game.deals[-2].tricks
        if not tricks:
            self.status("No trick has been completed yet.", warn=True)
            return
        self._peeking = True
        self._holding = tricks[-1]
        self.refresh_view()
        self.status(Text("The last trick (any key to go back)", style="dim"))

    def action_hint(self) -> None:
        if not self.is_active:
            return  # a key that reached the table while another screen opens
        if self.game.to_move != 0 or self.game.phase is not Phase.PLAYING:
            self.status("A hint is for your turn.", warn=True)
            return
        self.status(Text("Thinking of a hint…", style="dim"))
        self.find_hint(self.turn, self.game.deal.view(0))

    @work(thread=True, group="hint", exclusive=True)
    def find_hint(self, turn: int, view: Any) -> None:
        try:
            from ...bots import advise  # type: ignore[attr-defined]
        except ImportError:
            advise = None
        if advise is not None:
            try:
                card, reason = advise(view)
            except Exception as exc:  # noqa: BLE001 - a failing hint must not stop the game
                card, reason = view.legal[0], f"no hint available ({type(exc).__name__})"
        else:
            card = min(view.legal, key=lambda c: (c.rank, c.suit))
            reason = "your lowest card is the least likely to take a trick"
        self.post_message(HintReady(turn, card, reason))

    def on_hint_ready(self, message: HintReady) -> None:
        if message.turn != self.turn:
            return
        hand = self.query_one(Hand)
        if message.card in hand.cards:
            hand.cursor = hand.cards.index(message.card)
        line = Text("Hint: ")
        line.append_text(self.look.styled(message.card))
        line.append(f" ({message.reason})")
        self.status(line)

    @property
    def in_progress(self) -> bool:
        return not self._finished and not self.game.is_over
