"""A client of a shared table, without a screen: connects with the invite (and the seat key
when it has one), keeps the newest position it was sent, and sends plays. ``nil-tui join``,
the tests and the benchmark all use it."""

from __future__ import annotations

import asyncio
import json
import random
import ssl
from collections import deque
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from .. import __version__
from ..engine import Card
from ..session import messages as session
from .keys import Invite
from .wire import INVITE_HEADER, JSON, PROTOCOL, act, encode, hello, is_session

CLOSED_LEFT = 1000
"""The close code of a connection the table closed after the seat's ``Quit``."""
CLOSED_ELSEWHERE = 4000
"""The close code of a connection whose seat was taken by another with its key: not to be
connected again by itself (two clients would take the seat from each other for ever)."""


class JoinError(Exception):
    """The table would not seat us (or could not be reached): ``code`` and a reason."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class TableClient:
    """One seat's connection to a table."""

    def __init__(self, invite: Invite, *, name: str | None = None, key: str | None = None,
                 seat: int | None = None, tls: ssl.SSLContext | None = None,
                 path: str = "/", protocol: int = PROTOCOL, app: str = __version__,
                 capture: Callable[[str], object] | None = None) -> None:
        self.invite = invite
        self.name = name
        self.key = key
        self.wanted_seat = seat
        self.tls = tls
        self.path = path
        self.protocol = protocol
        self.app = app
        self.capture = capture
        self.ws: ClientConnection | None = None
        self.seat: int | None = None
        self.owner = False
        self.state: session.TableState | None = None
        self.seats: JSON | None = None
        self.record: JSON | None = None
        self.deals: JSON | None = None  # the finished deals, told to a seat that comes back
        self.refusals: list[JSON] = []
        self._id = 0
        self._pending: deque[str] = deque()

    @property
    def url(self) -> str:
        return self.invite.url.rstrip("/") + self.path

    async def connect(self, timeout: float = 10.0) -> JSON:
        """Connect and say hello; the welcome, or JoinError with the table's reason."""
        self._pending.clear()
        tls = self.tls
        if self.invite.tls and tls is None:
            tls = ssl.create_default_context()
        try:
            self.ws = await asyncio.wait_for(connect(
                self.url, ssl=tls if self.invite.tls else None, max_size=2**22,
                open_timeout=timeout, compression=None, ping_interval=10, ping_timeout=20,
                close_timeout=2, proxy=None,
                additional_headers={INVITE_HEADER: self.invite.secret}), timeout)
        except InvalidStatus as exc:
            body = exc.response.body.decode("utf-8", "replace").strip() if exc.response.body \
                else ""
            raise JoinError("http", body or f"the table answered {exc.response.status_code}") \
                from None
        except (OSError, asyncio.TimeoutError, TimeoutError) as exc:
            raise JoinError("unreachable", f"cannot reach the table at {self.invite.host}:"
                            f"{self.invite.port} ({_why(exc)})") from None
        await self.ws.send(encode(hello(self.invite.secret, key=self.key, name=self.name,
                                        seat=self.wanted_seat, protocol=self.protocol,
                                        app=self.app)))
        try:
            first = await self.receive(timeout)
        except (asyncio.TimeoutError, TimeoutError):
            await self.ws.close()
            raise JoinError("unreachable", f"the table at {self.invite.host}:"
                            f"{self.invite.port} did not answer") from None
        if not isinstance(first, dict):
            raise JoinError("closed", "the table closed the connection")
        if first.get("type") == "error":
            raise JoinError(str(first.get("code")), str(first.get("reason")))
        if first.get("type") != "welcome":
            raise JoinError("protocol", "the table did not welcome us")
        self.seat, self.key = int(first["seat"]), str(first["key"])
        self.owner = bool(first.get("owner"))
        return first

    async def receive(self, timeout: float | None = None) -> JSON | session.Message | None:
        """The next message (None when the connection has closed): a session value (news,
        or this seat's TableState, kept as ``state``) or one of the table's own messages, as
        an object (the seats kept as ``seats``, the finished deals told on coming back as
        ``deals``, the record at the end as ``record``)."""
        if not self._pending:
            assert self.ws is not None
            try:
                raw = await asyncio.wait_for(self.ws.recv(), timeout)
            except ConnectionClosed:
                return None
            text = raw if isinstance(raw, str) else raw.decode("utf-8")
            if self.capture is not None:
                self.capture(text)
            self._pending.extend(text.split("\n"))  # a frame: one message a line
        line = self._pending.popleft()
        try:
            message: JSON = json.loads(line)
            if not isinstance(message, dict):
                raise TypeError("not an object")
            value = session.from_json(line) if is_session(message) else None
        except (ValueError, TypeError, RecursionError) as exc:  # ProtocolError: a ValueError
            raise JoinError("protocol", f"the table sent a message this client cannot read "
                            f"({str(exc)[:80]})") from None
        if value is not None:
            if isinstance(value, session.TableState):
                self.state = value
            return value
        kind = message.get("type")
        if kind in ("lobby", "seats"):
            self.seats = message
            if "owner" in message and self.seat is not None:  # who may start moves on
                self.owner = message["owner"] == self.seat
        elif kind == "record":
            self.record = message.get("record")
        elif kind == "deals":
            self.deals = message
        elif kind in ("refused", "error"):
            self.refusals.append(message)
        return message

    async def send(self, message: JSON) -> int:
        """Send a request (its id is added); returns the id. On a connection that has gone,
        the message is lost and the next :meth:`receive` says the connection closed."""
        assert self.ws is not None
        self._id += 1
        try:
            await self.ws.send(encode({**message, "id": self._id}))
        except ConnectionClosed:
            pass
        return self._id

    async def act(self, action: session.Action, turn: int | None = None) -> int:
        """Send an action for the position ``turn`` (default: the newest state's)."""
        if turn is None:
            turn = self.state.turn if self.state is not None else 0
        return await self.send(act(action, turn))

    async def play(self, card: Card | str, turn: int | None = None) -> int:
        return await self.act(session.PlayCard(Card.parse(card)), turn)

    async def go_on(self) -> int:
        return await self.act(session.GoOn())

    async def start(self) -> int:
        return await self.send({"type": "start"})

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    @property
    def close_code(self) -> int | None:
        """How the connection was closed (None: open, or never opened)."""
        return None if self.ws is None else self.ws.close_code

    def left_for_good(self) -> bool:
        """The table let the seat go (the player left it, or took it from another terminal):
        it is not to be taken back by itself."""
        return self.close_code in (CLOSED_LEFT, CLOSED_ELSEWHERE)

    def my_turn(self) -> bool:
        state = self.state
        return state is not None and state.pace == "your_turn" and bool(state.legal)


