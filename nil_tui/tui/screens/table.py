"""The table: shows the game a :class:`~nil_tui.driver.GameDriver` runs, lets bots decide in
a worker thread, and turns the driver's events into the log, the trick, the seats and the
scoreboard. Its own state is what the display needs: the finished trick on show, the peek
at the last trick, and an answer held while the player looks at something else."""

from __future__ import annotations

import time
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Footer, Static
from textual.worker import Worker, WorkerState

from ...driver import BotIncident, BotReplaced, Decision, DriverEvent, GameDriver, Request
from ...engine import (
    Card,
    CardPlayed,
    Deal,
    DealEnded,
    Game,
    GameEnded,
    IllegalPlay,
    Phase,
    PlayerView,
    Suit,
    Trick,
    TrickWon,
)
from ...options import PlayOptions
from ..messages import BotDecided, HintReady
from ..widgets.cards import CardLook
from ..widgets.gamelog import GameLog
from ..widgets.hand import Hand
from ..widgets.scoreboard import Scoreboard, ScoreInfo
from ..widgets.seat import Seat, SeatInfo
from ..widgets.trick import TrickInfo, TrickView
from ..words import BOT_SEATS, SEAT_LABELS, count, percent, says, seat_subject, verb
from .base import NilScreen

if TYPE_CHECKING:
    from ..widgets.tracker import CardTracker

# Seconds a bot's card waits before it lands, and a finished trick stays in view, by speed.
PAUSES: dict[str, tuple[float, float]] = {
    "instant": (0.0, 0.0),
    "fast": (0.15, 0.6),
    "normal": (0.45, 1.3),
    "slow": (0.9, 2.5),
}

# Seconds a card you are forced to play stays under the cursor before it is played for you.
AUTO_PLAY_DELAY: dict[str, float] = {"instant": 0.3, "fast": 0.4, "normal": 0.7, "slow": 1.2}


def only_card(deal: Deal) -> Card | None:
    """The card the seat to move must play, when it has one legal card only."""
    legal = deal.legal_moves()
    return legal[0] if len(legal) == 1 else None


def meter_chance(view: PlayerView, seed: int) -> float:
    """The chance the seat of ``view`` takes no trick for the rest of the deal, estimated
    from the view alone (blocking: called from a thread)."""
    from ...analysis import clean_chance

    return float(clean_chance(view, seed=seed))


def meter_seed(game: Game, deal_number: int, tricks: int) -> int:
    """The meter's seed for a position: the same game at the same trick gives the same
    figure."""
    return ((game.seed or 0) * 1009 + deal_number * 31 + tricks) % (2**31)


MeterKey = tuple[int, int, int]  # deal number, tricks done, undos: a position of the meter


class MeterReady(Message):
    """The meter's estimate for a position (``key``); dropped if the table has moved on."""

    def __init__(self, key: MeterKey, chance: float | None) -> None:
        super().__init__()
        self.key = key
        self.chance = chance


# What the table says when a key is refused in a daily challenge.
CHALLENGE_REFUSALS: dict[str, str] = {
    "hint": "Hints are off in the daily challenge.",
    "undo": "Undo is off in the daily challenge.",
    "meter": "The clean-chance meter is off in the daily challenge.",
}
CHALLENGE_KEYS = {"h": "hint", "u": "undo", "m": "meter"}


