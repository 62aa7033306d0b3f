"""The pool on screen: the scoreboard's pool line, the deal summary's sentence and table, the
standings, setup's choice (kept as a setting), and statistics kept apart per scoring."""

from __future__ import annotations

import random
from typing import Any

from rich.console import Console
from textual.widgets import Checkbox

from nil_tui.engine import Game
from nil_tui.session.messages import table_state
from nil_tui.store.summaries import summarize
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.setup import SetupScreen
from nil_tui.tui.screens.summary import deal_label, deals_table, last_deal_text, standings_text
from nil_tui.tui.widgets.scoreboard import Scoreboard, ScoreInfo


def pool_game(seed: int, deals: int, duck: tuple[int, ...] = (0, 1)) -> Game:
    """As in tests/engine/test_scoring.py: seed 318 (4 deals) has a tie-break after deal 3."""
    rng = random.Random(seed)
    game = Game(deals_planned=deals, seed=seed, scoring="pool")
    while True:
        while not game.deal.is_over:
            legal = game.deal.legal_moves()
            if game.deal.to_move in duck and rng.random() < 0.9:
                card = min(legal, key=lambda c: c.rank)
            elif rng.random() < 0.5:
                card = max(legal, key=lambda c: c.rank)
            else:
                card = rng.choice(legal)
            game.play(card)
        if game.is_over:
            return game
        game.next_deal()


def shown(renderable: Any) -> str:
    console = Console(width=100, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_the_summary_says_what_happened_to_the_pool() -> None:
    game = pool_game(318, 4)
    tiebreak = game.deals[3]
    assert deal_label(game, game.deals[2]) == "Deal 3 of 4"
    assert deal_label(game, tiebreak) == "The tie-break deal"
    assert deal_label(game, game.deals[4]) == "Deal 4 of 4"
    table = shown(deals_table(game))
    assert "tie" in table and "pool 13" in table
    standings = shown(standings_text(game, final=True))
    assert f"pool {game.pool} (nobody's)" in standings
    game.deals.pop()  # as it stood after the tie-break deal
    text = shown(last_deal_text(game))
    assert text.startswith("The tie-break deal: West stayed clean longer and collects the "
                           "pool: 13 points.")


def test_the_table_state_and_the_scoreboard_carry_the_pool() -> None:
    game = pool_game(318, 4)
    state = table_state(game, 0, turn=0, pace="over", names=["S", "W", "N", "E"],
                        levels=[None, "normal", "normal", "normal"])
    assert (state.scoring, state.pool, state.tiebreak) == ("pool", game.pool, ())
    classic = Game(2, seed=3)
    state = table_state(classic, 0, turn=0, pace="over", names=["S", "W", "N", "E"],
                        levels=[None, "normal", "normal", "normal"])
    assert (state.scoring, state.pool) == ("classic", 0)


async def test_the_scoreboard_shows_the_pool_and_the_tie_break() -> None:
    from textual.app import App, ComposeResult

    class Board(App[None]):
        def compose(self) -> ComposeResult:
            yield Scoreboard()

    app = Board()
    async with app.run_test(size=(40, 10)) as pilot:
        board = app.query_one(Scoreboard)
        board.info = ScoreInfo(totals=(-4, -6, 12, -2), pool=9, deal_number=4,
                               deals_planned=8)
        await pilot.pause()
        assert "Pool" in str(board.render()) and " 9" in str(board.render())
        assert board.border_title == "Deal 4 of 8"
        board.info = ScoreInfo(pool=9, tiebreak=(0, 2))
        await pilot.pause()
        assert board.border_title == "Tie-break deal"
        board.info = ScoreInfo()
        await pilot.pause()
        assert "Pool" not in str(board.render())


async def test_setup_offers_the_pool_and_keeps_the_choice() -> None:
    app = NilApp("setup")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        box = screen.query_one("#pool", Checkbox)
        assert box.value is False
        options = screen.read_options()
        assert options is not None and options.scoring == "classic"
        box.value = True
        options = screen.read_options()
        assert options is not None and options.scoring == "pool"


def test_statistics_keep_pool_games_apart() -> None:
    game = pool_game(318, 4)
    summary = summarize(game.to_record(), {"bots": ["normal"] * 3})
    assert summary.scoring == "pool"
    assert summary.difficulty == "normal (pool)" and summary.opponents == "normal x3 (pool)"
    assert summary.points == game.totals[0]
    classic = Game(1, seed=3)
    rng = random.Random(3)
    while not classic.deal.is_over:
        classic.play(rng.choice(classic.deal.legal_moves()))
    assert summarize(classic.to_record(), {"bots": ["normal"] * 3}).difficulty == "normal"
