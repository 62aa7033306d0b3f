"""The pace of play, written once for every seat: what its screen is asked to do between
what happened at the table and what the player sees.

Whatever decides the game (a driver in this process, a table over the network), a seat's
screen shows it at the same pace: another seat's card waits a moment before it lands, a trick
just won stays on show (for a moment by speed, or until a key), your only card is played for
you after a moment, the deal's summary comes once, and the game's end once. A :class:`Pacer`
holds those states for one seat and gives the *effects* its front end carries out
(:class:`Wait`: call back after so many seconds; :class:`ShowTrick`...). It never waits on a
clock and never starts a thread.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .messages import News
from .meter import EstimateMeter

if TYPE_CHECKING:
    from ..engine import Card, PlayerView, Trick
    from ..game.driver import Request
    from ..game.options import PlayOptions

# Seconds a card waits before it lands after the card before it, and a finished trick stays
# in view, by speed. A bot thinks during the cards' pauses before its own (it is asked as soon
# as the card before it is played), so the pause is a floor, not an addition. At normal, a
# round (the bots' cards from yours to your next turn, three at the median, and one trick on
# show) takes about 1.6 s when the bots are quick: time to see each card land and read the
# trick, and room for an expert's thinking within 2 s (benchmarks/pace.py).
PAUSES: dict[str, tuple[float, float]] = {
    "instant": (0.0, 0.0),
    "fast": (0.15, 0.6),
    "normal": (0.25, 0.8),
    "slow": (0.9, 2.5),
}

# Seconds a bot may decide before its seat says it is thinking (most decisions end within
# their card's pause: no word then; a longer one, on a loaded machine say, is never a mystery).
THINKING_AFTER = 1.0

# Seconds a card you are forced to play stays under the cursor before it is played for you.
AUTO_PLAY_DELAY: dict[str, float] = {"instant": 0.3, "fast": 0.4, "normal": 0.7, "slow": 1.2}


# --- effects: what the front end is asked to do ----------------------------------------------
class AskBot(NamedTuple):
    """Let the bot of ``request.seat`` decide (``decide``, it may take a while: in a
    thread), then call ``bot_decided`` (or ``bot_lost``)."""

    request: Request


class Wait(NamedTuple):
    """Call ``timer_done`` with ``token`` after ``seconds``."""

    seconds: float
    token: tuple[str, int]


class ShowTrick(NamedTuple):
    """A finished trick is on show: for ``seconds`` (a :class:`Wait` follows), or until the
    player goes on (``seconds`` None)."""

    trick: Trick
    seconds: float | None


class ForcedSoon(NamedTuple):
    """Your only legal card is about to be played for you (a :class:`Wait` follows)."""

    card: Card


class YourTurn(NamedTuple):
    """It is the player's turn (``undone``: reached by taking cards back)."""

    turn: int
    undone: int = 0


class FindHint(NamedTuple):
    """Work out a hint for this view (in a thread), then call ``hint_found``."""

    turn: int
    view: PlayerView


class DealSummary(NamedTuple):
    """The deal is over: show its summary, then send :class:`~.messages.GoOn`."""


class GameFinished(NamedTuple):
    """The game is over (it has been handed to ``on_finished``: saved or waiting to be)."""


class AssistedNow(NamedTuple):
    """The game has just started to count as assisted, because of ``what``."""

    what: str


class TableNote(NamedTuple):
    """A line from the table itself for the log (``status``: for the status line too): a
    player joined or dropped at a shared table, its link was lost and is being restored."""

    text: str
    warn: bool = False
    status: bool = False
    log: bool = True  # (False: said on the status line again, logged once already)


Effect = (AskBot | Wait | ShowTrick | ForcedSoon | YourTurn | FindHint | EstimateMeter
          | DealSummary | GameFinished | AssistedNow | TableNote)
Out = News | Effect


