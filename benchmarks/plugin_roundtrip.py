"""The cost of a plugin bot's own process: one decision's round trip, and starting a game.

    python benchmarks/plugin_roundtrip.py [--decisions 2000] [--seed 1]

A trivial plugin (``Trivial`` below: the first legal card) plays from its own process, as every
plugin does in a game. Printed: the round trip of ``decide`` (the view sent, the answer read
and checked) as median, p95 and worst, and the CPU it takes on each side, against the same bot
asked directly in this process; the time to open a player (a new host process, then a pooled
one, whose game process was forked in advance). Target: under 2 ms median round trip.

And the floor under any of it, measured here the same way: the same number of bytes sent back
and forth between this process and a forked one with nothing but ``os.write`` and ``os.read``
on pipes (two writes, two reads, two wake-ups), with one process and with four asked in turn
(as the four seats of a game are: each wakes up after the others ran), and forking a process
as large as the host and ending it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

DECIDE_BYTES = 80  # about the size of a decision message (the answer is 9 bytes)


class Trivial:
    """The first legal card: all that is measured is the way there and back."""

    name = "Trivial"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: Any) -> Any:
        return view.legal[0]


def views(count: int, seed: int) -> list[Any]:
    from nil_tui.engine import Deal

    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        deal = Deal.new(rng.randrange(4), rng)
        while not deal.is_over and len(out) < count:
            seat = deal.to_move
            assert seat is not None
            out.append(deal.view(seat))
            deal.play(rng.choice(deal.legal_moves()))
    return out


def summary(label: str, times: list[float]) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    return (f"{label:<34} median {statistics.median(times) * 1000:7.3f} ms   "
            f"p95 {p95 * 1000:7.3f} ms   max {times[-1] * 1000:7.3f} ms   (n={len(times)})")


def cpu_children() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def floor_round_trip(count: int, processes: int = 1) -> tuple[list[float], float, float]:
    """Round trips of bare pipes between this process and forked ones, asked in turn as the
    seats of a game are: (times, CPU seconds per round trip here, and in the others)."""
    import os

    others = []
    for _ in range(processes):
        to_child, from_parent = os.pipe()
        to_parent, from_child = os.pipe()
        pid = os.fork()
        if pid == 0:
            while True:
                data = os.read(to_child, 1 << 16)
                if data == b"q":
                    os._exit(0)
                os.write(from_child, data[:9])
        os.close(to_child)
        os.close(from_child)
        others.append((pid, from_parent, to_parent))
    message = b"d" * DECIDE_BYTES
    times = []
    before, children = time.process_time(), cpu_children()
    for k in range(count):
        _pid, write, read = others[k % processes]
        t = time.perf_counter()
        os.write(write, message)
        os.read(read, 1 << 16)
        times.append(time.perf_counter() - t)
    here = time.process_time() - before
    for pid, write, read in others:
        os.write(write, b"q")
        os.waitpid(pid, 0)
        os.close(write)
        os.close(read)
    return times, here / count, (cpu_children() - children) / count


def fork_and_end(count: int) -> tuple[float, float]:
    """(wall, CPU) seconds to fork this process (the engine and the bots loaded, as in a host)
    and let the copy end at once."""
    import gc
    import os

    gc.freeze()
    t, before, children = time.perf_counter(), time.process_time(), cpu_children()
    for _ in range(count):
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
    cpu = time.process_time() - before + cpu_children() - children
    gc.unfreeze()
    return (time.perf_counter() - t) / count, cpu / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from nil_tui.bots import open_player
    from nil_tui.bots.players import shutdown

    spec = "plugin_roundtrip:Trivial"
    shutdown()
    children = cpu_children()
    open_player(spec, 1, log=None).close()
    shutdown()
    start_cpu = cpu_children() - children  # a host's start and end, no decision
    t0 = time.perf_counter()
    player = open_player(spec, 1, log=None)
    first_open = time.perf_counter() - t0
    positions = views(args.decisions, args.seed)
    for view in positions[:50]:  # warm up
        player.decide(view)
    trips = []
    before, children = time.process_time(), cpu_children()
    for view in positions:
        t = time.perf_counter()
        choice = player.decide(view)
        trips.append(time.perf_counter() - t)
        assert choice.incident is None and choice.card == view.legal[0]
    here = (time.process_time() - before) / len(positions)
    player.close()
    shutdown()  # its processes end: their CPU is counted
    there = max(0.0, cpu_children() - children - start_cpu)
    players = [open_player(spec, k, log=None) for k in range(4)]
    for view in positions[:50]:
        players[0].decide(view)
    seats = []
    for k, view in enumerate(positions):  # four processes asked in turn, as in a game
        t = time.perf_counter()
        players[k % 4].decide(view)
        seats.append(time.perf_counter() - t)
    for p in players:
        p.close()
    reopen = []
    for k in range(30):
        t = time.perf_counter()
        p = open_player(spec, k, log=None)
        reopen.append(time.perf_counter() - t)
        p.decide(positions[k])
        p.close()
    bot = Trivial()
    direct = []
    for view in positions:
        t = time.perf_counter()
        bot.choose(view)
        direct.append(time.perf_counter() - t)
    floor, floor_here, floor_there = floor_round_trip(len(positions))
    floor4, floor4_here, floor4_there = floor_round_trip(len(positions), 4)
    fork_wall, fork_cpu = fork_and_end(100)
    print(summary("plugin decision round trip", trips))
    print(f"{'':<34} CPU per decision: {here * 1e6:5.1f} us here, "
          f"{there / len(positions) * 1e6:5.1f} us in the plugin's processes")
    print(summary("the same, four plugins in turn", seats))
    print(summary("same bot called in this process", direct))
    print(f"{'open a player, new host process':<34} {first_open * 1000:7.1f} ms")
    print(summary("open a player, pooled host", reopen))
    print("target: round trip under 2 ms median")
    print("the floor:")
    print(summary("bare pipes, os.write + os.read", floor))
    print(f"{'':<34} CPU per round trip: {floor_here * 1e6:5.1f} us here, "
          f"{floor_there * 1e6:5.1f} us in the other process")
    print(summary("the same, four processes in turn", floor4))
    print(f"{'':<34} CPU per round trip: {floor4_here * 1e6:5.1f} us here, "
          f"{floor4_there * 1e6:5.1f} us in the others")
    print(f"{'fork a process and end it':<34} {fork_wall * 1000:7.3f} ms wall, "
          f"{fork_cpu * 1000:6.3f} ms CPU (both processes)")
    shutdown()


if __name__ == "__main__":
    main()
