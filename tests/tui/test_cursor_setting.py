"""The setting that lets the hand's cursor reach every card (cursor "every"): by default, on
your turn, the cursor stops only on the cards you may play; with the setting it stops on
every card, those you may not play still dimmed, and playing one is still refused."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Checkbox, Select
from tui_helpers import settle, table

from nil_tui.engine import DECK
from nil_tui.store import Store
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.setup import SetupScreen
from nil_tui.tui.widgets.hand import Hand

CARDS = tuple(DECK[i] for i in (0, 5, 13, 14, 30, 40, 45))
LEGAL = frozenset(c for c in CARDS if c.suit == CARDS[2].suit)  # the third and fourth


class OneHand(App[None]):
    def __init__(self, every: bool) -> None:
        super().__init__()
        self.every = every

    def compose(self) -> ComposeResult:
        yield Hand(every=self.every)


@pytest.mark.parametrize(("every", "your_turn", "expected"), [
    (False, True, [2, 3]),  # on your turn only the cards you may play
    (True, True, list(range(7))),  # every card, those you may not play too
    (False, False, list(range(7))),  # while others play, every card either way
    (True, False, list(range(7))),
])
async def test_where_the_cursor_stops_with_each_setting(every: bool, your_turn: bool,
                                                        expected: list[int]) -> None:
    app = OneHand(every)
    async with app.run_test(size=(60, 6)) as pilot:
        hand = app.query_one(Hand)
        hand.set_hand(CARDS, LEGAL if your_turn else frozenset(), your_turn)
        await pilot.pause()
        assert hand.stops() == expected
        hand.cursor = 2
        hand.move(-1)  # left of the first card you may play
        assert hand.cursor == (1 if every or not your_turn else 3)
        # What you may not play stays dimmed whatever the setting.
        assert hand.cards == CARDS and hand.legal == (LEGAL if your_turn else frozenset())


def saved_settings() -> dict[str, Any]:
    store = Store.open()
    try:
        return store.load_settings() or {}
    finally:
        store.close()


async def test_the_setup_tick_reaches_the_game_and_the_cursor_reaches_every_card() -> None:
    app = NilApp("setup")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        tick = screen.query_one("#cursor-every", Checkbox)
        assert tick.value is False  # off by default: the cursor skips what you may not play
        tick.value = True
        screen.query_one("#deals").value = "1"  # type: ignore[attr-defined]
        screen.query_one("#seed").value = "1"  # type: ignore[attr-defined]
        screen.query_one("#speed", Select).value = "instant"
        for i in range(3):
            screen.query_one(f"#bot-{i}", Select).value = "easy"
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        table_screen = table(app)
        assert table_screen.session.options.cursor == "every"
        hand = table_screen.query_one(Hand)
        assert hand.every and hand.active
        illegal = [i for i, c in enumerate(hand.cards) if c not in hand.legal]
        assert illegal and len(illegal) < len(hand.cards), "this seed should make you follow"
        assert hand.current in hand.legal  # your turn puts the cursor on a card you may play
        # Right goes card by card, onto the cards you may not play too.
        for _ in range(len(hand.cards)):
            before = hand.cursor
            await pilot.press("right")
            assert hand.cursor == (before + 1) % len(hand.cards)
            if hand.cursor in illegal:
                break
        assert hand.cursor in illegal
        # Enter on it is refused with the reason, and nothing is played.
        card = hand.current
        await pilot.press("enter")
        await pilot.pause()
        assert "You must follow" in str(table_screen.query_one("#status").render())
        assert card in table_screen.game.deal.hand(0) and table_screen.game.to_move == 0
    assert saved_settings()["cursor"] == "every"  # kept with the player's settings

    app = NilApp("setup")  # and shown ticked next time
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.screen
        if not isinstance(screen, SetupScreen):  # the unfinished game is offered first
            await pilot.press("escape")
            await pilot.pause()
            screen = app.screen
        assert isinstance(screen, SetupScreen), screen
        assert screen.query_one("#cursor-every", Checkbox).value is True
        assert screen.read_look().cursor == "every"  # a daily challenge keeps it too


async def test_by_default_right_stays_on_the_cards_you_may_play() -> None:
    app = NilApp("setup")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#deals").value = "1"  # type: ignore[attr-defined]
        screen.query_one("#seed").value = "1"  # type: ignore[attr-defined]
        screen.query_one("#speed", Select).value = "instant"
        for i in range(3):
            screen.query_one(f"#bot-{i}", Select).value = "easy"
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        table_screen = table(app)
        assert table_screen.session.options.cursor == "playable"
        hand = table_screen.query_one(Hand)
        assert not hand.every and hand.legal and hand.legal != frozenset(hand.cards)
        for _ in range(len(hand.cards)):
            await pilot.press("right")
            assert hand.current in hand.legal


@pytest.mark.parametrize(("lines", "bots", "framed"), [
    (24, ["easy", "hard", "expert"], False),  # the one case the cursor's row leaves no room
    (24, ["easy", "hard", "hard"], True),
    (25, ["easy", "hard", "expert"], True),
])
async def test_the_resume_button_gives_up_its_frame_only_where_setup_would_not_fit(
        lines: int, bots: list[str], framed: bool) -> None:
    from nil_tui.engine import Game

    store = Store.open()
    game = Game(8, seed=1)
    game.play(game.deal.legal_moves()[0])
    store.save_current(game.to_record(), {"deals": 8})
    store.save_settings({"bots": bots})
    store.close()
    app = NilApp("setup")
    async with app.run_test(size=(80, lines)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        assert screen.query_one("#resume").outer_size.height == (3 if framed else 1)
        assert screen.query_one("#setup").max_scroll_y == 0
        assert screen.query_one("#cursor-every").region.bottom < lines - 1
