"""A seat at a shared table on the table screen: the same screen as a game played here, drawn
from what the table sends (:class:`~nil_tui.net.remote.RemoteSession`).

:func:`show_remote_table` is called once the game has started (from the lobby, or at once for
a player who comes back); :func:`join_app` is ``nil-tui join`` on a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .app import NilApp

if TYPE_CHECKING:
    import ssl

    from textual.app import ComposeResult
    from textual.screen import ModalScreen

    from ..engine import Game
    from ..net.client import TableClient
    from ..net.keys import Invite


def show_remote_table(app: NilApp, client: TableClient, *, home: Path | None = None) -> None:
    """Show the table screen for ``client``'s seat (connected and seated; the lobby may have
    read up to the game's start). Call from the app's loop; it returns at once, and the table
    is shown as soon as the table has sent the seat's position."""
    app.run_worker(_open(app, client, home), group="remote-table", exclusive=True)


async def _open(app: NilApp, client: TableClient, home: Path | None) -> None:
    from ..net.keys import keep_assists, kept_assists
    from ..net.remote import RemoteSession
    from .screens.table import TableScreen

    # The help this player used in this game (hints, the meter) is kept with the seat's key,
    # so that their game is still assisted when they come back.
    kept = kept_assists(home, client.invite) if home is not None else []
    session = RemoteSession(
        client, app.home.load_options(), on_finished=_keeper(app),
        reconnect=lambda: reconnect(client), assists=kept,
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
    from .together import _leave, hosted_table

    app.run_worker(_leave(app, client, hosted_table(app)), group="together", exclusive=True)


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
        from ..net.commands import _connect
        from ..net.keys import kept_key

        request = self.request
        kept = kept_key(request.home, request.invite)
        client = TableClient(request.invite, name=request.name, key=kept[0] if kept else None,
                             seat=request.seat, tls=request.tls)
        problem = await _connect(client, request.home, kept is not None)
        if problem is not None:
            self.exit(1, message=f"nil-tui join: {problem}")
            return
        try:
            from .together import show_lobby  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            show_remote_table(self, client, home=request.home)
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


__all__ = ["JoinApp", "JoinRequest", "join_app", "reconnect", "show_remote_table"]
