"""The table and the people at it: what the table tells a seated member (:class:`Member`),
as values, and what it refuses. A carrier turns these into what travels (the WebSocket
server writes them as the frames of docs/PROTOCOL.md); the table knows no wire format."""

# Annotations are evaluated here (no ``from __future__ import annotations``), as in
# ..messages: a NamedTuple field written as a string is compiled into a ForwardRef, and these
# values load before the first frame of a game played here.
import enum
from typing import Any, NamedTuple, Protocol

from .. import messages as session
from .values import GameSoFar


class TableRefusal(Exception):
    """What the table will not do: ``code`` for programs, ``reason`` for people. ``fatal``
    ones end the member's place at the table (a seat it may not take)."""

    def __init__(self, code: str, reason: str, *, fatal: bool = False) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.fatal = fatal


# --- who sits where ------------------------------------------------------------------------
class Joined(NamedTuple):
    seat: int
    name: str


class Back(NamedTuple):
    """A person back at their seat (with their key, or speaking again after a stand-in)."""

    seat: int
    name: str


class Away(NamedTuple):
    """A person's connection is gone: the table waits ``wait`` seconds for them."""

    seat: int
    wait: float


class Left(NamedTuple):
    """A seat is free again (in the lobby)."""

    seat: int


class OwnerMoved(NamedTuple):
    """Who may start the game now (None: nobody is here)."""

    seat: int | None


class Started(NamedTuple):
    """The game is dealt."""


STAND_IN = "normal"
"""The bot that plays for a person who has been away (or silent) longer than the table
waits."""


class StandIn(NamedTuple):
    """A bot plays for a person ``why``: "away" or "silent"."""

    seat: int
    bot: str
    why: str


Notice = Joined | Back | Away | Left | OwnerMoved | Started | StandIn


class SeatView(NamedTuple):
    """What every seat may know of one seat."""

    seat: int
    kind: str  # "empty", "person", "bot"
    name: str
    bot: str | None  # a bot seat's bot, or the stand-in playing for a person
    present: bool
    stand_in: bool


class Seats(NamedTuple):
    """Who sits at the table and what changed (``events``), with the table's settings; in
    the lobby until the game has ``started``."""

    started: bool
    seats: tuple[SeatView, ...]
    events: tuple[Notice, ...]
    deals: int
    bots: tuple[str, ...]
    scoring: str
    owner: int | None
    away_timeout: float
    turn_timeout: float


# --- what a member is told -------------------------------------------------------------------
class Welcome(NamedTuple):
    """A member seated: its seat, the key that brings it back there, whether it may start
    the game, its name; and in a game under way, the deals played before this one."""

    seat: int
    key: str
    owner: bool
    name: str
    so_far: GameSoFar | None


class Update(NamedTuple):
    """What every seat present is told after one change, the same object for all of them:
    who sits where (when that changed), the news of the game, and the game's record once it
    is over (docs/RECORDS.md)."""

    seats: Seats | None
    news: tuple[session.News, ...]
    record: dict[str, Any] | None


class Parting(enum.Enum):
    """Why the table ends a member's connection."""

    ELSEWHERE = "elsewhere"  # its person sat down again from another connection
    LEFT = "left"  # its person left the table


class Member(Protocol):
    """A seated connection, as the table sees it: the table tells it, in this order, its
    welcome, then after every change one :class:`Update` with its seat's own state (none in
    the lobby)."""

    def welcome(self, welcome: Welcome) -> None: ...

    def tell(self, update: Update, state: session.TableState | None) -> None: ...

    def part(self, why: Parting) -> None: ...


__all__ = ["STAND_IN", "Away", "Back", "Joined", "Left", "Member", "Notice", "OwnerMoved",
           "Parting", "SeatView", "Seats", "StandIn", "Started", "TableRefusal", "Update",
           "Welcome"]
