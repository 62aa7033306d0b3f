"""The app in a real terminal (a pty): setup, Host a table, the lobby shows the invite; a real
``nil-tui join`` process sits down and the lobby shows it, as the host's table file does;
leaving closes the table and goes back to setup."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time
from pathlib import Path

import pytest
from procs import Proc, command, env_for

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="a Linux pty")

ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\x1b[=>]")


class Terminal:
    """``nil-tui ARGS`` in a pty of 100x32; what it drew, with its escapes taken out."""

    def __init__(self, home: Path, *args: str) -> None:
        pid, fd = pty.fork()
        if pid == 0:  # the child
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
            env = env_for(home)
            env["TERM"] = "xterm-256color"
            argv = command(*args)
            os.execvpe(argv[0], argv, env)
        self.pid, self.fd = pid, fd
        self.raw = b""
        self.status: int | None = None

    @property
    def text(self) -> str:
        return self.drawn()

    def drawn(self, since: int = 0) -> str:
        """What was drawn from byte ``since`` of the raw output on, its escapes taken out."""
        return ANSI.sub(b"", self.raw[since:]).decode("utf-8", "replace")

    def until(self, pattern: str, timeout: float = 60.0, since: int = 0) -> re.Match[str]:
        """The first match of ``pattern`` in what was drawn from byte ``since`` of the raw
        output on (``len(self.raw)`` before a key: only what the key brought)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, self.drawn(since))
            if found:
                return found
            ready, _, _ = select.select([self.fd], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                self.raw += chunk
        raise AssertionError(f"{pattern!r} never came: {self.text[-1500:]}")

    def type(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    def wait(self, timeout: float = 30.0) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            done, raw = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.status = os.waitstatus_to_exitcode(raw)
                return self.status
            ready, _, _ = select.select([self.fd], [], [], 0.2)
            if ready:
                try:
                    self.raw += os.read(self.fd, 65536)
                except OSError:
                    pass
        raise AssertionError("the app did not end")

    def close(self) -> None:
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(self.fd)


def seats_kept(home: Path) -> list[dict[str, object]]:
    try:
        data = json.loads((home / "table" / "table.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return list(data.get("seats", []))


def test_setup_hosts_a_table_and_a_guest_appears_in_the_lobby(tmp_path: Path) -> None:
    home = tmp_path / "host"
    app = Terminal(home)
    guest = None
    try:
        app.until(r"Join a table \(j\)")
        app.type(b"o")
        app.until(r"Friends join it")
        app.type(b"Hana\r")
        invite = app.until(r"nil-tui join (nil://[0-9.]+:\d+/[a-z2-7]{26})").group(1)
        app.until(r"South +Hana +\(you\)")
        assert [s["name"] for s in seats_kept(home)][:1] == ["Hana"]
        guest = Proc(command("join", invite, "--auto", "--name", "Gus"), tmp_path / "gus")
        app.until(r"West +Gus")
        app.until(r"Gus sits down at West")
        kept = seats_kept(home)
        assert [(s["kind"], s["name"]) for s in kept[:2]] == [("person", "Hana"),
                                                              ("person", "Gus")]
        app.type(b"\x1b")  # leave: asked first
        app.until(r"Leave the table\?")
        mark = len(app.raw)
        app.type(b"y")
        app.until(r"nobody wants a trick", 60, since=mark)  # back in setup
        guest.read_until(r"Connection lost", 60)  # the table closed under the guest
        app.type(b"\x11")  # ctrl+q
        status = app.wait()
        reports = "".join(f.read_text() for f in sorted(home.rglob("crash-*.log")))
        assert status == 0, app.text[-2000:] + reports
    finally:
        app.close()
        if guest is not None:
            guest.close()
