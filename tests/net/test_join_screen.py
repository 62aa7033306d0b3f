"""Real processes: ``nil-tui join`` in a terminal of its own shows the table screen, the same
one as a game played here, and a person plays a whole game on it by keys against a real
``nil-tui host`` (three bots); the game goes into that person's history."""

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
from pathlib import Path

from procs import INVITE, Proc, command, env_for

from nil_tui.store import Store

ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]")


def _plain(out: bytes) -> str:
    """The words on the screen, roughly: the terminal's escape sequences taken out."""
    return ESCAPES.sub(b" ", out).decode(errors="replace")


def test_a_person_plays_a_shared_table_on_the_table_screen_by_keys(tmp_path: Path) -> None:
    server = Proc(command("host", "--no-seat", "--port", "0", "--players", "1", "--deals",
                          "1", "--seed", "12", "--bots", "W=easy,N=easy,E=easy"),
                  tmp_path / "host")
    invite = server.read_until(INVITE, 60).group(1)
    home = tmp_path / "tess"
    pid, fd = pty.fork()
    if pid == 0:  # the child: nil-tui join in a terminal of 100 x 32
        args = command("join", invite, "--name", "Tess")
        os.execvpe(args[0], args, {**env_for(home), "TERM": "xterm-256color",
                                   "COLUMNS": "100", "LINES": "32"})
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
    out = b""
    status = None
    try:
        deadline = time.monotonic() + 180
        at_table = asked = over = False
        last_key = 0.0
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            text = _plain(out[-200_000:])
            if not at_table and "Your turn" in text:
                at_table = True
                os.write(fd, b"q")  # quitting asks first: it leaves the seat
                continue
            if at_table and not asked and "Leave the table?" in _plain(out):
                asked = True
                os.write(fd, b"n")  # ... and the game goes on
                continue
            if not over and "Record saved" in _plain(out):
                over = True
                time.sleep(1.0)  # (the game-over page takes keys meant for it after a moment)
                os.write(fd, b"q")
                continue
            if asked and not over and time.monotonic() - last_key > 0.4:
                last_key = time.monotonic()
                os.write(fd, b"\r")  # play the card under the cursor, go on after a trick
        _, raw = os.waitpid(pid, 0)
        status = os.waitstatus_to_exitcode(raw)
    finally:
        if status is None:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(fd)
    try:
        shown = _plain(out)
        assert status == 0, shown[-3000:]
        assert at_table and asked and over, shown[-3000:]
        assert "You (South)" in shown and "Game over" in shown
        store = Store.open(home)
        try:
            history = store.history()
        finally:
            store.close()
        assert len(history) == 1 and history[0].finished
        assert server.wait(90) == 0
    finally:
        server.close()
