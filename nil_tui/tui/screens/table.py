"""The table: draws what a :class:`~nil_tui.session.seat.SeatSession` says one seat may see
(a game played here, or a seat at a shared table), and sends the player's actions to it. The
session runs the game and its pace; this screen carries out its effects (a bot deciding or a
hint worked out in a worker thread, a timer) and keeps only what the display needs: the
cursor, a peek at the last trick, the panel that is open."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Static

from ...engine import Card, Trick
from ...session import game_session as gs
from ...session.messages import (
    AskHint,
    DealBegun,
    GoOn,
    Hint,
    MeterReading,
    PlayCard,
    Refused,
    TableState,
    Undo,
)
from ..widgets.cards import CardLook
from ..widgets.gamelog import GameLog
from ..widgets.hand import Hand
from ..widgets.scoreboard import Scoreboard, ScoreInfo
from ..widgets.seat import Seat
from ..widgets.status import StatusLine
from ..widgets.trick import TrickView
from ..words import BOT_SEATS, count, seat_labels
from . import table_words as words
from .table_work import TableWork

if TYPE_CHECKING:
    from ...engine import Game
    from ...game.driver import DriverEvent, GameDriver
    from ...game.options import PlayOptions
    from ...session.seat import SeatSession
    from ..widgets.tracker import CardTracker

CHALLENGE_KEYS = {"h": "hint", "u": "undo", "m": "meter"}


class TableScreen(TableWork):
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

    def __init__(self, session: SeatSession, notes: tuple[DriverEvent, ...] = ()) -> None:
        super().__init__()
        self.session = session
        self._notes = notes  # what happened before the table was shown (a bot replaced)
        self.look = CardLook(session.options.ascii, session.options.four_color)
        self.labels = seat_labels(session.home_seat)  # the true seats, whoever sits where
        self._peeking = False  # the last trick is on show (``t``) until a key
        self._peek: Trick | None = None
        self._moved_while_waiting = False
        self._marked_unsaved = False  # the south line shows "not saved"
        self._told_assisted = session.state().assisted  # the log said the game is assisted
        self._can_undo = False  # undo is offered in the footer
        self._thinking_said = -1  # the turn "... is thinking" was said for
        self._over = False
        self._tracker: CardTracker | None = None  # the card tracker, once asked for (``c``)

    # --- what is shown ----------------------------------------------------------------------
    @property
    def driver(self) -> GameDriver:
        """The driver of a game played here (tests read it; the screen never does)."""
        session = self.session
        if not isinstance(session, gs.GameSession):
            raise TypeError("a shared table's seat has no driver here")
        return session.driver

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
        return self.session.state().pace != "game_over"

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
        yield StatusLine(id="status")
        yield Static(id="south")
        yield Hand(id="hand", every=self.options.cursor == "every")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        if not self.query(TrickView):
            return  # replaced before it was shown (a key typed twice in setup, say)
        self.query_one(TrickView).look = self.look
        self.query_one(Hand).look = self.look
        self.set_focus(self.query_one(Hand))
        session = self.session
        state = session.state()
        if state.plays or state.deal_number > 1:
            self.log_line(words.resumed_line(state.deal_number, state.deals_planned,
                                             session.help_used() if state.assisted else None))
        if state.deal_number == 1 and self.game.cut is not None:
            self.log_line(words.cut_line(self.game.cut, self.look, self.labels))
        self.log_line(words.deal_start_line(state, self.labels))
        for item in session.told_so_far(self._notes):
            self._log(item)
        if self.challenge is not None:
            self.query_one(Scoreboard).border_subtitle = f"Challenge {self.challenge}"
            self.log_line(Text(f"The daily challenge of {self.challenge}: hints, undo and the "
                               "meter are off.", style="dim"))
        self._carry_out(session.begin(), draw=False)
        self.refresh_view()
        self.set_interval(1.0, self._show_save_state)
        self.call_after_refresh(self._shown)
        self.listen()

    def _shown(self) -> None:
        """Right after the table's first frame: the writes that could wait for it (a first
        run's store, the settings, the deal's start), then the game goes on."""
        self.nil_app.table_shown()
        if not self._over:  # (a shared table's game may have ended before this frame)
            self._carry_out(self.session.start())

    # --- snapshots down -------------------------------------------------------------------
    def refresh_view(self) -> None:
        state = self.session.state()
        holding = self._holding is not None
        to_move = None if holding else state.to_move
        taken = state.taken
        away = self.session.away  # a shared table's people
        for seat in BOT_SEATS:
            self.query_one(f"#seat-{seat}", Seat).info = words.seat_info(
                state, seat, self.labels[seat], away[seat], holding)
        self._show_south(state)
        self.query_one(Scoreboard).info = ScoreInfo(
            names=self.labels, totals=state.totals, taken=taken, lowest=state.losers,
            deal_number=state.deal_number, deals_planned=state.deals_planned,
            pool=state.pool if state.scoring == "pool" else None,
            tiebreak=state.tiebreak)
        self.query_one(TrickView).info = words.trick_info(state, self._holding, self._peeking,
                                                                 self.labels, self.game.cut)
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

    def _show_south(self, state: TableState | None = None) -> None:
        state = state or self.session.state()
        self._marked_unsaved = bool(state.save_problem)
        self.query_one("#south", Static).update(words.south_line(state, self.session.meter,
                                                                    self.session.home_seat))

    def _show_save_state(self) -> None:
        """Keep the "not saved" mark true while the app retries in the background."""
        if bool(self.nil_app.save_problem) != self._marked_unsaved:
            self._show_south()

    def status(self, message: str | Text, warn: bool = False) -> None:
        self.query_one(StatusLine).say(message, warn)

    def log_line(self, line: Text) -> None:
        self.query_one(GameLog).add(line)

    # --- the session's output -------------------------------------------------------------
    def _carry_out(self, out: list[gs.Out], draw: bool = True) -> None:
        """Log the news, carry out the effects, then draw the table as the session says."""
        for item in out:
            if isinstance(item, gs.AskBot):
                self.ask_bot(item.request)
            elif isinstance(item, gs.Wait):
                self.set_timer(item.seconds, partial(self._timer_done, item.token))
            elif isinstance(item, (gs.ShowTrick, gs.ForcedSoon)):
                self.status(words.effect_text(item, self.look, self.labels))
            elif isinstance(item, gs.YourTurn):
                self._your_turn(item)
            elif isinstance(item, gs.FindHint):
                self.status(Text("Thinking of a hint…", style="dim"))
                self.find_hint(item.turn, item.view)
            elif isinstance(item, gs.EstimateMeter):
                self.estimate_clean(item.key, item.view, item.seed)
            elif isinstance(item, gs.DealSummary):
                from .summary import SummaryScreen

                self.app.push_screen(SummaryScreen(self.game, True, look=self.look,
                                                   speed=self.options.speed,
                                                   home=self.session.home_seat), self._after_summary)
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
        if draw and self.is_mounted and not self._over:  # (game over: the table is leaving)
            self.refresh_view()
            thinking = self.session.thinking
            turn = self.session.state().turn
            if thinking is not None and self._thinking_said != turn:
                self._thinking_said = turn
                self.status(Text(f"{self.labels[thinking]} is thinking…", style="dim"))

    def _log(self, item: gs.Out) -> None:
        """A log line for a piece of news (a card, a trick, a deal's end...)."""
        if self._short_log(item):
            return
        if isinstance(item, MeterReading):
            self._show_south()
        elif isinstance(item, gs.TableNote) and item.status:
            self.status(item.text, warn=item.warn)
            if item.log:
                self.log_line(Text(item.text, style="yellow" if item.warn else "cyan"))
        elif isinstance(item, DealBegun):
            self.log_line(words.deal_start_line(self.session.state(), self.labels))
        else:
            line = words.news_line(item, self.look, self.labels)
            if line is not None:
                self.log_line(line)

    def _refused(self, refused: Refused) -> None:
        text, warn = words.refusal(refused, self.look)
        self.status(text, warn=warn)
        if warn and refused.card is not None:
            self.app.bell()

    def _your_turn(self, turn: gs.YourTurn) -> None:
        self.refresh_view()
        hand = self.query_one(Hand)
        if not (self._moved_while_waiting and hand.current in hand.legal):
            hand.leftmost_legal()
        self._moved_while_waiting = False
        text = Text()
        if turn.undone:
            text.append(f"Taken back ({count(turn.undone, 'card')}). ", style="bold")
        text.append_text(words.your_turn_text(self.session.state(), self.look))
        self.status(text)

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
        app, session = self.nil_app, self.session
        app.replace_stack(app.game_over_screen(
            self.game, self.options, session.record_path, app.save_problem, session.leave,
            session.home_seat))

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
        what = CHALLENGE_KEYS.get(event.key)
        refused = self.session.help_refused(what) if what is not None else None
        if refused is not None:
            # Off the footer (a challenge, a shared table); the key says why it does nothing.
            event.stop()
            event.prevent_default()
            self.status(refused, warn=True)
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
            self.query_one(StatusLine).passed()  # "Your turn" again, say
            self._carry_out(self.session.set_watching(self.is_active))
        else:
            self._carry_out(self.session.act(GoOn()))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not self.is_active or not self.query(Hand):  # (or not drawn yet, or taken away)
            return False
        if action in CHALLENGE_KEYS.values() and self.session.help_refused(action):
            return False  # hints, undo and the meter are off in a daily challenge
        if action == "undo":
            return self.session.can_undo()  # in the footer only when it can act
        return True

    def action_move(self, step: int) -> None:
        if self._holding is not None:
            self._go_on()
            return
        if self.session.bot_to_move():
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

        self.app.push_screen(ScoresScreen(self.game, home=self.session.home_seat))

    def action_last_trick(self) -> None:
        """Show the last completed trick in the middle of the table until a key is pressed."""
        if self._peeking:
            self._go_on()
            return
        if self.session.on_show is not None:
            return  # the trick just finished is on show already
        last = self.session.last_trick()
        if last is None:
            self.status("No trick has been completed yet.", warn=True)
            return
        self._peeking, self._peek = True, last
        self.session.set_watching(False)
        self.refresh_view()
        self.query_one(StatusLine).say(Text("The last trick (any key to go back)",
                                            style="dim"), passing=True)

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
        self._with_help("hint", lambda: self._carry_out(self.session.act(AskHint())))

    def action_meter(self) -> None:
        """Show or hide the chance to stay clean on your seat line (this game only)."""
        self._with_help("meter", self._turn_meter, ask=not self.session.meter_on)
