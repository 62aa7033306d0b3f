"""Game over after a perfect game (pool scoring: a clean deal or a sweep in the very first deal
ends the game at once) says so in a line of its own."""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.widgets import Static

from nil_tui.bots.normal import NormalBot
from nil_tui.engine import Deal, Game
from nil_tui.engine.scoring import DealRule
from nil_tui.game.options import PlayOptions
from nil_tui.tui.screens.gameover import GameOverScreen, perfect_line


class Bare(App[None]):
    def __init__(self, options: PlayOptions) -> None:
        super().__init__()
        self.options = options


def played(game: Game, seed: int) -> Game:
    bots = [NormalBot(seed * 4 + k) for k in range(4)]
    while True:
        deal = game.deal
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            game.play(bots[seat].choose(deal.view(seat)))
        if game.is_over:
            return game
        game.next_deal()


async def test_game_over_says_east_stayed_clean_in_the_first_deal() -> None:
    game = played(Game(4, seed=0, scoring="pool"), 0)  # East stays clean in the first deal
    assert game.perfect == 3 and len(game.deals) == 1 and game.losers == (0, 1, 2)
    options = PlayOptions(deals=4, bots=("normal",) * 3, speed="instant", scoring="pool")
    app = Bare(options)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(GameOverScreen(game, options, Path("game.json")))
        await pilot.pause()
        line = str(app.screen.query_one("#gameover-perfect", Static).render())
        assert line == ("A perfect game: East stayed clean in the first deal, and the game "
                        "ended there.")
        title = str(app.screen.query_one("#gameover-title", Static).render())
        assert "crawl under the table" in title


async def test_no_such_line_after_a_game_played_to_its_end() -> None:
    for game, scoring in ((played(Game(2, seed=3, scoring="pool"), 3), "pool"),
                          (played(Game(2, seed=0), 0), "classic")):
        assert game.perfect is None and game.is_over
        options = PlayOptions(deals=2, bots=("normal",) * 3, speed="instant", scoring=scoring)
        app = Bare(options)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.push_screen(GameOverScreen(game, options, Path("game.json")))
            await pilot.pause()
            assert not app.screen.query("#gameover-perfect")
            assert app.screen.query_one("#gameover-title")


def test_a_sweep_in_the_first_deal_is_a_perfect_game_too() -> None:
    # East holds the top cards of every suit and takes all 13 tricks
    east = ["AC", "KC", "QC", "JC", "AD", "KD", "QD", "AH", "KH", "QH", "AS", "KS", "QS"]
    rest = [c for c in (r + s for s in "CDHS" for r in "23456789TJQKA") if c not in east]
    hands = [rest[0:13], rest[13:26], rest[26:39], east]
    deal = Deal.from_hands(hands, dealer=0)
    deal.rule = DealRule("pool", 0, (), True)
    while not deal.is_over:
        seat = deal.to_move
        legal = deal.legal_moves()
        pick = max if seat == 3 else min
        deal.play(pick(legal, key=lambda c: c.rank))
    assert deal.taken == (0, 0, 0, 13)
    game = Game(4, seed=1, scoring="pool")
    game.deals[0] = deal
    assert game.perfect == 3
    line = perfect_line(game)
    assert line is not None
    assert line.plain == ("A perfect game: East took every trick of the first deal, and the "
                          "game ended there.")


def test_the_table_log_says_what_a_pool_deal_did_to_the_pool() -> None:
    from nil_tui.session.messages import DealOver
    from nil_tui.tui.screens.table_words import news_line
    from nil_tui.tui.widgets.cards import CardLook

    rule = DealRule("pool", 4, (), False)
    paid = DealOver(3, (2, 5, 1, 1), (-2, -5, -1, -1), True, (-6, -9, -3, -3), rule)
    line = news_line(paid, CardLook())
    assert line is not None
    assert line.plain == ("Deal 3: Everyone took a trick: 9 points paid into the pool, which "
                          "now holds 13.")  # (not "-2 points each")
    collected = DealOver(4, (0, 5, 4, 4), (4, 0, 0, 0), False, (4, -5, -4, -4), rule)
    line = news_line(collected, CardLook())
    assert line is not None and "You stayed clean and collect the pool: 4 points" in line.plain
