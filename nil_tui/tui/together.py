"""Playing together from the app: hosting a table (setup's **Host a table**, and
``nil-tui host`` on a terminal), joining one by its invite (**Join a table**), and the lobby
in between. The table itself is opened by :mod:`nil_tui.net.hosting` (the same function as
the line program's); once its game starts, the lobby hands its connection to the table
screen (:func:`nil_tui.tui.remote_table.show_remote_table`).
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from .hosted import hosted_table, keep_hosted, leave_and_close
from .remote_table import show_remote_table

if TYPE_CHECKING:

    from ..game.options import PlayOptions
    from ..net.client import TableClient
    from ..net.hosting import HostedTable, HostSettings
    from .app import NilApp


def settings_from(options: PlayOptions, name: str | None,
                  home: Path | None = None) -> HostSettings:
    """The table setup's choices make: its deals, seed, bots and scoring; the host at South."""
    from ..net.hosting import HostSettings

    west, north, east = options.bots
    return HostSettings(deals=options.deals, seed=options.seed,
                        bots=("normal", west, north, east), scoring=options.scoring,
                        name=name or None, home=home, own_history=False)


async def host_table(app: NilApp, settings: HostSettings) -> str | None:
    """Open a table in this app, sit at South and show the lobby; None, or why not (one
    line: nothing was changed)."""
    from ..net.client import JoinError
    from ..net.hosting import HostError, open_table

    if hosted_table(app) is not None:
        return "this app hosts a table already"
    try:
        try:
            hosted = await open_table(settings)
        except HostError:
            if settings.port is not None or settings.resume:
                raise
            # the usual port is taken (another table?): any free one will do
            hosted = await open_table(replace(settings, port=0))
    except HostError as exc:
        return str(exc)
    client = hosted.own_client()
    try:
        await client.connect()
    except JoinError as exc:
        await hosted.close()
        return exc.reason
    keep_hosted(app, hosted)
    from ..net.keys import keep_key
    from ..util.paths import default_home

    home = settings.home or default_home()
    with contextlib.suppress(OSError):  # the host's own seat, kept as a friend's (its help)
        if client.key is not None and client.seat is not None:
            keep_key(home, client.invite, client.key, client.seat)
    show_lobby(app, client, hosted=hosted, home=home)
    return None


async def join_table(app: NilApp, invite_text: str, name: str | None,
                     home: Path | None = None) -> str | None:
    """Join a table by its invite and show the lobby (or the table, when its game is under
    way: a seat key kept from before brings the player back); None, or why not."""
    import ssl

    from ..net.client import TableClient
    from ..net.joining import connect
    from ..net.keys import InviteError, kept_key, parse_invite
    from ..util.paths import default_home

    try:
        invite = parse_invite(invite_text)
    except InviteError as exc:
        return str(exc)
    home = home or default_home()
    kept = kept_key(home, invite)
    tls = ssl.create_default_context() if invite.tls else None
    client = TableClient(invite, name=name or None, key=kept[0] if kept else None, tls=tls)
    problem = await connect(client, home, kept is not None)
    if problem is not None:
        await client.close()
        return problem
    show_lobby(app, client, invite=str(invite), home=home)
    return None


def show_lobby(app: NilApp, client: TableClient, *, hosted: HostedTable | None = None,
               invite: str | None = None, home: Path | None = None) -> None:
    """The lobby of the table ``client`` is seated at (a connected client): it hands over to
    the table screen as the game starts."""
    from .screens.lobby import LobbyScreen

    def started() -> None:
        app.call_later(lambda: show_remote_table(app, client, home=home))

    def leave() -> None:
        app.run_worker(leave_and_close(app, client, hosted), group="together", exclusive=True)

    if hosted is not None:
        screen = LobbyScreen(client, invite=str(hosted.invite), code=hosted.code,
                             local_only=hosted.local_only, on_start=started, on_leave=leave,
                             leaving="The table closes: the others at it are sent away.")
    else:
        screen = LobbyScreen(client, invite=invite, on_start=started, on_leave=leave)
    app.replace_stack(screen)


__all__ = ["host_table", "join_table", "settings_from", "show_lobby"]
