"""A real ``nil-tui serve`` and a real headless Chromium (Debian's, driven by Playwright), for
the browser tests and ``benchmarks/browser_startup.py``.

xterm.js draws the app on a canvas, so the screen's text is not in the page: the tests wait
for the page's ``-first-byte`` body class, press keys, and read what the app itself keeps
(the saved game and the finished games in the store's file, read-only)."""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]
# Chromium's autofill service sends each page's form signatures to Google (the browser's,
# not the page's doing): off for the tests that check what a page asks of the network.
NO_AUTOFILL = "--disable-features=AutofillServerCommunication"
WAIT = 60.0  # seconds for anything to happen on a loaded machine (never a timing check)


def chromium_path() -> str | None:
    """Debian's Chromium (``NIL_TUI_CHROMIUM`` names another), or None when there is none."""
    named = os.environ.get("NIL_TUI_CHROMIUM")
    for candidate in (named, "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def quick_settings(home: Path, **more: Any) -> None:
    """The player's settings for a short game: one deal against easy bots, no pauses."""
    from nil_tui.store import Store

    settings: dict[str, Any] = {"deals": 1, "bots": ["easy", "easy", "easy"],
                                "speed": "instant", "seed": 7, "auto_play": True,
                                "trick_pause": "brief"}
    settings.update(more)
    store = Store.open(home)
    try:
        store.save_settings(settings)
    finally:
        store.close()


class Served:
    """``nil-tui serve --port 0 ARGS`` with its own data folder; its link is read from the
    line it prints."""

    def __init__(self, home: Path, *args: str, command: list[str] | None = None,
                 prefix: list[str] | None = None) -> None:
        self.home = home
        env = dict(os.environ, NIL_TUI_HOME=str(home), PYTHONUNBUFFERED="1")
        env.pop("TEXTUAL", None)
        argv = command or [sys.executable, "-m", "nil_tui", "serve", "--port", "0", *args]
        self.proc = subprocess.Popen([*(prefix or []), *argv], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, cwd=ROOT,
                                     start_new_session=True)
        self.line = self._read_line()
        found = re.search(r"open (\S+) in a browser", self.line)
        if found is None:
            self.stop()
            raise AssertionError(f"no link in {self.line!r}: {self.errors()}")
        self.url = found.group(1)
        parts = re.match(r"(https?)://([^/]+)", self.url)
        assert parts is not None
        self.origin = f"{parts.group(1)}://{parts.group(2)}"
        self.host = parts.group(2)

    def _read_line(self) -> str:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        data = b""
        deadline = time.monotonic() + WAIT
        while b"\n" not in data and time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                chunk = os.read(fd, 4096)
                if not chunk:
                    break
                data += chunk
            elif self.proc.poll() is not None:
                break
        return data.decode("utf-8", "replace")

    def errors(self) -> str:
        if self.proc.poll() is None or self.proc.stderr is None:
            return ""
        return self.proc.stderr.read().decode("utf-8", "replace")

    def tabs(self) -> list[int]:
        """The processes the server runs (one per open tab), from /proc."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[-1].split()
            if len(fields) > 1 and fields[1] == str(self.proc.pid) and fields[0] != "Z":
                found.append(int(entry.name))
        return sorted(found)

    def stop(self) -> int | None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=WAIT / 4)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        return self.proc.returncode


def until(check: Callable[[], Any], what: str, limit: float = WAIT,
          step: Callable[[], None] | None = None, pause: float = 0.1) -> Any:
    """Until ``check()`` is true (its value), doing ``step`` between tries; bounded."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        if step is not None:
            step()
        time.sleep(pause)
    raise AssertionError(f"{what}: not within {limit:.0f} s")


def gone(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[-1].split()[0] == "Z"


# --- what the app keeps ---------------------------------------------------------------------
def _query(home: Path, sql: str) -> list[tuple[Any, ...]]:
    path = home / "nil-tui.db"
    if not path.exists():
        return []
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            return conn.execute(sql).fetchall()
        finally:
            conn.close()
    except sqlite3.Error:
        return []


def saved_game(home: Path) -> dict[str, Any] | None:
    rows = _query(home, "SELECT record FROM current WHERE slot = 0")
    return json.loads(rows[0][0]) if rows else None


def saved_plays(home: Path) -> int:
    record = saved_game(home)
    if record is None:
        return 0
    return sum(len(t["cards"]) for d in record["deals"] for t in d["tricks"])


def finished_games(home: Path) -> int:
    rows = _query(home, "SELECT count(*) FROM games WHERE finished = 1")
    return int(rows[0][0]) if rows else 0


def requests(netlog: Path) -> list[tuple[str, str]]:
    """Every request Chromium started (from its own log): (url, site) where ``site`` is the
    network partition it was made in: the page's site for what a page asks, "null" or a
    service's site for Chromium's own services (updates, sign-in, the clock)."""
    log = json.loads(netlog.read_text(encoding="utf-8", errors="replace"))
    start = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    found = []
    for event in log["events"]:
        params = event.get("params") or {}
        if event.get("type") == start and "url" in params:
            found.append((str(params["url"]), str(params.get("network_isolation_key", ""))))
    return found


# --- the browser ----------------------------------------------------------------------------
@contextmanager
def chromium(netlog: Path | None = None, size: tuple[int, int] = (1100, 760)) -> Iterator[Any]:
    """A Chromium context with an empty profile of its own (Playwright's ``BrowserContext``);
    ``netlog``: Chromium's own record of every request it makes."""
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    assert path is not None
    flags = list(CHROMIUM_FLAGS)
    if netlog is not None:
        flags += [f"--log-net-log={netlog}", "--net-log-capture-mode=Default", NO_AUTOFILL]
    profile = tempfile.mkdtemp(prefix="nil-tui-chromium-")
    try:
        with sync_playwright() as playwright:
            context = playwright.chromium.launch_persistent_context(
                profile, executable_path=path, args=flags, headless=True,
                viewport={"width": size[0], "height": size[1]})
            watch(context)
            try:
                yield context
            finally:
                context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


# Counts what the page's websocket receives (the app's output) and when, in page time: the
# screen itself is a canvas, but a new screen is a burst of output followed by quiet.
WATCH = """
(() => {
  const Native = window.WebSocket;
  const seen = window.__nil = {bytes: 0, messages: 0, last: 0, log: []};
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        const size = typeof event.data === "string" ? event.data.length
                                                    : event.data.byteLength;
        seen.bytes += size; seen.messages += 1; seen.last = performance.now();
        if (seen.log.length < 20000) seen.log.push([seen.last, size]);
      });
    }
  };
})();
"""


def watch(context: Any) -> None:
    """Count the app's output in every page of ``context`` (see WATCH)."""
    context.add_init_script(WATCH)


def output(page: Any) -> int:
    return int(page.evaluate("window.__nil.bytes"))


def drawn(page: Any, since: int, more: int = 1000, quiet: float = 0.8) -> None:
    """Until the app has drawn ``more`` bytes since ``since`` and then nothing for
    ``quiet`` seconds (a new screen is up and waits)."""
    page.wait_for_function(
        "([since, more, quiet]) => window.__nil.bytes - since >= more && "
        "performance.now() - window.__nil.last >= quiet",
        arg=[since, more, quiet * 1000], timeout=WAIT * 1000, polling=100)


def open_table(context: Any, url: str) -> Any:
    """A new tab on ``url``, once the app has drawn its first screen in it and waits, with
    the keyboard on the terminal."""
    page = context.new_page()
    page.goto(url)
    ready(page)
    return page


def ready(page: Any) -> None:
    page.wait_for_selector("body.-first-byte", state="attached", timeout=WAIT * 1000)
    drawn(page, 0)
    page.focus(".xterm-helper-textarea")


def press_and_wait(page: Any, key: str) -> None:
    """Press ``key`` and wait until the screen it brings is drawn and waits."""
    before = output(page)
    page.keyboard.press(key)
    drawn(page, before)
