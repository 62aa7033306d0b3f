"""The app in a real terminal (tmux) as it is resized: the game log always ends with the
newest event and keeps its frame, at 100x32, at 80x24, and beside the card tracker."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


class Tmux:
    """One app in a tmux server of its own (its own socket: nothing else is touched)."""

    def __init__(self, home: Path, command: str, size: tuple[int, int]) -> None:
        self.socket = f"nil-test-{uuid.uuid4().hex[:8]}"
        env = f"NIL_TUI_HOME={shlex.quote(str(home))} TERM=xterm-256color"
        self.run("new-session", "-d", "-s", "t", "-x", str(size[0]), "-y", str(size[1]),
                 f"env {env} {command}")

    def run(self, *args: str) -> str:
        out = subprocess.run(["tmux", "-L", self.socket, "-f", os.devnull, *args],
                             capture_output=True, text=True, timeout=20, check=True)
        return out.stdout

    def screen(self) -> list[str]:
        return self.run("capture-pane", "-p", "-t", "t").splitlines()

    def settled(self, until: str = "", limit: float = 20.0) -> list[str]:
        """The screen once it has stopped changing (and shows ``until``)."""
        end = time.monotonic() + limit
        last: list[str] = []
        while time.monotonic() < end:
            now = self.screen()
            if now == last and until in "\n".join(now):
                return now
            last = now
            time.sleep(0.4)
        raise AssertionError("the screen never settled:\n" + "\n".join(last))

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "t", *keys)

    def resize(self, width: int, height: int) -> None:
        self.run("resize-window", "-t", "t", "-x", str(width), "-y", str(height))

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, check=False,
                       timeout=20)


@pytest.fixture
def term(tmp_path: Path) -> Iterator[Tmux]:
    home = tmp_path / "home"
    home.mkdir()
    command = (f"{shlex.quote(sys.executable)} -m nil_tui play --ascii --deals 2 --seed 5 "
               "--speed instant --difficulty easy")
    t = Tmux(home, command, (100, 32))
    try:
        yield t
    finally:
        t.close()


def log_box(screen: list[str]) -> list[str]:
    """The text lines inside the log's frame; fails if the frame has no bottom."""
    top = next(i for i, line in enumerate(screen) if "+- Log " in line)
    left = screen[top].index("+- Log ")
    right = screen[top].index("+", left + 1)
    lines = []
    for line in screen[top + 1:]:
        if line[left:left + 1] == "+":
            return lines
        assert line[left:left + 1] == "|", f"the log's frame is broken at {line!r}"
        lines.append(line[left + 1:right].strip())
    raise AssertionError("the log has lost its bottom border:\n" + "\n".join(screen))


def words(lines: list[str]) -> list[str]:
    return " ".join(lines).split()


@pytest.mark.slow
def test_the_log_ends_with_the_newest_event_after_resizes_and_the_tracker(term: Tmux
                                                                          ) -> None:
    term.settled("Your turn")
    for _ in range(4):
        term.keys("Enter")
        term.settled()
    wide = log_box(term.settled("Your turn"))
    newest = words(wide[-1:])  # the end of the newest event, as the wide log shows it
    assert newest

    term.resize(80, 24)
    small = log_box(term.settled())
    assert words(small)[-len(newest):] == newest, (wide, small)

    term.keys("c")  # the card tracker takes room from the log
    beside = term.settled("Cards out")
    tracked = log_box(beside)
    assert tracked and words(tracked)[-len(newest):] == newest, (wide, tracked)

    term.resize(100, 32)
    again = log_box(term.settled())
    assert words(again)[-len(newest):] == newest, (wide, again)
