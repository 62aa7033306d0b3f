"""Real processes: ``nil-tui join`` in a terminal of its own shows the table screen, the same
one as a game played here, and a person plays a whole game on it by keys against a real
``nil-tui host`` (three bots); the game goes into that person's history. The host killed
with SIGKILL mid-game: the table says the link is lost, and once the host is back
(``--resume``) the seat is taken back by itself and the game goes on to its end."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import termios
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from procs import INVITE, Proc, command, env_for

from nil_tui.store import Store

ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]")
HOST = ("host", "--no-seat", "--port", "0", "--players", "1", "--bots", "W=easy,N=easy,E=easy")


def _plain(out: bytes) -> str:
    """The words on the screen, roughly: the terminal's escape sequences taken out."""
    return ESCAPES.sub(b" ", out).decode(errors="replace")


class Screen:
    """``nil-tui join`` in a pseudo-terminal of 100 x 32."""

    def __init__(self, invite: str, home: Path) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child
            args = command("join", invite, "--name", "Tess")
            os.execvpe(args[0], args, {**env_for(home), "TERM": "xterm-256color"})
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
        self.out = b""
        self.status: int | None = None

    def text(self) -> str:
        return _plain(self.out)

    def read(self, timeout: float = 0.2) -> bool:
        """Read what came; False once the terminal is closed."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:
            return False
        self.out += chunk
        return bool(chunk)

    def play(self, deadline: float, step: Callable[[Screen], bool] = lambda s: True) -> None:
        """Enter every 0.4 s (the card under the cursor, on after a trick or a deal) once
        ``step`` says so, until game over; then q, and wait for the end."""
        last = 0.0
        over = False
        while time.monotonic() < deadline and self.read():
            if not over and "Record saved" in self.text():
                over = True
                time.sleep(1.0)  # (the game-over page takes keys meant for it after a moment)
                os.write(self.fd, b"q")
            elif not over and step(self) and time.monotonic() - last > 0.4:
                last = time.monotonic()
                os.write(self.fd, b"\r")
        _, raw = os.waitpid(self.pid, 0)
        self.status = os.waitstatus_to_exitcode(raw)

    def close(self) -> None:
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(self.fd)


def _history(home: Path) -> list[object]:
    store = Store.open(home)
    try:
        return [row for row in store.history() if row.finished]
    finally:
        store.close()


@pytest.mark.slow
def test_a_person_plays_a_shared_table_on_the_table_screen_by_keys(tmp_path: Path) -> None:
    server = Proc(command(*HOST, "--deals", "1", "--seed", "12"), tmp_path / "host")
    invite = server.read_until(INVITE, 60).group(1)
    screen = Screen(invite, tmp_path / "tess")
    seen = {"table": False, "asked": False}

    def step(s: Screen) -> bool:
        if not seen["table"] and "Your turn" in s.text():
            seen["table"] = True
            os.write(s.fd, b"q")  # quitting asks first: it leaves the seat
        elif seen["table"] and not seen["asked"] and "Leave the table?" in s.text():
            seen["asked"] = True
            os.write(s.fd, b"n")  # ... and the game goes on
        return seen["asked"]

    try:
        screen.play(time.monotonic() + 180, step)
        shown = screen.text()
        assert screen.status == 0, shown[-3000:]
        assert seen["table"] and seen["asked"], shown[-3000:]
        assert "You (South)" in shown and "Game over" in shown
        assert len(_history(tmp_path / "tess")) == 1
        assert server.wait(90) == 0
    finally:
        screen.close()
        server.close()


@pytest.mark.slow
def test_the_host_killed_mid_game_and_resumed_the_table_screen_rejoins(tmp_path: Path
                                                                       ) -> None:
    server = Proc(command(*HOST, "--deals", "1", "--seed", "31", "--away-timeout", "120"),
                  tmp_path / "host")
    invite = server.read_until(INVITE, 60).group(1)
    screen = Screen(invite, tmp_path / "tess")
    servers = [server]
    seen = {"cards": 0, "lost": False, "back": False}

    def step(s: Screen) -> bool:
        text = s.text()
        if not seen["lost"]:
            seen["cards"] = text.count("You play")
            if seen["cards"] >= 2:  # two of my cards played: the host dies
                servers[-1].kill()
                servers[-1].wait(30)
                seen["lost"] = True
            return True
        if "Connection lost, rejoining" not in text:
            return False
        if len(servers) == 1:
            servers.append(Proc(command("host", "--resume", "--no-seat"), tmp_path / "host"))
            servers[-1].read_until(INVITE, 60)
        if not seen["back"]:
            seen["back"] = "Back at the table" in text
        return seen["back"]

    try:
        screen.play(time.monotonic() + 240, step)
        shown = screen.text()
        assert screen.status == 0, shown[-3000:]
        assert seen["lost"] and seen["back"] and len(servers) == 2, shown[-3000:]
        assert "Game over" in shown
        assert len(_history(tmp_path / "tess")) == 1
        assert servers[-1].wait(90) == 0
    finally:
        screen.close()
        for proc in servers:
            proc.close()
