"""News the app hands a screen as it opens, before its widgets are built: the expert's
progress or points for the daily challenge's comparison (they come every quarter second while
the expert plays), the place a finished game's record went once it could be written. The
screen keeps the news and shows it when it is built; before, it looked for widgets that were
not there yet (NoMatches '#challenge-status', '#gameover-path')."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from nil_tui.engine import Game
from nil_tui.game import daily_challenge as challenge
from nil_tui.game.daily_challenge import challenge_game
from nil_tui.game.options import PlayOptions
from nil_tui.tui.app import NilApp
from nil_tui.tui.messages import GameKept
from nil_tui.tui.screens.challenge import ChallengeScreen

DATE = "2026-11-30"
POINTS = [1, 0, 3, 1]


class SilentReference:
    """The expert's stand-in: says nothing (the test hands the news itself)."""

    def __init__(self, date: str) -> None:
        self.date = date

    def news(self, should_stop: Any = None, poll: float = 0.25) -> Any:
        return iter(())

    def stop(self) -> None:
        pass


def finished(game: Game) -> Game:
    while not game.is_over:
        if game.deal.is_over:
            game.next_deal()
        game.play(game.deal.legal_moves()[0])
    return game


def text(app: NilApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def test_the_experts_points_for_a_comparison_not_built_yet_are_shown(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(challenge, "ReferenceProcess", SilentReference)
    game = finished(challenge_game(DATE))
    app = NilApp("setup", options=PlayOptions(speed="instant"))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        app.show_challenge(game, None)  # the comparison opens...
        app._tell_challenge_screens(DATE, POINTS)  # ...and the expert's points come at once
        app.post_message(GameKept(tmp_path / "record.json"))
        for _ in range(5):
            await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ChallengeScreen)
        assert screen.reference == POINTS
        assert not screen.query_one("#challenge-bar").display  # no more waiting for them
        assert "record.json" in text(app, "#challenge-path")


async def test_where_a_record_went_reaches_a_game_over_screen_not_built_yet(
        tmp_path: Path) -> None:
    game = finished(Game(1, seed=3))
    app = NilApp("setup", options=PlayOptions(speed="instant"))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        app.replace_stack(app.game_over_screen(game, app.options, None, "disk full"))
        app.on_game_kept(GameKept(tmp_path / "record.json"))  # written at last, at once
        for _ in range(5):
            await pilot.pause()
        assert "record.json" in text(app, "#gameover-path")
