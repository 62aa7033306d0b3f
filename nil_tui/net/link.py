"""A seat's link to a shared table, for the session that shows the seat
(:class:`~.remote.RemoteSession`): each message the table sends read as a value of the seat's
own, turned so that the seat is at the bottom (see :mod:`.seen`); the seat's actions sent in
order, one after another; a lost link said, then the seat taken back.

What a :class:`SeatLink` hears (:data:`Heard`): each :class:`~nil_tui.session.frames.Frame`
(the news of a change, then the seat's state after it), as a game played here hears them, and

- :class:`SeatsChanged`: who is away, and what the table said of a seat (another person came,
  dropped, came back), in words;
- :class:`DealsTold`: the deals finished before a seat that comes back sat down again;
- :class:`RecordCame`: the game's record (the game is over);
- :class:`TableRefused`: the table refused what the seat sent;
- :class:`LinkLost`, :class:`LinkBack`, :class:`LinkClosed`: the connection went (the seat is
  taken back at the next read), the seat is back, the seat is gone for good (and why).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

from ..engine import SEAT_NAMES, Card, Play
from ..session.frames import Frame
from ..session.messages import Action, News, TableState
from ..session.pacing import TableNote
from ..session.words import table_notice
from .client import CLOSED_ELSEWHERE, CLOSED_LEFT, REJOIN_WORDS, JoinError, TableClient
from .seen import DealSeen, turn_news, turn_seat, turn_state

LOST = "Connection lost, rejoining..."
BACK = "Back at the table."
PARTED = {
    CLOSED_LEFT: "You left the table: the same nil-tui join brings you back.",
    CLOSED_ELSEWHERE: "This seat was taken from another terminal.",
}
"""What a seat the table let go is told, by the connection's close code."""
UNREACHABLE = (f"The table could not be reached for {REJOIN_WORDS}: the same nil-tui join "
               "brings you back.")
STILL_LOST = TableNote(LOST, warn=True, status=True, log=False)
"""The status line while the link is lost (said in the log once already)."""

Away = tuple[str, str, str, str]
"""For each seat (turned), whether its person is away: "" (here, or not a person), "away"
(the table waits for them) or "stand_in" (a bot plays for them meanwhile)."""


class SeatsChanged(NamedTuple):
    """The table's seats changed: who is away now, and what the table said of a seat."""

    away: Away
    notes: tuple[TableNote, ...] = ()


class DealsTold(NamedTuple):
    """The deals finished before a seat came back (turned): each one's dealer, plays and
    the seat's own hand, by number; and why a bot played a card for someone away, by
    (deal, seat, card)."""

    deals: dict[int, DealSeen]
    played_for: dict[tuple[int, int, Card], str]


class RecordCame(NamedTuple):
    """The game is over: its record, as the table wrote it (None: unreadable)."""

    record: dict[str, Any] | None


class TableRefused(NamedTuple):
    """The table refused what the seat sent (or said an error), in its words."""

    reason: str


class LinkLost(NamedTuple):
    """The connection went: the seat is taken back at the next read."""

    note: TableNote = TableNote(LOST, warn=True, status=True)


class LinkBack(NamedTuple):
    """The seat is taken back after a lost link (what it missed comes with the next
    state)."""

    note: TableNote = TableNote(BACK, status=True)


class LinkClosed(NamedTuple):
    """The seat is gone for good: why (None: the game is over, its record came)."""

    note: TableNote | None


Said = TableState | News | SeatsChanged | DealsTold | RecordCame | TableRefused
"""One message of the table's, read."""
Told = Frame | SeatsChanged | DealsTold | RecordCame | TableRefused
"""What the table said: a frame, or the table's own word."""
LinkNews = LinkLost | LinkBack | LinkClosed
"""What became of the link."""
Heard = Told | LinkNews

Reconnect = Callable[[], Awaitable[bool]]


# --- the table's messages, read --------------------------------------------------------------
def away_of(message: dict[str, Any], me: int) -> Away:
    """Who is away (turned), from the table's list of its seats."""
    away = ["", "", "", ""]
    seats = message.get("seats")
    for seat in seats if isinstance(seats, list) else []:
        number = seat.get("seat") if isinstance(seat, dict) else None
        if not isinstance(number, int) or not 0 <= number <= 3 or number == me \
                or seat.get("kind") != "person" or seat.get("present", True):
            continue
        away[turn_seat(number, me)] = "stand_in" if seat.get("stand_in") else "away"
    return away[0], away[1], away[2], away[3]


def seat_note(event: dict[str, Any], message: dict[str, Any], me: int) -> TableNote | None:
    """What the table said of another seat during the game (a person came, dropped, came
    back, a bot plays for them), in the words of :func:`~nil_tui.session.words.table_notice`,
    each person named with their true seat, as the table screen names it."""
    seat, kind = event.get("seat"), event.get("kind")
    if not isinstance(seat, int) or not 0 <= seat <= 3 or seat == me \
            or kind not in ("away", "stand_in", "back", "joined"):
        return None
    seats = message.get("seats")
    listed = seats if isinstance(seats, list) else []
    names = [f"{name} ({where})" if (name := _name(listed, n)) else where
             for n, where in enumerate(SEAT_NAMES)]
    text = table_notice(event, names, in_game=True)
    if text is None:
        return None
    return TableNote(f"{text}.", warn=kind in ("away", "stand_in"), status=kind == "away")


def _name(seats: list[Any], number: int) -> str:
    seat = seats[number] if number < len(seats) else None
    return str(seat.get("name") or "") if isinstance(seat, dict) else ""


