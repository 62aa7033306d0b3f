"""Draw the pictures of the documentation with the game itself.

    python docs/make_pictures.py

Runs the app headless (Textual's ``run_test``) from fixed seeds, plays a few cards as a player
would (Enter plays the card under the cursor) and saves each screen as SVG: the table (also
README's picture), the setup screen, the summary of a deal and game over.
The seeds and sizes are fixed, so after a change of look the same command draws the same
scenes again. Nothing is read from or written to your own data folder.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PICTURES = ROOT / "docs" / "pictures"


async def _until(pilot: Any, done: Callable[[], bool], what: str, tries: int = 400) -> None:
    """Let the app run until ``done()`` holds (the bots play their cards in workers)."""
    for _ in range(tries):
        if done():
            return
        await pilot.pause(0.05)
    raise SystemExit(f"make_pictures: gave up waiting for {what}")


def _my_turn(app: Any) -> bool:
    from nil_tui.tui.screens.table import TableScreen

    screen = app.screen
    if not isinstance(screen, TableScreen):
        return False
    game = screen.game
    idle = not any(worker.is_running for worker in app.workers)
    return idle and not game.deal.is_over and game.to_move == 0


async def _play_cards(app: Any, pilot: Any, cards: int) -> None:
    """Play ``cards`` of South's cards, each the one the cursor moves to after one step right."""
    for _ in range(cards):
        await _until(pilot, lambda: _my_turn(app), "South's turn")
        await pilot.press("right")
        await pilot.press("enter")
    await _until(pilot, lambda: _my_turn(app), "South's turn")
    await pilot.pause(0.3)


async def _save(app: Any, name: str) -> Path:
    await asyncio.sleep(0)
    path = PICTURES / name
    app.save_screenshot(filename=name, path=str(PICTURES))
    print(f"wrote {path.relative_to(ROOT)}")
    return path


async def table() -> None:
    from nil_tui.game.options import PlayOptions
    from nil_tui.tui.app import NilApp

    options = PlayOptions(deals=8, bots=("normal", "hard", "normal"), seed=2026,
                          speed="instant")
    app = NilApp("play", options=options)
    async with app.run_test(size=(110, 36)) as pilot:
        await _play_cards(app, pilot, 4)
        await _save(app, "table.svg")
        await pilot.press("s")
        await pilot.pause(0.3)
        await _save(app, "scores.svg")


async def setup() -> None:
    from nil_tui.game.options import PlayOptions
    from nil_tui.tui.app import NilApp

    app = NilApp("setup", options=PlayOptions(seed=2026))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause(0.3)
        # The number of deals has the focus, and its text cursor blinks: focus Start.
        app.screen.set_focus(app.screen.query_one("#start"))
        await pilot.pause(0.3)
        await _save(app, "setup.svg")


async def whole_game() -> None:
    """A 3-deal game against easy bots played to its end: a deal's summary, then game over."""
    from nil_tui.game.options import PlayOptions
    from nil_tui.tui.app import NilApp
    from nil_tui.tui.screens.gameover import GameOverScreen
    from nil_tui.tui.screens.summary import SummaryScreen

    options = PlayOptions(deals=3, bots=("easy", "normal", "easy"), seed=11, speed="instant")
    app = NilApp("play", options=options)
    summary_saved = False
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(400):
            screen = app.screen
            if isinstance(screen, GameOverScreen):
                await pilot.pause(0.5)
                await _save(app, "gameover.svg")
                return
            if isinstance(screen, SummaryScreen):
                await pilot.pause(0.3)
                if not summary_saved:
                    await _save(app, "summary.svg")
                    summary_saved = True
                await pilot.press("enter")
            elif _my_turn(app):
                await pilot.press("enter")
            await pilot.pause(0.05)
    raise SystemExit("make_pictures: the game never ended")


SCENES: list[Callable[[], Coroutine[Any, Any, None]]] = [table, setup, whole_game]
# Game over names the record's file: the same folder and time on every run.
HOME = Path(tempfile.gettempdir()) / "nil-tui-pictures"
STAMP = "2026-12-06_20-00-00"


def _fixed_clock() -> None:
    """Records are named by the time they are written: the pictures show one fixed time."""
    from nil_tui.store import aside, files

    for module in (aside, files):
        if hasattr(module, "stamp"):
            module.stamp = lambda: STAMP  # type: ignore[attr-defined]


def main() -> int:
    PICTURES.mkdir(parents=True, exist_ok=True)
    _fixed_clock()
    for scene in SCENES:
        shutil.rmtree(HOME, ignore_errors=True)
        HOME.mkdir()
        os.environ["NIL_TUI_HOME"] = str(HOME)  # a fresh data folder: no saved game, no settings
        try:
            asyncio.run(scene())
        finally:
            shutil.rmtree(HOME, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
