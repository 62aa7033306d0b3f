"""The table's first frame is all a player waits for at start: what it does not show is
loaded later (the timing itself is measured by benchmarks/startup.py, never here)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

FIRST_FRAME = """
import asyncio, sys
from nil_tui.game.options import PlayOverrides
from nil_tui.tui.app import NilApp

loaded = []
shown = NilApp.table_shown

def first_frame(self):
    loaded.extend(m for m in sys.modules if m.startswith("nil_tui"))
    shown(self)

NilApp.table_shown = first_frame

async def main():
    app = NilApp("play", overrides=PlayOverrides(seed=1))
    async with app.run_test(size=(100, 32)) as pilot:
        while not loaded:
            await pilot.pause()

asyncio.run(main())
print(" ".join(sorted(loaded)))
"""

LATER = (
    "nil_tui.engine.records",  # reading and writing records: the first save, after the frame
    "nil_tui.store",  # a first run's store is created right after the frame
    "nil_tui.tui.screens.dialogs",  # quitting, a terminal too small
    "nil_tui.tui.widgets.tracker",  # the card tracker, made on its first "c"
    "nil_tui.analysis",  # the meter and the analysis
    "nil_tui.game.daily_challenge",
)


def test_the_first_frame_of_a_first_run_loads_only_what_it_shows(tmp_path: Path) -> None:
    env = dict(os.environ, NIL_TUI_HOME=str(tmp_path / "home"))
    out = subprocess.run([sys.executable, "-c", FIRST_FRAME], capture_output=True, text=True,
                         check=True, timeout=120, env=env)
    loaded = set(out.stdout.split())
    assert "nil_tui.tui.screens.table" in loaded  # (the probe saw the table)
    early = sorted(m for m in loaded if m.startswith(LATER))
    assert early == []


async def test_the_table_is_styled_once_before_its_first_frame_and_again_after_a_theme_change(
        monkeypatch: object) -> None:
    """Each widget of the table is styled as it is mounted; the table's first resume does not
    style them all once more (its first frame comes sooner). A theme chosen while another
    screen covers the table still reaches the table when it comes back."""
    from textual.color import Color
    from textual.dom import DOMNode

    from nil_tui.game.options import PlayOverrides
    from nil_tui.tui.app import NilApp
    from nil_tui.tui.screens.table import TableScreen

    app = NilApp("play", overrides=PlayOverrides(seed=1, speed="slow"))
    restyled: list[DOMNode] = []
    update_styles = app.update_styles

    def spy(node: DOMNode, animate: bool = True) -> None:
        restyled.append(node)
        update_styles(node, animate)

    app.update_styles = spy  # type: ignore[method-assign]
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(200):
            if isinstance(app.screen, TableScreen) and app.screen.query("#hand"):
                break
            await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        await pilot.pause()
        assert table not in restyled  # (the hand and seats restyle only themselves)
        await pilot.press("s")
        await pilot.pause()
        assert app.screen is not table
        app.theme = "nord" if app.theme != "nord" else "gruvbox"
        await pilot.press("escape")
        panel = Color.parse(app.get_css_variables()["panel"])
        status = table.query_one("#status")
        for _ in range(50):
            if app.screen is table and status.styles.background == panel:
                break
            await pilot.pause()
        assert app.screen is table and status.styles.background == panel


async def test_plays_table_is_the_first_screen_and_the_next_lies_over_an_empty_one(
        tmp_path: Path, monkeypatch: object) -> None:
    """``nil-tui play``'s table is the app's own first screen (no empty screen is built and
    drawn under it); the game-over screen that replaces it lies over an empty screen again, as
    every screen shown alone does (a hosted table is kept there)."""
    from dataclasses import replace

    from textual.screen import Screen

    from nil_tui.game.options import PlayOptions, PlayOverrides
    from nil_tui.tui.app import NilApp
    from nil_tui.tui.screens.gameover import GameOverScreen
    from nil_tui.tui.screens.table import TableScreen

    monkeypatch.setenv("NIL_TUI_HOME", str(tmp_path / "home"))  # type: ignore[attr-defined]
    app = NilApp("play", options=replace(PlayOptions(), speed="instant"),
                 overrides=PlayOverrides(seed=4, deals=1, speed="instant"))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert [type(s) for s in app.screen_stack] == [TableScreen]
        for _ in range(400):
            if isinstance(app.screen, GameOverScreen):
                break
            await pilot.press("enter")
            await pilot.pause(0.02)
        assert isinstance(app.screen, GameOverScreen)
        await pilot.pause()
        assert [type(s) for s in app.screen_stack] == [Screen, GameOverScreen]


async def test_with_a_saved_game_the_question_comes_over_an_empty_screen(
        tmp_path: Path, monkeypatch: object) -> None:
    """An unfinished saved game: ``play`` asks first (resume it, start new, cancel), over the
    app's empty screen, and its table comes after the answer."""
    from textual.screen import Screen

    from nil_tui.game.options import PlayOverrides
    from nil_tui.tui.app import NilApp
    from nil_tui.tui.screens.dialogs import ReplaceSaved
    from nil_tui.tui.screens.table import TableScreen

    monkeypatch.setenv("NIL_TUI_HOME", str(tmp_path / "home"))  # type: ignore[attr-defined]
    first = NilApp("play", overrides=PlayOverrides(seed=4))
    async with first.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        first.save_now()  # the game under way is kept, unfinished
    app = NilApp("play", overrides=PlayOverrides(seed=5))
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(50):
            if isinstance(app.screen, ReplaceSaved):
                break
            await pilot.pause()
        assert [type(s) for s in app.screen_stack] == [Screen, ReplaceSaved]
        await pilot.press("enter")  # resume it
        for _ in range(50):
            if isinstance(app.screen, TableScreen):
                break
            await pilot.pause()
        assert [type(s) for s in app.screen_stack] == [Screen, TableScreen]
