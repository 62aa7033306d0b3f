"""The table: draws what a :class:`~nil_tui.session.game_session.GameSession` says one seat may
see, and sends the player's actions to it. The session runs the game and its pace; this
screen carries out its effects (a bot deciding or a hint worked out in a worker thread, a
timer) and keeps only what the display needs: the cursor, a peek at the last trick, the
panel that is open."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Footer, Static

from ...engine import Card, PlayerView, Suit, Trick, describe_result
from ...session import game_session as gs
from ...session.game_session import CHALLENGE_REFUSALS, GameSession, MeterKey, level_title
from ...session.protocol import (
    AskHint,
    BotFailed,
    DealBegun,
    DealOver,
    GameOver,
    GoOn,
    Hint,
    MeterReading,
    PlayCard,
    Played,
    Refused,
    SeatReplaced,
    SetMeter,
    TableState,
    TakenBack,
    TrickTaken,
    Undo,
)
from ..messages import BotDecided, BotLost, HintReady
from ..widgets.cards import CardLook
from ..widgets.gamelog import GameLog
from ..widgets.hand import Hand
from ..widgets.scoreboard import Scoreboard, ScoreInfo
from ..widgets.seat import Seat, SeatInfo
from ..widgets.trick import TrickInfo, TrickView
from ..words import BOT_SEATS, SEAT_LABELS, count, percent, says, seat_subject, verb
from .base import NilScreen

if TYPE_CHECKING:
    from ...driver import DriverEvent, GameDriver, Request
    from ...engine import Game
    from ...options import PlayOptions
    from ..widgets.tracker import CardTracker

CHALLENGE_KEYS = {"h": "hint", "u": "undo", "m": "meter"}


def meter_chance(view: PlayerView, seed: int) -> float:
    """The chance the seat of ``view`` takes no trick for the rest of the deal, estimated
    from the view alone (blocking: called from a thread)."""
    from ...analysis import clean_chance

    return float(clean_chance(view, seed=seed))


class MeterReady(Message):
    """The meter's estimate for a position (``key``); dropped if the table has moved on."""

    def __init__(self, key: MeterKey, chance: float | None) -> None:
        super().__init__()
        self.key = key
        self.chance = chance


