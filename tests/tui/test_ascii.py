"""Under --ascii the whole app is 7-bit ASCII: every cell of every screen (the table and its
panels, dialogs, the command palette, summaries, the review, the analysis, game over, setup,
history, statistics, rules, the size warning) is read as the terminal would get it."""

from __future__ import annotations

from typing import Any

import pytest
from tui_helpers import settle

from nil_tui.game.options import PlayOptions
from nil_tui.store import Store
from nil_tui.tui.app import NilApp
from nil_tui.tui.ascii import to_ascii


def high_cells(app: NilApp) -> list[str]:
    """Each line of the screen (as composed for the terminal) holding a cell above 127."""
    return [line for line in (strip.text for strip in app.screen._compositor.render_strips())
            if not line.isascii()]


class Walk:
    def __init__(self, app: NilApp, pilot: Any) -> None:
        self.app = app
        self.pilot = pilot
        self.seen: list[str] = []
        self.bad: dict[str, list[str]] = {}

    async def look(self, where: str, *keys: str) -> None:
        for key in keys:
            await self.pilot.press(key)
            await self.app.workers.wait_for_complete()
            await self.pilot.pause(0.05)
        await self.pilot.pause()
        name = f"{where} ({type(self.app.screen).__name__})"
        self.seen.append(name)
        bad = high_cells(self.app)
        if bad:
            self.bad[name] = bad[:3]


@pytest.mark.slow
async def test_every_screen_of_a_whole_game_is_ascii(nil_home: Any,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from test_keymash import quick_analysis

    # the analysis screen's words are under test, not its search: a small budget, in its
    # thread (its worker processes cost more than the rest of the game)
    quick_analysis(monkeypatch)
    options = PlayOptions(deals=1, seed=5, speed="instant", ascii=True,
                          bots=("easy", "easy", "easy"))
    app = NilApp("play", options=options)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        walk = Walk(app, pilot)
        await walk.look("table")
        await walk.look("tracker", "c")
        await walk.look("question before a first hint", "h")
        await walk.look("hint", "y")
        await walk.look("meter", "m")
        await walk.look("scoreboard", "s")
        await walk.look("table", "escape")
        await walk.look("rules", "question_mark")
        await walk.look("rules scrolled", "pagedown", "end")
        await walk.look("table", "escape")
        await walk.look("quit dialog", "q")
        await walk.look("table", "escape")
        await walk.look("command palette", "ctrl+p")
        await walk.look("table", "escape")
        await pilot.resize_terminal(60, 20)
        await walk.look("too small")
        await pilot.resize_terminal(80, 24)
        await walk.look("table again")
        for _ in range(40):
            if type(app.screen).__name__ != "TableScreen":
                break
            await walk.look("playing", "enter")
        await walk.look("deal summary")
        await walk.look("review", "d")
        await walk.look("review last trick", "end")
        await walk.look("deal summary", "escape")
        await walk.look("analysis", "a")
        await walk.look("deal summary", "escape")
        await walk.look("game over", "enter")
        for _ in range(3):
            await walk.look("after the game", "escape")
        assert any("GameOver" in s for s in walk.seen), walk.seen
        assert walk.bad == {}, walk.bad


async def test_setup_history_and_statistics_are_ascii(nil_home: Any) -> None:
    from nil_tui.engine import Game

    with Store.open() as store:
        store.save_settings({"ascii": True, "deals": 1, "speed": "instant"})
        game = Game(1, seed=3)
        while not game.is_over:
            game.play(game.deal.legal_moves()[0])
        store.finish_game(game.to_record(), {"deals": 1, "bots": ["easy"] * 3})
        current = Game(2, seed=4)
        current.play(current.deal.legal_moves()[0])
        store.save_current(current.to_record(), {"deals": 2})
    app = NilApp("setup")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        walk = Walk(app, pilot)
        await walk.look("setup")
        await walk.look("setup, a list open", "tab", "tab", "tab", "enter")
        await walk.look("setup", "escape")
        await walk.look("history", "h")
        await walk.look("history review", "enter")
        await walk.look("history", "escape")
        await walk.look("setup", "escape")
        await walk.look("statistics", "i")
        await walk.look("setup", "escape")
        await walk.look("new game question", "ctrl+s")
        assert walk.bad == {}, walk.bad


def test_glyphs_keep_their_width_in_ascii() -> None:
    from rich.cells import cell_len

    sample = "╭─╮│●○…—←→⚠▔▁▐X▌█▀▄♠♥♦♣🔎·"
    plain = to_ascii(sample)
    assert plain.isascii() and len(plain) == cell_len(sample)
    assert to_ascii("♠♥♦♣ ● ○ ← →") == "SHDC * o < >"


async def test_the_lobby_and_the_table_dialogs_are_ascii(nil_home: Any) -> None:
    from test_lobby import INVITE, FakeClient, lobby_message

    from nil_tui.tui.screens.lobby import LobbyScreen

    with Store.open() as store:
        store.save_settings({"ascii": True})
    app = NilApp("setup")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        walk = Walk(app, pilot)
        await walk.look("setup")
        await walk.look("join dialog", "j")
        await walk.look("join dialog, a problem", "enter")
        await walk.look("setup", "escape")
        await walk.look("host dialog", "o")
        await walk.look("setup", "escape")
        client = FakeClient()
        client.feed(lobby_message({0: "Hana", 1: "Gus"}, [{"kind": "joined", "seat": 1,
                                                            "name": "Gus"}]))
        app.push_screen(LobbyScreen(client, invite=INVITE, code="127.0.0.1:4711/abcd-efgh",
                                    local_only=True))
        # the lobby's worker reads its table for as long as it is shown: no waiting for it
        for where, key in (("lobby", None), ("leave question", "escape")):
            if key is not None:
                await pilot.press(key)
            for _ in range(20):
                await pilot.pause(0.05)
            walk.seen.append(f"{where} ({type(app.screen).__name__})")
            if high_cells(app):
                walk.bad[where] = high_cells(app)[:3]
        assert "lobby (LobbyScreen)" in walk.seen
        assert "leave question (ConfirmLeave)" in walk.seen
        assert walk.bad == {}, walk.bad
