"""A table flooded with connections that never say hello: do its players still get in?

A second process (``flood``) keeps N WebSocket connections open to the table, none of which
ever sends a hello, each opened again as soon as the table closes it (its hello timeout) or
turns it away (HTTP 503). Meanwhile this process joins the table, again and again, as a
player does: with the invite shown in the handshake (what nil-tui's client does), and as a
client that shows it only in its hello, from another address of the machine. It prints how
many joins got in and how long each took (median and worst), and how many of the flood's
connections the table let in.

    python benchmarks/table_flood.py                     # 150 silent connections, 20 joins
    python benchmarks/table_flood.py --flood 300 --joins 50 --json

Loopback only: the second address is 127.0.0.2 (all of 127/8 is this machine on Linux).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

FLOODER = "127.0.0.1"
OTHER = "127.0.0.2"


async def flood(url: str, count: int, seconds: float, source: str) -> None:
    """Keep ``count`` silent connections to ``url`` from ``source`` for ``seconds`` or until
    standard input closes; prints ``flooding`` once each has been tried, then at the end what
    the table did with them."""
    opened = refused = 0
    end = time.monotonic() + seconds
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_reader(sys.stdin.fileno(), lambda: stop.set() if not sys.stdin.read(1) else None)

    async def one() -> None:
        nonlocal opened, refused
        while time.monotonic() < end and not stop.is_set():
            try:
                ws = await connect(url, compression=None, proxy=None, open_timeout=10,
                                   local_addr=(source, 0))
            except InvalidStatus:
                refused += 1
                await asyncio.sleep(0.02)  # turned away: try again at once, nearly
                continue
            except (OSError, TimeoutError, asyncio.TimeoutError):
                await asyncio.sleep(0.02)
                continue
            opened += 1
            closed = asyncio.ensure_future(ws.wait_closed())
            stopped = asyncio.ensure_future(stop.wait())
            await asyncio.wait([closed, stopped], timeout=max(0.1, end - time.monotonic()),
                               return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
            if not closed.done():
                closed.cancel()
                await ws.close()

    tasks = [asyncio.ensure_future(one()) for _ in range(count)]
    await asyncio.sleep(0.5)
    print("flooding", flush=True)
    await asyncio.gather(*tasks)
    print(json.dumps({"opened": opened, "refused": refused}), flush=True)


async def join_once(url: str, secret: str, header: bool, source: str) -> float | None:
    """Seconds from connecting to the table's answer to a hello (welcome or error), or None
    when the table turned the connection away."""
    from nil_tui import __version__
    from nil_tui.net.wire import INVITE_HEADER, PROTOCOL, hello

    started = time.monotonic()
    try:
        ws = await connect(url, compression=None, proxy=None, open_timeout=10,
                           local_addr=(source, 0),
                           additional_headers={INVITE_HEADER: secret} if header else None)
    except (InvalidStatus, OSError, TimeoutError, asyncio.TimeoutError):
        return None
    try:
        await ws.send(json.dumps(hello(secret, protocol=PROTOCOL, app=__version__,
                                       name="Ann")))
        answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
    except (ConnectionClosed, TimeoutError, asyncio.TimeoutError):
        return None
    finally:
        await ws.close()
    return time.monotonic() - started if answer.get("type") == "welcome" else None


def flooder(url: str, count: int, seconds: float) -> subprocess.Popen[str]:
    """The flood in a process of its own; returns once it says it is flooding."""
    child = subprocess.Popen([sys.executable, __file__, "flood", url, str(count), str(seconds)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    line = child.stdout.readline()
    if line.strip() != "flooding":
        child.kill()
        raise RuntimeError(f"the flood did not start: {line!r}")
    return child


async def measure(count: int, joins: int) -> dict[str, Any]:
    from nil_tui.net.server import WireServer
    from nil_tui.session.table import Table, TableConfig

    table = Table(TableConfig(deals=1))
    server = WireServer({"/": table})
    port = await server.start("127.0.0.1", 0)
    url = f"ws://127.0.0.1:{port}/"
    child = await asyncio.to_thread(flooder, url, count, 600.0)
    results: dict[str, Any] = {"flood": count}
    try:
        await asyncio.sleep(1.0)
        for name, header, source in (("invited", True, FLOODER),
                                     ("hello_only_elsewhere", False, OTHER),
                                     ("hello_only_same_address", False, FLOODER)):
            times = []
            for _ in range(joins):
                took = await join_once(url, table.secret, header, source)
                if took is not None:
                    times.append(took)
                for seat in table.seating:  # the seat is free again for the next join
                    seat.free()
                await asyncio.sleep(0.05)
            results[name] = {"got_in": len(times), "of": joins,
                             "median_ms": round(statistics.median(times) * 1000, 1)
                             if times else None,
                             "worst_ms": round(max(times) * 1000, 1) if times else None}
    finally:
        out, _ = await asyncio.to_thread(child.communicate, "", 60)  # stdin closed: it ends
        await server.close()
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if lines:
        results["flood_connections"] = json.loads(lines[-1])
    return results


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "flood":
        url, count, seconds = sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
        try:
            asyncio.run(flood(url, count, seconds, FLOODER))
        except KeyboardInterrupt:
            pass
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flood", type=int, default=150, help="silent connections")
    parser.add_argument("--joins", type=int, default=20, help="joins of each kind")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = asyncio.run(measure(args.flood, args.joins))
    if args.json:
        print(json.dumps(results))
    else:
        for key, value in results.items():
            print(f"{key:26} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
