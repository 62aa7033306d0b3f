"""Shared tables under load: one host process serves N tables over loopback WebSockets, each
with four scripted clients (random legal cards, no pauses).

The clients run in a second process by default (``--clients process``): on a 2-core machine
the host has one core and the 4 x N clients the other, as friends' terminals would be on
their own machines. ``--clients same`` puts them in the host's process and event loop, so
their work is counted against the host's (a conservative figure).

Prints cards played a second, the time from a play being sent to the next seat's turn
arriving (its TableState with pace ``your_turn``; median and p99, as the clients see it),
each process's CPU a card, and memory per table (the host's resident memory grown per table;
the clients' process apart). Targets on a 2-core machine, clients included: 100 tables at
once, p99 under 100 ms, at least 1,000 cards a second, under 2 MB a table. Other programs on
the machine slow every figure but the CPU a card: the load average is printed with them.

    python benchmarks/table_server.py                  # 100 tables, 2 deals each
    python benchmarks/table_server.py --tables 20 --deals 4 --json
    python benchmarks/table_server.py --clients same   # host and clients in one process
    python benchmarks/table_server.py --uvloop         # both on uvloop's event loop, if installed
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import sys
import time
from typing import Any

from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from nil_tui import __version__
from nil_tui.net.server import Limits, WireServer, collect_less
from nil_tui.net.wire import INVITE_HEADER, PROTOCOL
from nil_tui.session import messages as session
from nil_tui.session.table import Table, TableConfig

TARGETS = {"tables": 100, "p99_ms": 100.0, "cards_per_second": 1000.0, "mb_per_table": 2.0}


def cpu_times() -> tuple[float, float]:
    """This process's CPU seconds: (in Python and the libraries, in the kernel)."""
    t = os.times()
    return t.user, t.system


def loop_name() -> str:
    return "uvloop" if type(asyncio.get_running_loop()).__module__.startswith("uvloop") \
        else "asyncio"


