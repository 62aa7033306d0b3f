"""Seeded random keys and clicks across games: no exception, the engine's invariants hold
afterwards, the saved game is the game on the table, and Enter alone still finishes the game.

A short mash per seed here; ``benchmarks/keymash.py`` runs the same mash for thousands of keys.
"""

from __future__ import annotations

import random

import pytest
from textual import events
from tui_helpers import settle

from nil_tui.engine import DECK, Game, score
from nil_tui.options import PlayOptions
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.table import TableScreen
from nil_tui.tui.widgets.hand import Hand

KEYS = [
    ("left", None), ("right", None), ("a", "a"), ("d", "d"), ("enter", "\r"), ("space", " "),
    ("enter", "\r"), ("enter", "\r"), ("s", "s"), ("t", "t"), ("h", "h"),
    ("question_mark", "?"), ("f1", None), ("escape", "\x1b"), ("n", "n"), ("up", None),
    ("down", None), ("tab", "\t"), ("x", "x"), ("1", "1"),
]
SIZE = (100, 32)


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


async def mash(app: NilApp, pilot: object, seed: int, keys: int) -> list[Game]:
    """Send ``keys`` seeded random keys (a click every 40th), and return the games seen on
    the table along the way, in order."""
    from typing import Any

    drive: Any = pilot
    rng = random.Random(seed)
    games: list[Game] = []
    for step in range(keys):
        if step % 40 == 39:
            await app.workers.wait_for_complete()
            await drive.pause()
            await drive.click(offset=(rng.randrange(SIZE[0]), rng.randrange(SIZE[1])))
        else:
            key, char = rng.choice(KEYS)
            app.post_message(events.Key(key, char))
        if step % 20 == 19:
            await app.workers.wait_for_complete()
            await drive.pause()
            screen = app.screen
            if isinstance(screen, TableScreen) and (not games or games[-1] is not screen.game):
                games.append(screen.game)
    await app.workers.wait_for_complete()
    await drive.pause()
    return games


def mash_app(seed: int, deals: int) -> NilApp:
    return NilApp("play", options=PlayOptions(deals=deals, bots=("easy",) * 3, seed=seed,
                                              speed="instant"))


@pytest.mark.parametrize("seed", [2026, 7, 31])
async def test_a_short_key_mash_keeps_the_game_sound(seed: int) -> None:
    app = mash_app(seed, deals=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        games = await mash(app, pilot, seed, keys=150)
        assert app.is_running
        assert games, "the mash never reached the table"
        for game in games:
            check_invariants(game)
        # The saved game is the game on the table.
        screen = app.screen
        if isinstance(screen, TableScreen) and not screen.game.is_over:
            saved = app.store.load_current()
            assert saved is not None
            assert saved[0]["deals"] == screen.game.to_record()["deals"]
        # With a game unfinished on the table (under whatever the mash left open), closing
        # what is open and playing a legal card at each turn (arrows, then Enter) finishes it.
        tables = [s for s in app.screen_stack if isinstance(s, TableScreen)]
        if tables and not tables[-1].game.is_over:
            table = tables[-1]
            for _ in range(8):
                if app.screen is table:
                    break
                await pilot.press("escape")
                await settle(app, pilot)
            assert app.screen is table, f"stuck on {app.screen!r} above the table"
            hand = table.query_one(Hand)
            # Each step reads the table afresh: a key may only put away a trick on show, and
            # the bots' cards (even a new deal) may come in between.
            for _ in range(3000):
                game = table.game
                if game.is_over:
                    break
                if app.screen is not table:  # the deal summary: close it
                    await pilot.press("escape")
                    await settle(app, pilot)
                    continue
                legal = game.deal.legal_moves() if game.to_move == 0 else []
                shown = [c for c in legal if c in hand.cards]
                if not shown:  # the bots' turn, or the hand not yet drawn with their card
                    await settle(app, pilot)
                    await pilot.pause(0.01)
                    continue
                if hand.current in legal:
                    await pilot.press("enter")
                    await settle(app, pilot)
                    continue
                target = hand.cards.index(shown[0])
                await pilot.press("right" if hand.cursor < target else "left")
            assert table.game.is_over, (
                f"the game did not finish after the mash: to move {table.game.to_move}, "
                f"screens {[type(s).__name__ for s in app.screen_stack]}")
            check_invariants(table.game)
