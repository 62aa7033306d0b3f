"""Driving the app in pilot tests."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from nil_tui.engine import Card, PlayerView
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.table import TableScreen


async def wait_for_workers(app: NilApp) -> None:
    """Wait until the app's workers have ended. A worker cancelled meanwhile (an exclusive
    worker replaced by a newer one, as a second hint replaces the first) or not started yet
    is no failure: ``wait_for_complete`` would raise WorkerCancelled (or WorkerError) for it.
    A worker that raised still fails the test."""
    from textual.worker import WorkerCancelled, WorkerState

    for _ in range(100):
        busy = [w for w in app.workers if w.state in (WorkerState.PENDING, WorkerState.RUNNING)]
        if not busy:
            return
        running = [w for w in busy if w.state is WorkerState.RUNNING]
        try:
            if running:
                await app.workers.wait_for_complete(running)
            else:
                await asyncio.sleep(0.01)  # started on the next turn of the loop
        except WorkerCancelled:
            pass


async def settle(app: NilApp, pilot: Any) -> None:
    """Let bots finish their turns and the screen catch up."""
    for _ in range(60):
        await wait_for_workers(app)
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
        await wait_for_workers(app)
        await pilot.pause(0.05)
        if isinstance(app.screen, TableScreen):
            await settle(app, pilot)
            return app.screen
    raise AssertionError(f"the table never came, the screen is {app.screen!r}")


def table(app: NilApp) -> TableScreen:
    screen = app.screen
    assert isinstance(screen, TableScreen), f"expected the table, got {screen!r}"
    return screen


@dataclass(frozen=True)
class Answer:
    card: Card
    incident: str | None = None


class BlockingPlayer:
    """Plays its lowest legal card; once ``armed``, waits for the test to let it play. Players
    may share their events, so that one call arms or releases every seat, even those opened
    later."""

    def __init__(self, spec: str, seed: int, armed: threading.Event | None = None,
                 go: threading.Event | None = None) -> None:
        self.spec = spec
        self.name = "blocking"
        self.armed = armed or threading.Event()
        self.go = go or threading.Event()
        self.asked = threading.Event()

    def decide(self, view: PlayerView, perfect: Any = None) -> Answer:
        if self.armed.is_set():
            self.asked.set()
            self.go.wait(10)
        return Answer(view.legal[0])

    def close(self) -> None:
        self.go.set()


def blocking_opener(players: list[BlockingPlayer], armed: bool = False
                    ) -> Callable[[str, int], BlockingPlayer]:
    """An opener for NilApp(opener=...) whose bots are BlockingPlayers, collected in
    ``players``. With ``armed``, all of them share one ``armed`` and one ``go`` event, set
    from the start: clearing ``armed`` and setting ``go`` on any player releases them all."""
    shared = (threading.Event(), threading.Event()) if armed else None
    if shared is not None:
        shared[0].set()

    def opener(spec: str, seed: int) -> BlockingPlayer:
        player = (BlockingPlayer(spec, seed, *shared) if shared is not None
                  else BlockingPlayer(spec, seed))
        players.append(player)
        return player

    return opener
