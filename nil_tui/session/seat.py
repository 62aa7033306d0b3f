"""What the table screen needs of a game: one seat's session.

The table screen draws what a :class:`SeatSession` says its seat may see and sends it what the
player does; it never reaches into a driver or a game. Two sessions implement it, both a
:class:`~.frames.FrameSeat` (the table's frames shown at the seat's pace):

- :class:`~nil_tui.session.game_session.GameSession`, the person's seat at a table in this
  process, a game played here against bots;
- :class:`~nil_tui.net.remote.RemoteSession`, a seat at a shared table, whose frames come
  over the network (``pushed`` hands the screen what arrived by itself).

Every call returns a list of outputs: protocol news (:mod:`.messages`) for the log, and the
effects of :mod:`.game_session` for the front end to carry out (a timer, a trick on show, the
deal's summary, the game's end...). The seat drawn at the bottom is always seat 0 ("you"): a
session of another seat turns the table so that its seat comes there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..engine import Card, Game, PlayerView, Trick
    from ..game.driver import Decision, DriverEvent, Request
    from ..game.options import PlayOptions
    from .game_session import Out
    from .messages import Action, MeterReading, TableState
    from .meter import MeterKey


class SeatSession(Protocol):
    """One seat's game, as the table screen sees it."""

    options: PlayOptions
    """The look and pace of the table (speed, ASCII, the pause after a trick...)."""

    record_path: Path | None
    """Where the finished game's record went, once it is over and kept."""

    home_seat: int
    """Where the seat drawn at the bottom truly sits (0: South; a game played here: 0)."""

    leave: Callable[[], None] | None
    """At a shared table, what leaving it after the game does (None: a game played here,
    which game over offers to play again)."""

    # --- what the seat may see ------------------------------------------------------------
    def state(self) -> TableState:
        """What the seat may see now (the table is drawn from this alone)."""

    @property
    def game(self) -> Game:
        """The game as the seat may know it whole, for the scoreboard, the deal's summary
        and game over: every finished deal with its hands as dealt (a shared table rebuilds
        it from what it was shown), and the deal in progress."""

    def view(self) -> PlayerView:
        """The seat's view of the deal (what the card tracker follows)."""

    def last_trick(self) -> Trick | None:
        """The last trick completed (of the previous deal before this one's first)."""

    @property
    def on_show(self) -> Trick | None:
        """A finished trick on show in the middle of the table."""

    @property
    def thinking(self) -> int | None:
        """The seat whose bot is deciding the position shown, if any."""

    @property
    def away(self) -> tuple[str, str, str, str]:
        """For each seat, whether its person is away from a shared table: "" (here, or a
        bot's seat), "away" (the table waits for them) or "stand_in" (a bot plays for them
        until they are back). A game played here: nobody is ever away."""

    @property
    def challenge(self) -> str | None:
        """The date of the daily challenge this game is, or None."""

    @property
    def help_allowed(self) -> bool:
        """Hints, undo and the meter may be asked for."""

    def help_refused(self, what: str) -> str | None:
        """Why ``what`` ("hint", "undo", "meter") is refused here, or None when it is not."""

    def help_used(self) -> str:
        """The help had in this game, in words ("undo and hints")."""

    def can_undo(self) -> bool:
        """An undo would take a card back now."""

    @property
    def meter_on(self) -> bool: ...

    @property
    def meter(self) -> MeterReading | None:
        """The meter's figure for the position shown (None while it is worked out)."""

    def bot_to_move(self) -> bool:
        """Another seat's card is awaited."""

    # --- the log so far, and play -----------------------------------------------------------
    def told_so_far(self, notes: Sequence[DriverEvent] = ()) -> list[Out]:
        """The deal so far as news (a game resumed, a seat rejoined) and ``notes`` (what
        happened before the table was shown)."""

    def begin(self) -> list[Out]:
        """Before the table's first frame."""

    def start(self) -> list[Out]:
        """The table is drawn: play goes on."""

    def act(self, action: Action) -> list[Out]:
        """What the player does."""

    def advance(self) -> list[Out]:
        """Whatever comes next now (after the options changed, say)."""

    def set_watching(self, watching: bool) -> list[Out]:
        """Whether the table is in front: cards land and tricks go only while it is."""

    def timer_done(self, token: tuple[str, int]) -> list[Out]:
        """A :class:`~.game_session.Wait` is over."""

    async def pushed(self) -> list[Out] | None:
        """What happened by itself (another player's card at a shared table); None when
        nothing more will come this way (a game played here: at once)."""

    # --- work the front end does in a thread, asked for by effects --------------------------
    def decide(self, request: Request) -> Decision:
        """A bot's decision (blocking: called in a thread), for an ``AskBot``."""

    def bot_decided(self, decision: Decision) -> list[Out]: ...

    def bot_lost(self, request: Request) -> list[Out]: ...

    def hint_found(self, turn: int, card: Card, reason: str) -> list[Out]: ...

    def meter_estimated(self, key: MeterKey, chance: float | None) -> list[Out]: ...


__all__ = ["SeatSession"]
