"""Time to a playable table in a browser, and a key's time to its frame.

``nil-tui serve``'s server (the same class, on loopback) runs, for each new tab, either
``nil-tui play --seed 1`` (in an empty data folder: a first run) or a bare Textual app (one
line), and headless Chromium (Debian's, driven by Playwright) opens a tab on it. The clock
is the page's own (``performance.now()``, zero when the page's request starts) and stops
when the websocket delivers the frame that draws your hand (``You (South)``), or the bare
app's line. Runs alternate so that machine noise hits both alike. Target: median ratio at
most 1.3, as in the terminal (``benchmarks/startup.py``).

Each tab is then closed, and the time until its process has ended is measured (target:
within 2 s). Then the input latency: on the table (your turn, nothing else moving), the arrow keys move
the hand's cursor; each key's time from its ``keydown`` in the page to the next frame
arriving there. Target: median under 50 ms on loopback.

    python benchmarks/browser_startup.py [--runs 8] [--keys 40]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import harness  # the browser tests' real server and Chromium

BARE_APP = """
from textual.app import App
from textual.widgets import Static

class Bare(App):
    def compose(self):
        yield Static("bare-app-ready")

Bare().run()
"""

# A tab's nil-tui in a data folder of its own, empty: a first run, as startup.py's default.
NIL_TUI = """
import os, sys, tempfile
os.environ["NIL_TUI_HOME"] = tempfile.mkdtemp(prefix="nil-tui-bench-")
from nil_tui.commands.cli import main
sys.exit(main(sys.argv[1:]))
"""

SERVER = """
import asyncio, json, sys
from nil_tui.serve.server import BrowserServer, _serve
command = json.loads(sys.argv[1])
server = BrowserServer("127.0.0.1", 0, None, 4, command=command)
sys.exit(asyncio.run(_serve(server, lambda line: print(line, flush=True))))
"""

# When the page's websocket first delivers output containing the marker (escapes taken
# out), in page time; and, for each key pressed, its keydown and the next output after it.
MARKER = """
((marker) => {
  const seen = window.__mark = {found: null, keys: [], frames: []};
  const decoder = new TextDecoder();
  let tail = "";
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        const now = performance.now();
        if (typeof event.data === "string") return;
        seen.frames.push(now);
        if (seen.found === null) {
          const text = tail + decoder.decode(event.data, {stream: true})
            .replace(/\\x1b\\[[0-9;?]*[a-zA-Z]/g, "");
          if (text.includes(marker)) seen.found = now;
          tail = text.slice(-64);
        }
      });
    }
  };
  window.addEventListener("keydown", () => seen.keys.push(performance.now()), true);
})
"""


class Server:
    """The serve command's server running ``command`` for each tab."""

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        import json

        os.environ.update(env)
        self.served = harness.Served(Path(env["NIL_TUI_HOME"]), command=[
            sys.executable, "-c", SERVER, json.dumps(command)])
        self.url = self.served.url

    def stop(self) -> None:
        self.served.stop()


CLOSES: list[float] = []  # seconds from a tab's close to its process's end


def first_frame(context: Any, server: Server, marker: str) -> float:
    """Seconds from the page's request to the marker's frame, in a new tab. The tab is then
    closed, and the time until its process has ended goes to CLOSES."""
    page = context.new_page()
    page.add_init_script(MARKER + f"({marker!r});")
    page.goto(server.url)
    page.wait_for_function("() => window.__mark.found !== null", timeout=120_000)
    found = float(page.evaluate("window.__mark.found"))
    (tab,) = server.served.tabs()
    closed = time.monotonic()
    page.close()
    harness.until(lambda: harness.gone(tab), "the tab's process ended", pause=0.005)
    CLOSES.append(time.monotonic() - closed)
    return found / 1000


