"""What the shared-table tests share: a table served on loopback, a byte-capturing proxy, and
the check that no client was ever sent a card it may not see."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from nil_tui.engine import Game
from nil_tui.engine.records import from_record
from nil_tui.net.keys import Invite
from nil_tui.net.server import Limits, WireServer
from nil_tui.session.table import Table, TableConfig

CARD = re.compile(rb"(?<![A-Za-z0-9])([2-9TJQKA][CDHS])(?![A-Za-z0-9])")


@dataclass
class Served:
    table: Table
    server: WireServer
    invite: Invite


@asynccontextmanager
async def served(config: TableConfig, limits: Limits | None = None,
                 **table_kwargs: Any) -> AsyncIterator[Served]:
    table = Table(config, **table_kwargs)
    server = WireServer({"/": table}, limits)
    port = await server.start("127.0.0.1", 0)
    try:
        yield Served(table, server, Invite("127.0.0.1", port, table.secret))
    finally:
        await server.close()


@dataclass
class Tap:
    """Every byte the server sent down one connection, as the client's socket got them."""

    down: bytearray = field(default_factory=bytearray)

    def frames(self) -> list[bytes]:
        """The payloads of the WebSocket frames after the HTTP upgrade (server frames are
        not masked; the table sends text frames, uncompressed)."""
        data = bytes(self.down)
        head = data.index(b"\r\n\r\n") + 4
        out, i = [], head
        while i + 2 <= len(data):
            b0, b1 = data[i], data[i + 1]
            n, i = b1 & 0x7F, i + 2
            if n == 126:
                n, i = int.from_bytes(data[i:i + 2], "big"), i + 2
            elif n == 127:
                n, i = int.from_bytes(data[i:i + 8], "big"), i + 8
            if b1 & 0x80:
                i += 4  # (a masked frame: never from a server)
            payload = data[i:i + n]
            i += n
            if b0 & 0x0F == 1:  # text
                out.append(payload)
        return out


@asynccontextmanager
async def tapping_proxy(port: int) -> AsyncIterator[tuple[int, list[Tap]]]:
    """A TCP proxy on loopback in front of the table; one Tap per connection."""
    taps: list[Tap] = []

    async def relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    tap: Tap | None) -> None:
        try:
            while data := await reader.read(65536):
                if tap is not None:
                    tap.down.extend(data)
                writer.write(data)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def handle(client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        server_r, server_w = await asyncio.open_connection("127.0.0.1", port)
        tap = Tap()
        taps.append(tap)
        await asyncio.gather(relay(client_r, server_w, None), relay(server_r, client_w, tap))

    proxy = await asyncio.start_server(handle, "127.0.0.1", 0)
    try:
        yield proxy.sockets[0].getsockname()[1], taps
    finally:
        proxy.close()


def plays_of(deal: dict[str, Any]) -> list[str]:
    return [c for trick in deal["tricks"] for c in trick["cards"]]


class LeakCheck:
    """Reads the messages one seat was sent, in order, and lists every card in them that the
    seat may not see at that moment: a card of another seat's hand not yet played. A state
    is placed in the game by its deal number and its plays, which must be the game's; the
    news before a state (what was just played) is checked against that state."""

    def __init__(self, seat: int, record: dict[str, Any]) -> None:
        self.seat = seat
        self.record = record
        self.waiting: list[tuple[str, list[str]]] = []  # news not yet placed
        self.problems: list[str] = []

    def feed(self, frame: bytes) -> None:
        for line in frame.split(b"\n"):  # a frame holds one message a line
            self._line(line)

    def _line(self, payload: bytes) -> None:
        found = [m.decode() for m in CARD.findall(payload)]
        message = json.loads(payload)
        kind = message.get("type")
        if kind == "TableState":
            self._state(message, found)
        elif kind == "record":
            self.waiting = []  # the game is over: every hand is shown
            if not self.record["finished"]:
                self.problems.append("a record before the game is over")
        elif found:
            self.waiting.append((str(kind), found))

    def _state(self, state: dict[str, Any], found: list[str]) -> None:
        if state["pace"] in ("deal_over", "game_over"):
            self.waiting = []
            return  # the deal is over: its hands as dealt are shown to everyone
        if state["seat"] != self.seat:
            self.problems.append(f"a state of seat {state['seat']}")
        deal = self.record["deals"][state["deal_number"] - 1]
        plays = [p["card"] for p in state["plays"]]
        if plays != plays_of(deal)[:len(plays)]:
            self.problems.append(f"plays {plays} are not the game's")
        allowed = set(deal["hands"][self.seat]) | set(plays)
        for kind, cards in [*self.waiting, ("TableState", found)]:
            self.problems += [f"{c} in {kind} (deal {state['deal_number']}, after "
                              f"{len(plays)} cards)" for c in cards if c not in allowed]
        self.waiting = []

    def done(self) -> list[str]:
        return self.problems + [f"{c} in {k}, never placed" for k, cs in self.waiting
                                for c in cs]


def leaks(frames: list[bytes], seat: int, record: dict[str, Any]) -> list[str]:
    check = LeakCheck(seat, record)
    for frame in frames:
        check.feed(frame)
    return check.done()


def check_record(record: dict[str, Any]) -> Game:
    """The checks every record passes: the engine reads it back play by play, finished."""
    game = from_record(record)
    assert game.is_over
    assert game.to_record()["deals"] == record["deals"]
    return game


def same_game(records: list[dict[str, Any]]) -> None:
    """Records of one game kept by different players agree (but for when each was written)."""
    bare = [{k: v for k, v in r.items() if k != "created"} for r in records]
    assert all(b == bare[0] for b in bare[1:])


@asynccontextmanager
async def slow_proxy(port: int, delay: float) -> AsyncIterator[int]:
    """A TCP proxy on loopback that holds every chunk ``delay`` seconds each way, in order
    (latency without the kernel's netem)."""

    async def relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def later() -> None:
            while True:
                due, data = await queue.get()
                if not data:
                    break
                await asyncio.sleep(max(0.0, due - asyncio.get_running_loop().time()))
                writer.write(data)
                await writer.drain()
            writer.close()

        sender = asyncio.ensure_future(later())
        try:
            while data := await reader.read(65536):
                queue.put_nowait((asyncio.get_running_loop().time() + delay, data))
        except (ConnectionError, asyncio.CancelledError):
            pass
        queue.put_nowait((0.0, b""))
        try:
            await sender
        except ConnectionError:
            pass

    async def handle(client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        server_r, server_w = await asyncio.open_connection("127.0.0.1", port)
        await asyncio.gather(relay(client_r, server_w), relay(server_r, client_w))

    proxy = await asyncio.start_server(handle, "127.0.0.1", 0)
    try:
        yield proxy.sockets[0].getsockname()[1]
    finally:
        proxy.close()
