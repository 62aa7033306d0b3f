"""A friend with only a browser joins a shared table: a real ``nil-tui host --no-seat`` on
loopback, a real ``nil-tui serve`` opened in headless Chromium; setup, Join a table, the
invite typed, a name; the lobby (the seat taken, as the host's table file says), the game
started from the browser, and cards played (the host's store has them)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from harness import (
    ROOT,
    WAIT,
    Served,
    chromium,
    chromium_path,
    drawn,
    open_table,
    output,
    quick_settings,
    saved_plays,
    until,
)

pytestmark = [
    pytest.mark.slow,  # a real browser: the long set (pytest -m slow)
    pytest.mark.skipif(sys.platform != "linux", reason="the server's tabs are read from /proc"),
    pytest.mark.skipif(chromium_path() is None,
                       reason="no Chromium found (/usr/bin/chromium, chromium on PATH, or "
                       "NIL_TUI_CHROMIUM): apt-get install -y chromium"),
]

ARTIFACTS = Path(os.environ.get("NIL_TUI_ARTIFACTS",
                                Path(__file__).resolve().parents[2] / "test-artifacts"))
INVITE = re.compile(r"nil-tui join (nil://\S+)")


class Hosted:
    """``nil-tui host --no-seat`` on loopback with its own data folder; its invite."""

    def __init__(self, home: Path, *args: str) -> None:
        self.home = home
        env = dict(os.environ, NIL_TUI_HOME=str(home), PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "nil_tui", "host", "--no-seat", "--port", "0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env=env, cwd=ROOT, start_new_session=True)
        self.output = b""
        deadline = time.monotonic() + WAIT
        assert self.proc.stdout is not None
        found = None
        while found is None and time.monotonic() < deadline and self.proc.poll() is None:
            line = self.proc.stdout.readline()
            self.output += line
            found = INVITE.search(line.decode("utf-8", "replace"))
        if found is None:
            self.stop()
            raise AssertionError(f"no invite: {self.output!r}")
        self.invite = found.group(1)

    def seats(self) -> list[dict[str, Any]]:
        try:
            data = json.loads((self.home / "table" / "table.json").read_text("utf-8"))
        except (OSError, ValueError):
            return []
        return list(data.get("seats", []))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


def test_a_browser_joins_a_shared_table_by_its_invite_and_plays(tmp_path: Path) -> None:
    host = Hosted(tmp_path / "host", "--deals", "1", "--seed", "5",
                  "--bots", "W=easy,N=easy,E=easy")
    home = tmp_path / "player"
    home.mkdir()
    quick_settings(home)
    server = Served(home)
    try:
        with chromium() as context:
            page = open_table(context, server.url)  # setup
            # Join a table: the invite and a name. Each step waits until the app has drawn
            # it (the text cursor blinks: a short quiet is enough)
            before = output(page)
            page.keyboard.press("j")
            drawn(page, before, more=200, quiet=0.3)
            page.keyboard.type(host.invite)
            before = output(page)
            page.keyboard.press("Tab")
            drawn(page, before, more=20, quiet=0.3)
            page.keyboard.type("Ana")
            page.keyboard.press("Enter")
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            try:
                taken = until(lambda: [s for s in host.seats() if s.get("kind") == "person"],
                              "the browser's player seated at the host's table")
            except AssertionError:
                page.screenshot(path=str(ARTIFACTS / "browser-join-failed.png"))
                raise
            assert [(s["name"], s["owner"]) for s in taken] == [("Ana", True)]
            assert host.seats()[0]["name"] == "Ana"  # the first free seat: South
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            time.sleep(1.0)  # the lobby drawn (a picture for people, nothing asserted)
            page.screenshot(path=str(ARTIFACTS / "browser-lobby.png"))
            # Enter: the owner (the first to sit at a table without its host) starts the
            # game; more Enters play cards at the table screen.
            until(lambda: saved_plays(host.home / "table") > 4, "cards played at the table",
                  step=lambda: page.keyboard.press("Enter"), pause=0.3)
            page.screenshot(path=str(ARTIFACTS / "browser-shared-table.png"))
            page.close()
    finally:
        server.stop()
        host.stop()
