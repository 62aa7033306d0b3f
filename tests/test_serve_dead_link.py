"""A browser tab whose link dies without a word (a cable pulled, a laptop asleep: no close
frame, no FIN) is noticed by ``nil-tui serve``'s heartbeat, and its app saves its game and
ends as when a terminal is closed.

The tab here is a real client process on loopback speaking the page's protocol (aiohttp's
websocket client, which answers pings as a browser does); it is stopped with SIGSTOP, so its
socket stays open and its kernel still acknowledges every byte, but nothing answers a ping.
Only the heartbeat can tell. How long it takes is printed, never asserted (a loaded machine):
the bound is the server's constants, checked apart."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "browser"))
from harness import WAIT, Served, gone, quick_settings, saved_game, saved_plays, until

pytestmark = [
    pytest.mark.slow,  # a real server and its tab's process: the long set (pytest -m slow)
    pytest.mark.skipif(sys.platform != "linux", reason="the server's tabs are read from /proc"),
]

TAB = r"""
import asyncio, json, sys, time
import aiohttp

async def main(url):
    seen = {"bytes": 0, "last": time.monotonic(), "drawn": False}
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(url, autoping=True, heartbeat=None) as ws:
            async def read():
                async for message in ws:
                    if message.type == aiohttp.WSMsgType.BINARY:
                        seen["bytes"] += len(message.data)
                        seen["last"] = time.monotonic()
                print("closed", flush=True)

            async def drawn():
                while not seen["drawn"]:
                    await asyncio.sleep(0.1)
                    if seen["bytes"] > 1000 and time.monotonic() - seen["last"] > 0.8:
                        seen["drawn"] = True
                        print("drawn", flush=True)

            async def keys():
                loop = asyncio.get_running_loop()
                while line := await loop.run_in_executor(None, sys.stdin.readline):
                    await ws.send_json(["stdin", json.loads(line)])

            reader = asyncio.ensure_future(read())
            await asyncio.gather(drawn(), keys())
            await reader

asyncio.run(main(sys.argv[1]))
"""


class Tab:
    """The page's side of one tab, in a process of its own."""

    def __init__(self, url: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", TAB, url], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def line(self, limit: float = WAIT) -> str:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], limit)
        return self.proc.stdout.readline().strip() if ready else ""

    def press(self, data: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(data) + "\n")
        self.proc.stdin.flush()

    def close(self) -> None:
        self.proc.send_signal(signal.SIGCONT)
        self.proc.kill()
        self.proc.wait(timeout=WAIT)


def test_the_server_notices_a_dead_link_within_ten_seconds_by_its_constants() -> None:
    """aiohttp pings a quiet connection HEARTBEAT seconds after the last thing it received
    (rounded up to the next second) and gives up HEARTBEAT / 2 seconds later."""
    from nil_tui.serve.server import HEARTBEAT

    assert 5.0 <= HEARTBEAT + 1 + HEARTBEAT / 2 <= 10.0


def test_a_tab_whose_link_dies_silently_saves_its_game_and_ends(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    quick_settings(home, deals=2)
    server = Served(home)
    tab = Tab(server.url.replace("http://", "ws://").rstrip("/") + "/ws?width=100&height=32")
    try:
        assert tab.line() == "drawn"
        (process,) = until(server.tabs, "the tab's process")
        tab.press("\r")  # Start (focused in setup): the table
        until(lambda: saved_game(home), "the new game saved")
        until(lambda: saved_plays(home) > 4, "more than 4 cards saved",
              step=lambda: tab.press("\r"), pause=0.25)
        before = saved_plays(home)
        tab.proc.send_signal(signal.SIGSTOP)  # the laptop sleeps: its socket stays open
        stopped = time.monotonic()
        until(lambda: gone(process), "the tab's process ended by itself")
        noticed = time.monotonic() - stopped
        assert tab.proc.poll() is None  # the tab never closed its side: the server noticed
        assert os.waitpid(tab.proc.pid, os.WNOHANG) == (0, 0)
        print(f"a dead link's app ended {noticed:.1f} s after its tab stopped answering")
        saved = saved_game(home)
        assert saved is not None and saved_plays(home) >= before
        assert server.tabs() == [] and server.proc.poll() is None  # the server goes on
    finally:
        tab.close()
        server.stop()
