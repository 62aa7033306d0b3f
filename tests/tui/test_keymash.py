"""Two thousand seeded random keys and clicks across games: no exception, and the
engine's invariants hold afterwards."""

from __future__ import annotations

import random

from textual import events
from tui_helpers import settle

from nil_tui.engine import DECK, Game, score
from nil_tui.options import PlayOptions
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.table import TableScreen

KEYS = [
    ("left", None), ("right", None), ("a", "a"), ("d", "d"), ("enter", "\r"), ("space", " "),
    ("enter", "\r"), ("enter", "\r"), ("s", "s"), ("t", "t"), ("h", "h"),
    ("question_mark", "?"), ("f1", None), ("escape", "\x1b"), ("n", "n"), ("up", None),
    ("down", None), ("tab", "\t"), ("x", "x"), ("1", "1"),
]


def check_invariants(game: Game) -> None:
    totals = [0, 0, 0, 0]
    for deal in game.deals:
        seen = 0
        for seat in range(4):
            for card in deal.hand(seat):
                assert not seen & card.bit
                seen |= card.bit
        for trick in deal.tricks:
            assert len(trick.cards) == 4
            for card in trick.cards:
                assert not seen & card.bit
                seen |= card.bit
        for card in deal.trick:
            assert not seen & card.bit
            seen |= card.bit
        assert seen == (1 << len(DECK)) - 1
        assert sum(deal.taken) == len(deal.tricks)
        if deal.is_over:
            assert deal.points == score(deal.taken, deal.ended_early)
            totals = [t + p for t, p in zip(totals, deal.points)]
    assert list(game.totals) == totals
    again = Game.from_record(game.to_record()).to_record()
    record = game.to_record()
    again.pop("created"), record.pop("created")
    assert again == record


async def test_key_mash_keeps_the_game_sound() -> None:
    rng = random.Random(2026)
    app = NilApp("play", options=PlayOptions(deals=3, bots=("easy",) * 3, seed=99,
                                             speed="instant"))
    games: list[Game] = []
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        for step in range(2000):
            if step % 40 == 39:
                await app.workers.wait_for_complete()
                await pilot.pause()
                await pilot.click(offset=(rng.randrange(100), rng.randrange(32)))
            else:
                key, char = rng.choice(KEYS)
                app.post_message(events.Key(key, char))
            if step % 20 == 19:
                await app.workers.wait_for_complete()
                await pilot.pause()
                screen = app.screen
                if isinstance(screen, TableScreen) and (not games or games[-1] is not
                                                        screen.game):
                    games.append(screen.game)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.is_running
        assert games, "the mash never reached the table"
        for game in games:
            check_invariants(game)
        # The saved game is the game on the table.
        saved = app.store.load_current()
        screen = app.screen
        if isinstance(screen, TableScreen) and not screen.game.is_over:
            assert saved is not None
            assert saved[0]["deals"] == screen.game.to_record()["deals"]
    # Several games were played to the end along the way.
    assert sum(game.is_over for game in games) >= 1
