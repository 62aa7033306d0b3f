"""? at 80x24: the keys first, each on one row, all on the first screen with the line that
says the rules follow; the rules below."""

from __future__ import annotations

from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.rules import KEY_WIDTH, KEYS, RulesScreen


async def test_the_keys_fit_the_first_screen_at_80x24() -> None:
    app = NilApp("setup")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(RulesScreen())
        await pilot.pause()
        await pilot.pause()
        lines = [strip.text.rstrip() for strip in app.screen._compositor.render_strips()]
    shown = "\n".join(lines)
    for key, what in KEYS:  # every key and its words whole, each on a row of its own
        assert any(what in line and line.lstrip().startswith(key) for line in lines), what
        assert len(what) <= KEY_WIDTH
    assert "The rules follow" in shown
