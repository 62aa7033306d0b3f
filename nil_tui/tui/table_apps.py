"""The apps of ``nil-tui host`` and ``nil-tui join`` on a terminal: the app, opened on the
table's lobby (:mod:`.together`) instead of setup, that ends when its player leaves the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .app import NilApp
from .together import host_table, show_lobby

if TYPE_CHECKING:
    import ssl
    from pathlib import Path

    from textual.app import ComposeResult
    from textual.screen import ModalScreen

    from ..net.hosting import HostSettings
    from ..net.keys import Invite


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


__all__ = ["HostApp", "JoinApp", "JoinRequest", "host_app", "join_app", "leave_question"]
