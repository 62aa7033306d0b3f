"""Playing together from the app: hosting a table (setup's **Host a table**, and
``nil-tui host`` on a terminal), joining one by its invite (**Join a table**), and the lobby
in between. The table itself is opened by :mod:`nil_tui.net.hosting` (the same function as
the line program's); once its game starts, the lobby hands its connection to the table
screen (:func:`nil_tui.tui.remote_table.show_remote_table`).
"""

from __future__ import annotations

import contextlib
import weakref
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.widget import Widget

from .app import NilApp

if TYPE_CHECKING:
    from textual.app import App

    from ..net.client import TableClient
    from ..net.hosting import HostedTable, HostSettings
    from ..options import PlayOptions

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
    from ..paths import default_home

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
    from ..net.commands import _connect
    from ..net.keys import InviteError, kept_key, parse_invite
    from ..paths import default_home

    try:
        invite = parse_invite(invite_text)
    except InviteError as exc:
        return str(exc)
    home = home or default_home()
    kept = kept_key(home, invite)
    tls = ssl.create_default_context() if invite.tls else None
    client = TableClient(invite, name=name or None, key=kept[0] if kept else None, tls=tls)
    problem = await _connect(client, home, kept is not None)
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
        app.call_later(show_table, app, client, home)

    def leave() -> None:
        app.run_worker(_leave(app, client, hosted), group="together", exclusive=True)

    if hosted is not None:
        screen = LobbyScreen(client, invite=str(hosted.invite), code=hosted.code,
                             local_only=hosted.local_only, on_start=started, on_leave=leave,
                             leaving="The table closes: the others at it are sent away.")
    else:
        screen = LobbyScreen(client, invite=invite, on_start=started, on_leave=leave)
    app.replace_stack(screen)


def show_table(app: NilApp, client: TableClient, home: Path | None) -> None:
    """The table screen for this seat, drawn from what the table sends."""
    try:
        from .remote_table import show_remote_table  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        app.notify("The game has started; this version cannot show a shared table yet: "
                   "play it with nil-tui join --text.", severity="warning", timeout=10)
        return
    show_remote_table(app, client, home=home)


GRACE = 60.0
"""How long a table whose game is over stays open, after its host leaves, for a player who
was away at the end to come back for the game's record."""


async def _leave(app: NilApp, client: TableClient, hosted: HostedTable | None) -> None:
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
    away = [s for s in table.seats if s.kind == "person" and s.number not in table.told_the_end]
    if not away:
        return
    names = " and ".join(f"{s.name} ({SEAT_NAMES[s.number]})" for s in away)
    app.notify(f"{names} {'is' if len(away) == 1 else 'are'} away and not told yet how the "
               f"game ended: the table stays open up to {GRACE:g} s for them to come back "
               "for its record (q: close it now).", timeout=GRACE)
    await hosted.serve_until_over(GRACE)


class HostApp(NilApp):
    """The app for ``nil-tui host`` on a terminal: it opens the table, seats the host at
    South and shows the lobby, then the table. Leaving the lobby, or quitting, closes the
    table (``nil-tui host --resume`` brings back a game under way, with the same invite)."""

    def __init__(self, settings: HostSettings) -> None:
        super().__init__("host")
        self.settings = settings
        self.together_exit = True  # leaving the lobby ends the program (no setup to go to)

    def _begin(self) -> None:
        from dataclasses import replace as with_

        from .ascii import use_ascii

        self.options = with_(self.home.load_options(), from_setup=False)
        use_ascii(self, self.options.ascii)
        self.run_worker(self._open(), group="together", exclusive=True)
        self._check_size()

    async def _open(self) -> None:
        problem = await host_table(self, self.settings)
        if problem is not None:
            self.exit(2, message=f"nil-tui host: {problem}")

    def action_request_quit(self) -> None:
        from .screens.lobby import ConfirmLeave
        from .screens.table import TableScreen

        if isinstance(self.screen, ConfirmLeave):
            return
        if any(isinstance(s, TableScreen) and s.in_progress for s in self.screen_stack):
            self.push_screen(ConfirmLeave("The table closes; nil-tui host --resume brings "
                                          "it back, with the same invite."),
                             lambda leave: self.exit(0) if leave else None)
        else:
            self.exit(0)


def host_app(settings: HostSettings) -> int:
    """``nil-tui host`` on a terminal: the lobby, then the table, until the host quits."""
    from . import lifecycle

    problem = lifecycle.missing_terminal("nil-tui host")
    if problem:
        lifecycle.say(problem)
        return lifecycle.EXIT_NO_TERMINAL
    return lifecycle.run(HostApp(settings), "nil-tui host")


__all__ = ["HostApp", "host_app", "host_table", "hosted_table", "join_table", "settings_from",
           "show_lobby"]