def key_latencies(context: Any, server: Server, keys: int) -> list[float]:
    """Milliseconds from each arrow key's keydown to the next frame."""
    page = context.new_page()
    page.add_init_script(MARKER + "('You (South)');")
    page.goto(server.url)
    page.wait_for_function("() => window.__mark.found !== null", timeout=120_000)
    time.sleep(3)  # the bots have played up to your turn (instant speed): all quiet
    page.focus(".xterm-helper-textarea")
    out = []
    for n in range(keys):
        before = int(page.evaluate("window.__mark.frames.length"))
        page.keyboard.press("ArrowRight" if (n // 4) % 2 == 0 else "ArrowLeft")
        try:
            page.wait_for_function(f"() => window.__mark.frames.length > {before}",
                                   timeout=5_000)
        except Exception as exc:  # noqa: BLE001 - a key that drew nothing (the hand's end)
            print(f"  a key drew no frame ({type(exc).__name__})")
            continue
        time.sleep(0.15)
        pressed = float(page.evaluate("window.__mark.keys[window.__mark.keys.length - 1]"))
        frames = page.evaluate("window.__mark.frames")
        after = [f for f in frames[before:] if f >= pressed]
        if after:
            out.append(after[0] - pressed)
    page.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--keys", type=int, default=40)
    args = parser.parse_args()
    if harness.chromium_path() is None:
        raise SystemExit("no Chromium: apt-get install -y chromium")
    cache = tempfile.mkdtemp(prefix="nil-tui-pycache-")
    home = tempfile.mkdtemp(prefix="nil-tui-bench-server-")
    env = {"PYTHONPYCACHEPREFIX": cache, "NIL_TUI_HOME": home}
    nil = Server([sys.executable, "-c", NIL_TUI, "play", "--seed", "1"], env)
    bare = Server([sys.executable, "-c", BARE_APP], env)
    keys = Server([sys.executable, "-c", NIL_TUI, "play", "--seed", "1", "--speed",
                   "instant", "--no-auto-play", "--deals", "1"], env)
    try:
        with harness.chromium() as context:
            first_frame(context, nil, "You (South)")  # warm-up: caches and bytecode
            first_frame(context, bare, "bare-app-ready")
            times: dict[str, list[float]] = {"bare Textual app": [], "play: hand drawn": []}
            for _ in range(args.runs):
                times["bare Textual app"].append(first_frame(context, bare, "bare-app-ready"))
                times["play: hand drawn"].append(first_frame(context, nil, "You (South)"))
            latencies = key_latencies(context, keys, args.keys)
    finally:
        for server in (nil, bare, keys):
            server.stop()
    print(f"Chromium {harness.chromium_path()}, {args.runs} alternating runs, page request "
          "to frame:")
    for name, values in times.items():
        print(f"  {name:19s} median {statistics.median(values) * 1000:7.1f} ms   "
              f"min {min(values) * 1000:7.1f} ms   max {max(values) * 1000:7.1f} ms")
    ratio = statistics.median(times["play: hand drawn"]) / statistics.median(
        times["bare Textual app"])
    ratios = [a / b for a, b in zip(times["play: hand drawn"], times["bare Textual app"])]
    print(f"  playable table / bare app: ratio of medians {ratio:.2f}   median of paired "
          f"ratios {statistics.median(ratios):.2f}   (target <= 1.3)")
    closes = sorted(CLOSES)
    print(f"a tab closed on its first frame, to its process's end ({len(closes)} tabs): "
          f"median {statistics.median(closes) * 1000:.0f} ms   slowest "
          f"{closes[-1] * 1000:.0f} ms   (target: within 2 s)")
    if latencies:
        print(f"key to frame ({len(latencies)} arrow keys on the table): median "
              f"{statistics.median(latencies):.1f} ms   min {min(latencies):.1f} ms   "
              f"max {max(latencies):.1f} ms   (target median < 50 ms)")
    else:
        print("key to frame: no key drew a frame")


if __name__ == "__main__":
    main()
