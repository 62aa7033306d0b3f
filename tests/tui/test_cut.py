"""The cut for the first dealer, shown: in the log (each seat's card, each redraw, who
deals), in the middle of the table until the game's first card, and in the replay."""

from __future__ import annotations

from pathlib import Path

import pytest
from tui_helpers import settle, table

from nil_tui.engine import Game
from nil_tui.game.options import PlayOptions
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.review import ReviewScreen
from nil_tui.tui.widgets.trick import TrickView


def seed_where(test: object, limit: int = 400) -> int:
    for seed in range(limit):
        if test(Game(1, seed)):  # type: ignore[operator]
            return seed
    raise AssertionError("no such seed")


def screen_text(app: NilApp) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def test_the_log_and_the_table_show_the_cut_with_its_redraw(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A cut with a redraw, after which you lead (East deals): the cut stays until you play.
    seed = seed_where(lambda g: g.cut is not None and len(g.cut.draws) > 1
                      and g.deal.to_move == 0)
    cut = Game(1, seed).cut
    assert cut is not None
    app = NilApp("play", options=PlayOptions(deals=1, bots=("easy",) * 3, seed=seed,
                                             speed="instant"))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        said = [line for line in screen.query_one("#log").history
                if line.startswith("The cut for the first dealer")]
        assert len(said) == 1
        first = [f"{name} {card.pretty(False)}" for name, card in
                 zip(("you", "West", "North", "East"), cut.draws[0], strict=True)
                 if card is not None]
        assert ", ".join(first) in said[0]
        assert "tie and draw again" in said[0] and said[0].endswith(
            "East deals (the lowest card).")
        middle = screen.query_one(TrickView).info
        last = {seat: card for row in cut.draws for seat, card in enumerate(row) if card}
        assert dict(middle.cards) == last and middle.winner == 3
        assert middle.caption == "Cut: East deals; you lead"
        assert "Cut: East deals; you lead" in screen_text(app)
        await pilot.press("enter")  # your card: the cut gives way to the trick
        await settle(app, pilot)
        assert "Cut" not in screen.query_one(TrickView).info.caption


async def test_the_replay_shows_the_cut_before_the_first_trick() -> None:
    seed = seed_where(lambda g: g.cut is not None and g.cut.dealer == 1)
    game = Game(1, seed)
    app = NilApp("replay", game=game, title="a game")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        info = app.screen.query_one(TrickView).info
        assert info.winner == 1 and len(info.cards) == 4
        assert info.caption == "Cut: West deals; the hands as dealt"