class Pacer:
    """The pace of one seat's screen: a card waiting to land, a trick on show, a forced card
    about to be played, the deal's summary and the game's end, each said once.

    The session that owns it tells it what happened (a trick won: :meth:`show`; another
    seat's card: :meth:`land`; the seat's turn: :meth:`your_turn`...) and hands it back the
    tokens of its :class:`Wait` effects (:meth:`trick_over`, :meth:`landed`,
    :meth:`forced_due`); what comes next is the session's to work out."""

    def __init__(self, options: PlayOptions) -> None:
        self.options = options
        self.watching = True  # the table is in front: cards may land, forced cards be played
        self.on_show: Trick | None = None  # a finished trick on show
        self.landing = False  # the pause before a card lands is under way
        self.forced_turn: int | None = None  # a forced card is timed for this turn
        self._show_token = 0
        self._land_token = 0
        self._told_turn = -1  # the turn YourTurn was last said for
        self._summary_for = 0  # the deal whose summary was shown
        self._finished = False

    @property
    def free(self) -> bool:
        """Whether play may move on screen: the table is in front, no trick on show."""
        return self.watching and self.on_show is None

    @property
    def pauses(self) -> tuple[float, float]:
        """The pause before a card lands and the time a trick stays, at the speed chosen."""
        return PAUSES.get(self.options.speed, PAUSES["normal"])

    # --- a trick on show -------------------------------------------------------------------
    def show(self, trick: Trick) -> list[Out]:
        """Keep a trick just won on the table: until the player goes on ("wait for a key"),
        or for a moment by speed (not at all at ``instant``)."""
        self._show_token += 1
        if self.options.trick_pause == "key":
            self.on_show = trick
            return [ShowTrick(trick, None)]
        pause = self.pauses[1]
        if pause <= 0:
            return []
        self.on_show = trick
        return [ShowTrick(trick, pause), Wait(pause, ("trick", self._show_token))]

    def trick_over(self, number: int) -> bool:
        """The trick on show timed by ``number`` is put away (False: it is gone already)."""
        if number != self._show_token or self.on_show is None:
            return False
        self.on_show = None
        return True

    # --- a card landing --------------------------------------------------------------------
    def land(self, pause: float) -> list[Out]:
        """A card waits ``pause`` seconds before it lands (nothing to wait for at 0)."""
        if pause <= 0:
            return []
        self.landing = True
        self._land_token += 1
        return [Wait(pause, ("land", self._land_token))]

    def landed(self, number: int) -> bool:
        """The pause timed by ``number`` is over (False: a pause since forgotten)."""
        if number != self._land_token or not self.landing:
            return False
        self.landing = False
        return True

    # --- the seat's turn, a forced card ----------------------------------------------------
    def your_turn(self, turn: int, forced: Card | None, undone: int = 0) -> list[Out]:
        """The seat is to play ``turn``: said once; its only card ``forced`` (if any) is
        timed to be played for it, once (again after it was let go: :meth:`forced_due`)."""
        out: list[Out] = []
        if self._told_turn != turn:
            self._told_turn = turn
            out.append(YourTurn(turn, undone))
        if forced is not None and self.forced_turn != turn:
            self.forced_turn = turn
            delay = AUTO_PLAY_DELAY.get(self.options.speed, AUTO_PLAY_DELAY["normal"])
            out += [ForcedSoon(forced), Wait(delay, ("forced", turn))]
        return out

    def forced_due(self, number: int) -> bool:
        """Whether the forced card timed for turn ``number`` is to be played now: only while
        play may move on screen (else it is let go, and timed anew once it may)."""
        if number != self.forced_turn:
            return False
        if not self.free:
            self.forced_turn = None
            return False
        return True

    def forget_turn(self) -> None:
        """The turn will be said again, its forced card timed again (the seat came back after
        a lost link: a card played for it meanwhile may not have reached the table)."""
        self._told_turn = -1
        self.forced_turn = None

    # --- the deal's end, the game's end ----------------------------------------------------
    def summary(self, deal_number: int) -> list[Out]:
        """The summary of deal ``deal_number``, once."""
        if self._summary_for >= deal_number:
            return []
        self._summary_for = deal_number
        return [DealSummary()]

    def finish(self) -> bool:
        """True the first time only: the game's end is to be kept and shown now."""
        if self._finished:
            return False
        self._finished = True
        return True


__all__ = [
    "AUTO_PLAY_DELAY", "PAUSES", "THINKING_AFTER", "AskBot", "AssistedNow", "DealSummary",
    "Effect", "FindHint", "ForcedSoon", "GameFinished", "Out", "Pacer", "ShowTrick",
    "TableNote", "Wait", "YourTurn",
]
