"""What a screen says fits at 80x24 without scrolling, or the screen says where the rest is."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.containers import VerticalScroll

from nil_tui.engine import Game
from nil_tui.engine.game import Phase
from nil_tui.game.options import PlayOptions
from nil_tui.tui.screens.gameover import GameOverScreen


def finished(seed: int, deals: int) -> Game:
    rng = random.Random(seed)
    game = Game(deals, seed=seed)
    while not game.is_over:
        if game.phase is Phase.DEAL_OVER:
            game.next_deal()
        game.play(rng.choice(list(game.deal.legal_moves())))
    return game


class Host(App[None]):
    def __init__(self, make: Any) -> None:
        super().__init__()
        self.make = make

    def on_mount(self) -> None:
        self.push_screen(self.make())


def visible_text(app: App[Any]) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


@pytest.mark.parametrize("deals", [1, 8])
async def test_game_over_at_80x24_shows_the_scores_and_keys_or_says_where(deals: int) -> None:
    game = finished(3, deals)
    path = Path("/home/someone/.local/share/nil-tui/games/2026-12-02-0001.json")
    app = Host(lambda: GameOverScreen(game, PlayOptions(speed="instant"), path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        page = screen.query_one("#gameover", VerticalScroll)
        assert page.max_scroll_y == 0  # nothing below the fold
        shown = visible_text(app)
        for words in ("Game over", "Standings:", "Record saved", "Enter: new game"):
            assert words in shown, shown
        total = f"Total │ {game.totals[0]:>3}"
        if total not in shown:  # no room for every deal's scores beside the picture...
            assert "t: every deal's scores" in shown  # ...so the page says where they are
            await pilot.press("t")
            await pilot.pause()
            await pilot.pause()
            shown = visible_text(app)
            assert total in shown and "t: the picture again" in shown, shown
            assert page.max_scroll_y == 0
        await pilot.resize_terminal(100, 50)  # room for all: the picture and the scores
        await pilot.pause()
        await pilot.pause()
        shown = visible_text(app)
        assert total in shown and "____" in shown and "t: " not in shown, shown


async def test_an_enter_meant_for_the_last_trick_does_not_start_a_new_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Enter typed as game over replaces the table (to see the last trick go) starts no new
    game; once the moment is over, Enter does."""
    from nil_tui.tui.screens import gameover

    monkeypatch.setattr(gameover, "KEY_GRACE", 3600.0)  # the moment lasts the whole test
    game = finished(3, 1)
    started: list[object] = []
    screen = GameOverScreen(game, PlayOptions(speed="fast"), None)
    screen.action_again = lambda: started.append(True)  # type: ignore[method-assign]
    app = Host(lambda: screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        assert started == []
        screen._settling_until = 0.0  # the moment is over
        await pilot.press("enter")
        assert started == [True]


async def test_game_over_gone_before_its_fit_is_checked_is_no_error() -> None:
    """A key that closes game over at once (a key mash found it): the fit's check, asked for
    after the next refresh, finds the screen gone and does nothing."""
    game = finished(3, 1)
    app = Host(lambda: GameOverScreen(game, PlayOptions(speed="instant"), None))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameOverScreen)
        app.pop_screen()
        await pilot.pause()
        screen._check_fit()  # was NoMatches: '#gameover'
