"""Real ``nil-tui host`` and ``nil-tui join`` processes for the shared-table tests."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

INVITE = re.compile(r"nil-tui join (nils?://\S+)")


def command(*args: str, prefix: Sequence[str] = ()) -> list[str]:
    return [*prefix, sys.executable, "-m", "nil_tui", *args]


def env_for(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    for size in ("COLUMNS", "LINES"):  # (set by the test runner: a screen would take them
        env.pop(size, None)           # over its terminal's own size)
    env["NIL_TUI_HOME"] = str(home)
    env["PYTHONUNBUFFERED"] = "1"
    return env


class Proc:
    """A process whose output is read line by line, with a deadline on every wait."""

    def __init__(self, args: list[str], home: Path, **kwargs: Any) -> None:
        self.args = args
        self.popen = subprocess.Popen(args, env=env_for(home), stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                      **kwargs)
        self.lines: list[str] = []
        self._buffer = b""

    def read_until(self, pattern: str | re.Pattern[str], timeout: float = 60.0,
                   since: int = 0) -> re.Match[str]:
        """Read lines until one matches (among the lines from ``since`` on); AssertionError
        (with the output) at the deadline or when the process ends first."""
        regex = re.compile(pattern) if isinstance(pattern, str) else pattern
        for line in self.lines[since:]:
            found = regex.search(line)
            if found:
                return found
        deadline = time.monotonic() + timeout
        assert self.popen.stdout is not None
        fd = self.popen.stdout.fileno()
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            self._buffer += chunk
            *done, self._buffer = self._buffer.split(b"\n")
            start = len(self.lines)
            # every line of the chunk is kept, those after a match included (a later wait
            # looks for them)
            self.lines.extend(raw.decode("utf-8", "replace") for raw in done)
            for line in self.lines[start:]:
                found = regex.search(line)
                if found:
                    return found
        raise AssertionError(f"{pattern!r} never came from {self.args}:\n" +
                             "\n".join(self.lines[-40:]))

    def count(self, pattern: str) -> int:
        return sum(1 for line in self.lines if re.search(pattern, line))

    def wait(self, timeout: float = 120.0) -> int:
        """Read the rest of the output and wait for the end."""
        try:
            self.read_until(re.compile(r"(?!x)x"), timeout)  # nothing matches: read to EOF
        except AssertionError:
            pass
        return self.popen.wait(timeout=30)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(sig)
            if sig == signal.SIGKILL:
                self.popen.wait(timeout=10)

    def close(self) -> None:
        self.kill()
        if self.popen.stdout is not None:
            self.popen.stdout.close()


def records_in(home: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text(encoding="utf-8"))
            for p in sorted((home / "records").glob("table-*.json"))]


def play_typed(args: list[str], home: Path, timeout: float = 120.0,
               on_output: Any = None) -> tuple[int, str, int]:
    """Run ``nil-tui join`` (or ``host``) in a terminal of its own and type, at each of its
    prompts, the first card it may play (Enter after a deal); returns the exit status, what it
    showed, and how many cards were typed. ``on_output(text, write)`` may type more."""
    import pty

    pid, fd = pty.fork()
    if pid == 0:  # the child
        os.execvpe(args[0], args, env_for(home))
    out = b""
    typed = entered = 0
    status = None
    try:
        deadline = time.monotonic() + timeout
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
            if on_output is not None:
                on_output(out.decode(errors="replace"), lambda b: os.write(fd, b))
            prompts = re.findall(rb"^Your turn[^\r\n]*\r?\n", out, re.MULTILINE)
            if len(prompts) > typed:
                typed = len(prompts)
                os.write(fd, b"1\n")  # the first of the cards it may play
            if len(re.findall(rb"^Press Enter for deal ", out, re.MULTILINE)) > entered:
                entered += 1
                os.write(fd, b"\n")
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
    return (status if status is not None else -9), out.decode(errors="replace"), typed


class Tmux:
    """A program in a real terminal of a given size: a tmux server of its own (its own
    socket: nothing else is touched), read as the screen shows it."""

    def __init__(self, args: Sequence[str], home: Path, size: tuple[int, int]) -> None:
        import shlex
        import uuid

        self.socket = f"nil-test-{uuid.uuid4().hex[:8]}"
        env = f"NIL_TUI_HOME={shlex.quote(str(home))} TERM=xterm-256color"
        # The pane stays once its program has ended, so that its last words can be read.
        self.run("new-session", "-d", "-s", "t", "-x", str(size[0]), "-y", str(size[1]),
                 f"env {env} {shlex.join(args)}", ";", "set-option", "-t", "t",
                 "remain-on-exit", "on")

    def run(self, *args: str) -> str:
        out = subprocess.run(["tmux", "-L", self.socket, "-f", os.devnull, *args],
                             capture_output=True, text=True, timeout=20, check=True)
        return out.stdout

    def screen(self) -> list[str]:
        try:
            return self.run("capture-pane", "-p", "-t", "t").splitlines()
        except subprocess.CalledProcessError:
            return ["(the terminal's program has ended)"]

    def text(self) -> str:
        return "\n".join(self.screen())

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "t", *keys)

    def close(self) -> None:
        """End the terminal (its program loses its terminal, as when a window is closed)."""
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True,
                       check=False, timeout=20)


def seat_box(screen: list[str], title: str) -> list[str]:
    """The lines inside the seat box titled ``title`` ("West"), from its frame; fails when
    the box has no frame on both sides (a line wider than the box)."""
    top = next(i for i, line in enumerate(screen) if f"╭─ {title} " in line)
    left = screen[top].index(f"╭─ {title} ")
    right = screen[top].index("╮", left)
    inside = []
    for line in screen[top + 1:]:
        if line[left] == "╰":
            return inside
        assert line[left] == "│" and line[right] == "│", "\n".join(screen)
        inside.append(line[left + 1:right].strip())
    raise AssertionError("the box has no bottom:\n" + "\n".join(screen))
