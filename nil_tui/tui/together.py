"""Playing together from the app: hosting a table (setup's **Host a table**, and
``nil-tui host`` on a terminal), joining one by its invite (**Join a table**), and the lobby
in between. The table itself is opened by :mod:`nil_tui.net.hosting` (the same function as
the line program's); once its game starts, the lobby hands its connection to the table
screen (:func:`nil_tui.tui.remote_table.show_remote_table`).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from .app import NilApp
from .hosted import hosted_table, keep_hosted, leave_and_close
from .remote_table import show_remote_table

if TYPE_CHECKING:
    import ssl

    from textual.app import ComposeResult
    from textual.screen import ModalScreen

    from ..game.options import PlayOptions
    from ..net.client import TableClient
    from ..net.hosting import HostedTable, HostSettings
    from ..net.keys import Invite


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


# --- nil-tui join on a terminal ----------------------------------------------------------------
@dataclass
class JoinRequest:
    invite: Invite
    name: str | None
    seat: int | None
    tls: ssl.SSLContext | None
    home: Path


def leave_question() -> ModalScreen[bool]:
    """Quit? At a shared table quitting leaves the seat, which waits for its player."""
    from rich.text import Text
    from textual.containers import Vertical
    from textual.widgets import Static

    from .screens.dialogs import ConfirmQuit

    class LeaveTable(ConfirmQuit):
        def compose(self) -> ComposeResult:
            with Vertical(id="confirm"):
                yield Static(Text("Leave the table?", style="bold"))
                yield Static("The game goes on: the table waits for you a moment, then a bot "
                             "plays for you. The same nil-tui join brings you back to your "
                             "seat.")
                yield Static(Text("y: leave      n / Esc / Enter: keep playing", style="dim"))

    return LeaveTable()


class JoinApp(NilApp):
    """The app for ``nil-tui join``: it sits at the table, then shows its lobby and its
    table (with game over and the record kept in the player's history)."""

    def __init__(self, request: JoinRequest) -> None:
        super().__init__("join")
        self.request = request
        self.together_exit = True  # leaving the lobby ends the program (no setup to go to)

    def _begin(self) -> None:
        from dataclasses import replace

        from .ascii import use_ascii

        self.options = replace(self.home.load_options(), from_setup=False)
        use_ascii(self, self.options.ascii)
        self.run_worker(self._join(), group="remote-table", exclusive=True)
        self._check_size()

    def action_request_quit(self) -> None:
        from .screens.dialogs import ConfirmQuit
        from .screens.table import TableScreen

        if isinstance(self.screen, ConfirmQuit):
            return
        if any(isinstance(s, TableScreen) and s.in_progress for s in self.screen_stack):
            self.push_screen(leave_question(), lambda leave: self.exit(0) if leave else None)
        else:
            self.exit(0)

    async def _join(self) -> None:
        from ..net.client import TableClient
        from ..net.joining import connect
        from ..net.keys import kept_key

        request = self.request
        kept = kept_key(request.home, request.invite)
        client = TableClient(request.invite, name=request.name, key=kept[0] if kept else None,
                             seat=request.seat, tls=request.tls)
        problem = await connect(client, request.home, kept is not None)
        if problem is not None:
            self.exit(1, message=f"nil-tui join: {problem}")
            return
        show_lobby(self, client, invite=str(request.invite), home=request.home)


def join_app(request: JoinRequest) -> int:
    """``nil-tui join`` on a terminal: the table on screen until the player quits."""
    from . import lifecycle

    problem = lifecycle.missing_terminal("nil-tui join")
    if problem:
        lifecycle.say(problem)
        return lifecycle.EXIT_NO_TERMINAL
    return lifecycle.run(JoinApp(request), "nil-tui join")


__all__ = ["HostApp", "JoinApp", "JoinRequest", "host_app", "host_table", "join_app", "join_table",
           "settings_from", "show_lobby"]
