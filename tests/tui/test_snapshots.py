"""The look of every screen with a fixed seed, at 80x24 and at 120x40.

Create or refresh them with ``pytest tests/tui/test_snapshots.py --snapshot-update`` and look
at the SVGs in ``__snapshots__`` before committing.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import settle

from nil_tui.engine import Game, Phase
from nil_tui.game.options import PlayOptions
from nil_tui.tui import app as app_module
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens import setup as setup_screen
from nil_tui.tui.screens.gameover import GameOverScreen
from nil_tui.tui.screens.rules import RulesScreen
from nil_tui.tui.screens.summary import SummaryScreen

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
OPTIONS = PlayOptions(deals=2, bots=("easy", "easy", "easy"), seed=3, speed="instant")
PLAYERS = [{"name": "South", "kind": "human"}] + [
    {"name": n, "kind": "bot", "bot": "easy"} for n in ("West", "North", "East")]


@pytest.fixture(autouse=True)
def fixed_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Level descriptions change as bots are measured: pin them for the pictures."""
    monkeypatch.setattr(setup_screen, "level_choices", lambda: [
        ("easy", "Easy", ("A beginner: plays at random among its legal cards.\n"
         "About 1 point behind Normal bots every 5 deals (-0.200 a deal, 200 games).")),
        ("normal", "Normal", "Sound rules of thumb."),
    ])


def played_game(seed: int = 3, deals: int = 2, finish: bool = True) -> Game:
    """A game played with random legal cards: finished, or stopped after its first deal."""
    rng = random.Random(seed)
    game = Game(deals, seed=seed, players=PLAYERS)
    while True:
        while not game.deal.is_over:
            game.play(rng.choice(game.deal.legal_moves()))
        if game.is_over or not finish:
            return game
        game.next_deal()


def host(screen_factory: Any) -> NilApp:
    """The app with a store, showing one screen over setup."""
    app = NilApp("setup", options=OPTIONS)

    async def show(pilot: Any) -> None:
        await pilot.pause()
        app.push_screen(screen_factory())
        await pilot.pause()

    app.show_screen = show  # type: ignore[attr-defined]
    return app


@pytest.mark.parametrize("size", SIZES)
def test_setup(snap_compare: Any, size: tuple[int, int]) -> None:
    app = NilApp("setup", options=OPTIONS)

    async def focus_start(pilot: Any) -> None:
        # The number of deals has the focus when setup opens (test_settings checks it); its
        # text cursor blinks on a timer, so the picture is taken with the focus on Start.
        await pilot.pause()
        app.screen.set_focus(app.screen.query_one("#start"))
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=focus_start)


@pytest.mark.parametrize("size", SIZES)
def test_table(snap_compare: Any, size: tuple[int, int]) -> None:
    # No auto-play: a forced card would be played on a timer, before or after the picture
    # is taken depending on the machine's load.
    app = NilApp("play", options=replace(OPTIONS, auto_play=False))

    async def play_a_little(pilot: Any) -> None:
        await settle(app, pilot)
        for key in ("enter", "enter", "right"):
            await pilot.press(key)
            await settle(app, pilot)

    assert snap_compare(app, terminal_size=size, run_before=play_a_little)


@pytest.mark.parametrize("size", SIZES)
def test_deal_summary(snap_compare: Any, size: tuple[int, int]) -> None:
    game = played_game(finish=False)
    assert game.phase is Phase.DEAL_OVER
    app = host(lambda: SummaryScreen(game, between_deals=True))
    assert snap_compare(app, terminal_size=size, run_before=app.show_screen)


@pytest.mark.parametrize("size", SIZES)
def test_game_over(snap_compare: Any, size: tuple[int, int]) -> None:
    game = played_game()
    assert game.is_over
    app = host(lambda: GameOverScreen(game, OPTIONS, Path("records/2026-11-29-seed-3.json")))
    assert snap_compare(app, terminal_size=size, run_before=app.show_screen)


@pytest.mark.parametrize("size", SIZES)
def test_rules(snap_compare: Any, size: tuple[int, int]) -> None:
    app = host(RulesScreen)
    assert snap_compare(app, terminal_size=size, run_before=app.show_screen)


@pytest.mark.parametrize("size", SIZES)
def test_review(snap_compare: Any, size: tuple[int, int]) -> None:
    game = played_game()
    app = NilApp("replay", game=game, title="Replay of game.json")
    assert snap_compare(app, terminal_size=size, press=["right", "right", "right"])


@pytest.mark.parametrize("size", [pytest.param((60, 20), id="60x20")])
def test_too_small(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(NilApp("play", options=OPTIONS), terminal_size=size)


def test_a_store_that_cannot_open_is_replaced_by_one_in_memory(monkeypatch: Any) -> None:
    from nil_tui.store import Store

    def broken(*args: Any, **kwargs: Any) -> Store:
        raise OSError("disk on fire")

    monkeypatch.setattr(Store, "open", broken)
    store = app_module.open_store()
    assert store.warnings and "cannot be saved" in store.warnings[0]
    assert "disk on fire" in store.warnings[0]
    from nil_tui.engine import Game

    record = Game(2, seed=1).to_record()
    store.save_current(record, {"deals": 2})
    saved = store.load_current()
    assert saved is not None and saved[0] == record
    store.close()
