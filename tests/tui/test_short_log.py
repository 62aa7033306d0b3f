"""At 80x24 the log is short: a trick on a line, the cards only, so that the last tricks show
in its few rows; taller terminals keep the whole sentences."""

from __future__ import annotations

import re

import pytest
from tui_helpers import settle, table

from nil_tui.game.options import PlayOptions
from nil_tui.tui.app import NilApp
from nil_tui.tui.widgets.gamelog import GameLog

CARD = r"(10|[2-9JQKA])[♣♦♥♠]"


@pytest.mark.parametrize("size", [(80, 24), (100, 32)], ids=["80x24", "100x32"])
async def test_a_trick_is_one_line_of_the_log_at_80x24(size: tuple[int, int]) -> None:
    app = NilApp("play", options=PlayOptions(deals=1, bots=("easy",) * 3, seed=7,
                                             speed="instant", auto_play=False))
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        screen = table(app)
        for _ in range(4):
            await pilot.press("enter")
            await settle(app, pilot)
        tricks = len(screen.game.deal.tricks)
        history = screen.query_one(GameLog).history
    assert tricks >= 3
    short = [line for line in history if re.fullmatch(
        rf"[YWNE]: {CARD}( {CARD}){{3}} → (you|West|North|East)", line)]
    if size == (80, 24):
        assert len(short) == tricks, history
        assert not any("no longer clean" in line or " plays " in line for line in history)
    else:
        assert not short
        assert sum(" plays " in line or "You play " in line for line in history) >= 4 * tricks
