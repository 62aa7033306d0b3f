"""The table's server: WebSocket connections on asyncio, each held to limits before it
reaches the table.

A connection must say hello with the invite within ``hello_timeout`` seconds or it is closed;
until then it counts among the connections not yet seated, of which one address may hold
``per_address`` and all together ``unseated``, so that whoever floods the table with silent
connections fills only those places: the rest of ``max_connections`` stays for players, and a
client that shows the invite in its handshake (the ``Nil-Invite`` header) never waits behind
them. A seated connection may send messages of at most ``MAX_MESSAGE`` bytes, at most
``rate`` a second (a burst of ``burst``), not counting those the game waited for (a card on
its turn, a go-on after a deal, the start): a client playing as fast as the game lets it
never trips the limit. Each message's ``id`` must be larger than the last one (a replayed
message is refused). What the table sends a connection goes through a queue of its own, so one that stops
reading holds up nobody: when its queue is full it is closed (it may come back with its key
and is sent the whole position again).

The server is the tables' carrier: it checks a hello (the invite, the version) before the
table sees it, reads each request into the table's typed calls (``Table.sit``, ``act``,
``start_by``), answers pings itself, and writes what the table tells a seat as the wire's
frames (:class:`Seated`, with :class:`~.wire.FrameWriter`).
"""

from __future__ import annotations

import asyncio
import gc
import http
import ssl
from collections.abc import Callable
from dataclasses import dataclass

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request as HttpRequest
from websockets.http11 import Response
from websockets.protocol import Side, State

from ..session import messages as session
from ..session.table import Parting, Table, TableRefusal, Update, Welcome
from . import keys
from .wire import (
    INVITE_HEADER,
    JSON,
    MAX_MESSAGE,
    PARTINGS,
    FrameWriter,
    Refusal,
    Request,
    check_hello,
    deals_json,
    encode,
    pong,
    read_hello,
    read_request,
    welcome_json,
)


@dataclass
class Limits:
    hello_timeout: float = 5.0
    max_connections: int = 64
    unseated: int = 32  # connections that have not shown the invite yet, all together (at
    per_address: int = 8  # most half of max_connections), and from one address
    rate: float = 20.0  # messages a second, on average
    burst: int = 40
    flood_close: int = 100  # refused over the rate before the connection is closed
    queue: int = 256  # messages waiting for a client before it counts as not reading
    ping_interval: float = 10.0  # a client that answers no ping for ping_timeout is gone
    ping_timeout: float = 20.0


