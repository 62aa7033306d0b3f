"""Run a shell command in a real terminal (a pty) and check that nil-tui's setup screen comes.

    python3 .ci/first_run.py [--timeout S] COMMAND

COMMAND is given to ``sh -c`` as it is (README's install-and-play line, say), with the
environment this script has. Once the setup screen shows, ctrl+q quits it, and the command
must end within 30 seconds. Exit status 0 when all of that happened in time; otherwise 1,
with what the terminal showed last. Standard library only: it runs before anything is
installed.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time

SETUP_MARKS = ("nobody wants a trick", "Start")  # the setup screen's title and its button
ESCAPES = re.compile(rb"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|.)")


def text_of(raw: bytes) -> str:
    """What the terminal's output says, its control sequences taken out."""
    return ESCAPES.sub(b" ", raw).decode("utf-8", "replace")


def run(command: str, timeout: float) -> int:
    pid, fd = pty.fork()
    if pid == 0:  # the child: a terminal of 100x30, the command in a shell
        os.environ["TERM"] = "xterm-256color"
        os.execvp("sh", ["sh", "-c", command])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    output = bytearray()
    deadline = time.monotonic() + timeout
    seen_at: float | None = None
    quit_sent = False
    last_quit = 0.0
    status: int | None = None
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the terminal closed: the command ended
                chunk = b""
            if not chunk:
                break
            output += chunk
            if seen_at is None:
                shown = text_of(bytes(output[-200_000:]))
                if all(mark in shown for mark in SETUP_MARKS):
                    seen_at = time.monotonic()
                    print(f"first_run: the setup screen is up ({len(output)} bytes shown)")
        # ctrl+q quits, whatever has the focus. The first frame can come before the terminal
        # is switched to raw input (a ctrl+q typed then is taken as flow control), so it is
        # typed again every few seconds until the game ends.
        if seen_at is not None and time.monotonic() - last_quit > 3.0:
            os.write(fd, b"\x11")
            last_quit = time.monotonic()
            if not quit_sent:
                quit_sent = True
                deadline = min(deadline, time.monotonic() + 30)
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            status = code
            break
    # The terminal closes a moment before the command's status can be read: wait for it,
    # within the time left.
    while status is None and time.monotonic() < deadline:
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            status = code
        else:
            time.sleep(0.05)
    if status is None:  # out of time: end the command and all it started
        if _alive(pid):
            os.killpg(pid, signal.SIGKILL)  # pty.fork made it a session leader
        os.waitpid(pid, 0)
    os.close(fd)
    if seen_at is None or status is None or os.waitstatus_to_exitcode(status) != 0:
        print("first_run: FAILED: " + ("the setup screen never showed" if seen_at is None
              else "the game did not end with status 0 after ctrl+q"
              if status is not None else "the game did not end after ctrl+q"))
        print("first_run: the terminal showed last:")
        print(text_of(bytes(output[-4000:])))
        return 1
    print("first_run: quit with ctrl+q, exit status 0")
    return 0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds for the whole command, installing included")
    parser.add_argument("command")
    args = parser.parse_args()
    return run(args.command, args.timeout)


if __name__ == "__main__":
    sys.exit(main())