def rss_bytes() -> int:
    with open("/proc/self/statm", encoding="ascii") as fh:
        pages = int(fh.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


ACTED_ON = ('"pace":"your_turn"', '"pace":"deal_over"', '"type":"record"')
"""What a scripted client reads a message for: its turn, a deal's end, the game's record."""


class Timing:
    """Send times of plays, per table and position, and the delays to the next turn."""

    def __init__(self) -> None:
        self.sent: dict[tuple[int, int], float] = {}
        self.delays: list[float] = []

    def played(self, table: int, turn: int) -> None:
        self.sent[(table, turn)] = time.perf_counter()

    def turn_arrived(self, table: int, turn: int) -> None:
        start = self.sent.pop((table, turn - 1), None)
        if start is not None:
            self.delays.append(time.perf_counter() - start)


class Scripted(asyncio.Protocol):
    """A scripted player on a real WebSocket (websockets' own protocol, without its asyncio
    connection): it plays random legal cards until the game is over. Each frame is read as it
    arrives, and only those it acts on (its turn, a deal's end, the record) as plain JSON: a
    scripted player needs four fields of a state; the full reading of the session's values,
    checked field by field, is a real client's own cost, on its own machine, left out so that
    the figures are the host's."""

    def __init__(self, url: str, secret: str, name: str, table: int, rng: random.Random,
                 timing: Timing) -> None:
        self.ws = ClientProtocol(parse_uri(url), max_size=2**22)
        self.secret, self.name, self.table, self.rng, self.timing = \
            secret, name, table, rng, timing
        self.transport: asyncio.Transport | None = None
        loop = asyncio.get_running_loop()
        self.welcomed: asyncio.Future[None] = loop.create_future()
        self.over: asyncio.Future[int] = loop.create_future()
        self.backlog: list[str] | None = []  # frames that came before the start, in order
        self.welcome_due = True
        self.answered, self.went_on, self.cards, self.id = -1, 0, 0, 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        request = self.ws.connect()
        request.headers[INVITE_HEADER] = self.secret  # as a player's client shows it
        self.ws.send_request(request)
        self._flush()

    def _flush(self) -> None:
        assert self.transport is not None
        for data in self.ws.data_to_send():
            if data:
                self.transport.write(data)

    def _send(self, message: dict[str, Any]) -> None:
        self.id += 1
        self.ws.send_text(json.dumps({**message, "id": self.id},
                                     separators=(",", ":")).encode())
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if event.status_code != 101:
                    self.welcomed.set_exception(SystemExit(f"refused: {event.status_code}"))
                    return
                self._send({"type": "hello", "protocol": PROTOCOL, "app": __version__,
                            "invite": self.secret, "key": None, "name": self.name,
                            "seat": None})
            elif isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                text = event.data.decode()
                if self.welcome_due:
                    self.welcome_due = False
                    if '"type":"welcome"' not in text.partition("\n")[0]:
                        self.welcomed.set_exception(SystemExit(f"not seated: {text[:200]}"))
                        return
                    self.welcomed.set_result(None)
                elif self.backlog is not None:
                    self.backlog.append(text)
                else:
                    self._read(text)
        self._flush()  # pongs, a close

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.welcomed.done():
            self.welcomed.set_exception(SystemExit("the table closed the connection"))
        if not self.over.done():
            self.over.set_result(self.cards)

    def go(self) -> None:
        """Start playing (every client is seated): what came meanwhile first."""
        backlog, self.backlog = self.backlog or [], None
        for text in backlog:
            self._read(text)

    def _read(self, text: str) -> None:
        if self.over.done():
            return
        last = text.rpartition("\n")[2]  # a frame ends with the state
        if not any(mark in last for mark in ACTED_ON):
            return
        message = json.loads(last)
        kind = message.get("type")
        if kind == "record":
            self.over.set_result(self.cards)
            return
        if kind != "TableState":
            return
        pace, turn = message["pace"], message["turn"]
        if pace == "deal_over" and self.went_on < message["deal_number"]:
            self.went_on = message["deal_number"]
            self._send({"type": "act", "turn": turn, "action": {
                "protocol": session.PROTOCOL_VERSION, "type": "GoOn"}})
        if pace == "your_turn" and turn > self.answered:
            self.timing.turn_arrived(self.table, turn)
            self.answered = turn
            self.timing.played(self.table, turn)
            self._send({"type": "act", "turn": turn, "action": {
                "protocol": session.PROTOCOL_VERSION, "type": "PlayCard",
                "card": self.rng.choice(message["legal"])}})
            self.cards += 1

    def close(self) -> None:
        if self.transport is not None:
            self.ws.send_close(1000)
            self._flush()
            self.transport.close()


async def play_tables(port: int, secrets: list[str], seed: int,
                      seated: Any = None) -> dict[str, Any]:
    """Seat four scripted clients at each table and play every game to its end; the
    clients' figures. ``seated`` is called once every client has its seat."""
    gc.collect()
    base = rss_bytes()
    timing = Timing()
    loop = asyncio.get_running_loop()
    rng = random.Random(seed)
    clients: list[Scripted] = []
    for i, secret in enumerate(secrets):
        for seat in range(4):
            clients.append(Scripted(f"ws://127.0.0.1:{port}/t/{i}", secret, f"t{i}s{seat}", i,
                                    random.Random(rng.random()), timing))

    async def connect(client: Scripted) -> None:
        await loop.create_connection(lambda: client, "127.0.0.1", port)
        await client.welcomed

    for i in range(0, len(clients), 50):  # connect in batches (the listen backlog)
        await asyncio.gather(*(connect(c) for c in clients[i:i + 50]))
    if seated is not None:
        seated()
    start = time.perf_counter()
    cpu = cpu_times()
    for client in clients:
        client.go()
    played = await asyncio.gather(*(c.over for c in clients))
    elapsed = time.perf_counter() - start
    cpu_used = tuple(b - a for a, b in zip(cpu, cpu_times()))
    peak = rss_bytes()
    for client in clients:
        client.close()
    await asyncio.sleep(0.1)
    return {"cards": sum(played), "seconds": elapsed, "cpu_seconds": cpu_used,
            "delays": timing.delays, "mb_per_table": (peak - base) / len(secrets) / 2**20}


def _serve(tables: int, deals: int, seed: int) -> tuple[dict[str, Table], WireServer]:
    served = {f"/t/{i}": Table(TableConfig(deals=deals, seed=seed + i, start_when=4,
                                           deal_pause=5.0))
              for i in range(tables)}
    limits = Limits(max_connections=4 * tables + 16, queue=1024)
    return served, WireServer(served, limits)


async def run_same(tables: int, deals: int, seed: int, gc_frozen: bool = True
                   ) -> dict[str, Any]:
    """The host and its clients in one process and event loop."""
    gc.collect()
    base = rss_bytes()
    served, server = _serve(tables, deals, seed)
    port = await server.start("127.0.0.1", 0)
    marks: dict[str, float] = {}

    def seated() -> None:
        gc.collect()
        marks["rss"] = rss_bytes()
        if gc_frozen:
            collect_less()

    played = await play_tables(port, [t.secret for t in served.values()], seed, seated)
    peak = rss_bytes()
    await server.close()
    return _figures(tables, deals, served, played, host_cpu=tuple(played["cpu_seconds"]),
                    host_mb=((marks["rss"] - base) / tables / 2**20,
                             (peak - base) / tables / 2**20),
                    clients="same process")


async def run_apart(tables: int, deals: int, seed: int, gc_frozen: bool = True
                    ) -> dict[str, Any]:
    """The host here, its clients in a second process."""
    gc.collect()
    base = rss_bytes()
    served, server = _serve(tables, deals, seed)
    port = await server.start("127.0.0.1", 0)
    child = await asyncio.create_subprocess_exec(
        sys.executable, os.path.abspath(__file__), "--clients-for", str(port),
        "--seed", str(seed), *(["--uvloop"] if loop_name() == "uvloop" else []), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write((json.dumps([t.secret for t in served.values()]) + "\n").encode())
    await child.stdin.drain()
    child.stdin.close()
    line = await child.stdout.readline()  # "seated"
    if line.strip() != b"seated":
        raise SystemExit(f"the clients' process failed: {line!r}")
    gc.collect()
    seated_rss = rss_bytes()
    if gc_frozen:
        collect_less()  # what nil-tui host does once its table is open
    cpu = cpu_times()
    out = await child.stdout.read()
    await child.wait()
    host_cpu = tuple(b - a for a, b in zip(cpu, cpu_times()))
    peak = rss_bytes()
    await server.close()
    played = json.loads(out)
    return _figures(tables, deals, served, played, host_cpu=host_cpu,
                    host_mb=((seated_rss - base) / tables / 2**20,
                             (peak - base) / tables / 2**20),
                    clients="a second process")


def _figures(tables: int, deals: int, served: dict[str, Table], played: dict[str, Any], *,
             host_cpu: tuple[float, ...], host_mb: tuple[float, float], clients: str) -> dict[str, Any]:
    cards = played["cards"]
    elapsed = played["seconds"]
    finished = sum(1 for t in served.values() if t.game is not None and t.game.is_over)
    delays = sorted(played["delays"])
    p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))] if delays else float("nan")
    result: dict[str, Any] = {
        "tables": tables, "deals": deals, "finished": finished, "cards": cards,
        "clients": clients, "event_loop": loop_name(), "load_average": os.getloadavg()[0], "cpus": os.cpu_count(),
        "seconds": round(elapsed, 2),
        "cards_per_second": round(cards / elapsed, 1),
        "cpu_ms_per_card": {"host": round(sum(host_cpu) / cards * 1000, 3),
                            "host_kernel": round(host_cpu[1] / cards * 1000, 3)},
        "turn_latency_ms": {"median": round(statistics.median(delays) * 1000, 2),
                            "p99": round(p99 * 1000, 2), "max": round(delays[-1] * 1000, 2),
                            "samples": len(delays)},
        "memory_per_table_mb": {"seated": round(host_mb[0], 3),
                                "playing_peak": round(host_mb[1], 3)},
        "targets": TARGETS,
    }
    if clients != "same process":
        result["cpu_ms_per_card"]["clients"] = round(sum(played["cpu_seconds"]) / cards
                                                     * 1000, 3)
        result["memory_per_table_mb"]["clients_process"] = round(played["mb_per_table"], 3)
    return result


