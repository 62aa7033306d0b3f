"""One game at the table, from its current position to its end, without a screen.

A :class:`GameSession` owns the :class:`~nil_tui.driver.GameDriver` and the flow of play: whose
card is awaited, a bot's card waiting to land, a finished trick on show, a forced card about
to be played for you, the deal's end, the game's end. It also holds the help policy (hints,
undo and the meter: allowed or not, and the assisted mark).

It never waits on a clock and never starts a thread. Everything goes in as a call (what a
player does: :meth:`act`; what the front end finished: :meth:`bot_decided`,
:meth:`timer_done`, :meth:`hint_found`, :meth:`meter_estimated`) and comes out as a list of
plain values: protocol news (:mod:`.messages`) for the log, and *effects* for the front end
(:class:`AskBot`: let this bot decide, then call back; :class:`Wait`: call
:meth:`timer_done` after so many seconds; :class:`ShowTrick`...). The table screen is one
front end; a network table or a test is another.

A bot thinks while the finished trick is on show and during the pause before its card
lands: the card lands when both are over (the longer of the two, not their sum).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..driver import Decision, DriverEvent, GameDriver, Request
from ..engine import (
    SEAT_NAMES,
    Card,
    Game,
    IllegalPlay,
    Phase,
    PlayerView,
    Trick,
    TrickWon,
)
from .messages import (
    Action,
    AskHint,
    DealBegun,
    GoOn,
    Hint,
    MeterReading,
    PlayCard,
    Quit,
    Refused,
    SetMeter,
    TableState,
    TakenBack,
    Undo,
    table_state,
)
from .meter import EstimateMeter, Meter, MeterKey, meter_seed, sure_to_take
from .news import news_of
from .pacing import (
    AUTO_PLAY_DELAY,
    PAUSES,
    THINKING_AFTER,
    AskBot,
    AssistedNow,
    DealSummary,
    Effect,
    FindHint,
    ForcedSoon,
    GameFinished,
    Out,
    Pacer,
    ShowTrick,
    TableNote,
    Wait,
    YourTurn,
)

if TYPE_CHECKING:
    from pathlib import Path

    from ..driver import Opener
    from ..game.options import PlayOptions

# What the session says when help is refused in a daily challenge.
CHALLENGE_REFUSALS: dict[str, str] = {
    "hint": "Hints are off in the daily challenge.",
    "undo": "Undo is off in the daily challenge.",
    "meter": "The clean-chance meter is off in the daily challenge.",
}


def level_title(spec: str | None) -> str:
    """How a seat's player is named on its seat: the level's title, a plugin's class name,
    or "you"."""
    from ..bots import LEVELS

    if spec is None:
        return "you"
    level = LEVELS.get(spec)
    return level.title if level else spec.rsplit(":", 1)[-1]


class PacedGame:
    """The flow of play of one game (the base of :class:`GameSession`): whose card is
    awaited, a bot's card waiting to land, a finished trick on show, a forced card about to be
    played for you, the deal's end, the game's end (those on screen: :class:`.pacing.Pacer`)."""

    def __init__(self, driver: GameDriver, options: PlayOptions, *,
                 on_finished: Callable[[Game], Path | None] | None = None,
                 seat: int = 0) -> None:
        self.driver = driver
        self.options = options
        self.seat = seat
        self._on_finished = on_finished
        self._pacer = Pacer(options)
        self._asked: Request | None = None  # the bot deciding (its answer is awaited)
        self._slow_turn = -1  # the turn whose bot has been deciding for THINKING_AFTER s
        self._answer: Decision | None = None  # a bot's answer waiting to land
        self._land_due = False  # the pause before the awaited card is over
        self._no_auto_turn = -1  # a turn reached by undo: its forced card waits for you
        self._undone_now = 0  # cards the last undo took back (said with the next turn)
        self._started = False
        self.record_path: Path | None = None  # where the finished game's record went

    def _meter_now(self) -> list[Out]:
        """The meter's figure after a change (none here: see :class:`GameSession`)."""
        return []

    @property
    def game(self) -> Game:
        return self.driver.game

    @property
    def turn(self) -> int:
        return self.driver.turn

    @property
    def on_show(self) -> Trick | None:
        return self._pacer.on_show

    @property
    def thinking(self) -> int | None:
        """The seat whose bot has been deciding the position shown for a while
        (:data:`THINKING_AFTER`), if any."""
        asked = self._asked
        if (asked is None or asked.turn != self.driver.turn or self.on_show is not None
                or self._slow_turn != asked.turn):
            return None
        return asked.seat

    @property
    def pace(self) -> str:
        """Where play stands (one of :data:`~.messages.PACES`)."""
        phase = self.driver.phase
        if phase is Phase.GAME_OVER:
            return "game_over"
        if phase is Phase.DEAL_OVER and self.on_show is None:
            return "deal_over"
        if self.on_show is not None:
            return "trick_on_show"
        if self.driver.human_to_move():
            return "forced" if self._pacer.forced_turn == self.driver.turn else "your_turn"
        return "bot_waits"

    def forced_card(self) -> Card | None:
        """Your only legal card when auto-play is on and this turn was not reached by undo
        (there the card waits for you, so another undo can go further back)."""
        if not self.options.auto_play or self._no_auto_turn == self.driver.turn:
            return None
        if not self.driver.human_to_move():
            return None
        legal = self.game.deal.legal_mask()
        return self.game.deal.legal_moves()[0] if legal & (legal - 1) == 0 else None

    def go_on(self) -> list[Out]:
        """Put away the trick on show, or deal the next hand after a deal's summary."""
        if self.on_show is not None:
            return self._put_away()
        if self.driver.phase is Phase.DEAL_OVER:
            started = self.driver.next_deal()
            out: list[Out] = [DealBegun(started.deal_number, started.dealer)]
            out.extend(self._meter_now())
            out.extend(self._advance())
            return out
        return self._advance()

    def _play(self, card: Card) -> list[Out]:
        driver = self.driver
        if driver.phase is not Phase.PLAYING:
            return []
        if self.on_show is not None:
            return self._put_away()
        seat = driver.to_move
        if seat is not None and not driver.is_human(seat):
            return [Refused("play", f"Wait: it is {SEAT_NAMES[seat]}'s turn.", card)]
        self._save_start()
        try:
            events = driver.play(card)
        except IllegalPlay as exc:
            return [Refused("play", exc.reason, card, exc.led_suit)]
        self._pacer.forced_turn = None
        return self._after(events)

    def _save_start(self) -> None:
        """Play starts here: the deal that starts is saved (once)."""
        if not self._started:
            self._started = True
            if not self.game.deal.plays:
                self.driver.save()

    def bot_decided(self, decision: Decision) -> list[Out]:
        """A bot's answer: it lands once the pause before it and any trick on show are over
        (an answer for a position that is gone is dropped, and the bot asked again)."""
        asked, self._asked = self._asked, None
        if asked is not None and decision.turn == self.driver.turn:
            self._answer = decision
        return self._advance()

    def bot_lost(self, request: Request) -> list[Out]:
        """The bot of ``request`` could not answer at all (its thread failed)."""
        if self._asked == request:
            self._asked = None
        return []

    def timer_done(self, token: tuple[str, int]) -> list[Out]:
        """A :class:`Wait` is over."""
        kind, number = token
        pacer = self._pacer
        if kind == "trick":
            return self._advance() if pacer.trick_over(number) else []
        if kind == "slow":  # the bot still deciding this turn is now said to be thinking
            asked = self._asked
            if asked is not None and asked.turn == number == self.driver.turn:
                self._slow_turn = number
            return []
        if kind == "land" and pacer.landed(number):
            self._land_due = True
            return self._advance()
        if kind == "forced" and number == self.driver.turn and pacer.forced_due(number):
            card = self.forced_card()
            if card is not None:
                return self._play(card)
            pacer.forced_turn = None
        return []

    def advance(self) -> list[Out]:
        """Whatever comes next now (the front end changed the options, say)."""
        return self._advance()

    def set_watching(self, watching: bool) -> list[Out]:
        """Whether the table is in front (not under another screen, not showing the last
        trick): a bot's card lands and a forced card is played only while it is."""
        self._pacer.watching = watching
        return self._advance() if watching else []

    def _after(self, events: Sequence[DriverEvent]) -> list[Out]:
        out: list[Out] = []
        for event in events:
            out.extend(self._news(event))
        out.extend(self._meter_now())
        out.extend(self._advance())
        return out

    def _news(self, event: DriverEvent, *, replay: bool = False) -> list[Out]:
        """An event of the driver as news (a trick won goes on show, unless told again)."""
        news = news_of(self.game, event)
        if news is None:
            return []
        if isinstance(event, TrickWon) and not replay:
            return [news, *self._pacer.show(event.trick)]
        return [news]

    def _put_away(self) -> list[Out]:
        self._pacer.on_show = None
        return self._advance()

    def _advance(self) -> list[Out]:
        """Whatever comes next: ask a bot (it may think while a trick is on show), land its
        card when its pause is over, time a forced card, show the deal's or game's end."""
        driver = self.driver
        phase = driver.phase
        out: list[Out] = []
        if phase is Phase.PLAYING and driver.bot_to_move() is not None and self._started:
            out.extend(self._ask())
        if not self._pacer.free:
            return out
        if phase is Phase.DEAL_OVER:
            out.extend(self._pacer.summary(self.game.deal_number))
        elif phase is Phase.GAME_OVER:
            if self._pacer.finish():
                if self._on_finished is not None:
                    self.record_path = self._on_finished(self.game)
                out.append(GameFinished())
        elif driver.human_to_move():
            out.extend(self._pacer.your_turn(driver.turn, self.forced_card(),
                                             self._undone_now))
            self._undone_now = 0
        else:
            out.extend(self._land())
        return out

    def _land(self) -> list[Out]:
        """The awaited bot's card: its pause starts once it is asked, and it lands once both
        its answer is in and its pause is over."""
        answer, driver = self._answer, self.driver
        waiting = not self._land_due and not self._pacer.landing
        if answer is None or answer.turn != driver.turn:
            return self._start_landing() if self._asked is not None and waiting else []
        out = self._start_landing() if waiting else []
        if self._land_due:
            self._answer = None
            events = driver.apply(answer)
            if events is not None:
                self._land_due = False
                out.extend(self._after(events))
        return out

    def _ask(self) -> list[Out]:
        """Ask the bot to move, unless it is deciding already (or still answering a position
        that is gone: it is asked again once that answer is in)."""
        if self._asked is not None or (self._answer is not None
                                       and self._answer.turn == self.driver.turn):
            return []
        request = self.driver.request()
        if request is None:
            return []
        self._asked = request
        self._answer = None
        self._land_due = self._pacer.landing = False
        out: list[Out] = [AskBot(request), Wait(THINKING_AFTER, ("slow", request.turn))]
        if self._pacer.free:
            out.extend(self._start_landing())
        return out

    def _start_landing(self) -> list[Out]:
        """The pause before the awaited bot's card lands starts now. The game's first card
        waits as long as a finished trick stays: the table shows the cut for the first
        dealer until then."""
        pause, trick = self._pacer.pauses
        game = self.game
        if game.deal_number == 1 and not game.deal.plays and game.cut is not None:
            pause = max(pause, trick)
        waits = self._pacer.land(pause)
        if not waits:
            self._land_due = True
        return waits


