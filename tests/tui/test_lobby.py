"""The lobby of a shared table, driven by a fake connection: who sits where as people come and
go, the owner's key that starts the game, the others waiting, leaving (asked first), the
handover to the table screen, the table closing; and the host/join dialogs of setup."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.app import App
from textual.widgets import Input, Static

from nil_tui.tui.screens.lobby import ConfirmLeave, LobbyScreen, TableDialog

INVITE = "nil://127.0.0.1:4711/abcdefghijklmnopqrstuvwxyz"


def lobby_message(people: dict[int, str], events: list[dict[str, Any]] | None = None,
                  kind: str = "lobby") -> dict[str, Any]:
    seats = []
    for n in range(4):
        if n in people:
            seats.append({"seat": n, "kind": "person", "name": people[n], "bot": None,
                          "present": True, "stand_in": False})
        else:
            seats.append({"seat": n, "kind": "empty", "name": "", "bot": None,
                          "present": False, "stand_in": False})
    return {"type": kind, "seats": seats, "events": events or [], "deals": 3,
            "bots": ["normal", "easy", "hard", "expert"], "scoring": "pool"}


class FakeClient:
    """What the lobby reads and sends: messages are fed by the test."""

    def __init__(self, seat: int = 0, owner: bool = True) -> None:
        self.seat = seat
        self.owner = owner
        self.seats: dict[str, Any] | None = None
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.started = 0
        self.read = 0

    async def receive(self, timeout: float | None = None) -> Any:
        message = await self.queue.get()
        self.read += 1
        if isinstance(message, dict) and message.get("type") in ("lobby", "seats"):
            self.seats = message
        return message

    async def start(self) -> int:
        self.started += 1
        return self.started

    def feed(self, message: Any) -> None:
        self.queue.put_nowait(message)


class Host(App[None]):
    def __init__(self, screen: Any) -> None:
        super().__init__()
        self.first = screen

    def on_mount(self) -> None:
        self.push_screen(self.first)


def shown(app: App[Any]) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def status(screen: LobbyScreen) -> str:
    return str(screen.query_one("#lobby-status", Static).render())


async def until(pilot: Any, check: Any) -> None:
    for _ in range(100):
        await pilot.pause()
        if check():
            return
    raise AssertionError("not reached")


async def test_seats_follow_people_coming_and_going_and_the_owner_starts() -> None:
    client = FakeClient(seat=0, owner=True)
    events: list[str] = []
    screen = LobbyScreen(client, invite=INVITE, code="127.0.0.1:4711/abcd-efgh",
                         on_start=lambda: events.append("start"),
                         on_leave=lambda: events.append("leave"))
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Waiting for the table" in shown(app))
        text = shown(app)
        assert f"nil-tui join {INVITE}" in text and "abcd-efgh" in text
        client.feed(lobby_message({0: "Hana"}, [{"kind": "joined", "seat": 0,
                                                 "name": "Hana"}]))
        await until(pilot, lambda: "Hana" in shown(app))
        text = shown(app)
        assert "3 deals · pool scoring" in text
        assert "South  Hana  (you)" in text
        assert "West   empty: bot easy" in text and "East   empty: bot expert" in text
        assert "Enter or s: start the game" in text and "Start the game" in text
        client.feed(lobby_message({0: "Hana", 1: "Gus"},
                                  [{"kind": "joined", "seat": 1, "name": "Gus"}]))
        await until(pilot, lambda: "West   Gus" in shown(app))
        assert "Gus sits down at West" in shown(app)
        client.feed(lobby_message({0: "Hana"}, [{"kind": "left", "seat": 1}]))
        await until(pilot, lambda: "West   empty: bot easy" in shown(app))
        assert "West is free again" in shown(app)
        await pilot.press("s")
        await pilot.pause()
        assert client.started == 1 and "Starting the game" in status(screen)
        await pilot.press("enter", "s")  # asked once: more keys send nothing more
        assert client.started == 1
        assert events == []
        # The game starts: the lobby stops reading at the first message of the game, so
        # that the table screen reads the rest.
        client.feed(lobby_message({0: "Hana"}, [{"kind": "started"}], kind="seats"))
        client.feed({"type": "not for the lobby"})
        await until(pilot, lambda: events == ["start"])
        await pilot.pause()
        assert client.read == 4 and client.queue.qsize() == 1


async def test_a_guest_waits_for_the_host_and_its_keys_start_nothing() -> None:
    client = FakeClient(seat=1, owner=False)
    screen = LobbyScreen(client, invite=INVITE)
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        client.feed(lobby_message({0: "Hana", 1: "Gus"}))
        await until(pilot, lambda: "West   Gus  (you)" in shown(app))
        assert "Waiting for the host to start the game" in shown(app)
        assert "Start the game" not in shown(app)  # not in the footer either
        await pilot.press("enter", "s")
        assert client.started == 0


async def test_leaving_asks_first_and_a_refusal_is_said() -> None:
    client = FakeClient()
    left: list[bool] = []
    screen = LobbyScreen(client, on_leave=lambda: left.append(True))
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        client.feed(lobby_message({0: "Hana"}))
        await until(pilot, lambda: "Hana" in shown(app))
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmLeave)
        await pilot.press("n")  # stay
        await pilot.pause()
        assert app.screen is screen and left == []
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("escape")  # Esc in the question stays too
        await pilot.pause()
        assert app.screen is screen and left == []
        client.feed({"type": "refused", "code": "not_owner",
                     "reason": "only the host starts the game"})
        await until(pilot, lambda: "only the host starts" in status(screen))
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert left == [True]


async def test_a_table_that_closes_is_said_and_esc_leaves_without_asking() -> None:
    client = FakeClient(seat=2, owner=False)
    left: list[bool] = []
    screen = LobbyScreen(client, on_leave=lambda: left.append(True))
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        client.feed(lobby_message({0: "Hana", 2: "Ned"}))
        client.feed(None)  # the connection closed
        await until(pilot, lambda: "closed the connection" in status(screen))
        await pilot.press("escape")
        await pilot.pause()
        assert left == [True]


async def test_the_lobby_fits_80x24_with_every_seat_and_news() -> None:
    client = FakeClient()
    long_invite = "nils://[2001:db8:ffff::1]:65535/" + "a" * 26
    screen = LobbyScreen(client, invite=long_invite, code="x" * 60, local_only=True)
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        names = {0: "H" * 24, 1: "G" * 24, 2: "N" * 24, 3: "E" * 24}
        for seat in range(4):
            client.feed(lobby_message({s: names[s] for s in range(seat + 1)},
                                      [{"kind": "joined", "seat": seat,
                                        "name": names[seat]}]))
        client.feed({"type": "refused", "code": "x", "reason": "r" * 70})
        await until(pilot, lambda: "r" * 60 in shown(app))
        text = shown(app)
        lines = text.splitlines()
        assert len(lines) == 24
        for needle in (long_invite, "E" * 24, "sits down at East", "Leave"):
            assert needle in text, text
        lobby = screen.query_one("#lobby")
        assert lobby.region.bottom <= 23  # above the footer, nothing cut off
        assert screen.query_one("#lobby-status").region.bottom <= 23


async def test_the_join_dialog_says_a_bad_invite_in_one_line_and_stays() -> None:
    tried: list[tuple[str, str]] = []

    async def submit(invite: str, name: str) -> str | None:
        tried.append((invite, name))
        return None if invite == "good" else "an invite starts with nil:// or nils://"

    from textual.screen import Screen

    app = Host(Screen())

    async with app.run_test(size=(80, 24)) as pilot:
        dialog = TableDialog(submit, join=True)
        app.push_screen(dialog)
        await pilot.pause()
        await pilot.press("enter")  # nothing typed: said, nothing tried
        await pilot.pause()
        assert tried == [] and "Type the invite first" in shown(app)
        await pilot.press(*"http://x", "tab", *"Ann", "enter")
        await until(pilot, lambda: "Cannot join: an invite starts" in shown(app))
        assert tried == [("http://x", "Ann")] and app.screen is dialog
        invite = dialog.query_one("#invite", Input)
        invite.value = "good"
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is not dialog)
        assert tried[-1] == ("good", "Ann")
        app.push_screen(TableDialog(submit, join=False))
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, TableDialog)
