"""``nil-tui serve`` in a real headless Chromium: a whole deal played by keys, a reload that
resumes, a closed tab that leaves no process and the game saved, a page that asks nothing of
the internet, an access token checked from another address, and the limit on tabs.

Each test runs the real server (a process of its own, its own data folder) and Debian's
Chromium with an empty profile. Limits are generous (a loaded machine): how fast things are
is measured by ``benchmarks/browser_startup.py``, never asserted here."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from harness import (
    Served,
    chromium,
    chromium_path,
    finished_games,
    gone,
    open_table,
    press_and_wait,
    quick_settings,
    ready,
    requests,
    saved_game,
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


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


@pytest.fixture
def served(home: Path):  # type: ignore[no-untyped-def]
    server = Served(home)
    yield server
    server.stop()


def plays_past(home: Path, page, count: int) -> int:  # type: ignore[no-untyped-def]
    """Enter (play the card under the cursor, or go on) until the saved game has more than
    ``count`` cards played; how many it has."""
    return until(lambda: saved_plays(home) > count and saved_plays(home),
                 f"more than {count} cards saved", step=lambda: page.keyboard.press("Enter"),
                 pause=0.25)


def test_a_whole_deal_played_by_keys_with_no_request_off_the_machine(
        home: Path, tmp_path: Path) -> None:
    quick_settings(home)
    netlog = tmp_path / "netlog.json"
    server = Served(home)
    try:
        with chromium(netlog=netlog) as context:
            page = open_table(context, server.url)
            assert len(server.tabs()) == 1
            press_and_wait(page, "Enter")  # Start (focused in setup): the table
            plays_past(home, page, 4)
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "browser-table.png"))
            until(lambda: finished_games(home) == 1, "the deal finished and recorded",
                  step=lambda: page.keyboard.press("Enter"), pause=0.25)
            (tab,) = server.tabs()
            page.close()
            until(lambda: gone(tab), "the tab's process ended")
    finally:
        server.stop()
    assert finished_games(home) == 1
    # Chromium's own record of every request it started: all that the page asked for went
    # to the server (the page, its script, style and font, the websocket), nothing else.
    made = requests(netlog)
    site = f"http://{server.host.rsplit(':', 1)[0]}"
    page_asked = [url for url, partition in made if site in partition]
    assert any(u.startswith(f"ws://{server.host}/ws") for u in page_asked), made
    assert any(u.endswith(".ttf") for u in page_asked), made
    assert [u for u in page_asked if not re.match(rf"(https?|wss?)://{re.escape(server.host)}/",
                                                  u)] == []
    # The rest are Chromium's own services (its updater, sign-in, clock), not the page's.
    assert all(site not in partition for url, partition in made if url not in page_asked)


def test_a_reload_saves_the_game_and_offers_to_resume_it_and_closing_ends_the_tab(
        home: Path, served: Served) -> None:
    quick_settings(home, deals=2)
    with chromium() as context:
        page = open_table(context, served.url)
        (first,) = served.tabs()
        press_and_wait(page, "Enter")  # Start
        before = plays_past(home, page, 4)
        hands = saved_game(home)["deals"][0]["hands"]  # type: ignore[index]
        page.reload()
        ready(page)
        until(lambda: gone(first), "the reloaded tab's first process ended")
        assert saved_plays(home) >= before  # saved as the tab went
        (second,) = until(served.tabs, "a process for the reloaded tab")
        assert second != first
        press_and_wait(page, "Enter")  # Resume (focused in setup when a game is saved)
        now = plays_past(home, page, saved_plays(home))
        assert saved_game(home)["deals"][0]["hands"] == hands  # type: ignore[index]
        page.close()
        until(lambda: gone(second), "the closed tab's process ended")
    assert served.tabs() == []
    assert saved_plays(home) >= now
    assert finished_games(home) == 0
    assert served.proc.poll() is None  # the server itself goes on


def test_one_tab_more_than_the_limit_gets_a_page_that_says_so(home: Path) -> None:
    server = Served(home, "--max-sessions", "1")
    try:
        with chromium() as context:
            page = open_table(context, server.url)
            assert len(server.tabs()) == 1
            more = context.new_page()
            response = more.goto(server.url)
            assert response is not None and response.status == 503
            assert "is in use (at most 1 at once)" in more.content()
            assert len(server.tabs()) == 1
            more.close()
            # A reload of the one tab at a full server: turned away while its old connection
            # is open, then let in by the page's own retry, its game offered to resume.
            page.reload()
            more_url = page.url
            ready(page)
            assert page.url.split("?")[0] == more_url  # (its place in line: ?wait=...)
            assert len(server.tabs()) == 1
    finally:
        server.stop()


def test_without_the_token_from_another_address_nothing_starts(home: Path) -> None:
    """The server listens on one end of a virtual link; a request from a network namespace
    at the other end, without the link's token, is refused; with it, the page comes."""
    if os.geteuid() != 0:
        pytest.skip("needs root to make a network namespace (ip netns)")
    name = f"niltest{os.getpid() % 100000}"
    outer, inner = f"nv{os.getpid() % 100000}a", f"nv{os.getpid() % 100000}b"
    net = f"10.{200 + os.getpid() % 50}.{os.getpid() % 250}"
    steps = [["ip", "netns", "add", name],
             ["ip", "link", "add", outer, "type", "veth", "peer", "name", inner],
             ["ip", "link", "set", inner, "netns", name],
             ["ip", "addr", "add", f"{net}.1/30", "dev", outer],
             ["ip", "link", "set", outer, "up"],
             ["ip", "netns", "exec", name, "ip", "addr", "add", f"{net}.2/30", "dev", inner],
             ["ip", "netns", "exec", name, "ip", "link", "set", inner, "up"],
             ["ip", "netns", "exec", name, "ip", "link", "set", "lo", "up"]]
    try:
        for step in steps:
            done = subprocess.run(step, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                pytest.skip(f"cannot make a network namespace here: {' '.join(step)}: "
                            f"{done.stderr.strip()}")
        server = Served(home, "--bind", f"{net}.1")
        try:
            token = re.search(r"token=([A-Za-z0-9_-]+)", server.url)
            assert token is not None and len(token.group(1)) >= 22  # >= 128 bits
            fetch = ("import sys, urllib.request, urllib.error\n"
                     "try:\n"
                     "    r = urllib.request.urlopen(sys.argv[1], timeout=20)\n"
                     "    print(r.status, r.read().decode())\n"
                     "except urllib.error.HTTPError as e:\n"
                     "    print(e.code, e.read().decode())\n")

            def from_outside(url: str) -> str:
                done = subprocess.run(["ip", "netns", "exec", name, sys.executable, "-c",
                                       fetch, url], capture_output=True, text=True,
                                      timeout=60, check=False)
                assert done.returncode == 0, done.stderr
                return done.stdout

            base = f"http://{net}.1:{server.origin.rsplit(':', 1)[1]}"
            assert from_outside(f"{base}/").startswith("403 ")
            assert "Nothing was started" in from_outside(f"{base}/?token=wrong")
            assert from_outside(f"{base}/ws").startswith("403 ")
            secret = token.group(1)  # its last character changed: a wrong one, never itself
            wrong = secret[:-1] + ("y" if secret.endswith("x") else "x")
            assert from_outside(f"{base}/ws/{wrong}").startswith("403 ")
            assert server.tabs() == []
            page = from_outside(server.url)
            assert page.startswith("200 ") and "textual-terminal" in page
            assert server.tabs() == []  # a page alone starts nothing either
        finally:
            server.stop()
    finally:
        subprocess.run(["ip", "netns", "del", name], capture_output=True, check=False)
        subprocess.run(["ip", "link", "del", outer], capture_output=True, check=False)


def test_on_this_machine_no_token_and_no_other_host_name(home: Path, served: Served) -> None:
    """Bound to loopback the link has no token; a request naming another host (a page of
    another site reaching the server through a name that points here) is refused."""
    assert "token=" not in served.url
    with urllib.request.urlopen(served.url, timeout=20) as response:
        assert response.status == 200
        assert "fonts.googleapis" not in response.read().decode()
    request = urllib.request.Request(served.url, headers={"Host": "evil.example:80"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=20)
    assert refused.value.code == 403
    assert served.tabs() == []


def test_stopping_the_server_saves_every_open_tabs_game(home: Path) -> None:
    quick_settings(home, deals=2)
    server = Served(home)
    try:
        with chromium() as context:
            page = open_table(context, server.url)
            (tab,) = server.tabs()
            press_and_wait(page, "Enter")  # Start
            before = plays_past(home, page, 2)
            assert server.stop() == 0  # SIGTERM: as Ctrl+C, for the server alone
            assert gone(tab)
            page.wait_for_selector("body.-closed", state="attached", timeout=60_000)
    finally:
        server.stop()
    assert saved_plays(home) >= before
