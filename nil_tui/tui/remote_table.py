"""A seat at a shared table on the table screen: the same screen as a game played here, drawn
from what the table sends (:class:`~nil_tui.net.remote.RemoteSession`).

:func:`show_remote_table` is called once the game has started (from the lobby, or at once for
a player who comes back).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..engine import Game
    from ..net.client import TableClient
    from .app import NilApp


def show_remote_table(app: NilApp, client: TableClient, *, home: Path | None = None) -> None:
    """Show the table screen for ``client``'s seat (connected and seated; the lobby may have
    read up to the game's start). Call from the app's loop; it returns at once, and the table
    is shown as soon as the table has sent the seat's position."""
    app.run_worker(_open(app, client, home), group="remote-table", exclusive=True)


async def _open(app: NilApp, client: TableClient, home: Path | None) -> None:
    from ..net.keys import keep_assists, kept_assists
    from ..net.link import SeatLink
    from ..net.remote import RemoteSession
    from .screens.table import TableScreen

    # The help this player used in this game (hints, the meter) is kept with the seat's key,
    # so that their game is still assisted when they come back.
    kept = kept_assists(home, client.invite) if home is not None else []
    session = RemoteSession(
        SeatLink(client, reconnect=lambda: reconnect(client)), app.home.load_options(),
        on_finished=_keeper(app), assists=kept,
        on_assist=(lambda used: keep_assists(home, client.invite, used))
        if home is not None else None)
    if not await session.ready():
        app.notify("The table closed the connection before the game started.",
                   severity="error", timeout=10)
        return
    session.leave = lambda: leave_table(app, client)
    app.replace_stack(TableScreen(session))


def leave_table(app: NilApp, client: TableClient) -> None:
    """After the game: away from the table (the program ends for ``nil-tui join`` and
    ``nil-tui host``; back to setup for a table joined or hosted from it)."""
    from .hosted import hosted_table, leave_and_close

    app.run_worker(leave_and_close(app, client, hosted_table(app)), group="together", exclusive=True)


def _keeper(app: NilApp) -> Any:
    """Keep a finished game in the player's history, the other people named."""

    def keep(game: Game) -> Path | None:
        record = game.to_record()
        others = [str(p.get("bot") or p.get("name")) for p in record["players"][1:]]
        kept: Path | None = app.home.keeper.guarded(
            "keep the finished game",
            lambda: app.store.finish_game(record, {"table": True, "bots": others}), None)
        return kept

    return keep


async def reconnect(client: TableClient) -> bool:
    """Take the seat back with its key after a lost link, for a while (the link may come
    back: a laptop wakes, a cable is put back); False when the table refuses or cannot be
    reached within the time :func:`~nil_tui.net.client.rejoin` tries for."""
    from ..net.client import rejoin

    return await rejoin(client) is None


__all__ = ["leave_table", "reconnect", "show_remote_table"]