def clients_for(port: int, seed: int) -> None:
    """The clients' process: the secrets on stdin; ``seated`` once every client sits, then
    the clients' figures as JSON when every game is over."""
    secrets = json.loads(sys.stdin.readline())

    def seated() -> None:
        sys.stdout.write("seated\n")
        sys.stdout.flush()

    played = asyncio.run(play_tables(port, secrets, seed, seated))
    sys.stdout.write(json.dumps(played))
    sys.stdout.flush()


def report(result: dict[str, Any]) -> None:
    lat = result["turn_latency_ms"]
    mem = result["memory_per_table_mb"]
    cpu = result["cpu_ms_per_card"]
    t = result["targets"]
    print(f"{result['finished']}/{result['tables']} tables played {result['deals']} deals, "
          f"clients in {result['clients']}, {result['event_loop']} (load average {result['load_average']:.2f} on "
          f"{result['cpus']} cores when done)")
    print(f"{result['cards']} cards in {result['seconds']} s: {result['cards_per_second']} "
          f"cards/s (target at least {t['cards_per_second']:.0f} with {t['tables']} tables)")
    print(f"play to next turn: median {lat['median']} ms, p99 {lat['p99']} ms "
          f"(target under {t['p99_ms']:.0f}), max {lat['max']} ms ({lat['samples']} turns)")
    clients = f", clients {cpu['clients']} ms" if "clients" in cpu else " (clients included)"
    print(f"CPU a card: host {cpu['host']} ms ({cpu['host_kernel']} ms of it in the kernel: "
          f"the sockets){clients}")
    apart = (f"; the clients' process {mem['clients_process']} MB a table"
             if "clients_process" in mem else " (four clients included)")
    print(f"host memory per table: {mem['seated']} MB seated, {mem['playing_peak']} MB at the "
          f"end of play (target under {t['mb_per_table']:.0f}){apart}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clients", choices=("process", "same"), default="process")
    parser.add_argument("--uvloop", action="store_true",
                        help="run host and clients on uvloop's event loop (pip install uvloop)")
    parser.add_argument("--gc-as-is", action="store_true",
                        help="leave the host's garbage collector as Python sets it (to "
                             "compare with what nil-tui host does: collect_less)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--clients-for", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.uvloop:
        try:
            import uvloop  # type: ignore[import-not-found]
        except ImportError:
            raise SystemExit("table_server.py: --uvloop needs uvloop (pip install uvloop)")
        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    if args.clients_for is not None:
        clients_for(args.clients_for, args.seed)
        return
    runner = run_apart if args.clients == "process" else run_same
    result = asyncio.run(runner(args.tables, args.deals, args.seed, not args.gc_as_is))
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        report(result)


if __name__ == "__main__":
    main()
