"""Real processes: ``nil-tui host`` and ``nil-tui join`` play whole games over loopback; the
host killed with SIGKILL comes back with ``--resume`` (the same invite, the same game); a
client killed with SIGKILL gets its seat back with the same ``join``; a person types their
cards into ``nil-tui join`` in a terminal."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import subprocess
import time
from pathlib import Path

from procs import INVITE, Proc, command, env_for, records_in
from tablehelp import check_record, same_game

from nil_tui.engine.records import from_record
from nil_tui.lines.cards import parse_card


def host(home: Path, *args: str) -> tuple[Proc, str]:
    proc = Proc(command("host", "--no-seat", "--port", "0", *args), home)
    return proc, proc.read_until(INVITE, 60).group(1)


def test_three_joins_play_a_game_with_a_bot_and_keep_the_same_record(tmp_path: Path) -> None:
    server, invite = host(tmp_path / "host", "--players", "3", "--deals", "2", "--seed", "21")
    clients = [Proc(command("join", invite, "--auto", "--name", f"P{i}"), tmp_path / f"c{i}")
               for i in range(3)]
    try:
        for c in clients:
            assert c.wait(120) == 0, "\n".join(c.lines[-20:])
        assert server.wait(120) == 0
        records = [records_in(tmp_path / f"c{i}")[0] for i in range(3)]
        for record in records:
            check_record(record)
        same_game(records)
        assert sorted(p["name"] for p in records[0]["players"][:3]) == ["P0", "P1", "P2"]
        assert records[0]["players"][3]["kind"] == "bot"
        # the host keeps the finished game in its history too
        table = tmp_path / "host" / "table"
        kept = [json.loads(p.read_text()) for p in (table / "records").glob("*.json")]
        assert len(kept) == 1 and kept[0]["deals"] == records[0]["deals"]
    finally:
        for p in [server, *clients]:
            p.close()


def test_a_killed_host_resumes_the_same_table_and_a_killed_client_comes_back(
        tmp_path: Path) -> None:
    home = tmp_path / "host"
    server, invite = host(home, "--players", "2", "--deals", "1", "--seed", "5",
                          "--away-timeout", "600")
    a = Proc(command("join", invite, "--auto", "0.05", "--name", "Ann", "--cards", "codes"),
             tmp_path / "a")
    b = Proc(command("join", invite, "--auto", "0.05", "--name", "Bob"), tmp_path / "b")
    procs = [server, a, b]
    card_line = re.compile(r"^(You|South|West|North|East) (\S\S\S?)(?: \(forced\))?$")
    try:
        a.read_until(card_line, 60)
        for _ in range(3):
            a.read_until(r"^\S+ wins?[,.]", 60, since=len(a.lines))
        seen_before = [line for line in a.lines if card_line.match(line)]
        server.kill()  # kill -9 in the middle of the deal
        port = invite.split(":")[2].split("/")[0]
        server = Proc(command("host", "--no-seat", "--resume"), home)
        procs.append(server)
        again = server.read_until(INVITE, 60).group(1)
        assert again == invite and port in again  # the same invite, the same port
        # the client killed with SIGKILL runs the same join again and gets its seat back
        b.kill()
        b = Proc(command("join", invite, "--auto", "0.05"), tmp_path / "b")
        procs.append(b)
        assert a.wait(120) == 0, "\n".join(a.lines[-30:])
        assert b.wait(120) == 0, "\n".join(b.lines[-30:])
        record_a, record_b = records_in(tmp_path / "a")[0], records_in(tmp_path / "b")[0]
        check_record(record_a)
        same_game([record_a, record_b])
        assert sorted(p["name"] for p in record_a["players"][:2]) == ["Ann", "Bob"]
        assert "incidents" not in record_a  # nobody was away long enough for a bot
        # the cards played before the kill are the game's first cards
        played = [c for t in record_a["deals"][0]["tricks"] for c in t["cards"]]
        told = [card_line.match(line) for line in seen_before]
        assert [str(parse_card(m.group(2))) for m in told if m] == played[:len(told)], \
            seen_before
        assert len(told) >= 12
    finally:
        for p in procs:
            p.close()


def test_a_person_types_their_cards_into_join_in_a_terminal(tmp_path: Path) -> None:
    server, invite = host(tmp_path / "host", "--players", "1", "--deals", "1", "--seed", "8")
    pid, fd = pty.fork()
    if pid == 0:  # the child: nil-tui join in a terminal
        args = command("join", invite, "--text", "--name", "Tess")
        os.execvpe(args[0], args, env_for(tmp_path / "tess"))
    out = b""
    typed = 0
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            prompts = re.findall(rb"^Your turn[^\r\n]*\r?\n", out, re.MULTILINE)
            if len(prompts) > typed:
                typed = len(prompts)
                os.write(fd, b"1\n")  # the first of the cards it may play
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0, out.decode(errors="replace")[-2000:]
        text = out.decode(errors="replace")
        assert "You sit at South." in text and "The game is over." in text
        record = records_in(tmp_path / "tess")[0]
        game = from_record(record)
        assert game.is_over and record["players"][0] == {"name": "Tess", "kind": "human"}
        mine = [c for t in record["deals"][0]["tricks"] for k, c in enumerate(t["cards"])
                if (t["leader"] + k) % 4 == 0]
        assert typed == len(mine) > 0
        assert server.wait(60) == 0
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)
        server.close()


def test_host_and_join_refuse_bad_input_in_one_line(tmp_path: Path) -> None:
    for args, words in [(["join", "http://x/y"], "nil://"),
                        (["join", "nil://127.0.0.1:1/abc"], "26 letters"),
                        (["host", "--port", "99999"], "port"),
                        (["host", "--resume"], "no table to resume"),
                        (["host", "--certfile", str(tmp_path / "none.pem"), "--port", "0"],
                         "certificate")]:
        done = subprocess.run(command(*args), env=env_for(tmp_path / "h"), timeout=60,
                              capture_output=True, text=True, check=False)
        assert done.returncode == 2, (args, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1 and words in done.stderr, (
            args, done.stderr)
        assert "Traceback" not in done.stderr


def test_a_table_over_tls_with_its_own_certificate(tmp_path: Path) -> None:
    import shutil

    if shutil.which("openssl") is None:
        import pytest

        pytest.skip("openssl is needed to make a certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True,
                   timeout=60)
    server, invite = host(tmp_path / "host", "--players", "1", "--deals", "1", "--seed", "3",
                          "--certfile", str(cert), "--keyfile", str(key))
    assert invite.startswith("nils://")
    try:
        # without the certificate trusted, the client refuses the table, in one line
        lost = Proc(command("join", invite, "--auto"), tmp_path / "x")
        assert lost.wait(60) == 1
        assert any("certificate" in line.lower() for line in lost.lines), lost.lines
        assert not any("Traceback" in line for line in lost.lines)
        player = Proc(command("join", invite, "--auto", "--cafile", str(cert)), tmp_path / "p")
        assert player.wait(120) == 0, "\n".join(player.lines[-20:])
        check_record(records_in(tmp_path / "p")[0])
    finally:
        server.close()


def test_the_host_plays_south_and_starts_the_game_when_ready(tmp_path: Path) -> None:
    pid, fd = pty.fork()
    if pid == 0:  # the child: nil-tui host in a terminal, sitting at South
        args = command("host", "--text", "--port", "0", "--deals", "1", "--seed", "12",
                       "--name", "Hana")
        os.execvpe(args[0], args, env_for(tmp_path / "host"))
    out = b""
    guest = None
    typed = 0
    try:
        deadline = time.monotonic() + 120
        started = False
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            found = INVITE.search(out.decode(errors="replace"))
            if found and guest is None:
                guest = Proc(command("join", found.group(1), "--auto", "--name", "Gus"),
                             tmp_path / "gus")
            if not started and b"Gus sits down" in out and b"to start the game" in out:
                os.write(fd, b"s\n")  # the host starts: two bots take the empty seats
                started = True
            prompts = re.findall(rb"^Your turn[^\r\n]*\r?\n", out, re.MULTILINE)
            if len(prompts) > typed:
                typed = len(prompts)
                os.write(fd, b"1\n")  # the first of the cards it may play
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0, out.decode(errors="replace")[-2000:]
        assert guest is not None and guest.wait(60) == 0
        record = records_in(tmp_path / "gus")[0]
        check_record(record)
        assert [p["name"] for p in record["players"][:2]] == ["Hana", "Gus"]
        assert [p["kind"] for p in record["players"]] == ["human", "human", "bot", "bot"]
        assert typed > 0
        from nil_tui.store import Store

        store = Store.open(tmp_path / "host")  # the host's own history has the game
        try:
            games = store.history()
            assert len(games) == 1 and games[0]["finished"]
            assert "Gus" in str(games[0])
        finally:
            store.close()
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)
        if guest is not None:
            guest.close()


def test_the_hosts_table_folder_is_its_own_and_a_finished_table_is_not_resumed(
        tmp_path: Path) -> None:
    server, invite = host(tmp_path / "host", "--players", "1", "--deals", "1", "--seed", "4")
    player = Proc(command("join", invite, "--auto"), tmp_path / "p")
    try:
        assert player.wait(120) == 0
        assert server.wait(120) == 0
        table = tmp_path / "host" / "table"
        assert table.stat().st_mode & 0o777 == 0o700  # the hands of a game live there
        assert (table / "table.json").stat().st_mode & 0o777 == 0o600
        again = subprocess.run(command("host", "--resume"), env=env_for(tmp_path / "host"),
                               capture_output=True, text=True, timeout=60, check=False)
        assert again.returncode == 2 and "is over" in again.stderr
    finally:
        server.close()
        player.close()
