"""``nil-tui join`` and ``nil-tui host --text`` without a terminal: standard input from a file,
``/dev/null`` or a pipe is read as lines (a file one line at each prompt, as a person types);
when there is nothing more to read and the game waits for a card, they say so in one line and
leave the seat (a host keeps its table open). Real processes over loopback."""

from __future__ import annotations

import os
import re
import select
import subprocess
import time
from pathlib import Path
from typing import IO, Any

from procs import INVITE, Proc, command, env_for, records_in

from nil_tui.engine.records import from_record

ALL_CARDS = [rank + suit for suit in "CDHS" for rank in "23456789TJQKA"]


def host(home: Path, *args: str) -> tuple[Proc, str]:
    proc = Proc(command("host", "--no-seat", "--port", "0", *args), home)
    return proc, proc.read_until(INVITE, 60).group(1)


def run(args: list[str], home: Path, stdin: Any, timeout: float = 120.0
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, env=env_for(home), stdin=stdin, capture_output=True,
                          text=True, timeout=timeout, check=False)


def test_join_with_nothing_to_read_says_so_and_leaves_the_seat(tmp_path: Path) -> None:
    server, invite = host(tmp_path / "host", "--players", "1", "--deals", "1", "--seed", "8",
                          "--away-timeout", "1")
    try:
        for extra in ([], ["--text"]):
            done = run(command("join", invite, *extra), tmp_path / "c", subprocess.DEVNULL)
            assert "Traceback" not in done.stderr and "PermissionError" not in done.stderr, \
                done.stderr[-2000:]
            assert done.returncode == 1, (done.stdout[-1000:], done.stderr[-1000:])
            said = done.stderr.strip().splitlines()
            assert len(said) == 1 and "nothing more to read on standard input" in said[0], said
            assert "You sit at South." in done.stdout
            # it left only once the game waited for its card, which it was shown
            assert "\nYour turn" in done.stdout
            assert "Nothing more to read on standard input. You have left the table." \
                in done.stdout
    finally:
        server.close()


def test_join_plays_a_file_of_lines_one_at_each_prompt(tmp_path: Path) -> None:
    """A file of card codes, every card thirteen times: each prompt reads lines until one is
    a card the table takes (the others are refused), and the game is played to its end."""
    server, invite = host(tmp_path / "host", "--players", "1", "--deals", "1", "--seed", "8")
    moves = tmp_path / "moves.txt"
    moves.write_text("hello\n" + "\n".join(ALL_CARDS * 13) + "\n", encoding="utf-8")
    try:
        with moves.open("rb") as fh:
            done = run(command("join", invite, "--name", "File"), tmp_path / "c", fh)
        assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
        assert "Traceback" not in done.stderr and "The game is over." in done.stdout
        assert "Not understood: hello" in done.stdout
        record = records_in(tmp_path / "c")[0]
        assert from_record(record).is_over and record["players"][0]["name"] == "File"
        assert "incidents" not in record  # every card of South was read from the file
        assert server.wait(60) == 0
    finally:
        server.close()


def test_join_reads_a_pipe_as_its_lines_come(tmp_path: Path) -> None:
    """A program writes a card into the pipe at each prompt, the pipe left open between."""
    server, invite = host(tmp_path / "host", "--players", "1", "--deals", "1", "--seed", "8")
    proc = subprocess.Popen(command("join", invite, "--text"), env=env_for(tmp_path / "c"),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    assert proc.stdin is not None and proc.stdout is not None
    out = b""
    typed = 0
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            out += _read_some(proc.stdout)
            prompts = re.findall(rb"^Your turn[^\r\n]*\n", out, re.MULTILINE)
            if len(prompts) > typed:
                typed = len(prompts)
                proc.stdin.write(b"1\n")  # the first of the cards it may play
                proc.stdin.flush()
        out += proc.stdout.read()
        assert proc.wait(30) == 0, out.decode(errors="replace")[-2000:]
        assert b"The game is over." in out, out.decode(errors="replace")[-3000:]
        record = records_in(tmp_path / "c")[0]
        assert "incidents" not in record  # every card of South came through the pipe
        mine = [c for t in record["deals"][0]["tricks"] for k, c in enumerate(t["cards"])
                if (t["leader"] + k) % 4 == 0]
        assert typed == len(mine) > 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        proc.stdin.close()
        proc.stdout.close()
        server.close()


def _read_some(stream: IO[bytes]) -> bytes:
    ready, _, _ = select.select([stream], [], [], 0.2)
    return os.read(stream.fileno(), 65536) if ready else b""


def test_host_text_with_nothing_to_read_leaves_its_seat_and_keeps_the_table(
        tmp_path: Path) -> None:
    proc = Proc(command("host", "--text", "--port", "0", "--players", "1", "--deals", "1",
                        "--seed", "3", "--away-timeout", "1"), tmp_path / "host")
    try:
        proc.read_until(INVITE, 60)
        proc.read_until(r"^Your turn", 60)
        proc.read_until(r"nil-tui host: nothing more to read on standard input", 30)
        assert proc.popen.poll() is None  # the table stays open for the others
        assert not any("Traceback" in line or "PermissionError" in line
                       for line in proc.lines), "\n".join(proc.lines[-30:])
    finally:
        proc.close()


def test_a_file_is_not_read_while_the_next_deal_is_on_its_way(tmp_path: Path) -> None:
    """A file of lines at a table of two deals: a line for the lobby, then "1" thirteen
    times, Enter, and again. After a deal the lines left of it are read one by one ("the deal
    is over"), then Enter; no line of the next deal is read while the table is asked for
    it."""
    server, invite = host(tmp_path / "host", "--players", "1", "--deals", "2", "--seed", "8")
    moves = tmp_path / "moves.txt"
    moves.write_text("hello\n" + ("1\n" * 13 + "\n") * 2, encoding="utf-8")
    try:
        with moves.open("rb") as fh:
            done = run(command("join", invite, "--name", "File"), tmp_path / "c", fh)
        assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
        lines = done.stdout.splitlines()
        second = lines.index(next(line for line in lines if line.startswith("Deal 2 of 2")))
        turns = sum(1 for line in lines[:second] if line.startswith("Your turn"))
        refused = [line for line in lines[:second] if line.startswith("The deal is over")]
        assert len(refused) == 13 - turns, lines[:second][-20:]
    finally:
        server.close()
