"""Entry points from the command line into the app. Kept light: nothing here imports the
bots' search code, so the first frame comes quickly.

Every full-screen command needs a terminal (it refuses at once, exit status 2, without one),
and ends however the app ends: see :mod:`nil_tui.tui.lifecycle`."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, NamedTuple

from ..game.options import PlayOptions, PlayOverrides
from . import first_frame

if TYPE_CHECKING:
    from ..engine import Game
    from ..store import Store
    from .app import NilApp
    from .face import AppFace, Opening

    def _fits(app: NilApp) -> AppFace:  # the app is what its screens take it for (mypy)
        return app


class Start(NamedTuple):
    """What the app opens first, and with what."""

    screen: Opening
    options: PlayOptions | None = None
    overrides: PlayOverrides | None = None
    game: Game | None = None
    title: str | None = None
    store: Store | None = None
    challenge_date: str | None = None


def _run(start: Start, command: str) -> int:
    from . import lifecycle

    problem = lifecycle.missing_terminal(command)
    if problem:
        if start.store is not None:
            start.store.close()
        lifecycle.say(problem)  # (or the terminal closed as the app started)
        return lifecycle.EXIT_NO_TERMINAL
    first_frame.quick_start()
    from .app import NilApp

    app = NilApp(start.screen, options=start.options, game=start.game, title=start.title,
                 store=start.store, overrides=start.overrides,
                 challenge_date=start.challenge_date)
    return lifecycle.run(app, command)


def setup() -> int:
    return _run(Start("setup"), "nil-tui")


def play(options: PlayOptions) -> int:
    """A game with exactly these options."""
    return _run(Start("play", options=options), "nil-tui play")


def play_command(overrides: PlayOverrides) -> int:
    """``nil-tui play``: the last settings with the command line's choices over them."""
    return _run(Start("play", overrides=overrides), "nil-tui play")


def resume() -> int:
    from .app import open_store

    store = open_store()
    saved = store.load_current()
    if not saved:
        unreadable = store.unreadable  # a lock, or a version this nil-tui does not know
        store.close()
        print(f"nil-tui resume: {unreadable}" if unreadable else
              "nil-tui resume: there is no saved game (start one with nil-tui play)",
              file=sys.stderr)
        return 1
    return _run(Start("resume", store=store), "nil-tui resume")


def replay(game: Game, source: str) -> int:
    return _run(Start("replay", game=game, title=f"Replay of {source}"), "nil-tui replay")


def history() -> int:
    return _run(Start("history"), "nil-tui history")


def stats() -> int:
    return _run(Start("stats"), "nil-tui stats")


def challenge(date: str | None) -> int:
    """``nil-tui challenge``: the daily challenge of ``date`` (default: today, where the
    player is): its result when finished, where it stopped when under way, else a new one."""
    from ..game.daily_challenge import today

    return _run(Start("challenge", challenge_date=date or today()), "nil-tui challenge")
