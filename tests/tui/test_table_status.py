"""The table's status line after a passing message: the last trick shown with ``t`` and put
away says "your turn" again, instead of "The last trick (any key to go back)" staying through
every key that says nothing of its own (c, s, ?, the arrows) until other news came."""

from __future__ import annotations

import pytest
from tui_helpers import settle, table

from nil_tui.game.options import PlayOptions
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.table import TableScreen

OPTIONS = PlayOptions(deals=1, bots=("easy", "easy", "easy"), seed=7, speed="instant")


def status(screen: TableScreen) -> str:
    return str(screen.query_one("#status").render())


@pytest.mark.parametrize("back", ["escape", "right"])
async def test_the_last_trick_put_away_says_your_turn_again(back: str) -> None:
    app = NilApp("play", options=OPTIONS)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        while not screen.game.deal.tricks or screen.game.to_move != 0:
            await pilot.press("enter")
            await settle(app, pilot)
        said = status(screen)
        assert said.startswith("Your turn"), said
        await pilot.press("t")
        await pilot.pause()
        assert "The last trick" in status(screen)
        await pilot.press(back)  # puts the trick away, and only that
        await settle(app, pilot)
        assert status(screen) == said
        for key in ("c", "c", "left"):  # keys with nothing to say leave it so
            await pilot.press(key)
            await pilot.pause()
        assert status(screen) == said


async def test_news_during_the_peek_is_not_covered_again() -> None:
    """What was said while the last trick was on show stays once it goes (not the line it
    had hidden)."""
    app = NilApp("play", options=OPTIONS)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        while not screen.game.deal.tricks or screen.game.to_move != 0:
            await pilot.press("enter")
            await settle(app, pilot)
        await pilot.press("t")
        await pilot.pause()
        screen.status("Saved again.")  # (as a note of the keeper would say)
        await pilot.press("escape")
        await settle(app, pilot)
        assert status(screen) == "Saved again."
