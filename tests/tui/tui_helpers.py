"""Driving the app in pilot tests."""

from __future__ import annotations

from typing import Any

from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.table import TableScreen


async def settle(app: NilApp, pilot: Any) -> None:
    """Let bots finish their turns and the screen catch up."""
    for _ in range(60):
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        if not isinstance(screen, TableScreen):
            return
        game = screen.game
        idle = not any(worker.is_running for worker in app.workers)
        if idle and (game.is_over or game.deal.is_over or game.to_move == 0):
            return
    raise AssertionError("the bots never handed the turn back")


async def wait_for_table(app: NilApp, pilot: Any) -> TableScreen:
    """Wait until the table is shown (plugin bots start in a thread first)."""
    for _ in range(200):
        await app.workers.wait_for_complete()
        await pilot.pause(0.05)
        if isinstance(app.screen, TableScreen):
            await settle(app, pilot)
            return app.screen
    raise AssertionError(f"the table never came, the screen is {app.screen!r}")


def table(app: NilApp) -> TableScreen:
    screen = app.screen
    assert isinstance(screen, TableScreen), f"expected the table, got {screen!r}"
    return screen
