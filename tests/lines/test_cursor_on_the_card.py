"""In the full-screen app, the terminal's own cursor sits on the card under the hand's cursor
(a screen reader or a braille display that follows the cursor reads that card): read from
what the app writes to a real terminal, the cursor's place after each frame."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from lines_pty import ROOT

MOVE_TO = re.compile(rb"\x1b\[(\d+);(\d+)H")
SYNC_QUERY = b"\x1b[?2026$p"  # the app asks whether the terminal draws frames whole
SYNC_YES = b"\x1b[?2026;2$y"  # ... and is told it does: each frame then ends with SYNC_END
SYNC_END = b"\x1b[?2026l"
FACE_ROW = 21  # 24 rows: the footer on the last, the hand's four rows above; a raised card's
# face on its second row


def cursor_moves(out: bytes) -> list[tuple[int, int]]:
    """Where the cursor was left at the end of each whole frame (its last move: the moves
    before it draw the frame's lines)."""
    frames = out.split(SYNC_END)[:-1]
    return [(int(found[-1][0]), int(found[-1][1])) for frame in frames
            if (found := MOVE_TO.findall(frame))]


def read_until(fd: int, seen: bytearray, done: object, limit: float = 30.0) -> None:
    deadline = time.monotonic() + limit
    while not done(bytes(seen)):  # type: ignore[operator]
        left = deadline - time.monotonic()
        assert left > 0, cursor_moves(bytes(seen))[-5:]
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            assert chunk, "the app ended"
            if SYNC_QUERY in chunk:
                os.write(fd, SYNC_YES)
            seen += chunk


def test_the_terminal_cursor_follows_the_card_chosen(tmp_path: Path) -> None:
    master, slave = os.openpty()
    os.set_blocking(master, True)
    import fcntl
    import struct
    import termios

    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = dict(os.environ, NIL_TUI_HOME=str(tmp_path), TERM="xterm-256color",
               PYTHONPATH=str(ROOT))
    # Seed 2: you lead the first trick, so every card may be played.
    proc = subprocess.Popen(
        [sys.executable, "-m", "nil_tui", "play", "--seed", "2", "--deals", "1", "--speed",
         "instant", "--difficulty", "easy"], stdin=slave, stdout=slave, stderr=slave,
        env=env, cwd=str(ROOT), start_new_session=True)
    os.close(slave)
    seen = bytearray()
    try:
        def on_hand(out: bytes) -> bool:
            moves = cursor_moves(out)
            return bool(moves) and moves[-1][0] == FACE_ROW

        read_until(master, seen, on_hand)
        first = cursor_moves(bytes(seen))[-1]
        start = len(seen)
        os.write(master, b"\x1b[C")  # the right arrow key

        def moved(out: bytes) -> bool:
            moves = cursor_moves(out)
            return bool(moves) and out.rfind(SYNC_END) > start and moves[-1] != first

        read_until(master, seen, moved)
        after = cursor_moves(bytes(seen))[-1]
        assert after == (FACE_ROW, first[1] + 5)  # the next card, five columns on
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        os.close(master)