REJOIN_SECONDS = 180.0
"""How long a seat whose link was lost is tried for, in all (the words below say it)."""
REJOIN_WORDS = "3 minutes"
FINAL_REFUSALS = ("unknown_key", "not_invited", "wrong_version", "started")
"""What the table answers when the seat is not coming back, however long one tries."""


async def rejoin(client: TableClient, within: float | None = None) -> str | None:
    """Take the seat back with its key after a lost link: tries at growing intervals (half a
    second, doubling up to 5 s) until seated (None) or for ``within`` seconds in all, each
    try's connection included; else why not, in words: the time tried, or at once the
    table's reason when it refuses the seat for good. The link may come back: a laptop
    wakes, a cable is put back, the host resumes. ``within``: by default
    :data:`REJOIN_SECONDS`."""
    loop = asyncio.get_running_loop()
    end = loop.time() + (REJOIN_SECONDS if within is None else within)
    delay = 0.5
    while True:
        await asyncio.sleep(max(0.0, min(delay, end - loop.time())))
        left = end - loop.time()
        if left <= 0:
            words = REJOIN_WORDS if within is None else f"{within:g} s"
            return f"the table could not be reached for {words}"
        try:
            await client.connect(timeout=max(0.1, min(10.0, left / 2)))
            return None
        except JoinError as exc:
            if exc.code in FINAL_REFUSALS:
                return exc.reason
        delay = min(delay * 2, 5.0)


def _why(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


async def play_scripted(client: TableClient, rng: random.Random, *,
                        max_messages: int = 100_000, timeout: float = 120.0,
                        think: Callable[[], Any] | None = None) -> JSON | None:
    """Play random legal cards and go on after each deal until the game is over; the game's
    record, or None when the connection closed first."""
    answered = -1
    went_on = 0
    for _ in range(max_messages):
        message = await client.receive(timeout)
        if message is None:
            return None
        if client.record is not None:
            return client.record
        state = client.state
        if not isinstance(message, session.TableState) or state is None:
            continue
        if state.pace == "deal_over" and went_on < state.deal_number:
            went_on = state.deal_number
            await client.go_on()
        if client.my_turn() and state.turn > answered:
            answered = state.turn
            if think is not None:
                await think()
            await client.play(rng.choice(state.legal), answered)
    raise RuntimeError("the game did not end within the messages allowed")


__all__ = ["CLOSED_ELSEWHERE", "CLOSED_LEFT", "REJOIN_SECONDS", "REJOIN_WORDS", "JoinError",
           "TableClient", "play_scripted", "rejoin"]
