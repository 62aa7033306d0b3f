"""The lobby of a shared table: the invite to pass on, who sits where (updated as people come
and go), and, for the table's owner, the key that starts the game. The others wait for it.

The screen reads its connection to the table (a worker) until the game starts, and then hands
the connection over to the table screen, with the game's first messages still unread.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Protocol

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label, Static

from ...engine import SEAT_NAMES
from ...util.textsafe import one_line
from .base import NilScreen

NOTICES = 4  # the newest comings and goings shown


class LobbyClient(Protocol):
    """What the lobby needs of a connection to a table (:class:`~nil_tui.net.client.
    TableClient` is one)."""

    seat: int | None
    owner: bool
    seats: dict[str, Any] | None

    async def receive(self, timeout: float | None = None) -> Any: ...

    async def start(self) -> int: ...


def seat_lines(message: dict[str, Any] | None, you: int | None) -> list[Text]:
    """A line for each seat: who sits there, or the bot that will play it."""
    if message is None:
        return [Text("Waiting for the table to say who sits where...", style="dim")]
    bots = message.get("bots")
    lines = []
    for number, seat in enumerate(message.get("seats", [])[:4]):
        line = Text(f"  {SEAT_NAMES[number]:<6} ")
        kind = seat.get("kind")
        if kind == "person":
            line.append(one_line(seat.get("name") or SEAT_NAMES[number]), style="bold")
            if number == you:
                line.append("  (you)")
            if not seat.get("present", True):
                line.append("  (away)", style="yellow")
        elif kind == "bot":
            line.append(f"bot {one_line(seat.get('bot') or 'normal')}")
        elif isinstance(bots, list) and len(bots) == 4:
            line.append(f"empty: bot {one_line(bots[number])}", style="dim")
        else:
            line.append("empty: a bot will play", style="dim")
        lines.append(line)
    return lines


def seat_names(message: dict[str, Any]) -> list[str]:
    names = [one_line(s.get("name") or SEAT_NAMES[i])
             for i, s in enumerate(message.get("seats", [])[:4])]
    while len(names) < 4:
        names.append(SEAT_NAMES[len(names)])
    return names


def notice_text(event: dict[str, Any], message: dict[str, Any]) -> str | None:
    from ...session.words import table_notice

    text = table_notice(event, seat_names(message))
    return one_line(text) if text else None


def who_starts(message: dict[str, Any] | None) -> str:
    """Who may start the game, as the lobby says (the owner passes on when they leave)."""
    owner = message.get("owner") if message is not None else None
    if isinstance(owner, int) and 0 <= owner <= 3 and message is not None:
        return seat_names(message)[owner]
    return "the host"


def waits_text(message: dict[str, Any] | None) -> Text | None:
    """How long the table waits for a player away or silent on their turn."""
    if message is None:
        return None
    away, turn = message.get("away_timeout"), message.get("turn_timeout")
    if not isinstance(away, (int, float)) or not isinstance(turn, (int, float)):
        return None
    return Text(f"\nAway {away:g} s, or silent {turn:g} s on one's turn: a bot plays until "
                "one is back.", style="dim")


class ConfirmLeave(ModalScreen[bool]):
    """Leave the table? The owner's leaving closes it (in-app host) or gives up the seat."""

    CSS = """
    ConfirmLeave { background: $background 55%; align: center middle; }
    ConfirmLeave #leave { width: 64; height: auto; border: thick $accent;
                          background: $surface; padding: 1 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Leave"),
        Binding("n,escape,enter", "answer(False)", "Stay"),
    ]

    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical(id="leave"):
            yield Static(Text("Leave the table?", style="bold"))
            yield Static(self.what)
            yield Static(Text("y: leave      n / Esc / Enter: stay", style="dim"))

    def action_answer(self, answer: bool) -> None:
        if self.is_active:
            self.dismiss(answer)


Submit = Callable[[str, str], Awaitable[str | None]]
"""What a table dialog does with the invite and the name typed: None once done, or why not."""


class TableDialog(ModalScreen[None]):
    """Host a table (a name to sit at South with) or join one (its invite and a name). A
    problem (a bad invite, a table that cannot be reached or refuses) is said in one line
    under the fields, and nothing is changed: the player may correct it, or leave with Esc."""

    CSS = """
    TableDialog { background: $background 55%; align: center middle; }
    TableDialog #table-dialog { width: 76; height: auto; border: thick $accent;
                                background: $surface; padding: 0 1; }
    TableDialog .table-field { height: auto; }
    TableDialog .table-field Label { width: 8; padding: 1 0 0 0; }
    TableDialog .table-field Input { width: 1fr; }
    TableDialog .table-field Input:focus { border: heavy $primary; }
    TableDialog #table-problem { height: auto; }
    TableDialog #table-keys { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, submit: Submit, *, join: bool, name: str = "") -> None:
        super().__init__()
        self.submit = submit
        self.join = join
        self.name_typed = name
        self.busy = False

    def compose(self) -> ComposeResult:
        with Vertical(id="table-dialog"):
            if self.join:
                yield Static(Text("Join a table", style="bold"))
                yield Static("Type (or paste) the invite your host gave you.")
                with Horizontal(classes="table-field"):
                    yield Label("Invite")
                    yield Input(placeholder="nil://HOST:PORT/SECRET", id="invite")
            else:
                yield Static(Text("Host a table", style="bold"))
                yield Static("Friends join it from their own terminals; you sit at South, "
                             "bots take the seats nobody takes.")
            with Horizontal(classes="table-field"):
                yield Label("Name")
                yield Input(self.name_typed, placeholder="your name at the table (optional)",
                            id="name", max_length=24)
            yield Static(id="table-problem")
            what = "join" if self.join else "open the table"
            yield Static(f"Enter: {what}    Tab: next field    Esc: cancel", id="table-keys")

    def on_mount(self) -> None:
        self.query_one("#table-problem", Static).display = False
        self.set_focus(self.query_one("#invite" if self.join else "#name", Input))

    def say(self, problem: str | None) -> None:
        line = self.query_one("#table-problem", Static)
        line.update(Text(problem or "", style="bold red"))
        line.display = problem is not None

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.go()

    def go(self) -> None:
        if self.busy:
            return
        invite = self.query_one("#invite", Input).value.strip() if self.join else ""
        if self.join and not invite:
            self.say("Type the invite first (nil://HOST:PORT/SECRET).")
            return
        self.busy = True
        self.say(None)
        self.query_one("#table-keys", Static).update("Connecting..." if self.join
                                                     else "Opening the table...")
        self._go(invite, self.query_one("#name", Input).value.strip())

    @work(exclusive=True, group="table-dialog")
    async def _go(self, invite: str, name: str) -> None:
        problem = await self.submit(invite, name)
        self.busy = False
        if not self.is_attached:
            return  # done: the lobby replaced every screen
        if problem is None:
            if self.is_current:
                self.dismiss(None)
            return
        what = "join" if self.join else "open the table"
        self.query_one("#table-keys", Static).update(
            f"Enter: {what}    Tab: next field    Esc: cancel")
        self.say(f"Cannot {'join' if self.join else 'open the table'}: {one_line(problem)}")

    def action_cancel(self) -> None:
        if self.is_current and not self.busy:
            self.dismiss(None)


