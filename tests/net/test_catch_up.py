"""A seat that comes back after a lost link is told what it missed: the cards a bot played for
it, every other card, the tricks, the deals' results and the game's end, each once. Real
``nil-tui host`` and ``nil-tui join --text`` processes over loopback: the join process is
stopped (SIGSTOP, a laptop asleep) until the table has dropped it and a bot has played for it,
or the host is killed (SIGKILL) and brought back with ``--resume``."""

from __future__ import annotations

import re
import signal
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from procs import INVITE, Proc, command, records_in

from nil_tui.engine.records import from_record
from nil_tui.lines.cards import parse_card

PLAYED = re.compile(r"^(You|South|West|North|East) (\S+)(?: \(forced\))?$")
FOR_YOU = "You were away: "


def host(home: Path, *args: str) -> tuple[Proc, str]:
    proc = Proc(command("host", "--no-seat", "--port", "0", *args), home)
    return proc, proc.read_until(INVITE, 60).group(1)


def told(lines: list[str]) -> tuple[Counter[str], list[str]]:
    """How many times each card was told as played, and the cards told as played for you
    (the card said after the line that says a bot played it for you)."""
    plays: Counter[str] = Counter()
    for_you = []
    by_bot = False
    for line in lines:
        by_bot = by_bot or line.startswith(FOR_YOU)
        found = PLAYED.match(line)
        card = parse_card(found.group(2)) if found else None
        if found and card is not None:
            plays[str(card)] += 1
            if by_bot and found.group(1) == "You":
                for_you.append(str(card))
                by_bot = False
    return plays, for_you


def cards_of(record: dict[str, Any]) -> list[str]:
    return [c for deal in record["deals"] for t in deal["tricks"] for c in t["cards"]]


@pytest.mark.slow
def test_join_text_tells_what_a_bot_played_for_it_while_its_link_was_down(
        tmp_path: Path) -> None:
    server, invite = host(tmp_path / "host", "--players", "2", "--deals", "2", "--seed", "12",
                          "--away-timeout", "0.2", "--ping-timeout", "1", "--deal-pause", "0")
    join = Proc(command("join", invite, "--text", "--auto", "0.05", "--name", "Ann",
                        "--cards", "codes"),
                tmp_path / "ann")
    join.read_until(r"You sit at South", 60)
    bob = Proc(command("join", invite, "--auto", "0.05", "--name", "Bob", "--cards", "codes"), tmp_path / "bob")
    try:
        join.read_until(r"^You \S+$", 60)
        join.popen.send_signal(signal.SIGSTOP)  # asleep: pings go unanswered
        try:  # the table drops the player, and a bot plays for them to the game's end
            kept = tmp_path / "host" / "table" / "records"
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not list(kept.glob("*.json")):
                time.sleep(0.2)
            assert list(kept.glob("*.json")), "the game did not end while the player was away"
        finally:
            join.popen.send_signal(signal.SIGCONT)
        assert join.wait(120) == 0, "\n".join(join.lines[-40:])
        record = records_in(tmp_path / "ann")[0]
        assert from_record(record).is_over
        mine = [i["card"] for i in record.get("incidents", []) if i["seat"] == 0]
        assert mine, "no card was played for the player while away"
        assert "Back at the table." in join.lines
        plays, for_you = told(join.lines)
        # each card a bot played for the player is said so, once, and every card of the
        # game is told once: none missed, none twice
        assert sorted(for_you) == sorted(mine)
        assert plays == Counter(cards_of(record)), [c for c, n in plays.items() if n != 1]
        assert sum(1 for line in join.lines if re.match(r"Deal \d+: ", line)) == 2
        assert sum(1 for line in join.lines if line.startswith("The game is over.")) == 1
        assert bob.wait(60) == 0 and server.wait(90) == 0
    finally:
        for proc in (join, bob, server):
            proc.close()


def test_join_text_tells_what_was_played_while_the_host_was_down_and_back(
        tmp_path: Path) -> None:
    """The host is killed mid-deal and brought back with --resume; Bob comes back first and
    plays on with the bots (and the stand-in for Ann) while Ann's join is still waiting to try
    again: once back, Ann is told the cards and tricks she missed, and every card of the game
    is told to her once."""
    home = tmp_path / "host"
    server, invite = host(home, "--players", "2", "--deals", "1", "--seed", "5",
                          "--away-timeout", "0.2", "--deal-pause", "0")
    ann = Proc(command("join", invite, "--text", "--auto", "0.05", "--name", "Ann",
                        "--cards", "codes"),
               tmp_path / "ann")
    ann.read_until(r"You sit at South", 60)
    bob = Proc(command("join", invite, "--auto", "0.05", "--name", "Bob", "--cards", "codes"), tmp_path / "bob")
    procs = [server, ann, bob]
    try:
        for _ in range(2):
            ann.read_until(r"^\S+ wins?[,.]", 60, since=len(ann.lines))
        ann.popen.send_signal(signal.SIGSTOP)  # Ann will try again later than Bob
        server.kill()  # kill -9 in the middle of the deal
        server = Proc(command("host", "--no-seat", "--resume"), home)
        procs.append(server)
        server.read_until(INVITE, 60)
        bob.read_until(r"Connection lost", 60)
        lost = max(i for i, line in enumerate(bob.lines) if "Connection lost" in line)
        # the game went on without Ann
        bob.read_until(r"^(?:South|West|North|East) \S+$", 60, since=lost)
        ann.popen.send_signal(signal.SIGCONT)
        assert ann.wait(120) == 0, "\n".join(ann.lines[-40:])
        record = records_in(tmp_path / "ann")[0]
        assert "Back at the table." in ann.lines
        plays, _ = told(ann.lines)
        assert plays == Counter(cards_of(record)), [c for c, n in plays.items() if n != 1]
        assert sum(1 for line in ann.lines if re.match(r"Deal \d+: ", line)) == 1
        assert bob.wait(60) == 0
    finally:
        for proc in procs:
            proc.close()