class Connection:
    """One client's connection: its outgoing queue and its limits."""

    def __init__(self, ws: ServerConnection, limits: Limits) -> None:
        self.ws = ws
        self.limits = limits
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(limits.queue)
        self.last_id = -1
        self.tokens = float(limits.burst)
        self.stamp = asyncio.get_running_loop().time()
        self.flooded = 0
        self.closing = False
        self.close_with: tuple[int, str] | None = None
        self.bytes_sent = 0
        self.sending = False  # the pump is sending a message it took from the queue
        self.written_now = 0  # messages written at once, without the pump
        self._send_data: Callable[[], None] | None = getattr(ws, "send_data", None)
        protocol = ws.protocol
        self._plain_frames = (getattr(protocol, "side", None) is Side.SERVER
                              and getattr(protocol, "extensions", None) == []
                              and isinstance(getattr(protocol, "writes", None), list)
                              and hasattr(protocol, "expect_continuation_frame"))
        """Whether a text frame may be written here as websockets writes it (a server's
        frames are not masked; no extension such as compression changes them)."""

    def _write_now(self, text: str) -> bool:
        """Write a message at once, without waking the pump, when nothing waits before it and
        the socket took everything so far (most messages: this halves a message's cost).
        What ``ws.send`` does for a text, without its wait for the socket (``drain``): when
        the socket is behind, this declines and the message goes through the queue, where
        the pump waits for the socket and a client that stops reading fills the queue.
        False when declined; also when websockets has no such parts (another version)."""
        ws = self.ws
        protocol = ws.protocol
        write = self._send_data
        if (write is None or protocol.state is not State.OPEN
                or getattr(ws, "send_in_progress", None) is not None
                or ws.transport.get_write_buffer_size() > 0):
            return False
        data = text.encode()
        if self._plain_frames and not protocol.writes \
                and not protocol.expect_continuation_frame:
            # nothing else waits to go out: the frame websockets would write for this text
            # (a final, unmasked text frame, no extension), header and text in one write
            ws.transport.write(_text_frame_header(len(data)) + data)
        else:
            protocol.send_text(data)
            write()
        self.written_now += 1
        self.bytes_sent += len(text)
        return True

    def send(self, message: JSON) -> None:
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        if self.closing:
            return
        if not self.sending and self.queue.empty() and self._write_now(text):
            return
        if self.queue.full():
            self.close(4008, "you stopped reading the table: join again to come back")
            return
        self.queue.put_nowait(text)

    def close(self, code: int, reason: str) -> None:
        """Close after what is queued has been sent (at once, dropping it, when the client
        does not read)."""
        if self.closing:
            return
        self.closing = True
        if self.queue.full():
            while not self.queue.empty():
                self.queue.get_nowait()
            asyncio.get_running_loop().create_task(self.ws.close(code, reason))
        else:
            self.close_with = (code, reason)
        self.queue.put_nowait(None)

    async def pump(self) -> None:
        """Send what is queued, in order; a client that reads slowly waits here alone."""
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    if self.close_with is not None:
                        await self.ws.close(*self.close_with)
                    return
                self.sending = True
                try:
                    await self.ws.send(text)
                finally:
                    self.sending = False
                self.bytes_sent += len(text)
        except ConnectionClosed:
            return

    def refund(self) -> None:
        """Give back the message the game was waiting for: it does not count."""
        self.tokens = min(float(self.limits.burst), self.tokens + 1.0)

    def allow(self) -> bool:
        """The rate limit: a bucket of ``burst`` messages refilled at ``rate`` a second."""
        now = asyncio.get_running_loop().time()
        self.tokens = min(float(self.limits.burst),
                          self.tokens + (now - self.stamp) * self.limits.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.flooded += 1
        return False


class Seated:
    """A connection seated at a table, as the table sees it (its member): what the table
    tells it, written as the wire's frames (the text of one change written once for all the
    table's seats, by the server's one writer)."""

    __slots__ = ("conn", "writer")

    def __init__(self, conn: Connection, writer: FrameWriter) -> None:
        self.conn = conn
        self.writer = writer

    def welcome(self, welcome: Welcome) -> None:
        self.conn.send(welcome_json(welcome))
        if welcome.so_far is not None:  # the game so far, in a message of its own
            self.conn.send(deals_json(welcome.so_far))

    def tell(self, update: Update, state: session.TableState | None) -> None:
        self.conn.send_text(self.writer.frame(update, state))  # one frame: news, then state

    def part(self, why: Parting) -> None:
        self.conn.close(*PARTINGS[why])


def _text_frame_header(size: int) -> bytes:
    """The header of a final, unmasked text frame of ``size`` bytes (RFC 6455, 5.2)."""
    if size < 126:
        return bytes((0x81, size))
    if size < 65536:
        return bytes((0x81, 126)) + size.to_bytes(2, "big")
    return bytes((0x81, 127)) + size.to_bytes(8, "big")


class Gate:
    """The connections open now, from their handshake to their end, and among them those
    not seated yet, by address."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.open: dict[ServerConnection, str | None] = {}
        """Every connection let in, with its address while it is not seated yet."""
        self.unseated: dict[str, int] = {}

    def refusal(self, address: str, invited: bool) -> str | None:
        """Why a new connection from ``address`` may not come in now (None: it may)."""
        if len(self.open) >= self.limits.max_connections:
            return "This table has too many connections.\n"
        if invited:
            return None
        # at most half the places for connections not seated yet: the rest stays for those
        # who show the invite, however few places the host allows
        unseated = max(1, min(self.limits.unseated, self.limits.max_connections // 2))
        if sum(self.unseated.values()) >= unseated:
            return "This table has too many connections that have not joined yet.\n"
        if self.unseated.get(address, 0) >= min(self.limits.per_address, unseated):
            return "Too many connections from your address have not joined yet.\n"
        return None

    def enter(self, connection: ServerConnection, address: str) -> None:
        self.open[connection] = address
        self.unseated[address] = self.unseated.get(address, 0) + 1
        # the place is given back when the connection is lost, whatever became of its
        # handshake (websockets runs no handler for a connection lost before it opened)
        lost = getattr(connection, "connection_lost_waiter", None)
        if isinstance(lost, asyncio.Future):
            lost.add_done_callback(lambda _: self.leave(connection))

    def seated(self, connection: ServerConnection) -> None:
        """The connection showed the invite: it no longer holds a place of the unseated."""
        address = self.open.get(connection)
        if address is not None:
            self.open[connection] = None
            self._unseat(address)

    def leave(self, connection: ServerConnection) -> None:
        if connection in self.open:
            address = self.open.pop(connection)
            if address is not None:
                self._unseat(address)

    def _unseat(self, address: str) -> None:
        left = self.unseated.get(address, 0) - 1
        if left > 0:
            self.unseated[address] = left
        else:
            self.unseated.pop(address, None)


def _address(connection: ServerConnection) -> str:
    peer = connection.remote_address
    return str(peer[0]) if isinstance(peer, tuple) and peer else "?"


class WireServer:
    """Serves tables over WebSocket: one table, or many (the benchmark) told apart by the
    path of the address (``/`` or ``/t/N``)."""

    def __init__(self, tables: dict[str, Table], limits: Limits | None = None) -> None:
        self.tables = tables
        self.limits = limits or Limits()
        self.gate = Gate(self.limits)
        self.server: Server | None = None
        self.writer = FrameWriter()

    @property
    def connections(self) -> int:
        return len(self.gate.open)

    def _too_many(self, connection: ServerConnection, request: HttpRequest) -> Response | None:
        table = self.tables.get(request.path)
        if table is None:
            return connection.respond(http.HTTPStatus.NOT_FOUND, "No table here.\n")
        shown = request.headers.get(INVITE_HEADER)
        invited = shown is not None and len(shown) <= 100 and keys.same_secret(shown,
                                                                               table.secret)
        address = _address(connection)
        why = self.gate.refusal(address, invited)
        if why is not None:
            return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, why)
        self.gate.enter(connection, address)
        if invited:
            self.gate.seated(connection)
        return None

    async def start(self, host: str, port: int,
                    tls: ssl.SSLContext | None = None) -> int:
        """Listen; returns the port (useful with port 0)."""
        for table in self.tables.values():
            table.begin()
        self.server = await serve(
            self._serve, host, port, ssl=tls, max_size=MAX_MESSAGE, max_queue=8,
            open_timeout=self.limits.hello_timeout, ping_interval=self.limits.ping_interval,
            ping_timeout=self.limits.ping_timeout,
            close_timeout=2, process_request=self._too_many, compression=None,
            server_header=None)
        sockets = list(self.server.sockets)
        return int(sockets[0].getsockname()[1]) if sockets else port

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        for table in self.tables.values():
            await table.close()

    async def _serve(self, ws: ServerConnection) -> None:
        try:
            await self._session(ws)
        finally:
            self.gate.leave(ws)

    async def _session(self, ws: ServerConnection) -> None:
        table = self.tables[ws.request.path if ws.request is not None else "/"]
        conn = Connection(ws, self.limits)
        member = Seated(conn, self.writer)
        try:
            raw = await asyncio.wait_for(ws.recv(), self.limits.hello_timeout)
        except (asyncio.TimeoutError, TimeoutError):
            await _refuse(ws, Refusal("hello_timeout", "no hello in time", fatal=True))
            return
        except ConnectionClosed:
            return
        try:
            hello = read_hello(raw)
            check_hello(hello, table.secret)
            seat = table.sit(member, key=hello.key, name=hello.name, seat=hello.seat)
            self.gate.seated(ws)
        except TableRefusal as exc:
            await _refuse(ws, Refusal.answering(exc, None))
            return
        sender = asyncio.get_running_loop().create_task(conn.pump())
        try:
            await self._listen(ws, conn, table, seat)
        finally:
            table.depart(member)
            if not conn.closing:
                conn.closing = True
                if not conn.queue.full():
                    conn.queue.put_nowait(None)
            try:
                await asyncio.wait_for(sender, 2.0)
            except (asyncio.TimeoutError, TimeoutError):
                sender.cancel()

    async def _listen(self, ws: ServerConnection, conn: Connection, table: Table,
                      seat: int) -> None:
        try:
            async for raw in ws:
                if conn.closing:
                    return
                allowed = conn.allow()
                if not allowed and conn.flooded >= self.limits.flood_close:
                    conn.close(1008, "too many messages")
                    return
                request = None
                try:
                    request = read_request(raw)
                    if not allowed:  # nothing is done: the client sends it again later
                        raise Refusal("rate", f"too many messages: send it again in "
                                      f"{1 / self.limits.rate:.2f} s", msg_id=request.id)
                    if request.id <= conn.last_id:
                        raise Refusal("replayed", f"message {request.id} comes after "
                                      f"{conn.last_id}: replayed or out of order",
                                      msg_id=request.id)
                    conn.last_id = request.id
                    if _handle(table, seat, request, conn):
                        conn.refund()
                except TableRefusal as exc:
                    conn.send(Refusal.answering(exc, request.id if request else None)
                              .message())
                except Exception as exc:  # noqa: BLE001 - one bad request must not end the table
                    import sys

                    print(f"nil-tui host: a request failed ({type(exc).__name__}: {exc}); "
                          "the table goes on", file=sys.stderr)
                    conn.send(Refusal("failed", "the table could not do that",
                                      msg_id=request.id if request else None).message())
        except ConnectionClosed:
            return


def _handle(table: Table, seat: int, request: Request, conn: Connection) -> bool:
    """A request of a seated connection, as the table's call (a ping answered here); True
    when it was what the table waited for (the rate limit does not count those)."""
    if request.type == "ping":
        conn.send(pong(request.id, table.turn))
        return False
    if request.type == "start":
        table.start_by(seat)
        return True
    assert request.action is not None and request.turn is not None  # (read_request's act)
    return table.act(seat, request.action, request.turn)


async def _refuse(ws: ServerConnection, refusal: Refusal) -> None:
    """One error, then the connection is closed."""
    try:
        await ws.send(encode(refusal.message()))
        await ws.close(4001 if refusal.code == "not_invited" else 4002, refusal.code)
    except ConnectionClosed:
        pass


def collect_less() -> None:
    """For a process that hosts tables, once they are open: what lives now (the modules, the
    tables, their games) is moved out of the garbage collector's reach (``gc.freeze``), and
    its young objects are collected less often. A card makes short-lived objects by the
    thousand, few of them cycles; without this, a full collection walks every object of every
    table and pauses all of them for a tenth of a second or more at a hundred tables."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)


def tls_context(certfile: str, keyfile: str | None) -> ssl.SSLContext:
    """A server TLS context from a certificate (and key) file: TLS 1.2 at least."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(certfile, keyfile)
    return context


__all__ = ["Limits", "Seated", "WireServer", "collect_less", "tls_context"]