class LobbyScreen(NilScreen):
    """Who has sat down at a shared table, before its game starts.

    ``invite`` and ``code``: the invite and the words to read out (shown when known: the host
    knows them, a guest typed them). ``on_start``: called once the game has started (the
    connection's next messages are the game's); ``on_leave``: called when the player leaves
    (after asking), or when the table closed. ``leaving``: what leaving does, in words."""

    CSS = """
    LobbyScreen #lobby { padding: 0 1; height: 1fr; }
    LobbyScreen #lobby-title { height: 1; }
    LobbyScreen #lobby-invite { height: auto; margin-top: 1; }
    LobbyScreen #lobby-seats { height: auto; margin-top: 1; }
    LobbyScreen #lobby-news { height: auto; margin-top: 1; color: $text-muted; }
    LobbyScreen #lobby-status { height: auto; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,s", "start", "Start the game"),
        Binding("escape", "leave", "Leave"),
        Binding("question_mark,f1", "app.rules", "Rules"),
    ]

    def __init__(self, client: LobbyClient, *, invite: str | None = None,
                 code: str | None = None, local_only: bool = False,
                 on_start: Callable[[], object] | None = None,
                 on_leave: Callable[[], object] | None = None,
                 leaving: str = "Your seat is given up; the same invite brings you back "
                 "while the game has not started.") -> None:
        super().__init__()
        self.client = client
        self.invite = invite
        self.code = code
        self.local_only = local_only
        self.on_start = on_start
        self.on_leave = on_leave
        self.leaving = leaving
        self.news: list[str] = []
        self.closed = False  # the table closed the connection
        self.started = False
        self.asked_to_start = False
        self.problem: str | None = None

    # --- drawing -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Vertical(id="lobby"):
            yield Static(id="lobby-title")
            yield Static(self._invite_text(), id="lobby-invite")
            yield Static(id="lobby-seats")
            yield Static(id="lobby-news")
            yield Static(id="lobby-status")
        yield Footer()

    def on_mount(self) -> None:
        self._show()
        self._read()

    def _invite_text(self) -> Text:
        text = Text()
        if self.invite is None:
            return text
        text.append("Invite your friends with:\n")
        command = f"  nil-tui join {self.invite}"
        if len(command) > 76:  # a long address: the invite whole on a line of its own
            command = f"  nil-tui join\n  {self.invite}"
        text.append(command + "\n", style="bold")
        if self.code:
            text.append(f"  (or read out: {self.code})")
        if self.local_only:
            text.append("\n  Listens on this machine only: friends elsewhere use an SSH "
                        "tunnel (see Playing together in the documentation).", style="dim")
        return text

    def _title(self) -> Text:
        message = self.client.seats
        title = Text("Shared table", style="bold")
        if message is not None:
            deals = message.get("deals")
            if isinstance(deals, int):
                title.append(f" · {deals} deal{'s' if deals != 1 else ''}")
            scoring = message.get("scoring")
            if scoring in ("classic", "pool"):
                title.append(f" · {scoring} scoring")
        return title

    def _status(self) -> Text:
        if self.closed:
            return Text("The table closed the connection. Esc: back to setup.",
                        style="bold yellow")
        if self.problem:
            return Text(self.problem, style="bold red")
        if self.asked_to_start:
            return Text("Starting the game...", style="bold")
        if self.client.owner:
            status = Text("Enter or s: start the game (the empty seats get their bots). "
                          "Esc: leave.")
        else:
            status = Text(f"Waiting for {who_starts(self.client.seats)} to start the game. "
                          "Esc: leave.")
        waits = waits_text(self.client.seats)
        return status + waits if waits is not None else status

    def _show(self) -> None:
        if not self.is_attached:
            return
        self.query_one("#lobby-title", Static).update(self._title())
        seats = Text("\n").join(seat_lines(self.client.seats, self.client.seat))
        self.query_one("#lobby-seats", Static).update(seats)
        news = self.query_one("#lobby-news", Static)
        news.update("\n".join(self.news[-NOTICES:]))
        news.display = bool(self.news)
        self.query_one("#lobby-status", Static).update(self._status())
        self.refresh_bindings()

    # --- the table's messages ------------------------------------------------------------
    @work(exclusive=True, group="lobby")
    async def _read(self) -> None:
        """Read the table until the game starts (or the connection closes)."""
        for _ in range(1_000_000):  # bounded: a lobby sees far fewer messages
            message = await self.client.receive()
            if not self.is_attached:
                return
            if message is None:
                self.closed = True
                self._show()
                return
            if not self.seen(message):
                return

    def seen(self, message: Any) -> bool:
        """Take one message from the table; False once the game has started (the messages
        after this one are the table screen's)."""
        if not isinstance(message, dict):  # a value of the game: it is under way
            self._started()
            return False
        kind = message.get("type")
        if kind == "seats":  # the game started (or was under way already)
            self._started()
            return False
        if kind == "lobby":
            self.problem = None
            for event in message.get("events", []):
                if isinstance(event, dict) and event.get("kind") != "started":
                    text = notice_text(event, message)
                    if text:
                        self.news.append(text)
        elif kind in ("refused", "error"):
            self.problem = one_line(message.get("reason") or "the table refused")
            self.asked_to_start = False
        self._show()
        return True

    def _started(self) -> None:
        if self.started:
            return
        self.started = True
        if self.on_start is not None:
            self.on_start()

    # --- keys ----------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not self.is_active:
            return False
        if action == "start":
            return self.client.owner and not self.closed and not self.asked_to_start
        return True

    async def action_start(self) -> None:
        if not self.client.owner or self.closed or self.asked_to_start:
            return
        self.asked_to_start = True
        self._show()
        await self.client.start()

    def action_leave(self) -> None:
        if self.closed:
            self._leave(True)
            return
        self.app.push_screen(ConfirmLeave(self.leaving), self._leave)

    def _leave(self, answer: bool | None) -> None:
        if not answer or self.started:
            return
        self.workers.cancel_group(self, "lobby")
        if self.on_leave is not None:
            self.on_leave()
        else:
            self.dismiss(None)


__all__ = ["ConfirmLeave", "LobbyClient", "LobbyScreen", "TableDialog", "seat_lines"]
