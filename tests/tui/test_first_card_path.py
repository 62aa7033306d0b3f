"""The way from the command line to the first card: the app asks the home what to open, and
goes back to it only where the player answers something (resume or replace, a plugin's
substitute)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

from nil_tui.engine import Game
from nil_tui.game.options import PlayOptions, PlayOverrides
from nil_tui.session import home as home_module
from nil_tui.session.saving import options_dict
from nil_tui.store import Store
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.dialogs import ReplaceSaved
from nil_tui.tui.screens.table import TableScreen


def count_hand_overs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the home's methods called from outside the home, in order."""
    calls: list[str] = []
    for name, method in inspect.getmembers(home_module.Home, inspect.isfunction):
        if name.startswith("_"):
            continue

        def wrapped(*args: Any, _name: str = name, _method: Callable[..., Any] = method,
                    **kwargs: Any) -> Any:
            caller = inspect.currentframe().f_back  # type: ignore[union-attr]
            if caller is not None and caller.f_globals.get("__name__") != home_module.__name__:
                calls.append(_name)
            return _method(*args, **kwargs)

        monkeypatch.setattr(home_module.Home, name, wrapped)
    return calls


async def until(app: NilApp, pilot: Any, screen: type[Any]) -> None:
    for _ in range(200):
        if isinstance(app.screen, screen):
            return
        await pilot.pause()
    raise AssertionError(f"never shown: {app.screen}")


async def test_a_new_game_from_the_command_line_asks_the_home_twice(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = count_hand_overs(monkeypatch)
    app = NilApp("play", overrides=PlayOverrides(seed=1, speed="instant"))
    async with app.run_test(size=(100, 32)) as pilot:
        await until(app, pilot, TableScreen)
        opened = list(calls)
        assert opened == ["load_options", "start_new"], opened


async def test_a_saved_game_is_asked_about_then_the_answer_opens_the_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store.open()
    store.save_current(Game(3, 5).to_record(), options_dict(PlayOptions(deals=3)))
    store.close()
    calls = count_hand_overs(monkeypatch)
    app = NilApp("play", overrides=PlayOverrides(seed=1, speed="instant"))
    async with app.run_test(size=(100, 32)) as pilot:
        await until(app, pilot, ReplaceSaved)
        assert calls == ["load_options", "start_new"], calls
        calls.clear()
        await pilot.press("enter")  # resume, the default
        await until(app, pilot, TableScreen)
        assert calls[:2] == ["resume", "open"], calls  # the answer, then its game