def level_title(spec: str | None) -> str:
    """How a seat's bot is named on its seat: the level's title, or a plugin's class name."""
    from ...bots import LEVELS

    if spec is None:
        return "you"
    level = LEVELS.get(spec)
    return level.title if level else spec.rsplit(":", 1)[-1]


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

    def __init__(self, driver: GameDriver, options: PlayOptions,
                 notes: tuple[DriverEvent, ...] = ()) -> None:
        super().__init__()
        self.driver = driver
        self._notes = notes  # what happened before the table was shown (a bot replaced)
        self.options = options
        self.look = CardLook(options.ascii, options.four_color)
        self._holding: Trick | None = None  # a finished trick on show
        self._hold_timer: Timer | None = None
        self._peeking = False  # the last trick is on show (``t``) until a key
        self._hold_waits = False  # the trick on show waits for a key (no timer)
        self._held: Decision | None = None  # an answer that came while the player looked away
        self._moved_while_waiting = False
        self._cursor_turn = -1  # the turn the cursor was last placed for
        self._over = False  # the game-over screen is on its way
        self._marked_unsaved = False  # the south line shows "not saved"
        self._start_saved = False  # the deal this table starts with has been saved
        self._auto_turn: int | None = None  # the turn a forced card is about to be played on
        self._no_auto_turn = -1  # a turn reached by undo: its forced card waits for you
        self._draining = False  # after an undo: a bot still answers a position that is gone
        self._told_assisted = driver.game.assisted  # the log said the game is assisted
        self._can_undo = False  # undo is offered in the footer
        # The clean-chance meter: on (never in a challenge), the position its figure is
        # for, and the figure (None while it is being estimated).
        self._meter_on = options.meter and self.challenge is None
        self._meter_key: MeterKey | None = None
        self._meter_value: float | None = None
        self._meter_may_run = False  # estimates start once the first frame is drawn
        self._tracker: CardTracker | None = None  # the card tracker, once asked for (``c``)

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
        game = self.game
        if game.deal.tricks or game.deal.trick or game.deal_number > 1:
            line = Text(f"Game resumed: deal {game.deal_number} of {game.deals_planned}.",
                        style="bold")
            if game.assisted:
                line.append(f" Used so far: {self._help_used()}; the game counts as "
                            "assisted.", style="dim")
            self.log_line(line)
        self._log_deal_start(resumed=True)
        self._tell_deal_so_far()
        for note in self._notes:
            self._log_event(note)
        if self.challenge is not None:
            self.query_one(Scoreboard).border_subtitle = f"Challenge {self.challenge}"
            self.log_line(Text(f"The daily challenge of {self.challenge}: hints, undo and the "
                               "meter are off.", style="dim"))
        if self._meter_on:
            # Saved with the game's next save (the first one comes after the first frame).
            self._meter_turned_on(save=False)
        self.refresh_view()
        self.set_interval(1.0, self._show_save_state)
        self.call_after_refresh(self._shown)

    def _tell_deal_so_far(self) -> None:
        """The deal so far, told again in the log (a resumed game), your only legal cards
        marked as they were when played: the deal is played again from its hands as dealt
        to know which ones were."""
        deal = self.game.deal
        again = Deal.from_hands([deal.dealt_hand(seat) for seat in range(4)], deal.dealer)
        for event in self.driver.deal_so_far():
            forced = False
            if isinstance(event, CardPlayed):
                forced = only_card(again) is not None
                again.play(event.card)
            self._log_event(event, forced=forced, replay=True)

    def _shown(self) -> None:
        """Right after the table's first frame: the writes that could wait for it (a first
        run's store, the settings, the deal's start), then the game goes on."""
        self.nil_app.table_shown()
        self._save_start()
        self._meter_may_run = True
        if self._meter_on:
            self.refresh_view()
        self.advance()

    def _save_start(self) -> None:
        """Save a deal that starts here, once, before any card of it is played."""
        if self._start_saved:
            return
        self._start_saved = True
        deal = self.game.deal
        if not deal.tricks and not deal.trick:
            self.driver.save()

    @property
    def game(self) -> Game:
        return self.driver.game

    @property
    def challenge(self) -> str | None:
        """The date of the daily challenge this game is, or None."""
        if self.options.challenge:
            return self.options.challenge
        info = self.driver.game.challenge
        date = info.get("date") if isinstance(info, dict) else None
        return str(date) if date else None

    def _help_used(self) -> str:
        """The help the player had in this game, in words: "undo", "undo and hints"."""
        kinds = (["undo"] if self.game.undone else []) + [
            {"hint": "hints", "meter": "the meter"}.get(k, k) for k in self.game.assists]
        return kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " and " + kinds[-1]

    def _note_assisted(self, what: str) -> None:
        """Say once in the log that the game now counts as assisted."""
        if self._told_assisted:
            return
        self._told_assisted = True
        self.log_line(Text(f"{what}: this game now counts as assisted in history and "
                           "statistics.", style="magenta"))

    # --- snapshots down -------------------------------------------------------------------
    def refresh_view(self) -> None:
        driver = self.driver
        game = self.game
        deal = game.deal
        to_move = None if self._holding is not None else driver.to_move
        sizes = [len(deal.hand(s)) for s in range(4)]
        taken = deal.taken
        thinking = driver.asking
        for seat in BOT_SEATS:
            self.query_one(f"#seat-{seat}", Seat).info = SeatInfo(
                name=SEAT_LABELS[seat], level=level_title(driver.spec_of(seat)),
                cards=sizes[seat], tricks=taken[seat], clean=taken[seat] == 0,
                dealer=deal.dealer == seat, to_move=to_move == seat,
                thinking=thinking == seat and self._holding is None)
        self._update_meter()
        self._show_south(sizes[0], taken[0])
        self.query_one(Scoreboard).info = ScoreInfo(
            names=SEAT_LABELS, totals=game.totals, taken=taken, lowest=game.losers,
            deal_number=game.deal_number, deals_planned=game.deals_planned)
        self.query_one(TrickView).info = self._trick_info()
        hand = self.query_one(Hand)
        mine = to_move == 0 and game.phase is Phase.PLAYING
        hand.set_hand(deal.hand(0), frozenset(deal.legal_moves()) if mine else frozenset(), mine)
        tracker = self._tracker
        if tracker is not None and tracker.display:
            tracker.follow(deal.view(0))
        can_undo = driver.plays_to_undo() > 0
        if can_undo != self._can_undo:  # the footer offers undo only when it can act
            self._can_undo = can_undo
            # The footer is rebuilt a moment after the card is drawn, not before it.
            self.set_timer(0.2, self.refresh_bindings)

    def _trick_info(self) -> TrickInfo:
        """The middle of the table: the trick on show (just won, or the peek at the last one),
        else the trick being played with who led it, else the last trick won (it stays until
        the next card is played, at any speed) and who leads now."""
        deal = self.game.deal
        if self._holding is not None:
            t = self._holding
            cards = tuple((t.player_of(k), c) for k, c in enumerate(t.cards))
            caption = f"{seat_subject(t.leader)} led, {says(t.winner, 'win', 'wins', start=False)}"
            if self._peeking:
                caption = f"Last trick, to {'you' if t.winner == 0 else SEAT_LABELS[t.winner]}"
            return TrickInfo(cards, t.winner, caption)
        if deal.trick:
            cards = tuple(((deal.leader + k) & 3, c) for k, c in enumerate(deal.trick))
            return TrickInfo(cards, None, f"{seat_subject(deal.leader)} led")
        if self.game.phase is not Phase.PLAYING:
            return TrickInfo((), None, "")
        if deal.tricks:
            t = deal.tricks[-1]
            cards = tuple((t.player_of(k), c) for k, c in enumerate(t.cards))
            return TrickInfo(cards, t.winner,
                             f"{seat_subject(t.winner)} won it and {verb(t.winner, 'lead', 'leads')}")
        return TrickInfo((), None, f"{says(deal.leader, 'lead', 'leads')}")

    def _show_south(self, cards: int, tricks: int) -> None:
        south = Text()
        south.append("You (South)", style="bold")
        if self.game.deal.dealer == 0:
            south.append("  dealer", style="dim")
        south.append(f"  {count(cards, 'card')}  {count(tricks, 'trick')}  ")
        if tricks == 0:
            south.append("● clean", style="bold green")
        else:
            south.append("○ taken", style="dim")
        if self._meter_on:
            south.append("  meter: ", style="dim")
            south.append(self._meter_text(tricks), style="bold cyan")
        self._marked_unsaved = bool(self.nil_app.save_problem)
        if self._marked_unsaved:
            south.append("   ⚠ not saved", style="bold yellow")
        self.query_one("#south", Static).update(south)

    def _meter_text(self, tricks: int) -> str:
        """What the meter shows: the estimate, "..." while it is made, or that you are no
        longer clean."""
        if tricks:
            return "not clean"
        value = self._meter_value
        if value is None:
            return "clean ..."
        if value in (0.0, 1.0):
            return f"clean ~{round(value * 100)}%"  # an estimate, never a certainty
        return f"clean {percent(value)}"

    def _update_meter(self) -> None:
        """Start an estimate when the meter is on and the position it shows is gone (a trick
        was completed, a card taken back, a new deal). Once you have taken a trick there is
        nothing to estimate."""
        if (not self._meter_on or not self._meter_may_run
                or self.game.phase is not Phase.PLAYING):
            return
        deal = self.game.deal
        key: MeterKey = (self.game.deal_number, len(deal.tricks), len(self.game.undone))
        if key == self._meter_key:
            return
        self._meter_key = key
        self._meter_value = None
        if deal.taken[0]:
            return
        self.estimate_clean(key, deal.view(0), meter_seed(self.game, key[0], key[1]))

    @work(thread=True, exclusive=True, group="meter")
    def estimate_clean(self, key: MeterKey, view: PlayerView, seed: int) -> None:
        """In a thread: the chance to stay clean from your view; posted with its position."""
        try:
            chance: float | None = meter_chance(view, seed)
        except Exception:  # noqa: BLE001 - the meter must never stop the game
            chance = None
        self.post_message(MeterReady(key, chance))

    def on_meter_ready(self, message: MeterReady) -> None:
        if not self._meter_on or message.key != self._meter_key:
            return  # a position that is gone (a newer trick, undo, a new deal)
        if message.chance is None:
            self._meter_key = None  # tried again at the next refresh
            return
        self._meter_value = min(max(message.chance, 0.0), 1.0)
        game = self.game
        self._show_south(len(game.deal.hand(0)), game.deal.taken[0])

    def _meter_turned_on(self, save: bool = True) -> None:
        """The meter is on: the game counts as assisted (kept with the game), said once."""
        if self.game.add_assist("meter") and save:
            self.driver.save()
        self._note_assisted("Clean-chance meter on")

    def action_meter(self) -> None:
        """Show or hide the chance to stay clean on your seat line."""
        if self.challenge is not None:
            self.status(CHALLENGE_REFUSALS["meter"], warn=True)
            return
        self._meter_on = not self._meter_on
        self._meter_key = None
        self._meter_value = None
        if self._meter_on:
            self._meter_turned_on()
            self.status(Text("Meter on: your chance to stay clean this deal, from what you "
                             "see (m hides it).", style="dim"))
        else:
            self.status(Text("Meter off (m shows it again).", style="dim"))
        self.nil_app.options = replace(self.nil_app.options, meter=self._meter_on)
        self.options = replace(self.options, meter=self._meter_on)
        self.refresh_view()

    def _show_save_state(self) -> None:
        """Keep the "not saved" mark true while the app retries in the background."""
        if bool(self.nil_app.save_problem) == self._marked_unsaved:
            return
        game = self.game
        self._show_south(len(game.deal.hand(0)), game.deal.taken[0])

    def status(self, message: str | Text, warn: bool = False) -> None:
        widget = self.query_one("#status", Static)
        widget.set_class(warn, "-warn")
        widget.update(message)

    def log_line(self, line: Text) -> None:
        self.query_one(GameLog).add(line)

    # --- the flow of the game -------------------------------------------------------------
    def advance(self) -> None:
        """Do whatever comes next: wait for you, ask a bot, or show the deal's end."""
        if not self.is_active or self._holding is not None or self._over:
            return
        driver = self.driver
        phase = driver.phase
        if phase is Phase.DEAL_OVER:
            from .summary import SummaryScreen

            self.app.push_screen(SummaryScreen(self.game, between_deals=True, look=self.look),
                                 self._after_summary)
            return
        if phase is Phase.GAME_OVER:
            self._game_over()
            return
        if driver.human_to_move():
            if self._cursor_turn != driver.turn:
                self._cursor_turn = driver.turn
                hand = self.query_one(Hand)
                if not (self._moved_while_waiting and hand.current in hand.legal):
                    hand.leftmost_legal()
                self._moved_while_waiting = False
            if self._forced_card() is not None:
                self._play_forced_soon()
                return
            self.status(self._your_turn_text())
            return
        if self._draining and self._bot_running():
            return  # the bot finishes its answer to the undone position first
        self._draining = False
        request = driver.request()
        if request is not None:
            self.refresh_view()
            self.status(Text(f"{SEAT_LABELS[request.seat]} is thinking…", style="dim"))
            pause = PAUSES.get(self.options.speed, PAUSES["normal"])[0]
            self.ask_bot(request, pause)

    def _bot_running(self) -> bool:
        return any(w.group == "bots" and w.is_running for w in self.workers)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if (self._draining and event.worker.group == "bots"
                and event.state in (WorkerState.SUCCESS, WorkerState.ERROR,
                                    WorkerState.CANCELLED)):
            self.advance()

    def _forced_card(self) -> Card | None:
        """Your only legal card when auto-play is on and this turn was not reached by undo
        (there the card waits for you, so another undo can go further back)."""
        if not self.options.auto_play or self._no_auto_turn == self.driver.turn:
            return None
        return only_card(self.game.deal)

    def _play_forced_soon(self) -> None:
        """Show the forced card for a moment, then play it (unless you play it first)."""
        card = self._forced_card()
        if card is None:
            return
        text = Text("Your only legal card: ", style="bold")
        text.append_text(self.look.styled(card))
        text.append(" is played for you…", style="bold")
        self.status(text)
        turn = self.driver.turn
        if self._auto_turn == turn:
            return
        self._auto_turn = turn
        delay = AUTO_PLAY_DELAY.get(self.options.speed, AUTO_PLAY_DELAY["normal"])
        self.set_timer(delay, partial(self._auto_play, turn))

    def _auto_play(self, turn: int) -> None:
        if turn != self.driver.turn or self._auto_turn != turn:
            return
        self._auto_turn = None
        card = self._forced_card()
        if (card is None or not self.is_active or self._holding is not None
                or not self.driver.human_to_move()):
            return  # shown again (and timed anew) when the table is back in front
        self._play_card(card)

    def _your_turn_text(self) -> Text:
        deal = self.game.deal
        text = Text("Your turn", style="bold")
        led = deal.led_suit
        legal = deal.legal_moves()
        if led is None:
            text.append(": you lead")
        elif all(c.suit == led for c in legal):
            text.append(f": follow {self.look.suit_text(Suit(led))}")
        else:
            text.append(f": no {self.look.suit_text(Suit(led))}, play any card")
        text.append("   ←/→ choose, Enter plays", style="dim")
        return text

    @work(thread=True, group="bots")
    def ask_bot(self, request: Request, pause: float) -> None:
        """In a thread: the driver asks the seat's bot (isolated); the answer is posted."""
        started = time.monotonic()
        decision = self.driver.decide(request)
        rest = pause - (time.monotonic() - started)
        if rest > 0:
            time.sleep(rest)
        self.post_message(BotDecided(decision))

    def on_bot_decided(self, message: BotDecided) -> None:
        if message.decision.turn != self.driver.turn:
            return  # for a position that is gone (an undo): the bot is asked again
        if not self.is_active or self._peeking:
            self._held = message.decision
            return
        self._apply(message.decision)

    def on_screen_resume(self) -> None:
        if self._peeking:
            self.refresh_view()
            return
        held, self._held = self._held, None
        if held is not None and self._apply(held):
            return
        if self._holding is not None and self._hold_timer is None and not self._hold_waits:
            self._release_hold()
        else:
            self.refresh_view()
            self.advance()

    def _apply(self, decision: Decision) -> bool:
        """Play a bot's answer if it is still for this position; True when it was played."""
        events = self.driver.apply(decision)
        if events is None:
            return False
        self._after_play(events)
        return True

    def _after_play(self, events: list[DriverEvent], forced: bool = False) -> None:
        for event in events:
            self._log_event(event, forced=forced)
        self.refresh_view()
        self.advance()

    def _log_event(self, event: DriverEvent, *, forced: bool = False,
                   replay: bool = False) -> None:
        """A log line for an event; ``forced``: your card was your only legal one (whether
        played for you or by you); ``replay``: the deal is being told again (a resumed game),
        so nothing is held on the table."""
        if isinstance(event, (BotIncident, BotReplaced)):
            self.log_line(Text(f"⚠ {SEAT_LABELS[event.seat]}: {event.reason}", style="yellow"))
        elif isinstance(event, CardPlayed):
            line = Text(f"{says(event.seat, 'play', 'plays')} ")
            line.append_text(self.look.styled(event.card))
            if forced and event.seat == 0:
                line.append(" (forced)", style="dim")
            self.log_line(line)
        elif isinstance(event, TrickWon):
            w = event.winner
            line = Text(f"{says(w, 'win', 'wins')} the trick with ", style="bold")
            line.append_text(self.look.styled(event.trick.card_of(w)))
            if event.first_trick_for_winner:
                line.append(" — " + ("you are no longer clean" if w == 0 else
                                     f"{SEAT_LABELS[w]} is no longer clean"))
            self.log_line(line)
            if not replay:
                self._hold(event.trick)
        elif isinstance(event, DealEnded):
            self.log_line(Text(f"Deal {event.deal_number}: {event.summary(SEAT_LABELS)}",
                               style="bold cyan"))
        elif isinstance(event, GameEnded):
            self.log_line(Text("The game is over.", style="bold"))

    def _hold(self, trick: Trick) -> None:
        """Keep a trick just won on the table: until a key (the "wait for a key" setting), or
        for a moment by speed. At ``instant`` it is not held, but it stays on show until
        the next card is played (see :meth:`_trick_info`)."""
        takes = says(trick.winner, "take", "takes")
        if self._hold_timer is not None:
            self._hold_timer.stop()
            self._hold_timer = None
        if self.options.trick_pause == "key":
            self._holding = trick
            self._hold_waits = True
            self.status(Text(f"{takes} the trick. Press any key to go on.", style="bold"))
            return
        pause = PAUSES.get(self.options.speed, PAUSES["normal"])[1]
        if pause <= 0:
            return
        self._holding = trick
        self._hold_timer = self.set_timer(pause, self._hold_over)
        self.status(Text(f"{takes} the trick; play goes on in a moment (any key: now).",
                         style="dim"))

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
        self._hold_waits = False
        held, self._held = self._held, None
        if held is not None and self.is_active and self._apply(held):
            return
        self.refresh_view()
        self.advance()

    def _log_deal_start(self, resumed: bool = False) -> None:
        game = self.game
        deal = game.deal
        if (deal.tricks or deal.trick) and not resumed:
            return
        leader = (deal.dealer + 1) & 3
        dealer = "you deal" if deal.dealer == 0 else f"{SEAT_LABELS[deal.dealer]} deals"
        self.log_line(Text(f"Deal {game.deal_number} of {game.deals_planned}: {dealer}; "
                           f"{says(leader, 'lead', 'leads', start=False)}.", style="bold cyan"))

    def _after_summary(self, _: object = None) -> None:
        if self.driver.phase is Phase.DEAL_OVER:
            self.driver.next_deal()
            self._log_deal_start()
        self.refresh_view()
        self.advance()

    def _game_over(self) -> None:
        if self._over:
            return
        self._over = True
        app = self.nil_app
        path = app.finish_game(self.game, self.options)
        app.switch_screen(app.game_over_screen(self.game, self.options, path, app.save_problem))

    # --- keys up --------------------------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        """While a trick is on show (just won, or the peek at the last one), a key only puts
        it away: one key, one effect. Undo acts at once (the trick you just lost, say)."""
        if not self.is_active:
            return
        refused = CHALLENGE_KEYS.get(event.key) if self.challenge is not None else None
        if refused is not None:
            # Off the footer in a challenge; the key says why it does nothing.
            event.stop()
            event.prevent_default()
            self.status(CHALLENGE_REFUSALS[refused], warn=True)
            return
        if self._holding is None:
            if event.key == "u" and self.driver.plays_to_undo() == 0:
                # Undo is off the footer then, and its key says why it does nothing.
                self.status("There is no card of yours to take back in this deal.", warn=True)
            return
        if event.key == "u" and self.driver.plays_to_undo() > 0:
            return  # the binding takes it back, the trick on show with it
        event.stop()
        event.prevent_default()
        self._release_hold()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not self.is_active:
            return False
        if action in CHALLENGE_REFUSALS and self.challenge is not None:
            return False  # hints, undo and the meter are off in a daily challenge
        if action == "undo":
            return self.driver.plays_to_undo() > 0  # in the footer only when it can act
        return True

    def action_move(self, step: int) -> None:
        if self._holding is not None:
            self._release_hold()
            return
        if self.driver.bot_to_move() is not None:
            self._moved_while_waiting = True
        self.query_one(Hand).move(step)

    def action_play(self) -> None:
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
        driver = self.driver
        if driver.phase is not Phase.PLAYING or card is None:
            return
        self._save_start()
        seat = driver.to_move
        if seat is not None and not driver.is_human(seat):
            self.status(Text(f"Wait: it is {SEAT_LABELS[seat]}'s turn.", style="dim"))
            return
        problem = self.game.deal.why_illegal(card)
        if problem is not None:
            self._refuse(card, problem)
            return
        forced = only_card(self.game.deal) is not None
        try:
            events = driver.play(card)
        except IllegalPlay as exc:  # pragma: no cover - why_illegal said it was legal
            self._refuse(card, exc)
            return
        self._after_play(events, forced=forced)

    def _refuse(self, card: Card, problem: IllegalPlay) -> None:
        if problem.led_suit is not None:
            led = Suit(problem.led_suit)
            why = f"You must follow {self.look.suit_text(led)} ({led.label})."
        else:
            why = f"You cannot play {self.look.face(card)}: {problem.reason}."
        self.status(Text(why, style="bold"), warn=True)
        self.app.bell()

    def action_scoreboard(self) -> None:
        from .summary import ScoresScreen

        self.app.push_screen(ScoresScreen(self.game))

    def action_last_trick(self) -> None:
        """Show the last completed trick in the middle of the table until a key is pressed."""
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

    def action_undo(self) -> None:
        """Take back your last card of this deal and every card played after it."""
        if self.challenge is not None:
            self.status(CHALLENGE_REFUSALS["undo"], warn=True)
            return
        driver = self.driver
        plays = driver.plays_to_undo()
        if plays == 0:
            self.status("There is no card of yours to take back in this deal.", warn=True)
            return
        deal = self.game.deal
        seats = [t.player_of(k) for t in deal.tricks for k in range(4)]
        seats += [(deal.leader + k) & 3 for k in range(len(deal.trick))]
        if self._hold_timer is not None:
            self._hold_timer.stop()
            self._hold_timer = None
        self._holding = None
        self._peeking = False
        self._hold_waits = False
        self._held = None
        self._auto_turn = None
        cards = driver.undo()
        self._no_auto_turn = driver.turn
        self._draining = self._bot_running()
        line = Text("Taken back: ", style="bold magenta")
        for n, (seat, card) in enumerate(zip(seats[-len(cards):], cards)):
            if n:
                line.append(", ")
            line.append("your " if seat == 0 else f"{SEAT_LABELS[seat]}'s ")
            line.append_text(self.look.styled(card))
        line.append(".")
        self.log_line(line)
        self._note_assisted("Undo used")
        self.refresh_view()
        self.advance()
        if driver.human_to_move():
            text = Text(f"Taken back ({count(len(cards), 'card')}). ", style="bold")
            text.append_text(self._your_turn_text())
            self.status(text)

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
        if self.challenge is not None:
            self.status(CHALLENGE_REFUSALS["hint"], warn=True)
            return
        if not self.driver.human_to_move():
            self.status("A hint is for your turn.", warn=True)
            return
        if self.game.add_assist("hint"):
            self.driver.save()  # kept with the game: it counts as assisted
        self._note_assisted("Hint used")
        self.status(Text("Thinking of a hint…", style="dim"))
        self.find_hint(self.driver.turn, self.game.deal.view(0))

    @work(thread=True, group="hint", exclusive=True)
    def find_hint(self, turn: int, view: PlayerView) -> None:
        from ...bots import advise

        try:
            card, reason = advise(view, ascii=self.look.ascii)
        except Exception as exc:  # noqa: BLE001 - a failing hint must not stop the game
            card, reason = view.legal[0], f"no hint available ({type(exc).__name__})"
        self.post_message(HintReady(turn, card, reason))

    def on_hint_ready(self, message: HintReady) -> None:
        if message.turn != self.driver.turn:
            return
        hand = self.query_one(Hand)
        if message.card in hand.cards:
            hand.cursor = hand.cards.index(message.card)
        line = Text("Hint: ")
        line.append_text(self.look.styled(message.card))
        short = line.copy()
        line.append(f" ({message.reason})")
        # The log keeps the whole hint (it wraps); the status line shows it when it fits.
        self.log_line(line.copy())
        # The status line takes two rows for it when the terminal has rows to spare (taller
        # than 24; a word may not fill a row to its end), else one.
        width = self.query_one("#status", Static).size.width - 2
        if line.cell_len > (2 * width - 12 if self.size.height > 24 else width - 1):
            short.append(" (why: in the log)")
            line = short
        self.status(line)

    @property
    def in_progress(self) -> bool:
        return self.driver.phase is not Phase.GAME_OVER
