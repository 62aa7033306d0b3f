"""Game over appears whole, once: every frame drawn of the page shows it as it stays (the
scores, the chart, where the record went, the keys), never a first layout that a second one
then pushes about."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import settle

from nil_tui.game.options import PlayOptions
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.gameover import GameOverScreen


@pytest.mark.parametrize(("size", "ascii_look"), [((80, 24), True), ((80, 24), False),
                                                  ((120, 40), False)],
                         ids=["80x24-ascii", "80x24", "120x40"])
async def test_game_over_is_drawn_whole_once(size: tuple[int, int], ascii_look: bool,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # At the instant speed nobody crawls (no animation): every frame of the page is the same.
    # (A home of a usual length: the record's path fits the page, as it does for players.)
    home = Path(tempfile.mkdtemp(prefix="n", dir="/tmp"))
    monkeypatch.setenv("NIL_TUI_HOME", str(home))
    app = NilApp("play", options=PlayOptions(deals=1, bots=("easy",) * 3, seed=5,
                                             speed="instant", ascii=ascii_look))
    frames: list[str] = []
    display = app._display

    def seen(screen: GameOverScreen) -> bool:
        """Whether the page can be seen in this frame (it may be laid out unseen first)."""
        page = screen.query("#gameover")
        return bool(page) and page.first().styles.opacity > 0 and page.first().visible

    def drawn(screen: Any, renderable: Any) -> None:
        if isinstance(screen, GameOverScreen) and renderable is not None and seen(screen):
            text = "\n".join(strip.text for strip in screen._compositor.render_strips())
            if text.strip() and (not frames or frames[-1] != text):
                frames.append(text)
        display(screen, renderable)

    app._display = drawn  # type: ignore[method-assign]
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        for _ in range(60):
            if isinstance(app.screen, GameOverScreen):
                break
            await pilot.press("enter")
            await settle(app, pilot)
        assert isinstance(app.screen, GameOverScreen)
        for _ in range(5):
            await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert frames, "game over was never drawn"
    assert len(frames) == 1, "\n\n".join(frames)
    assert "Record saved" in frames[0] and "Enter: new game" in frames[0]
