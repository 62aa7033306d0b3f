"""The deal summary is seen: a key typed before it came (a second Enter queued behind the one
that played the deal's last card) does not go past it; a key typed once it is shown does."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from textual import events
from textual.app import App
from tui_helpers import settle, table

from nil_tui.engine import Game
from nil_tui.game.options import PlayOptions
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.summary import SummaryScreen
from nil_tui.tui.screens.table import TableScreen


async def test_a_second_enter_queued_with_the_last_card_does_not_skip_the_summary() -> None:
    for seed in range(5, 40):  # a deal whose last trick you close (your card ends it at once)
        options = PlayOptions(deals=2, bots=("easy",) * 3, seed=seed, speed="instant",
                              auto_play=False)
        app = NilApp("play", options=options)
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(app, pilot)
            screen = table(app)
            for _ in range(13):
                deal = screen.game.deal
                if deal.is_over or len(deal.hand(0)) == 1:
                    break
                await pilot.press("enter")
                await settle(app, pilot)
            deal = screen.game.deal
            if deal.is_over or app.screen is not screen or len(deal.trick) != 3:
                app.store.clear_current()  # (the next seed starts afresh)
                continue
            # The last card and a second Enter, both typed before the summary can come.
            app.post_message(events.Key("enter", "\r"))
            app.post_message(events.Key("enter", "\r"))
            await settle(app, pilot)
            for _ in range(3):
                await pilot.pause()
            assert screen.game.deal_number == 1 and screen.game.deal.is_over
            assert isinstance(app.screen, SummaryScreen), app.screen
            await pilot.press("enter")  # typed once it is shown: on to the next deal
            await settle(app, pilot)
            assert isinstance(app.screen, TableScreen) and screen.game.deal_number == 2
            return
    raise AssertionError("no seed left the deal's last card to you, last in its trick")


def finished_game(seed: int) -> Game:
    """A two-deal game with its first deal over, played with random legal cards."""
    rng = random.Random(seed)
    game = Game(2, seed=seed)
    while not game.deal.is_over:
        game.play(rng.choice(list(game.deal.legal_moves())))
    return game


class Host(App[None]):
    def __init__(self, screen: SummaryScreen) -> None:
        super().__init__()
        self.summary = screen
        self.closed: list[object] = []

    def on_mount(self) -> None:
        self.push_screen(self.summary, self.closed.append)


async def test_a_key_typed_before_the_summary_was_drawn_does_not_close_it() -> None:
    screen = SummaryScreen(finished_game(3), between_deals=True)
    app = Host(screen)
    async with app.run_test(size=(100, 32)) as pilot:
        typed = events.Key("enter", "\r")
        typed.time = 0.0  # typed long before the page came, handled only now
        await pilot.pause()
        app.post_message(typed)
        await pilot.pause()
        assert app.screen is screen and app.closed == []
        await pilot.press("enter")  # typed once it is shown
        assert app.closed == [None]


async def test_enter_held_down_does_not_close_the_summary_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Away from the instant speed, Enter (or Space) just after the page came is a key held
    down to play the last card: the page stays; other keys act, and so does Enter later."""
    from nil_tui.tui.screens import summary

    monkeypatch.setattr(summary, "KEY_GRACE", 3600.0)  # the moment lasts the whole test
    screen = SummaryScreen(finished_game(4), between_deals=True, speed="normal")
    app = Host(screen)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("enter", "space")
        assert app.screen is screen and app.closed == []
        await pilot.press("escape")  # not held: it acts
        assert app.closed == [None]
    screen = SummaryScreen(finished_game(4), between_deals=True, speed="instant")
    app = Host(screen)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # no moment at the instant speed
        assert app.closed == [None]


async def test_enter_held_at_the_last_card_at_normal_speed_leaves_the_summary_shown() -> None:
    """A key held down plays the last card and repeats: the summary the table shows at the
    normal speed stays on screen through the repeats (the table passes its speed on)."""
    for seed in range(5, 40):  # a deal whose last trick you close (your card ends it at once)
        options = PlayOptions(deals=2, bots=("easy",) * 3, seed=seed, speed="instant",
                              auto_play=False)
        app = NilApp("play", options=options)
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(app, pilot)
            screen = table(app)
            for _ in range(13):
                deal = screen.game.deal
                if deal.is_over or len(deal.hand(0)) == 1:
                    break
                await pilot.press("enter")
                await settle(app, pilot)
            deal = screen.game.deal
            if deal.is_over or app.screen is not screen or len(deal.trick) != 3:
                app.store.clear_current()  # (the next seed starts afresh)
                continue
            screen.options = replace(screen.options, speed="normal")  # the usual pace
            app.post_message(events.Key("enter", "\r"))  # the last card
            for _ in range(200):
                if isinstance(app.screen, SummaryScreen) and app.screen._shown_at < float("inf"):
                    break
                await pilot.pause(0.02)
            assert isinstance(app.screen, SummaryScreen), app.screen
            for _ in range(4):  # the same key, still held
                app.post_message(events.Key("enter", "\r"))
            for _ in range(3):
                await pilot.pause()
            assert isinstance(app.screen, SummaryScreen), app.screen
            assert screen.game.deal_number == 1
            return
    raise AssertionError("no seed left the deal's last card to you, last in its trick")