class GameSession(PacedGame):
    """One game for the person in ``seat`` (see the module's docstring): the flow of play,
    the help policy, what the seat may see.

    ``options`` give the pace (speed, the pause after a trick, auto-play) and whether the
    meter starts on; ``save_problem`` says why the game is not saved, when it is not (the
    keeper of games knows); ``on_finished`` is called once with the game at its end."""

    away = ("", "", "", "")  # nobody is ever away from a game played here

    def __init__(self, driver: GameDriver, options: PlayOptions, *,
                 save_problem: Callable[[], str | None] = lambda: None,
                 on_finished: Callable[[Game], Path | None] | None = None,
                 seat: int = 0) -> None:
        super().__init__(driver, options, on_finished=on_finished, seat=seat)
        self._save_problem = save_problem
        self._meter = Meter(bool(options.meter) and self.help_allowed)
        self.home_seat = 0  # the table here is never turned: you sit at South
        self.leave: Callable[[], None] | None = None  # game over offers a new game

    @property
    def challenge(self) -> str | None:
        """The date of the daily challenge this game is, or None."""
        if self.options.challenge:
            return self.options.challenge
        info = self.game.challenge
        return info.date if info is not None and info.date else None

    @property
    def help_allowed(self) -> bool:
        """Hints, undo and the meter: never in a daily challenge."""
        return self.challenge is None

    @property
    def meter_on(self) -> bool:
        return self._meter.on

    @property
    def meter_key(self) -> MeterKey | None:
        """The position the meter's estimate is (being) made for."""
        return self._meter.key

    @property
    def meter(self) -> MeterReading | None:
        """The meter's figure for the position shown (None while it is worked out)."""
        return self._meter.reading

    def can_undo(self) -> bool:
        return self.help_allowed and self.driver.plays_to_undo() > 0

    def state(self, seat: int | None = None) -> TableState:
        """What ``seat`` (default: the session's) may see now."""
        seat = self.seat if seat is None else seat
        specs = [self.driver.spec_of(s) for s in range(4)]
        forced = self.forced_card() if seat == self.seat else None
        return table_state(
            self.game, seat, turn=self.driver.turn, pace=self.pace,
            names=SEAT_NAMES, levels=specs, thinking=self.thinking, on_show=self.on_show,
            forced=forced if self._pacer.forced_turn == self.driver.turn else None,
            help_allowed=self.help_allowed, can_undo=self.can_undo(),
            meter_on=self._meter.on, save_problem=self._save_problem())

    def help_used(self) -> str:
        """The help the player had in this game, in words: "undo", "undo and hints"."""
        return help_words(bool(self.game.undone), self.game.assists)

    def deal_so_far(self) -> list[Out]:
        """The deal being played, told again (a resumed game): each card with its forced
        mark, the incidents that played cards for failed bots, each trick won."""
        return self.told(self.driver.deal_so_far())

    def told(self, events: Sequence[DriverEvent]) -> list[Out]:
        """Events that happened already (told again, or before the table was shown) as
        news; no trick goes on show."""
        return [news for event in events for news in self._news(event, replay=True)]

    def view(self) -> PlayerView:
        """The session's seat's view of the deal (what a card tracker follows)."""
        return self.game.deal.view(self.seat)

    # --- the rest of what the table screen needs (see :class:`~.seat.SeatSession`) -------------
    def told_so_far(self, notes: Sequence[DriverEvent] = ()) -> list[Out]:
        """The deal so far (a resumed game's), then ``notes`` (a bot replaced), as news."""
        return self.deal_so_far() + self.told(notes)

    def last_trick(self) -> Trick | None:
        """The last trick completed (of the previous deal before this one's first)."""
        tricks = self.game.deal.tricks
        if not tricks and self.game.deal_number > 1:
            tricks = self.game.deals[-2].tricks
        return tricks[-1] if tricks else None

    def help_refused(self, what: str) -> str | None:
        """Why ``what`` is refused (in a daily challenge), or None."""
        return None if self.help_allowed else CHALLENGE_REFUSALS.get(what)

    def bot_to_move(self) -> bool:
        return self.driver.bot_to_move() is not None

    def decide(self, request: Request) -> Decision:
        """The bot's decision for ``request`` (blocking: the front end calls it in a thread)."""
        return self.driver.decide(request)

    async def pushed(self) -> list[Out] | None:
        """Nothing happens here by itself: every change answers a call."""
        return None

    def begin(self) -> list[Out]:
        """Before the table's first frame: a meter on from the game's options makes the game
        assisted (saved with its next save)."""
        if self._meter.on and not self.game.assisted:
            self.game.add_assist("meter")
            return [AssistedNow("Clean-chance meter on")]
        if self._meter.on:
            self.game.add_assist("meter")
        return []

    def start(self) -> list[Out]:
        """The table is drawn: save the deal that starts here (once), and play goes on."""
        self._save_start()
        out: list[Out] = []
        out.extend(self._meter_now())
        out.extend(self._advance())
        return out

    @property
    def play_options(self) -> PlayOptions:
        """The options this game is saved with: as started, with the meter as it is now
        (a resumed game keeps its meter; later games do not: they take setup's)."""
        from dataclasses import replace

        if self.options.meter == self._meter.on:
            return self.options
        return replace(self.options, meter=self._meter.on)

    def act(self, action: Action) -> list[Out]:
        """A player's action: its news and effects, or a :class:`~.messages.Refused`."""
        if isinstance(action, PlayCard):
            return self._play(action.card)
        if isinstance(action, GoOn):
            return self.go_on()
        if isinstance(action, Undo):
            return self._undo()
        if isinstance(action, AskHint):
            return self._hint()
        if isinstance(action, SetMeter):
            return self._set_meter(action.on)
        if isinstance(action, Quit):
            self.driver.save()
            return []
        raise TypeError(f"not an action: {action!r}")

    def _undo(self) -> list[Out]:
        if not self.help_allowed:
            return [Refused("undo", CHALLENGE_REFUSALS["undo"])]
        driver = self.driver
        plays = driver.plays_to_undo()
        if plays == 0:
            return [Refused("undo", "There is no card of yours to take back in this deal.")]
        gone = self.game.deal.plays[-plays:]
        self._pacer.on_show = None
        self._answer = None
        self._pacer.forced_turn = None
        was_assisted = self.game.assisted
        driver.undo()
        self._no_auto_turn = driver.turn
        self._undone_now = len(gone)
        out: list[Out] = [TakenBack(gone)]
        if not was_assisted:
            out.append(AssistedNow("Undo used"))
        out.extend(self._meter_now())
        out.extend(self._advance())
        return out

    def _hint(self) -> list[Out]:
        if not self.help_allowed:
            return [Refused("hint", CHALLENGE_REFUSALS["hint"])]
        if not self.driver.human_to_move() or self.on_show is not None:
            return [Refused("hint", "A hint is for your turn.")]
        was_assisted = self.game.assisted
        self.driver.add_assist("hint")
        out: list[Out] = []
        if not was_assisted:
            out.append(AssistedNow("Hint used"))
        out.append(FindHint(self.driver.turn, self.game.deal.view(self.seat)))
        return out

    def hint_found(self, turn: int, card: Card, reason: str) -> list[Out]:
        """A hint worked out for ``turn``: dropped when the position is gone."""
        if turn != self.driver.turn:
            return []
        return [Hint(turn, card, reason)]

    def _set_meter(self, on: bool) -> list[Out]:
        if not self.help_allowed:
            return [Refused("meter", CHALLENGE_REFUSALS["meter"])]
        self._meter.turn_to(on)
        out: list[Out] = []
        if on:
            was_assisted = self.game.assisted
            self.driver.add_assist("meter")
            if not was_assisted:
                out.append(AssistedNow("Clean-chance meter on"))
            out.extend(self._meter_now())
        return out

    def _meter_now(self) -> list[Out]:
        """The meter's figure for the position now (once the table is drawn)."""
        if not self._started:
            return []
        return list(self._meter.now(self.game, self.seat, self.driver.turn))

    def meter_estimated(self, key: MeterKey, chance: float | None) -> list[Out]:
        """The estimate for ``key``; dropped when the position is gone or the meter off."""
        return list(self._meter.estimated(key, chance, self.driver.turn))


