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
    from .face import Opening


class TableApp(NilApp):
    """An app opened on a shared table instead of setup (``nil-tui host``, ``nil-tui join``):
    it goes to the table at once (:meth:`_open`, in a worker), and ends when its player
    leaves, asked first while a game is under way (:meth:`leave_question`)."""

    WORKERS = ""
    """The group of the worker that opens the table."""

    def __init__(self, start: Opening) -> None:
        super().__init__(start)
        self.together_exit = True  # leaving the lobby ends the program (no setup to go to)

    def _begin(self) -> None:
        from dataclasses import replace

        from .ascii import use_ascii

        self.options = replace(self.home.load_options(), from_setup=False)
        use_ascii(self, self.options.ascii)
        self.run_worker(self._open(), group=self.WORKERS, exclusive=True)
        self._check_size()

    async def _open(self) -> None:
        raise NotImplementedError

    def leave_question(self) -> ModalScreen[bool]:
        """Leave the table? (asked when the player quits while a game is under way)"""
        raise NotImplementedError

    def asks_to_leave(self, screen: object) -> bool:
        """Whether ``screen`` is such a question already (a quit key over it does nothing)."""
        raise NotImplementedError

    def action_request_quit(self) -> None:
        from .screens.table import TableScreen

        if self.asks_to_leave(self.screen):
            return
        if any(isinstance(s, TableScreen) and s.in_progress for s in self.screen_stack):
            self.push_screen(self.leave_question(),
                             lambda leave: self.exit(0) if leave else None)
        else:
            self.exit(0)


def run_table_app(app: TableApp, command: str) -> int:
    """``command`` on a terminal (it refuses at once without one): ``app`` until it ends."""
    from . import lifecycle

    problem = lifecycle.missing_terminal(command)
    if problem:
        lifecycle.say(problem)
        return lifecycle.EXIT_NO_TERMINAL
    return lifecycle.run(app, command)


class HostApp(TableApp):
    """The app for ``nil-tui host`` on a terminal: it opens the table, seats the host at
    South and shows the lobby, then the table. Leaving the lobby, or quitting, closes the
    table (``nil-tui host --resume`` brings back a game under way, with the same invite)."""

    WORKERS = "together"

    def __init__(self, settings: HostSettings) -> None:
        super().__init__("host")
        self.settings = settings

    async def _open(self) -> None:
        problem = await host_table(self, self.settings)
        if problem is not None:
            self.exit(2, message=f"nil-tui host: {problem}")

    def leave_question(self) -> ModalScreen[bool]:
        from .screens.lobby import ConfirmLeave

        return ConfirmLeave("The table closes; nil-tui host --resume brings it back, with "
                            "the same invite.")

    def asks_to_leave(self, screen: object) -> bool:
        from .screens.lobby import ConfirmLeave

        return isinstance(screen, ConfirmLeave)


def host_app(settings: HostSettings) -> int:
    """``nil-tui host`` on a terminal: the lobby, then the table, until the host quits."""
    return run_table_app(HostApp(settings), "nil-tui host")


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


class JoinApp(TableApp):
    """The app for ``nil-tui join``: it sits at the table, then shows its lobby and its
    table (with game over and the record kept in the player's history)."""

    WORKERS = "remote-table"

    def __init__(self, request: JoinRequest) -> None:
        super().__init__("join")
        self.request = request

    def leave_question(self) -> ModalScreen[bool]:
        return leave_question()

    def asks_to_leave(self, screen: object) -> bool:
        from .screens.dialogs import ConfirmQuit

        return isinstance(screen, ConfirmQuit)

    async def _open(self) -> None:
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
    return run_table_app(JoinApp(request), "nil-tui join")


__all__ = ["HostApp", "JoinApp", "JoinRequest", "TableApp", "host_app", "join_app",
           "leave_question", "run_table_app"]
