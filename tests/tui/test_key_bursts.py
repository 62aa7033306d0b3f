"""Keys typed in one burst, as a terminal delivers them (``tmux send-keys q i``): each acts
on the screen it was typed on, a screen opened by the first is never acted on before it is
built, nothing opens once the app is ending, and a page key reaches the command palette's list
before its first layout. Here in the headless app, keys posted with no pause between them;
``test_key_bursts_terminal.py`` types them in a real terminal."""

from __future__ import annotations

import pytest
from test_keymash import key_event
from textual.command import CommandList, CommandPalette
from tui_helpers import settle, wait_for_workers

from nil_tui.game.options import PlayOptions
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.setup import SetupScreen
from nil_tui.tui.screens.table import TableScreen

SIZE = (100, 32)


def burst(app: NilApp, *names: str) -> None:
    """The keys ``names`` at once: all are on their way before the app handles the first."""
    for name in names:
        app.post_message(key_event(name))


async def calm(app: NilApp, pilot: object, turns: int = 10) -> None:
    from typing import Any

    drive: Any = pilot
    for _ in range(turns):
        await wait_for_workers(app)
        await drive.pause()


def setup_app() -> NilApp:
    return NilApp("setup", options=PlayOptions(deals=1, bots=("easy",) * 3, seed=4,
                                               speed="instant"))


# --- q, then a key that opens a screen -------------------------------------------------------
@pytest.mark.parametrize("then", ["i", "h", "c", "o", "j", "question_mark", "f1", "ctrl+s"])
async def test_a_key_right_after_quit_opens_nothing(then: str) -> None:
    """q at setup quits; the key typed with it opened its screen while the app was ending:
    Textual builds no widget then, and the screen's start found none of its own (NoMatches
    '#stats-head' for i, history's DataTable for h, the table dialog's '#table-problem' for
    o and j, '#rules' for ?)."""
    app = setup_app()
    async with app.run_test(size=SIZE) as pilot:
        await calm(app, pilot)
        assert isinstance(app.screen, SetupScreen)
        burst(app, "q", then)
        await calm(app, pilot)
    assert app.return_code == 0


async def test_once_ending_no_screen_opens() -> None:
    """Whatever asks for a screen once the app is ending (a timer, a worker, a click) gets
    none: the screen stack stays as it was."""
    from nil_tui.tui.screens.rules import RulesScreen

    app = setup_app()
    async with app.run_test(size=SIZE) as pilot:
        await calm(app, pilot)
        before = list(app.screen_stack)
        app.exit(0)
        app.push_screen(RulesScreen())
        app.switch_screen(RulesScreen())
        assert app.screen_stack == before
    assert app.return_code == 0


# --- a key acts on the screen it was typed on ------------------------------------------------
@pytest.mark.parametrize("page", ["pagedown", "pageup"])
async def test_a_page_key_right_after_the_palette_opens_pages_its_list(page: str) -> None:
    """Ctrl+P then PageDown within 0.1 s: the list had no lines laid out yet and Textual's
    option list raised KeyError: 0. Now the page is turned once the list is laid out."""
    app = setup_app()
    async with app.run_test(size=SIZE) as pilot:
        await calm(app, pilot)
        burst(app, "ctrl+p", "down", page)
        await calm(app, pilot)
        assert isinstance(app.screen, CommandPalette)
        commands = app.screen.query_one(CommandList)
        assert commands.option_count > 2
        if page == "pagedown":  # from the second command, a page down: the last one
            assert commands.highlighted == commands.option_count - 1
        else:  # a page up: the first
            assert commands.highlighted == 0


async def test_a_key_typed_on_the_table_does_not_act_on_the_palette_it_opened() -> None:
    """Esc, then Ctrl+P at once: Esc was typed on the table (which has no use for it), but
    its binding was looked up once it came back from there, on the palette in front by then,
    which closed at once (a key the palette's list takes, still being built: NoMatches
    'CommandList')."""
    app = NilApp("play", options=PlayOptions(deals=1, bots=("easy",) * 3, seed=4,
                                             speed="instant"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, TableScreen)
        burst(app, "escape", "ctrl+p")
        await calm(app, pilot)
        assert isinstance(app.screen, CommandPalette)


async def test_a_key_typed_on_a_dialog_does_not_act_on_the_screen_under_it() -> None:
    """Esc then s on the quit question: Esc closes it; s was typed on the question, not on
    the table under it (where it opens the scoreboard)."""
    from nil_tui.tui.screens.dialogs import ConfirmQuit

    app = NilApp("play", options=PlayOptions(deals=1, bots=("easy",) * 3, seed=4,
                                             speed="instant"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        table = app.screen
        assert isinstance(table, TableScreen)
        burst(app, "q")
        await calm(app, pilot)
        assert isinstance(app.screen, ConfirmQuit)
        burst(app, "escape", "s")
        await calm(app, pilot)
        assert app.screen is table
        burst(app, "s")  # typed on the table: the scoreboard
        await calm(app, pilot)
        assert type(app.screen).__name__ == "ScoresScreen"


@pytest.mark.parametrize("enters", [2, 3])
async def test_enters_in_the_palette_close_it_and_nothing_under_it(enters: int) -> None:
    """Ctrl+P, then Enter twice at once: each Enter chose the highlighted command before the
    palette closed, the palette closed twice, and Textual's second dismissal closed the setup
    under it (a blank app); a third ended the app (ScreenStackError)."""
    app = setup_app()
    async with app.run_test(size=SIZE) as pilot:
        await calm(app, pilot)
        await pilot.press("ctrl+p")
        await calm(app, pilot)
        assert isinstance(app.screen, CommandPalette)
        burst(app, *["enter"] * enters)
        await calm(app, pilot)
        assert [type(s) for s in app.screen_stack][1:] == [SetupScreen]
