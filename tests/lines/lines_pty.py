"""A player at a real terminal (a pty), who reads only lines: ``nil-tui ... --text`` started
in its own process, its output read as it comes, lines typed when a prompt asks for them.

The terminal neither echoes what is typed nor turns a newline into CR LF, so the transcript
is exactly what nil-tui wrote."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class PtyPlayer:
    def __init__(self, home: Path, *args: str) -> None:
        master, slave = os.openpty()
        attrs = termios.tcgetattr(slave)
        attrs[1] &= ~termios.ONLCR  # output as written
        attrs[3] &= ~(termios.ECHO | termios.ECHONL)  # typed lines are not echoed
        termios.tcsetattr(slave, termios.TCSANOW, attrs)
        env = dict(os.environ, NIL_TUI_HOME=str(home), PYTHONUNBUFFERED="1",
                   PYTHONPATH=str(ROOT))
        env.pop("NO_COLOR", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "nil_tui", *args], stdin=slave, stdout=slave,
            stderr=subprocess.PIPE, env=env, cwd=str(ROOT), start_new_session=True)
        os.close(slave)
        self.master = master
        self.transcript = b""
        self._seen = 0  # bytes of the transcript already handed out as lines
        self._partial = b""

    def lines(self, timeout: float) -> list[str]:
        """Whatever complete lines came within ``timeout`` seconds (at least one, unless the
        time ran out or the output ended)."""
        deadline = time.monotonic() + timeout
        out: list[str] = []
        while not out:
            left = deadline - time.monotonic()
            if left <= 0:
                return out
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                return out
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # the other end closed: the process is done
                chunk = b""
            if not chunk:
                return out
            self.transcript += chunk
            self._partial += chunk
            *done, self._partial = self._partial.split(b"\n")
            out.extend(line.decode("utf-8") for line in done)
        return out

    def type(self, line: str) -> None:
        os.write(self.master, line.encode("utf-8") + b"\n")

    def play(self, answer: Callable[[str], str | None], *, limit: float = 60.0,
             until: Callable[[str], bool] = lambda line: False) -> list[str]:
        """Read lines, typing ``answer(line)`` when it is not None, until the output ends,
        ``until(line)`` or ``limit`` seconds; the lines read."""
        deadline = time.monotonic() + limit
        seen: list[str] = []
        while time.monotonic() < deadline:
            got = self.lines(deadline - time.monotonic())
            if not got:
                break
            for line in got:
                seen.append(line)
                reply = answer(line)
                if reply is not None:
                    self.type(reply)
                if until(line):
                    return seen
        return seen

    def wait(self, timeout: float = 20.0) -> int:
        try:
            code = self.proc.wait(timeout)
        finally:
            self.lines(0.2)
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def close(self) -> None:
        self.kill()
        os.close(self.master)
        if self.proc.stderr is not None:
            self.proc.stderr.close()


def first_card(line: str) -> str | None:
    """The reply of a player who plays the first card they may, and goes on after a deal."""
    if line.startswith("Your turn"):
        return "1"
    if line.startswith("Press Enter"):
        return ""
    return None


def plain(transcript: bytes) -> list[str]:
    """What in a transcript is not plain lines: a byte below 32 but newline, DEL, a
    box-drawing or block character."""
    wrong = [f"byte {b}" for b in set(transcript) if (b < 32 and b != 10) or b == 127]
    text = transcript.decode("utf-8")
    wrong += [f"U+{ord(c):04X}" for c in set(text) if 0x2500 <= ord(c) <= 0x259F]
    return wrong
