"""The table this app hosts (at most one, open until the app ends), and leaving a shared
table: back to setup, or the end of ``nil-tui host`` and ``nil-tui join``; a table whose game
is over stays open a while for a player who was away at the end."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from textual.widget import Widget

if TYPE_CHECKING:
    from textual.app import App

    from ..net.client import TableClient
    from ..net.hosting import HostedTable
    from .app import NilApp

_HOSTED: weakref.WeakKeyDictionary[Any, HostedTable] = weakref.WeakKeyDictionary()
"""The table each app hosts (at most one), open until the app ends."""


def hosted_table(app: App[Any]) -> HostedTable | None:
    return _HOSTED.get(app)


class TableKeeper(Widget):
    """Kept on the app's default screen (which lasts as long as the app): when the app ends,
    the table it hosts is closed (its server stops, its store is closed)."""

    DEFAULT_CSS = "TableKeeper { display: none; }"

    def __init__(self, hosted: HostedTable) -> None:
        super().__init__()
        self.hosted = hosted

    async def on_unmount(self) -> None:
        await close_hosted(self.hosted)


async def close_hosted(hosted: HostedTable) -> None:
    import asyncio
    import contextlib

    with contextlib.suppress(Exception):
        await asyncio.wait_for(hosted.close(), 5.0)


def keep_hosted(app: App[Any], hosted: HostedTable) -> None:
    """The app hosts this table from now on, until it ends."""
    _HOSTED[app] = hosted
    app.screen_stack[0].mount(TableKeeper(hosted))


GRACE = 60.0
"""How long a table whose game is over stays open, after its host leaves, for a player who
was away at the end to come back for the game's record."""


async def leave_and_close(app: NilApp, client: TableClient, hosted: HostedTable | None) -> None:
    await client.close()
    if hosted is not None and _HOSTED.get(app) is hosted:
        await _wait_for_the_away(app, hosted)
        del _HOSTED[app]
        await close_hosted(hosted)
    if getattr(app, "together_exit", False):
        app.exit(0)  # nil-tui host: leaving the table ends the program
        return
    app.open_setup()


async def _wait_for_the_away(app: NilApp, hosted: HostedTable) -> None:
    """The game ended while someone was away: the table stays open a while (saying so) for
    them to come back for its record, which goes into their history, rather than closing on
    them. Nothing to wait for before the end: leaving the lobby closes the table."""
    from ..engine import SEAT_NAMES

    table = hosted.table
    if not hosted.finished:
        return
    away = [s for s in table.seating if s.kind == "person" and s.number not in table.told_the_end]
    if not away:
        return
    names = " and ".join(f"{s.name} ({SEAT_NAMES[s.number]})" for s in away)
    app.notify(f"{names} {'is' if len(away) == 1 else 'are'} away and not told yet how the "
               f"game ended: the table stays open up to {GRACE:g} s for them to come back "
               "for its record (q: close it now).", timeout=GRACE)
    await hosted.serve_until_over(GRACE)


__all__ = ["GRACE", "close_hosted", "hosted_table", "keep_hosted", "leave_and_close"]