def help_words(undone: bool, assists: Sequence[str]) -> str:
    """The help a player had, in words: "undo", "undo and hints", "hints and the meter"."""
    kinds = (["undo"] if undone else []) + [
        {"hint": "hints", "meter": "the meter"}.get(k, k) for k in assists]
    if not kinds:
        return "nothing"
    return kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " and " + kinds[-1]


def open_session(game: Game, options: PlayOptions, *, opener: Opener | None = None,
                 save: Callable[[Game], object] | None = None,
                 save_problem: Callable[[], str | None] = lambda: None,
                 on_finished: Callable[[Game], Path | None] | None = None) -> GameSession:
    """A session for a new or resumed game: its driver opens the bots with ``opener`` and
    hands the game to ``save`` at every position worth keeping."""
    return GameSession(GameDriver(game, save=save, opener=opener), options,
                       save_problem=save_problem, on_finished=on_finished)


__all__ = [
    "AUTO_PLAY_DELAY", "CHALLENGE_REFUSALS", "PAUSES", "THINKING_AFTER", "AskBot", "AssistedNow",
    "DealSummary", "Effect", "EstimateMeter", "FindHint", "ForcedSoon", "GameFinished",
    "GameSession", "MeterKey", "Out", "PacedGame", "ShowTrick", "TableNote", "Wait", "YourTurn",
    "help_words", "level_title",
    "meter_seed", "open_session", "sure_to_take",
]