def seats_changed(message: dict[str, Any], me: int) -> SeatsChanged:
    """A ``lobby`` or ``seats`` message: who is away, and the notes of its events."""
    notes = (seat_note(event, message, me) for event in message.get("events") or [])
    return SeatsChanged(away_of(message, me), tuple(n for n in notes if n is not None))


def read_deals(message: dict[str, Any], me: int) -> DealsTold:
    """The game's finished deals, as the table tells a seat that comes back (turned): each
    one's dealer and plays (all public) and this seat's own hand, no other seat's hand; and
    the cards a bot played for someone who was away. A message that cannot be read leaves
    the deals after the fault unknown until the record comes."""
    deals: dict[int, DealSeen] = {}
    played_for: dict[tuple[int, int, Card], str] = {}
    try:
        for deal in message.get("deals") or []:
            number = int(deal["deal_number"])
            if number in deals:
                continue  # told already
            plays = tuple(Play(turn_seat(int(p["seat"]), me), Card.parse(p["card"]),
                               bool(p.get("forced"))) for p in deal["plays"])
            played = {p.card for p in plays if p.seat == 0}
            left = tuple(c for c in map(Card.parse, deal["hand"]) if c not in played)
            deals[number] = DealSeen(turn_seat(int(deal["dealer"]), me), plays, None, left)
        for incident in message.get("incidents") or []:
            key = (int(incident["deal"]), turn_seat(int(incident["seat"]), me),
                   Card.parse(incident["card"]))
            played_for[key] = str(incident["reason"])
    except (KeyError, TypeError, ValueError):
        pass
    return DealsTold(deals, played_for)


def said(message: object, me: int) -> Said | None:
    """A message as the client read it, as the seat's value (None: nothing for the seat)."""
    if isinstance(message, TableState):
        return turn_state(message, me)
    if isinstance(message, News):
        return turn_news(message, me)
    if not isinstance(message, dict):
        return None
    kind = message.get("type")
    if kind == "record":
        return RecordCame(message.get("record"))
    if kind in ("refused", "error"):
        return TableRefused(str(message.get("reason")))
    if kind == "deals":
        return read_deals(message, me)
    if kind in ("seats", "lobby"):
        return seats_changed(message, me)
    return None


# --- the link --------------------------------------------------------------------------------
class SeatLink:
    """A seated client's link, for the seat's session: what the table says as the seat's
    values (:meth:`heard`), the seat's actions sent in order (:meth:`send`), and the seat
    taken back after a lost link with ``reconnect`` (True once seated again; without it a
    lost link is the end of the seat)."""

    def __init__(self, client: TableClient, reconnect: Reconnect | None = None) -> None:
        self.client = client
        self.me = client.seat or 0  # the seat's true number
        self.lost = False  # the connection went, and the seat is not back yet
        self.closed = False  # the seat is gone: nothing more is heard
        self._reconnect = reconnect
        self._news: list[News] = []  # the news of the frame being read
        self._outbox: deque[tuple[Action, int]] = deque()
        self._sender: asyncio.Task[None] | None = None

    def kept(self) -> list[Told]:
        """What the client read before the link was made (the lobby reads up to the game's
        start): the seat's newest state, who is away, the deals told to a seat that came
        back."""
        client, me = self.client, self.me
        kept: list[Told] = []
        if client.state is not None:
            kept.append(Frame((), turn_state(client.state, me)))
        if client.seats is not None:
            kept.append(SeatsChanged(away_of(client.seats, me)))
        if client.deals is not None:
            kept.append(read_deals(client.deals, me))
        return kept

    async def heard(self, timeout: float | None = None) -> Heard:
        """The next thing the table says to the seat, or what became of the link (a
        TimeoutError when the table says nothing for ``timeout`` seconds)."""
        while True:
            try:
                message = await self.client.receive(timeout)
            except JoinError as exc:  # the table sent what this client cannot read
                return self._end(exc.reason)
            if message is None:
                return await self._gone()
            value = said(message, self.me)
            if isinstance(value, TableState):  # the frame's end
                news, self._news = tuple(self._news), []
                return Frame(news, value)
            if isinstance(value, News):
                self._news.append(value)
            elif value is not None:
                return value

    async def _gone(self) -> LinkNews:
        """The connection closed: the game is over (its record came), the seat was left or
        taken from another terminal, or the link is lost: said first, then, at the next
        read, the seat taken back."""
        if self.client.record is not None:
            return self._end(None)
        code = self.client.close_code
        if code is not None and code in PARTED:
            return self._end(PARTED[code])
        if not self.lost:
            self.lost = True
            return LinkLost()
        if self._reconnect is not None and await self._reconnect():
            self.lost = False
            self._news = []
            return LinkBack()
        return self._end(UNREACHABLE)

    def _end(self, why: str | None) -> LinkClosed:
        """The seat is gone: nothing more is read."""
        self.closed = True
        return LinkClosed(None if why is None else TableNote(why, warn=True, status=True))

    def send(self, action: Action, turn: int) -> None:
        """Send an action answering the position ``turn``, once those sent before it have
        gone."""
        self._outbox.append((action, turn))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        while self._outbox:
            action, turn = self._outbox.popleft()
            await self.client.act(action, turn)


__all__ = ["BACK", "LOST", "PARTED", "STILL_LOST", "UNREACHABLE", "Away", "DealsTold", "Heard",
           "LinkBack", "LinkClosed", "LinkLost", "LinkNews", "Reconnect", "RecordCame", "Said",
           "SeatLink", "SeatsChanged", "TableRefused", "Told", "away_of", "read_deals", "said",
           "seat_note", "seats_changed"]
