"""The first hint or meter of a game says what it does and that the game then counts as
assisted, and asks; nothing is used (and the game stays unassisted) until the player says
yes. Setup says it too; the daily challenge refuses help without a question."""

from __future__ import annotations

from dataclasses import replace

from tui_helpers import settle, table

from nil_tui.game.options import PlayOptions
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.help_question import AskHelp


def said(app: NilApp) -> str:
    return " ".join(strip.text for strip in app.screen._compositor.render_strips())


async def test_the_first_hint_asks_and_only_a_yes_makes_the_game_assisted(
        quick_options: PlayOptions) -> None:
    app = NilApp("play", options=quick_options)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        await pilot.press("h")
        assert isinstance(app.screen, AskHelp)
        words = said(app)
        assert "suggests a card" in words and "counts as assisted" in words
        await pilot.press("n")  # not now: nothing used
        await settle(app, pilot)
        assert app.screen is screen and not screen.game.assisted
        assert not any(line.startswith("Hint") for line in screen.query_one("#log").history)
        await pilot.press("h")  # asked again, since none was used
        assert isinstance(app.screen, AskHelp)
        await pilot.press("y")
        await settle(app, pilot)
        assert app.screen is screen and screen.game.assists == ["hint"]
        await pilot.press("h")  # the game is assisted now: no question
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("m")  # nor for the meter
        await pilot.pause()
        assert app.screen is screen and screen.session.meter_on


async def test_the_first_meter_asks_too(quick_options: PlayOptions) -> None:
    app = NilApp("play", options=quick_options)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        await pilot.press("m")
        assert isinstance(app.screen, AskHelp)
        assert "chance to stay clean" in said(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and not screen.session.meter_on
        assert not screen.game.assisted


async def test_the_challenge_refuses_help_without_a_question(
        quick_options: PlayOptions) -> None:
    app = NilApp("play", options=replace(quick_options, challenge="2026-11-30"))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        await pilot.press("h")
        await pilot.pause()
        assert app.screen is screen
        assert "off in the daily challenge" in str(screen.query_one("#status").render())


async def test_setup_says_that_hints_and_the_meter_make_a_game_assisted() -> None:
    app = NilApp("setup")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "(this or a hint (h) makes the game assisted)" in said(app)
