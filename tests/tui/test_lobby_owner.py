"""The lobby says who may start the game, and the key to start comes to a guest when the right
passes to them (the owner left); it says how long the table waits for a player away or
silent."""

from __future__ import annotations

from typing import Any

from test_lobby import INVITE, FakeClient, Host, lobby_message, shown, status, until

from nil_tui.tui.screens.lobby import LobbyScreen


class Client(FakeClient):
    """Follows the owner named by each lobby, as the table's client does."""

    async def receive(self, timeout: float | None = None) -> Any:
        message = await super().receive(timeout)
        if isinstance(message, dict) and "owner" in message:
            self.owner = message["owner"] == self.seat
        return message


def lobby(people: dict[int, str], owner: int, events: list[dict[str, Any]] | None = None,
          ) -> dict[str, Any]:
    return {**lobby_message(people, events), "owner": owner, "away_timeout": 60.0,
            "turn_timeout": 120.0}


async def test_a_guest_is_told_who_starts_and_may_start_once_the_owner_has_left() -> None:
    client = Client(seat=1, owner=False)
    screen = LobbyScreen(client, invite=INVITE)
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        client.feed(lobby({0: "Hana", 1: "Gus"}, owner=0))
        await until(pilot, lambda: "West   Gus  (you)" in shown(app))
        assert "Waiting for Hana to start the game" in status(screen)
        assert "Away 60 s, or silent 120 s on one's turn: a bot plays" in status(screen)
        await pilot.press("s")
        assert client.started == 0
        client.feed(lobby({1: "Gus"}, owner=1, events=[{"kind": "left", "seat": 0},
                                                       {"kind": "owner", "seat": 1}]))
        await until(pilot, lambda: "Enter or s: start the game" in status(screen))
        assert "Gus may start the game now" in shown(app)
        await pilot.press("s")
        await pilot.pause()
        assert client.started == 1


async def test_the_lobby_with_its_waits_still_fits_80x24() -> None:
    client = Client(seat=1, owner=False)
    long_invite = "nils://[2001:db8:ffff::1]:65535/" + "a" * 26
    screen = LobbyScreen(client, invite=long_invite, code="x" * 60, local_only=True)
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        names = {0: "H" * 24, 1: "G" * 24, 2: "N" * 24, 3: "E" * 24}
        for seat in range(4):
            client.feed(lobby({s: names[s] for s in range(seat + 1)}, owner=0,
                              events=[{"kind": "joined", "seat": seat, "name": names[seat]}]))
        await until(pilot, lambda: "sits down at East" in shown(app))
        text = shown(app)
        for needle in (long_invite, "E" * 24, "Waiting for " + "H" * 24, "a bot plays"):
            assert needle in text, text
        assert screen.query_one("#lobby").region.bottom <= 23
        assert screen.query_one("#lobby-status").region.bottom <= 23
