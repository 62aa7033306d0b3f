"""Faults on a real network: the host in one network namespace, the players in another,
joined by a veth pair that these tests make (as root) and remove. No traffic leaves the two
namespaces. Skipped, with the reason, where namespaces cannot be made."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from procs import INVITE, Proc, command, records_in
from tablehelp import check_record, same_game


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20,
                          check=check)


@dataclass
class Net:
    host_ns: str
    client_ns: str
    host_dev: str
    client_dev: str
    host_addr: str

    def run_in(self, ns: str) -> list[str]:
        return ["ip", "netns", "exec", ns]

    def cut(self) -> None:
        ip("-n", self.client_ns, "link", "set", self.client_dev, "down")

    def restore(self) -> None:
        ip("-n", self.client_ns, "link", "set", self.client_dev, "up")


@pytest.fixture
def net() -> Iterator[Net]:
    if os.geteuid() != 0:
        pytest.skip("network namespaces need root")
    tag = f"{os.getpid() % 100000}"
    n = Net(f"nilh{tag}", f"nilc{tag}", f"nvh{tag}", f"nvc{tag}",
            f"10.{200 + os.getpid() % 50}.{os.getpid() % 250}.1")
    made: list[str] = []
    try:
        for ns in (n.host_ns, n.client_ns):
            done = ip("netns", "add", ns, check=False)
            if done.returncode != 0:
                pytest.skip(f"cannot make a network namespace: {done.stderr.strip()}")
            made.append(ns)
            ip("-n", ns, "link", "set", "lo", "up")
        ip("link", "add", n.host_dev, "netns", n.host_ns, "type", "veth", "peer", "name",
           n.client_dev, "netns", n.client_ns)
        client_addr = n.host_addr[:-1] + "2"
        ip("-n", n.host_ns, "addr", "add", f"{n.host_addr}/30", "dev", n.host_dev)
        ip("-n", n.client_ns, "addr", "add", f"{client_addr}/30", "dev", n.client_dev)
        ip("-n", n.host_ns, "link", "set", n.host_dev, "up")
        ip("-n", n.client_ns, "link", "set", n.client_dev, "up")
        yield n
    finally:
        for ns in made:
            ip("netns", "del", ns, check=False)  # the veth pair goes with its namespaces


def start_host(net: Net, home: Path, *args: str) -> tuple[Proc, str]:
    proc = Proc(command("host", "--no-seat", "--bind", net.host_addr, "--port", "4711",
                        *args, prefix=net.run_in(net.host_ns)), home)
    return proc, proc.read_until(INVITE, 60).group(1)


CARD = r"^(?:You|South|West|North|East) \S+(?: \(forced\))?$"
"""A card played, in the lines of join (its cards said as codes)."""


def join(net: Net, home: Path, invite: str, name: str, delay: str = "0.05") -> Proc:
    return Proc(command("join", invite, "--auto", delay, "--name", name, "--cards", "codes",
                        prefix=net.run_in(net.client_ns)), home)


@pytest.mark.slow
def test_a_link_cut_mid_trick_and_a_player_who_stops_reading(net: Net, tmp_path: Path) -> None:
    server, invite = start_host(net, tmp_path / "host", "--players", "2", "--deals", "2",
                                "--seed", "31", "--away-timeout", "1", "--ping-timeout", "2")
    a = join(net, tmp_path / "a", invite, "Ann")
    b = join(net, tmp_path / "b", invite, "Bob")
    procs = [server, a, b]
    try:
        # the link is cut in the middle of a trick, for longer than the host waits for a
        # ping, then restored: the players come back to their seats by themselves
        a.read_until(CARD, 60)
        net.cut()
        time.sleep(4)
        net.restore()
        a.read_until(r"Connection lost", 60)
        b.read_until(r"Connection lost", 60)
        # Bob stops reading (his process is stopped): Ann's game goes on, a bot plays for
        # Bob, and when he goes on he is back in his seat
        b.read_until(CARD, 60, since=len(b.lines))
        b.kill(signal.SIGSTOP)
        seen, since = a.count(CARD), len(a.lines)
        a.read_until(r"A normal bot plays for Bob", 60, since=since)
        deadline = time.monotonic() + 60
        while a.count(CARD) < seen + 8 and time.monotonic() < deadline:
            a.read_until(CARD, 5, since=len(a.lines))
        assert a.count(CARD) >= seen + 8  # play went on without Bob
        b.kill(signal.SIGCONT)
        assert a.wait(180) == 0, "\n".join(a.lines[-30:])
        assert b.wait(180) == 0, "\n".join(b.lines[-30:])
        records = [records_in(tmp_path / "a")[0], records_in(tmp_path / "b")[0]]
        for record in records:
            check_record(record)
        same_game(records)
        bob = [p["name"] for p in records[0]["players"]].index("Bob")
        stood_in = [i for i in records[0].get("incidents", []) if i["seat"] == bob]
        assert stood_in and all("Bob was away" in i["reason"] for i in stood_in), (
            records[0].get("incidents"), a.lines[since:])
    finally:
        for p in procs:
            p.kill(signal.SIGCONT)
            p.close()


def test_the_host_killed_and_resumed_across_the_network(net: Net, tmp_path: Path) -> None:
    home = tmp_path / "host"
    server, invite = start_host(net, home, "--players", "2", "--deals", "1", "--seed", "32",
                                "--away-timeout", "600")
    a = join(net, tmp_path / "a", invite, "Ann")
    b = join(net, tmp_path / "b", invite, "Bob")
    procs = [server, a, b]
    try:
        for _ in range(2):
            a.read_until(r"^\S+ wins?[,.]", 60, since=len(a.lines))
        server.kill()
        server = Proc(command("host", "--no-seat", "--resume",
                              prefix=net.run_in(net.host_ns)), home)
        procs.append(server)
        assert server.read_until(INVITE, 60).group(1) == invite
        assert a.wait(180) == 0, "\n".join(a.lines[-30:])
        assert b.wait(180) == 0, "\n".join(b.lines[-30:])
        records = [records_in(tmp_path / "a")[0], records_in(tmp_path / "b")[0]]
        check_record(records[0])
        same_game(records)
        assert "incidents" not in records[0]
    finally:
        for p in procs:
            p.close()


def test_a_game_over_a_slow_link(net: Net, tmp_path: Path) -> None:
    done = subprocess.run([*net.run_in(net.host_ns), "tc", "qdisc", "add", "dev", net.host_dev,
                           "root", "netem", "delay", "40ms", "10ms"], capture_output=True,
                          text=True, timeout=20, check=False)
    if done.returncode != 0:
        pytest.skip(f"tc netem is not available here: {done.stderr.strip()}")
    server, invite = start_host(net, tmp_path / "host", "--players", "2", "--deals", "1",
                                "--seed", "33")
    a = join(net, tmp_path / "a", invite, "Ann", "0")
    b = join(net, tmp_path / "b", invite, "Bob", "0")
    try:
        assert a.wait(180) == 0, "\n".join(a.lines[-30:])
        assert b.wait(180) == 0
        records = [records_in(tmp_path / "a")[0], records_in(tmp_path / "b")[0]]
        check_record(records[0])
        same_game(records)
    finally:
        for p in (server, a, b):
            p.close()


def test_two_people_in_two_terminals_across_the_network_with_two_bots(
        net: Net, tmp_path: Path) -> None:
    """What the shared table is for: a two-person game with two bots, one person typing cards
    in a terminal in one namespace, the other in another terminal, the host in a third."""
    from procs import play_typed

    server, invite = start_host(net, tmp_path / "host", "--players", "2", "--deals", "2",
                                "--seed", "34")
    other = join(net, tmp_path / "b", invite, "Bob", "0")
    try:
        status, shown, typed = play_typed(
            [*net.run_in(net.client_ns), *command("join", invite, "--text", "--name", "Tess")],
            tmp_path / "tess")
        assert status == 0, shown[-2000:]
        assert other.wait(120) == 0
        records = [records_in(tmp_path / "tess")[0], records_in(tmp_path / "b")[0]]
        check_record(records[0])
        same_game(records)
        kinds = sorted(p["kind"] for p in records[0]["players"])
        assert kinds == ["bot", "bot", "human", "human"] and typed > 0
        assert "The game is over." in shown
    finally:
        server.close()
        other.close()