class TableScreen(NilScreen):
    """One game, from its current position to the game-over screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,a", "move(-1)", "Left", show=False),
        Binding("right,d", "move(1)", "Right", show=False),
        # Enter is not in the footer: the status line says "Enter plays" on your turn.
        Binding("enter,space", "play", "Play card", show=False),
        Binding("s", "scoreboard", "Scores"),
        Binding("t", "last_trick", "Last trick"),
        Binding("u", "undo", "Undo"),
        Binding("c", "tracker", "Cards"),
        Binding("h", "hint", "Hint"),
        Binding("m", "meter", "Meter"),
        Binding("question_mark,f1", "app.rules", "Rules"),
        Binding("q", "app.request_quit", "Quit"),
    ]

    def __init__(self, session: GameSession, notes: tuple[DriverEvent, ...] = ()) -> None:
        super().__init__()
        self.session = session
        self._notes = notes  # what happened before the table was shown (a bot replaced)
        self.look = CardLook(session.options.ascii, session.options.four_color)
        self._peeking = False  # the last trick is on show (``t``) until a key
        self._peek: Trick | None = None
        self._moved_while_waiting = False
        self._marked_unsaved = False  # the south line shows "not saved"
        self._told_assisted = session.game.assisted  # the log said the game is assisted
        self._can_undo = False  # undo is offered in the footer
        self._thinking_said = -1  # the turn "... is thinking" was said for
        self._over = False
        self._tracker: CardTracker | None = None  # the card tracker, once asked for (``c``)

    # --- what is shown ----------------------------------------------------------------------
    @property
    def driver(self) -> GameDriver:
        return self.session.driver

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def challenge(self) -> str | None:
        return self.session.challenge

    @property
    def options(self) -> PlayOptions:
        """The options of the game at the table (its session's)."""
        return self.session.options

    @options.setter
    def options(self, options: PlayOptions) -> None:
        self.session.options = options

    def advance(self) -> None:
        """Let the session do whatever comes next (after its options changed, say)."""
        self._carry_out(self.session.advance())

    @property
    def _holding(self) -> Trick | None:
        """The trick on show in the middle: the peek at the last one, or one just won."""
        return self._peek if self._peeking else self.session.on_show

    @property
    def in_progress(self) -> bool:
        return not self.game.is_over

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
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one(TrickView).look = self.look
        self.query_one(Hand).look = self.look
        self.set_focus(self.query_one(Hand))
        session = self.session
        game = self.game
        if game.deal.plays or game.deal_number > 1:
            line = Text(f"Game resumed: deal {game.deal_number} of {game.deals_planned}.",
                        style="bold")
            if game.assisted:
                line.append(f" Used so far: {session.help_used()}; the game counts as "
                            "assisted.", style="dim")
            self.log_line(line)
        self._log_deal_start()
        for item in session.deal_so_far():
            self._log(item)
        for item in session.told(self._notes):
            self._log(item)
        if self.challenge is not None:
            self.query_one(Scoreboard).border_subtitle = f"Challenge {self.challenge}"
            self.log_line(Text(f"The daily challenge of {self.challenge}: hints, undo and the "
                               "meter are off.", style="dim"))
        self._carry_out(session.begin(), draw=False)
        self.refresh_view()
        self.set_interval(1.0, self._show_save_state)
        self.call_after_refresh(self._shown)

    def _shown(self) -> None:
        """Right after the table's first frame: the writes that could wait for it (a first
        run's store, the settings, the deal's start), then the game goes on."""
        self.nil_app.table_shown()
        self._carry_out(self.session.start())

    # --- snapshots down -------------------------------------------------------------------
    def refresh_view(self) -> None:
        state = self.session.state()
        holding = self._holding is not None
        to_move = None if holding else state.to_move
        sizes, taken = state.hand_sizes, state.taken
        for seat in BOT_SEATS:
            self.query_one(f"#seat-{seat}", Seat).info = SeatInfo(
                name=SEAT_LABELS[seat], level=level_title(state.levels[seat]),
                cards=sizes[seat], tricks=taken[seat], clean=taken[seat] == 0,
                dealer=state.dealer == seat, to_move=to_move == seat,
                thinking=state.thinking == seat and not holding)
        self._show_south(state)
        self.query_one(Scoreboard).info = ScoreInfo(
            names=SEAT_LABELS, totals=state.totals, taken=taken, lowest=state.losers,
            deal_number=state.deal_number, deals_planned=state.deals_planned,
            pool=state.pool if state.scoring == "pool" else None,
            tiebreak=state.tiebreak)
        self.query_one(TrickView).info = self._trick_info(state)
        mine = to_move == state.seat and state.pace in ("your_turn", "forced")
        self.query_one(Hand).set_hand(state.hand, frozenset(state.legal) if mine
                                      else frozenset(), mine)
        tracker = self._tracker
        if tracker is not None and tracker.display:
            tracker.follow(self.session.view())
        if state.can_undo != self._can_undo:  # the footer offers undo only when it can act
            self._can_undo = state.can_undo
            # The footer is rebuilt a moment after the card is drawn, not before it.
            self.set_timer(0.2, self.refresh_bindings)

    def _trick_info(self, state: TableState) -> TrickInfo:
        """The middle of the table: the trick on show (just won, or the peek at the last one),
        else the trick being played with who led it, else the last trick won (it stays until
        the next card is played, at any speed) and who leads now."""
        shown = self._holding
        if shown is not None:
            cards = tuple((shown.player_of(k), c) for k, c in enumerate(shown.cards))
            w = shown.winner
            caption = f"{seat_subject(shown.leader)} led, {says(w, 'win', 'wins', start=False)}"
            if self._peeking:
                caption = f"Last trick, to {'you' if w == 0 else SEAT_LABELS[w]}"
            return TrickInfo(cards, w, caption)
        trick, plays = state.trick, state.plays
        if trick:
            cards = tuple((p.seat, p.card) for p in plays[len(plays) - len(trick):])
            return TrickInfo(cards, None, f"{seat_subject(state.leader)} led")
        if state.pace in ("deal_over", "game_over"):
            return TrickInfo((), None, "")
        if plays:
            w = state.leader  # the winner of the last trick leads
            cards = tuple((p.seat, p.card) for p in plays[-4:])
            return TrickInfo(cards, w, f"{seat_subject(w)} won it and {verb(w, 'lead', 'leads')}")
        return TrickInfo((), None, f"{says(state.leader, 'lead', 'leads')}")

    def _show_south(self, state: TableState | None = None) -> None:
        state = state or self.session.state()
        cards, tricks = state.hand_sizes[state.seat], state.taken[state.seat]
        south = Text()
        south.append("You (South)", style="bold")
        if state.dealer == state.seat:
            south.append("  dealer", style="dim")
        south.append(f"  {count(cards, 'card')}  {count(tricks, 'trick')}  ")
        if tricks == 0:
            south.append("● clean", style="bold green")
        else:
            south.append("○ taken", style="dim")
        if state.meter_on:
            south.append("  meter: ", style="dim")
            south.append(meter_text(tricks, self.session.meter), style="bold cyan")
        self._marked_unsaved = bool(state.save_problem)
        if self._marked_unsaved:
            south.append("   ⚠ not saved", style="bold yellow")
        self.query_one("#south", Static).update(south)

    def _show_save_state(self) -> None:
        """Keep the "not saved" mark true while the app retries in the background."""
        if bool(self.nil_app.save_problem) != self._marked_unsaved:
            self._show_south()

    def status(self, message: str | Text, warn: bool = False) -> None:
        widget = self.query_one("#status", Static)
        widget.set_class(warn, "-warn")
        widget.update(message)

    def log_line(self, line: Text) -> None:
        self.query_one(GameLog).add(line)

    def _your_turn_text(self) -> Text:
        state = self.session.state()
        text = Text("Your turn", style="bold")
        led = state.trick[0].suit if state.trick else None
        if led is None:
            text.append(": you lead")
        elif all(c.suit == led for c in state.legal):
            text.append(f": follow {self.look.suit_text(Suit(led))}")
        else:
            text.append(f": no {self.look.suit_text(Suit(led))}, play any card")
        text.append("   ←/→ choose, Enter plays", style="dim")
        return text

    # --- the session's output -------------------------------------------------------------
    def _carry_out(self, out: list[gs.Out], draw: bool = True) -> None:
        """Log the news, carry out the effects, then draw the table as the session says."""
        for item in out:
            if isinstance(item, gs.AskBot):
                self.ask_bot(item.request)
            elif isinstance(item, gs.Wait):
                self.set_timer(item.seconds, partial(self._timer_done, item.token))
            elif isinstance(item, gs.ShowTrick):
                takes = says(item.trick.winner, "take", "takes")
                self.status(Text(f"{takes} the trick. Press any key to go on.", style="bold")
                            if item.seconds is None else
                            Text(f"{takes} the trick; play goes on in a moment (any key: "
                                 "now).", style="dim"))
            elif isinstance(item, gs.YourTurn):
                self._your_turn(item)
            elif isinstance(item, gs.ForcedSoon):
                text = Text("Your only legal card: ", style="bold")
                text.append_text(self.look.styled(item.card))
                text.append(" is played for you…", style="bold")
                self.status(text)
            elif isinstance(item, gs.FindHint):
                self.status(Text("Thinking of a hint…", style="dim"))
                self.find_hint(item.turn, item.view)
            elif isinstance(item, gs.EstimateMeter):
                self.estimate_clean(item.key, item.view, item.seed)
            elif isinstance(item, gs.DealSummary):
                from .summary import SummaryScreen

                self.app.push_screen(SummaryScreen(self.game, between_deals=True,
                                                   look=self.look), self._after_summary)
            elif isinstance(item, gs.GameFinished):
                self._game_over()
            elif isinstance(item, gs.AssistedNow):
                self._note_assisted(item.what)
            elif isinstance(item, Refused):
                self._refused(item)
            elif isinstance(item, Hint):
                self._show_hint(item)
            else:
                self._log(item)
        if draw and self.is_mounted:
            self.refresh_view()
            thinking = self.session.thinking
            if thinking is not None and self._thinking_said != self.driver.turn:
                self._thinking_said = self.driver.turn
                self.status(Text(f"{SEAT_LABELS[thinking]} is thinking…", style="dim"))

    def _log(self, item: gs.Out) -> None:
        """A log line for a piece of news (a card, a trick, a deal's end...)."""
        if isinstance(item, (BotFailed, SeatReplaced)):
            self.log_line(Text(f"⚠ {SEAT_LABELS[item.seat]}: {item.reason}", style="yellow"))
        elif isinstance(item, Played):
            line = Text(f"{says(item.seat, 'play', 'plays')} ")
            line.append_text(self.look.styled(item.card))
            if item.forced and item.seat == 0:
                line.append(" (forced)", style="dim")
            self.log_line(line)
        elif isinstance(item, TrickTaken):
            w = item.trick.winner
            line = Text(f"{says(w, 'win', 'wins')} the trick with ", style="bold")
            line.append_text(self.look.styled(item.trick.card_of(w)))
            if item.first_for_winner:
                line.append(" — " + ("you are no longer clean" if w == 0 else
                                     f"{SEAT_LABELS[w]} is no longer clean"))
            self.log_line(line)
        elif isinstance(item, DealOver):
            result = describe_result(item.taken, item.points, SEAT_LABELS, item.rule)
            self.log_line(Text(f"Deal {item.deal_number}: {result}", style="bold cyan"))
        elif isinstance(item, GameOver):
            self.log_line(Text("The game is over.", style="bold"))
        elif isinstance(item, DealBegun):
            self._log_deal_start()
        elif isinstance(item, TakenBack):
            line = Text("Taken back: ", style="bold magenta")
            for n, play in enumerate(item.plays):
                if n:
                    line.append(", ")
                line.append("your " if play.seat == 0 else f"{SEAT_LABELS[play.seat]}'s ")
                line.append_text(self.look.styled(play.card))
            line.append(".")
            self.log_line(line)
        elif isinstance(item, MeterReading):
            self._show_south()

    def _log_deal_start(self) -> None:
        """The deal's first line: its number, the dealer, who leads first."""
        state = self.session.state()
        first = state.plays[0].seat if state.plays else state.leader
        dealer = "you deal" if state.dealer == 0 else f"{SEAT_LABELS[state.dealer]} deals"
        self.log_line(Text(f"Deal {state.deal_number} of {state.deals_planned}: {dealer}; "
                           f"{says(first, 'lead', 'leads', start=False)}.",
                           style="bold cyan"))

    def _your_turn(self, turn: gs.YourTurn) -> None:
        self.refresh_view()
        hand = self.query_one(Hand)
        if not (self._moved_while_waiting and hand.current in hand.legal):
            hand.leftmost_legal()
        self._moved_while_waiting = False
        text = Text()
        if turn.undone:
            text.append(f"Taken back ({count(turn.undone, 'card')}). ", style="bold")
        text.append_text(self._your_turn_text())
        self.status(text)

    def _refused(self, refused: Refused) -> None:
        if refused.card is None:
            self.status(refused.reason, warn=True)
            return
        if refused.reason.startswith("Wait:"):
            self.status(Text(refused.reason, style="dim"))
            return
        if refused.suit is not None:
            led = Suit(refused.suit)
            why = f"You must follow {self.look.suit_text(led)} ({led.label})."
        else:
            why = f"You cannot play {self.look.face(refused.card)}: {refused.reason}."
        self.status(Text(why, style="bold"), warn=True)
        self.app.bell()

    def _note_assisted(self, what: str) -> None:
        """Say once in the log that the game now counts as assisted."""
        if self._told_assisted:
            return
        self._told_assisted = True
        self.log_line(Text(f"{what}: this game now counts as assisted in history and "
                           "statistics.", style="magenta"))

    def _timer_done(self, token: tuple[str, int]) -> None:
        self._carry_out(self.session.timer_done(token))

    def _after_summary(self, _: object = None) -> None:
        self._carry_out(self.session.act(GoOn()))

    def _game_over(self) -> None:
        if self._over:
            return
        self._over = True
        app = self.nil_app
        app.switch_screen(app.game_over_screen(self.game, self.options,
                                               self.session.record_path, app.save_problem))

    # --- workers ----------------------------------------------------------------------------
    @work(thread=True, group="bots")
    def ask_bot(self, request: Request) -> None:
        """In a thread: the driver asks the seat's bot (isolated); the answer is posted."""
        try:
            decision = self.driver.decide(request)
        except Exception:  # noqa: BLE001 - the session asks again or the game ends
            self.post_message(BotLost(request))
            return
        self.post_message(BotDecided(decision))

    def on_bot_decided(self, message: BotDecided) -> None:
        self._carry_out(self.session.bot_decided(message.decision))

    def on_bot_lost(self, message: BotLost) -> None:
        self._carry_out(self.session.bot_lost(message.request))

    @work(thread=True, group="hint", exclusive=True)
    def find_hint(self, turn: int, view: PlayerView) -> None:
        from ...bots import advise

        try:
            card, reason = advise(view, ascii=self.look.ascii)
        except Exception as exc:  # noqa: BLE001 - a failing hint must not stop the game
            card, reason = view.legal[0], f"no hint available ({type(exc).__name__})"
        self.post_message(HintReady(turn, card, reason))

    def on_hint_ready(self, message: HintReady) -> None:
        self._carry_out(self.session.hint_found(message.turn, message.card, message.reason))

    def _show_hint(self, hint: Hint) -> None:
        hand = self.query_one(Hand)
        if hint.card in hand.cards:
            hand.cursor = hand.cards.index(hint.card)
        line = Text("Hint: ")
        line.append_text(self.look.styled(hint.card))
        short = line.copy()
        line.append(f" ({hint.reason})")
        # The log keeps the whole hint (it wraps); the status line shows it when it fits.
        self.log_line(line.copy())
        # The status line takes two rows for it when the terminal has rows to spare (taller
        # than 24; a word may not fill a row to its end), else one.
        width = self.query_one("#status", Static).size.width - 2
        if line.cell_len > (2 * width - 12 if self.size.height > 24 else width - 1):
            short.append(" (why: in the log)")
            line = short
        self.status(line)

    @work(thread=True, exclusive=True, group="meter")
    def estimate_clean(self, key: MeterKey, view: PlayerView, seed: int) -> None:
        """In a thread: the chance to stay clean from your view; posted with its position."""
        try:
            chance: float | None = meter_chance(view, seed)
        except Exception:  # noqa: BLE001 - the meter must never stop the game
            chance = None
        self.post_message(MeterReady(key, chance))

    def on_meter_ready(self, message: MeterReady) -> None:
        self._carry_out(self.session.meter_estimated(message.key, message.chance),
                        draw=False)

    # --- keys up ----------------------------------------------------------------------------
    def on_screen_suspend(self) -> None:
        self.session.set_watching(False)

    def on_screen_resume(self) -> None:
        if self._peeking:
            self.refresh_view()
            return
        self._carry_out(self.session.set_watching(True))

    def on_key(self, event: events.Key) -> None:
        """While a trick is on show (just won, or the peek at the last one), a key only puts
        it away: one key, one effect. Undo acts at once (the trick you just lost, say)."""
        if not self.is_active:
            return
        refused = CHALLENGE_KEYS.get(event.key) if not self.session.help_allowed else None
        if refused is not None:
            # Off the footer in a challenge; the key says why it does nothing.
            event.stop()
            event.prevent_default()
            self.status(CHALLENGE_REFUSALS[refused], warn=True)
            return
        if self._holding is None:
            if event.key == "u" and not self.session.can_undo():
                # Undo is off the footer then, and its key says why it does nothing.
                self.status("There is no card of yours to take back in this deal.", warn=True)
            return
        if event.key == "u" and self.session.can_undo():
            return  # the binding takes it back, the trick on show with it
        event.stop()
        event.prevent_default()
        self._go_on()

    def _go_on(self) -> None:
        """Put away the trick on show: the peek at the last one, or the one just won."""
        if self._peeking:
            self._peeking, self._peek = False, None
            self._carry_out(self.session.set_watching(self.is_active))
        else:
            self._carry_out(self.session.act(GoOn()))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not self.is_active:
            return False
        if action in CHALLENGE_REFUSALS and not self.session.help_allowed:
            return False  # hints, undo and the meter are off in a daily challenge
        if action == "undo":
            return self.session.can_undo()  # in the footer only when it can act
        return True

    def action_move(self, step: int) -> None:
        if self._holding is not None:
            self._go_on()
            return
        if self.driver.bot_to_move() is not None:
            self._moved_while_waiting = True
        self.query_one(Hand).move(step)

    def action_play(self) -> None:
        if self._holding is not None:
            self._go_on()
            return
        self._play_card(self.query_one(Hand).current)

    def on_hand_card_chosen(self, message: Hand.CardChosen) -> None:
        if not self.is_active:
            return
        if self._holding is not None:
            self._go_on()
            return
        self._play_card(message.card)

    def _play_card(self, card: Card | None) -> None:
        if card is not None:
            self._carry_out(self.session.act(PlayCard(card)))

    def action_scoreboard(self) -> None:
        from .summary import ScoresScreen

        self.app.push_screen(ScoresScreen(self.game))

    def action_last_trick(self) -> None:
        """Show the last completed trick in the middle of the table until a key is pressed."""
        if self._peeking:
            self._go_on()
            return
        if self.session.on_show is not None:
            return  # the trick just finished is on show already
        tricks = self.game.deal.tricks
        if not tricks and self.game.deal_number > 1:
            tricks = self.game.deals[-2].tricks
        if not tricks:
            self.status("No trick has been completed yet.", warn=True)
            return
        self._peeking, self._peek = True, tricks[-1]
        self.session.set_watching(False)
        self.refresh_view()
        self.status(Text("The last trick (any key to go back)", style="dim"))

    def action_undo(self) -> None:
        """Take back your last card of this deal and every card played after it."""
        if self._peeking:
            self._peeking, self._peek = False, None
            self.session.set_watching(self.is_active)
        self._carry_out(self.session.act(Undo()))

    def action_tracker(self) -> None:
        """Show or hide the panel of cards still out and the voids shown (made the first time
        it is asked for, above the log)."""
        tracker = self._tracker
        if tracker is None:
            from ..widgets.tracker import CardTracker

            self._tracker = tracker = CardTracker(id="tracker")
            tracker.look = self.look
            self.query_one("#side").mount(tracker, before=self.query_one(GameLog))
        else:
            tracker.display = not tracker.display
        self.refresh_view()

    def action_hint(self) -> None:
        self._carry_out(self.session.act(AskHint()))

    def action_meter(self) -> None:
        """Show or hide the chance to stay clean on your seat line (this game only)."""
        on = not self.session.meter_on
        out = self.session.act(SetMeter(on))
        if not any(isinstance(item, Refused) for item in out):
            self.status(Text("Meter on: your chance to stay clean this deal, from what you "
                             "see (m hides it)." if on else "Meter off (m shows it again).",
                             style="dim"))
        self._carry_out(out)


def meter_text(tricks: int, reading: MeterReading | None) -> str:
    """What the meter shows: that you are no longer clean, "..." while it is estimated, a
    certainty as such ("clean 0%": every card you may play takes the trick; "clean 100%":
    the deal ended with you clean), and an estimate with "~" where it rounds to 0 or 100."""
    if tricks:
        return "not clean"
    if reading is None:
        return "clean ..."
    value = reading.chance
    if reading.certain:
        return f"clean {round(value * 100)}%"
    if value in (0.0, 1.0):
        return f"clean ~{round(value * 100)}%"  # an estimate, never a certainty
    return f"clean {percent(value)}"
