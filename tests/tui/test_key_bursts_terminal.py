"""Keys typed in bursts in a real terminal: ``nil-tui`` on a pseudo-terminal, several keys
written in one go (as ``tmux send-keys q i`` or a fast typist delivers them). Before, ``q``
then ``i`` at setup ended the app with NoMatches '#stats-head' (the statistics opened while
the app was ending), Ctrl+P then PageDown with KeyError: 0 (the palette's list paged
before it was laid out), and Ctrl+P then three Enters with ScreenStackError (the palette was
closed three times, the setup under it with it). Now the app ends cleanly, with no crash
report."""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="a real pty (Linux)")

REACH = 60.0  # seconds to reach a screen (generous: a loaded machine)
CTRL_P, PAGE_DOWN, PAGE_UP, ESCAPE = b"\x10", b"\x1b[6~", b"\x1b[5~", b"\x1b"


class Terminal:
    """``nil-tui`` at setup on a 100x32 pty."""

    def __init__(self, home: Path) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
        env = dict(os.environ, TERM="xterm-256color", NIL_TUI_HOME=str(home),
                   COLUMNS="100", LINES="32")
        env.pop("TEXTUAL", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "nil_tui"], stdin=slave,
                                     stdout=slave, stderr=slave, env=env,
                                     start_new_session=True, close_fds=True)
        os.close(slave)
        self.master = master
        self.output = b""
        self.typed: list[bytes] = []

    def read(self, seconds: float) -> bytes:
        """What the app draws within ``seconds`` (less if it ends)."""
        got = b""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.master], [], [], min(left, 0.05))
            if not ready:
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # the app ended: the pty's other side is closed
                break
            if not chunk:
                break
            got += chunk
        self.output = (self.output + got)[-200_000:]
        return got

    def wait_for(self, text: bytes) -> None:
        """Until the app draws ``text``; fails if it never does (or ends first)."""
        seen = b""
        deadline = time.monotonic() + REACH
        while time.monotonic() < deadline and self.proc.poll() is None:
            seen = (seen + self.read(0.1))[-100_000:]
            if text in seen:
                return
        raise AssertionError(f"{text!r} never came; the keys typed: {self.typed!r}; the "
                             f"screen ends with {self.tail()!r}")

    def type(self, keys: bytes) -> None:
        """``keys`` in one write: the app reads them all at once."""
        os.write(self.master, keys)
        self.typed.append(keys)

    def ended(self) -> int | None:
        deadline = time.monotonic() + REACH
        while time.monotonic() < deadline and self.proc.poll() is None:
            self.read(0.1)
        return self.proc.poll()

    def tail(self) -> str:
        return self.output[-1500:].decode("utf-8", "replace")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        os.close(self.master)


def crash_reports(home: Path) -> str:
    return "\n\n".join(p.read_text(encoding="utf-8") for p in sorted(home.glob("crash-*")))


@pytest.mark.parametrize("then", [b"i", b"o"])
def test_bursts_of_keys_in_a_real_terminal_end_nothing(then: bytes, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    terminal = Terminal(home)
    try:
        terminal.wait_for(b"Statistics")
        if then == b"i":  # (once: the palette's page keys)
            for page in (PAGE_DOWN, PAGE_UP):
                terminal.type(CTRL_P + page)
                terminal.wait_for(b"Search for commands")
                terminal.type(ESCAPE)
                terminal.wait_for(b"nobody wants a trick")  # setup again, the palette gone
        terminal.type(b"q" + then)
        code = terminal.ended()
    finally:
        terminal.close()
    assert (code, crash_reports(home)) == (0, ""), terminal.tail()


def test_enters_in_the_palette_in_a_real_terminal_end_nothing(tmp_path: Path) -> None:
    """Three Enters in one write with the palette open: the first chooses its command and
    closes it (before, each Enter closed it again, setup under it with it, and the third
    ended the app with ScreenStackError). An Enter the palette has not taken by the time it
    closes goes to the screen in front, as typed there (on a loaded machine, setup then
    starts a game): whichever it is, the app runs on without a crash."""
    home = tmp_path / "home"
    home.mkdir()
    terminal = Terminal(home)
    try:
        terminal.wait_for(b"Statistics")
        terminal.type(CTRL_P)
        terminal.wait_for(b"Quit nil-tui")  # the commands are listed, the first chosen
        terminal.type(b"\r\r\r")
        terminal.read(3.0)
        running = terminal.proc.poll()
    finally:
        terminal.close()
    assert (running, crash_reports(home)) == (None, ""), terminal.tail()
