"""Input latency while a bot thinks: how long from a key press until your hand is redrawn
with the cursor moved, while a bot decides in its worker thread.

Two kinds of thinking bot: the strongest built-in level (real search), and a bot that burns
the CPU in pure Python for the whole time (the worst case for the interpreter lock).
Target: at most 50 ms per key.

    python benchmarks/input_latency.py [--keys 60]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import threading
import time
from typing import Any

from textual import events

from nil_tui.engine import Card, PlayerView
from nil_tui.game.options import PlayOptions
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.table import TableScreen
from nil_tui.tui.widgets.hand import Hand


class BusyBot:
    """Computes in pure Python until the benchmark lets it answer."""

    name = "busy"

    def __init__(self) -> None:
        self.stop = threading.Event()

    def choose(self, view: PlayerView) -> Card:
        n = 0
        while not self.stop.is_set():
            for i in range(2000):
                n += i * i % 7
        return view.legal[0]


class SlowRealBot:
    """The strongest level, asked over and over until the benchmark lets it answer."""

    def __init__(self, spec: str) -> None:
        from nil_tui.bots import make_bot

        self.inner = make_bot(spec, seed=1)
        self.name = spec
        self.stop = threading.Event()

    def choose(self, view: PlayerView) -> Card:
        card = view.legal[0]
        while not self.stop.is_set():
            card = self.inner.choose(view)
        return card


class Seat:
    """The benchmark's bot in a seat, as the game driver asks a bot."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.spec = self.name = "benchmark"

    def decide(self, view: PlayerView, perfect: Any = None) -> Any:
        from nil_tui.bots.safety import Choice

        return Choice(self.bot.choose(view))

    def close(self) -> None:
        self.bot.stop.set()


async def measure(bot: Any, keys: int) -> list[float]:
    # A data folder of its own: a game left saved by the last measure would be offered first.
    os.environ["NIL_TUI_HOME"] = tempfile.mkdtemp(prefix="nil-tui-bench-")
    app = NilApp("play", options=PlayOptions(deals=1, bots=("easy",) * 3, seed=4,
                                             speed="instant"),
                 opener=lambda spec, seed: Seat(bot))
    renders: list[float] = []
    original = Hand.render

    def render(self: Hand) -> Any:
        renders.append(time.perf_counter())
        return original(self)

    Hand.render = render  # type: ignore[method-assign]
    latencies: list[float] = []
    try:
        async with app.run_test(size=(100, 32)) as pilot:
            while not isinstance(app.screen, TableScreen):
                await pilot.pause()
            screen = app.screen
            # Play until a bot is asked (its turn), then it thinks until told to stop.
            while screen.driver.asking is None:
                await app.workers.wait_for_complete()
                await pilot.pause()
                if screen.game.to_move == 0:
                    await pilot.press("enter")
            await asyncio.sleep(0.3)  # the bot is well into its thinking
            hand = screen.query_one(Hand)
            hand.cursor = min(4, len(hand.cards) - 5)
            await pilot.pause()
            for k in range(keys):
                before = hand.cursor
                key = "right" if (k // 4) % 2 == 0 else "left"
                start = time.perf_counter()
                renders.clear()
                app.post_message(events.Key(key, None))
                while True:
                    await asyncio.sleep(0.0005)
                    if hand.cursor != before and any(t > start for t in renders):
                        break
                    if time.perf_counter() - start > 2:
                        raise TimeoutError("a key was not drawn within 2 s")
                latencies.append(max(t for t in renders) - start)
                await asyncio.sleep(0.02)
            assert screen.driver.asking is not None, "the bot stopped thinking during the test"
            bot.stop.set()
            await app.workers.wait_for_complete()
    finally:
        Hand.render = original  # type: ignore[method-assign]
        bot.stop.set()
    return latencies


def report(name: str, values: list[float]) -> None:
    ms = sorted(v * 1000 for v in values)
    p95 = ms[int(len(ms) * 0.95) - 1]
    print(f"{name:34s} median {statistics.median(ms):6.1f} ms   p95 {p95:6.1f} ms   "
          f"max {ms[-1]:6.1f} ms   ({len(ms)} keys)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=60)
    args = parser.parse_args()
    from nil_tui.bots import LEVELS

    strongest = list(LEVELS)[-1]
    report(f"while '{strongest}' searches", asyncio.run(measure(SlowRealBot(strongest),
                                                                 args.keys)))
    report("while a pure-Python bot spins", asyncio.run(measure(BusyBot(), args.keys)))
    print("target: at most 50 ms per key")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
