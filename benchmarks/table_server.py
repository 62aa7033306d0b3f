"""Shared tables under load: one process serves N tables over loopback WebSockets, each with
four scripted clients (random legal cards, no pauses) in the same process and event loop, so
the clients' work is counted against the server's (a conservative figure).

Prints cards played a second, the time from a play being sent to the next seat's turn
arriving (its TableState with pace ``your_turn``; median and p99), and memory per table (the
process's resident memory grown per table, clients included). Targets on a 2-core machine:
100 tables, p99 under 100 ms, at least 1,000 cards a second, under 2 MB a table.

    python benchmarks/table_server.py                  # 100 tables, 2 deals each
    python benchmarks/table_server.py --tables 20 --deals 4 --json
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import statistics
import time
from typing import Any

from websockets.exceptions import ConnectionClosed

from nil_tui.net.client import TableClient
from nil_tui.net.keys import Invite
from nil_tui.net.server import Limits, TableServer
from nil_tui.net.table import Table, TableConfig
from nil_tui.session import protocol as session


def rss_bytes() -> int:
    with open("/proc/self/statm", encoding="ascii") as fh:
        pages = int(fh.read().split()[1])
    import os

    return pages * os.sysconf("SC_PAGE_SIZE")


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


async def scripted(client: TableClient, table: int, rng: random.Random,
                   timing: Timing) -> int:
    """Play random legal cards until the game is over; returns the cards played. The
    messages are read as plain JSON (a scripted client needs four fields of each state; the
    full reading of the session's values, checked field by field, is the client's own cost,
    left out so that the figures are the server's)."""
    ws = client.ws
    assert ws is not None
    answered, went_on, cards = -1, 0, 0
    for _ in range(1_000_000):
        try:
            text = await ws.recv()
        except ConnectionClosed:
            return cards
        message = json.loads(text.rpartition("\n")[2])  # a frame ends with the state
        kind = message.get("type")
        if kind == "record":
            return cards
        if kind != "TableState":
            continue
        pace, turn = message["pace"], message["turn"]
        if pace == "deal_over" and went_on < message["deal_number"]:
            went_on = message["deal_number"]
            await client.go_on()
        if pace == "your_turn" and turn > answered:
            timing.turn_arrived(table, turn)
            answered = turn
            timing.played(table, turn)
            await client.send({"type": "act", "turn": turn, "action": {
                "protocol": session.PROTOCOL_VERSION, "type": "PlayCard",
                "card": rng.choice(message["legal"])}})
            cards += 1
    return cards


async def run(tables: int, deals: int, seed: int) -> dict[str, Any]:
    gc.collect()
    base = rss_bytes()
    served = {f"/t/{i}": Table(TableConfig(deals=deals, seed=seed + i, start_when=4,
                                           deal_pause=5.0))
              for i in range(tables)}
    limits = Limits(max_connections=4 * tables + 16, queue=1024)
    server = TableServer(served, limits)
    port = await server.start("127.0.0.1", 0)
    timing = Timing()
    clients: list[tuple[int, TableClient]] = []
    for i, table in enumerate(served.values()):
        invite = Invite("127.0.0.1", port, table.secret)
        for seat in range(4):
            clients.append((i, TableClient(invite, name=f"t{i}s{seat}", path=f"/t/{i}")))
    for i in range(0, len(clients), 50):  # connect in batches (the listen backlog)
        await asyncio.gather(*(c.connect() for _, c in clients[i:i + 50]))
    gc.collect()
    seated = rss_bytes()
    rng = random.Random(seed)
    start = time.perf_counter()
    cpu = time.process_time()
    played = await asyncio.gather(*(scripted(c, i, random.Random(rng.random()), timing)
                                    for i, c in clients))
    elapsed = time.perf_counter() - start
    cpu_used = time.process_time() - cpu
    peak = rss_bytes()
    for _, c in clients:
        await c.close()
    await server.close()
    cards = sum(played)
    finished = sum(1 for t in served.values() if t.game is not None and t.game.is_over)
    delays = sorted(timing.delays)
    p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))] if delays else float("nan")
    return {
        "tables": tables, "deals": deals, "finished": finished, "cards": cards,
        "seconds": round(elapsed, 2), "cpu_seconds": round(cpu_used, 2),
        "cards_per_second": round(cards / elapsed, 1),
        "turn_latency_ms": {"median": round(statistics.median(delays) * 1000, 2),
                            "p99": round(p99 * 1000, 2), "max": round(delays[-1] * 1000, 2),
                            "samples": len(delays)},
        "memory_per_table_mb": {"seated": round((seated - base) / tables / 2**20, 3),
                                "playing_peak": round((peak - base) / tables / 2**20, 3)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(run(args.tables, args.deals, args.seed))
    if args.json:
        print(json.dumps(result, indent=1))
        return
    lat = result["turn_latency_ms"]
    mem = result["memory_per_table_mb"]
    print(f"{result['finished']}/{result['tables']} tables played {result['deals']} deals: "
          f"{result['cards']} cards in {result['seconds']} s "
          f"({result['cards_per_second']} cards/s; {result['cpu_seconds']} s of CPU)")
    print(f"play to next turn: median {lat['median']} ms, p99 {lat['p99']} ms, "
          f"max {lat['max']} ms ({lat['samples']} turns)")
    print(f"memory per table (four clients included): {mem['seated']} MB seated, "
          f"{mem['playing_peak']} MB at the end of play")


if __name__ == "__main__":
    main()
