"""One game played here, from its current position to its end, without a screen.

A :class:`GameSession` is the table of a game played in this process with one person at it:
it owns the :class:`~nil_tui.game.driver.GameDriver` (the engine checks every card), asks the bots
(through its front end, in threads) and plays each card as soon as its bot has decided, the
next bot thinking at once. What the person's seat is shown of it comes as frames and is paced
by the seat's part, :class:`~.frames.FrameSeat` (the same as a shared table's seat): a card
lands no sooner than its pause after the card before it, a finished trick stays on show, the
deal's summary and the game's end come once. It also holds the help policy of a single person
(hints, undo and the meter: allowed or not, and the assisted mark).

It never waits on a clock and never starts a thread. Everything goes in as a call (what a
player does: :meth:`act`; what the front end finished: :meth:`bot_decided`,
:meth:`timer_done`, :meth:`hint_found`, :meth:`meter_estimated`) and comes out as a list of
plain values: protocol news (:mod:`.messages`) for the log, and *effects* for the front end
(:class:`AskBot`: let this bot decide, then call back; :class:`Wait`: call
:meth:`timer_done` after so many seconds; :class:`ShowTrick`...).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..engine import Card, Game, IllegalPlay, Phase, PlayerView, Trick
from ..game.driver import Decision, DriverEvent, GameDriver, Request
from .frames import Frame, FrameSeat, seat_view
from .help import OwnHelp, SeatHelp, help_words
from .messages import (
    Action,
    AskHint,
    GoOn,
    PlayCard,
    Quit,
    Refused,
    SetMeter,
    TableState,
    TakenBack,
    Undo,
)
from .meter import EstimateMeter, MeterKey, meter_seed, sure_to_take
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
    ShowTrick,
    TableNote,
    Wait,
    YourTurn,
)
from .table import Parting, Update, Welcome, driver_for, table_here

if TYPE_CHECKING:
    from pathlib import Path

    from ..game.driver import Opener
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


class SeatHere:
    """The person's seat at the table of a game played here: what the table tells it waits
    to be shown (see :meth:`GameSession._told`)."""

    def __init__(self) -> None:
        self._heard: list[Frame] = []

    def welcome(self, welcome: Welcome) -> None:
        """(Nobody sits down at a game played here: the person is seated from the start.)"""

    def tell(self, update: Update, state: TableState | None) -> None:
        if state is not None:
            self._heard.append(Frame(update.news, state))

    def part(self, why: Parting) -> None:
        """(Nobody is let go from a game played here.)"""

    def take(self) -> list[Frame]:
        """The frames told since the last take."""
        heard, self._heard = self._heard, []
        return heard


class GameSession(FrameSeat, OwnHelp):
    """One game for the person in ``seat`` (see the module's docstring): the table, the help
    policy, what the seat may see.

    ``options`` give the pace (speed, the pause after a trick, auto-play) and whether the
    meter starts on; ``save_problem`` says why the game is not saved, when it is not (the
    keeper of games knows); ``on_finished`` is called once with the game at its end."""

    away = ("", "", "", "")  # nobody is ever away from a game played here

    def __init__(self, driver: GameDriver, options: PlayOptions, *,
                 save_problem: Callable[[], str | None] = lambda: None,
                 on_finished: Callable[[Game], Path | None] | None = None,
                 seat: int = 0) -> None:
        self.driver = driver
        self._here = SeatHere()
        self.table = table_here(driver, self._here)
        super().__init__(options, on_finished=on_finished)
        self.seat = seat
        self.home_seat = 0  # the table here is never turned: you sit at South
        self.leave: Callable[[], None] | None = None  # game over offers a new game
        self._save_problem = save_problem
        self._help = SeatHelp(bool(options.meter) and self.help_allowed, self.game.assists,
                              game=self.game,
                              assisted_before=lambda: bool(self.game.undone))
        self._on_assist = self._assisted
        self._asked: Request | None = None  # the bot deciding (its answer is awaited)
        self._lost: Request | None = None  # a bot whose thread failed (asked again soon)
        self._slow_turn = -1  # the turn whose bot has been deciding for THINKING_AFTER s
        self._no_auto_turn = -1  # a turn reached by undo: its forced card waits for you
        self._undone_now = 0  # cards the last undo took back (said with the next turn)
        self._started = False
        self._shown = self._position()

    # --- the table: the driver, the bots ------------------------------------------------------
    @property
    def game(self) -> Game:
        return self.driver.game

    def _position(self, seat: int | None = None) -> TableState:
        """What ``seat`` (default: the session's) may see of the table now."""
        return self.table.state_of(self.seat if seat is None else seat)

    def _told(self) -> list[Out]:
        """What the table just told the person's seat, shown at its pace; then the next bot
        is asked (it thinks while the seat is shown the cards before its own)."""
        out: list[Out] = []
        for frame in self._here.take():
            out.extend(self.heard(frame))
        return out + self._ask()

    def _ask(self) -> list[Out]:
        """Ask the bot to move, unless one is deciding already (or the table waits for the
        person, or the table is not drawn yet)."""
        driver = self.driver
        if not self._started or self._asked is not None or driver.phase is not Phase.PLAYING \
                or driver.bot_to_move() is None:
            return []
        request = driver.request()
        if request is None:
            return []
        self._asked = request
        return [AskBot(request), Wait(THINKING_AFTER, ("slow", request.turn))]

    def decide(self, request: Request) -> Decision:
        """The bot's decision for ``request`` (blocking: the front end calls it in a thread)."""
        return self.driver.decide(request)

    def bot_decided(self, decision: Decision) -> list[Out]:
        """A bot's answer: played at once, shown after the cards before it (an answer for a
        position that is gone is dropped, and the bot asked again)."""
        asked, self._asked = self._asked, None
        if asked is not None and decision.turn == self.driver.turn \
                and self.table.play_bot(decision):
            return self._told()
        return self._ask()

    def bot_lost(self, request: Request) -> list[Out]:
        """The bot of ``request`` could not answer at all (its thread failed): it is asked
        again when its thinking time is said (a second after it was asked)."""
        if self._asked == request:
            self._asked, self._lost = None, request
        return []

    def _send_card(self, card: Card, state: TableState) -> list[Out]:
        # (the seat is shown the table as it is on its turn: the table waits for its card)
        self._save_start()
        try:
            self.table.play_card(card)
        except IllegalPlay as exc:
            return [Refused("play", exc.reason, card, exc.led_suit)]
        return self._told()

    def _send_go_on(self, state: TableState) -> list[Out]:
        if self.driver.phase is not Phase.DEAL_OVER:
            return self._release()
        self.table.deal_next()
        return self._told()

    def _save_start(self) -> None:
        """Play starts here: the deal that starts is saved (once)."""
        if not self._started:
            self._started = True
            if not self.game.deal.plays:
                self.driver.save()

    # --- what the seat may see ----------------------------------------------------------------
    @property
    def pace(self) -> str:
        """Where play stands on the seat's screen (one of :data:`~.messages.PACES`)."""
        return self.state().pace

    @property
    def thinking(self) -> int | None:
        """The seat whose bot has been deciding the position shown for a while
        (:data:`THINKING_AFTER`), if any."""
        asked, shown = self._asked, self._shown
        if (asked is None or shown is None or self._queue or self.on_show is not None
                or asked.turn != self.driver.turn or shown.to_move != asked.seat
                or self._slow_turn != asked.turn):
            return None
        return asked.seat

    def state(self, seat: int | None = None) -> TableState:
        """What ``seat`` (default: the session's, as shown at its pace) may see now."""
        if seat is not None and seat != self.seat:
            return self._position(seat)
        return super().state()._replace(
            thinking=self.thinking, help_allowed=self.help_allowed, can_undo=self.can_undo(),
            meter_on=self.meter_on, assisted=self.game.assisted,
            save_problem=self._save_problem())

    def _in_step(self) -> bool:
        """Whether the seat is shown the table as it is (no frame still to show)."""
        shown = self._shown
        return not self._queue and shown is not None and shown.turn == self.driver.turn

    def view(self) -> PlayerView:
        """The seat's view of the deal shown (what a card tracker follows)."""
        if self._in_step() or self._shown is None:
            return self.game.deal.view(self.seat)
        return seat_view(self._shown)

    def last_trick(self) -> Trick | None:
        """The last trick completed (of the previous deal before this one's first)."""
        trick = super().last_trick()
        if trick is None and self.game.deal_number > 1:
            tricks = self.game.deals[-2].tricks
            return tricks[-1] if tricks else None
        return trick

    def forced_card(self) -> Card | None:
        """Your only legal card when auto-play is on and this turn was not reached by undo
        (there the card waits for you, so another undo can go further back)."""
        if not self.driver.human_to_move():
            return None
        return self._forced_card(self._position())

    def _forced_card(self, state: TableState) -> Card | None:
        if self._no_auto_turn == state.turn:
            return None
        return super()._forced_card(state)

    def _undone(self) -> int:
        undone, self._undone_now = self._undone_now, 0
        return undone

    # --- the help policy ------------------------------------------------------------------
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

    def can_undo(self) -> bool:
        return self.help_allowed and self.driver.plays_to_undo() > 0

    def help_used(self) -> str:
        """The help the player had in this game, in words: "undo", "undo and hints"."""
        return help_words(bool(self.game.undone), self.game.assists)

    def help_refused(self, what: str) -> str | None:
        """Why ``what`` is refused (in a daily challenge), or None."""
        return None if self.help_allowed else CHALLENGE_REFUSALS.get(what)

    # --- the log so far ---------------------------------------------------------------------
    def deal_so_far(self) -> list[Out]:
        """The deal being played, told again (a resumed game): each card with its forced
        mark, the incidents that played cards for failed bots, each trick won."""
        return self.told(self.driver.deal_so_far())

    def told(self, events: Sequence[DriverEvent]) -> list[Out]:
        """Events that happened already (told again, or before the table was shown) as
        news; no trick goes on show."""
        return [news for event in events if (news := news_of(self.game, event)) is not None]

    def told_so_far(self, notes: Sequence[DriverEvent] = ()) -> list[Out]:
        """The deal so far (a resumed game's), then ``notes`` (a bot replaced), as news."""
        return self.deal_so_far() + self.told(notes)

    async def pushed(self) -> list[Out] | None:
        """Nothing happens here by itself: every change answers a call."""
        return None

    # --- play -------------------------------------------------------------------------------
    def start(self) -> list[Out]:
        """The table is drawn: save the deal that starts here (once), and play goes on. The
        game's first card waits as long as a finished trick stays: the table shows the cut
        for the first dealer until then."""
        self._save_start()
        out: list[Out] = []
        game = self.game
        if game.deal_number == 1 and not game.deal.plays and game.cut is not None \
                and not self.driver.human_to_move():
            out += self._pacer.land(max(self._pacer.pauses))
        self._shown = self._position()
        return out + self._release() + self._ask()

    @property
    def play_options(self) -> PlayOptions:
        """The options this game is saved with: as started, with the meter as it is now
        (a resumed game keeps its meter; later games do not: they take setup's)."""
        from dataclasses import replace

        if self.options.meter == self.meter_on:
            return self.options
        return replace(self.options, meter=self.meter_on)

    def act(self, action: Action) -> list[Out]:
        """A player's action: its news and effects, or a :class:`~.messages.Refused`."""
        if isinstance(action, (PlayCard, GoOn)):
            return self.act_on_table(action)
        if isinstance(action, Undo):
            return self._undo()
        if isinstance(action, (AskHint, SetMeter)):
            kind = "hint" if isinstance(action, AskHint) else "meter"
            refused = self.help_refused(kind)
            return [Refused(kind, refused)] if refused else self.ask_help(action)
        if isinstance(action, Quit):
            self.driver.save()
            return []
        raise TypeError(f"not an action: {action!r}")

    def timer_done(self, token: tuple[str, int]) -> list[Out]:
        """A :class:`Wait` is over."""
        kind, number = token
        if kind == "slow":  # the bot still deciding this turn is now said to be thinking
            asked = self._asked
            if asked is not None and asked.turn == number == self.driver.turn:
                self._slow_turn = number
            lost = self._lost
            if asked is None and lost is not None and lost.turn == number == self.driver.turn:
                self._asked, self._lost = lost, None  # its thread failed: asked again
                return [AskBot(lost), Wait(THINKING_AFTER, ("slow", number))]
            return []
        return super().timer_done(token)

    def _undo(self) -> list[Out]:
        if not self.help_allowed:
            return [Refused("undo", CHALLENGE_REFUSALS["undo"])]
        driver = self.driver
        plays = driver.plays_to_undo()
        if plays == 0:
            return [Refused("undo", "There is no card of yours to take back in this deal.")]
        gone = self.game.deal.plays[-plays:]
        was_assisted = self.game.assisted
        driver.undo()
        self._queue.clear()
        pacer = self._pacer
        pacer.on_show, pacer.landing, pacer.forced_turn = None, False, None
        self._shown = self._position()
        self._no_auto_turn = driver.turn
        self._undone_now = len(gone)
        out: list[Out] = [TakenBack(gone)]
        if not was_assisted:
            out.append(AssistedNow("Undo used"))
        return out + self._release()

    def _assisted(self, assists: list[str]) -> None:
        """The help used grew: the game is assisted by it (saved with its next save)."""
        for kind in assists:
            self.driver.add_assist(kind)

    def _shown_again(self) -> list[Out]:
        """The meter's figure for the position shown (once the table is drawn)."""
        shown = self._shown
        if not self._started or not self.meter_on or shown is None:
            return []
        return self._help.now(shown, self.view())


def open_session(game: Game, options: PlayOptions, *, opener: Opener | None = None,
                 save: Callable[[Game], object] | None = None,
                 save_problem: Callable[[], str | None] = lambda: None,
                 on_finished: Callable[[Game], Path | None] | None = None) -> GameSession:
    """A session for a new or resumed game: its driver opens the bots with ``opener`` and
    hands the game to ``save`` at every position worth keeping."""
    return GameSession(driver_for(game, opener, save), options,
                       save_problem=save_problem, on_finished=on_finished)


__all__ = [
    "AUTO_PLAY_DELAY", "CHALLENGE_REFUSALS", "PAUSES", "THINKING_AFTER", "AskBot", "AssistedNow",
    "DealSummary", "Effect", "EstimateMeter", "FindHint", "ForcedSoon", "GameFinished",
    "GameSession", "MeterKey", "Out", "ShowTrick", "TableNote", "Wait", "YourTurn",
    "help_words", "level_title",
    "meter_seed", "open_session", "sure_to_take",
]
