"""Nobody locked out and nothing lost at a shared table: who may start passes on when the
owner leaves the lobby, a seat key still opens its seat after a drop in the lobby, players
who play as fast as the game lets them are never held up by the rate limit, every refusal
names the message it refuses, a player who is connected but silent gets the stand-in bot as
one away does, a go-on is refused while cards are played, and a client of another version is
told what differs."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from procs import Proc, command
from tablehelp import check_record, served

from nil_tui import __version__
from nil_tui.net.client import JoinError, TableClient, play_scripted
from nil_tui.net.keys import parse_invite
from nil_tui.net.server import Limits
from nil_tui.net.wire import PROTOCOL, short_version
from nil_tui.session import messages as session
from nil_tui.session.table import TableConfig, clock


async def until(client: TableClient, test: Any, timeout: float = 10.0) -> Any:
    """Messages until one passes ``test``; it is returned (AssertionError at the deadline or
    when the connection closes)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (left := deadline - loop.time()) > 0:
        try:
            message = await client.receive(left)
        except (asyncio.TimeoutError, TimeoutError):
            break
        assert message is not None, "the connection closed"
        if test(message):
            return message
    raise AssertionError("the message never came")


def of_type(kind: str) -> Any:
    return lambda m: isinstance(m, dict) and m.get("type") == kind


def test_the_first_to_leave_the_lobby_passes_the_start_on(tmp_path: Path) -> None:
    """nil-tui host --no-seat: the first to sit down (the owner) leaves; the next one to sit
    down may start the game, and every lobby says who may."""
    host = Proc(command("host", "--no-seat", "--deals", "2", "--port", "0"), tmp_path / "h")
    try:
        invite = parse_invite(host.read_until(r"nil-tui join (nil://\S+)", 60).group(1))

        async def go() -> None:
            ann = TableClient(invite, name="Ann")
            assert (await ann.connect())["owner"] is True
            lobby = await until(ann, of_type("lobby"))
            assert lobby["owner"] == ann.seat
            await ann.close()
            bob = TableClient(invite, name="Bob")
            await bob.connect()
            lobby = await until(bob, of_type("lobby"))
            assert lobby["owner"] == bob.seat and bob.owner
            asked = await bob.start()
            got = await until(bob, lambda m: isinstance(m, session.TableState)
                              or of_type("refused")(m))
            assert isinstance(got, session.TableState), got
            assert asked not in [r.get("id") for r in bob.refusals]
            await bob.close()

        asyncio.run(asyncio.wait_for(go(), 60))
    finally:
        host.close()


async def test_ownership_comes_back_to_the_host_seat_and_a_quit_frees_a_lobby_seat() -> None:
    async with served(TableConfig(deals=1, seed=5)) as s:
        host_key = s.table.seating.seat_host(0, "Hana")
        gus = TableClient(s.invite, name="Gus")
        await gus.connect()
        assert gus.owner  # the host's own player is not here yet
        hana = TableClient(s.invite, key=host_key)
        welcome = await hana.connect()
        assert welcome["owner"] is True
        lobby = await until(gus, lambda m: of_type("lobby")(m) and m["owner"] == 0)
        assert {"kind": "owner", "seat": 0} in lobby["events"] and not gus.owner
        refused = await gus.start()
        got = await until(gus, of_type("refused"))
        assert (got["code"], got["id"]) == ("not_owner", refused)
        assert "Hana" in got["reason"]
        await gus.act(session.Quit())
        await until(hana, lambda m: of_type("lobby")(m)
                    and {"kind": "left", "seat": 1} in m["events"])
        assert s.table.seating[1].kind == "empty"
        await hana.close()


async def test_a_seat_key_brings_its_player_back_to_the_lobby_after_a_drop() -> None:
    async with served(TableConfig(deals=1, seed=5, away_timeout=30)) as s:
        ann, bob = TableClient(s.invite, name="Ann"), TableClient(s.invite, name="Bob")
        await ann.connect()
        await bob.connect()
        seat, key = bob.seat, bob.key
        await bob.close()
        await until(ann, lambda m: of_type("lobby")(m)
                    and {"kind": "away", "seat": seat, "wait": 30.0} in m["events"])
        again = TableClient(s.invite, key=key)
        welcome = await again.connect()
        assert (welcome["seat"], welcome["name"]) == (seat, "Bob")
        await ann.close()
        await again.close()


async def test_a_lobby_seat_left_longer_than_the_away_timeout_is_free_again() -> None:
    async with served(TableConfig(deals=1, seed=5, away_timeout=0.2)) as s:
        ann, bob = TableClient(s.invite, name="Ann"), TableClient(s.invite, name="Bob")
        await ann.connect()
        await bob.connect()
        seat, key = bob.seat, bob.key
        await bob.close()
        await until(ann, lambda m: of_type("lobby")(m)
                    and {"kind": "left", "seat": seat} in m["events"])
        with pytest.raises(JoinError) as caught:
            await TableClient(s.invite, key=key).connect()
        assert caught.value.code == "unknown_key"
        await ann.close()


async def test_four_players_as_fast_as_the_game_lets_them_never_hit_the_rate() -> None:
    limits = Limits(rate=5, burst=10)  # far below what four quick players send
    async with served(TableConfig(deals=3, seed=7, start_when=4), limits) as s:
        clients = [TableClient(s.invite, name=n) for n in ("A", "B", "C", "D")]
        for c in clients:
            await c.connect()
        records = await asyncio.wait_for(asyncio.gather(
            *(play_scripted(c, random.Random(i)) for i, c in enumerate(clients))), 60)
        assert all(r is not None for r in records)
        check_record(records[0])  # type: ignore[arg-type]
        assert [r for c in clients for r in c.refusals] == []
        for c in clients:
            await c.close()


async def test_every_rate_refusal_names_its_message_and_nothing_is_done() -> None:
    limits = Limits(rate=1, burst=3, flood_close=1000)
    async with served(TableConfig(deals=1, seed=8), limits) as s:
        ann = TableClient(s.invite, name="Ann")
        await ann.connect()
        sent = [await ann.send({"type": "ping"}) for _ in range(12)]
        answered: dict[int, str] = {}
        while len(answered) < len(sent):
            got = await until(ann, lambda m: of_type("pong")(m) or of_type("refused")(m))
            answered[got["id"]] = got["type"] if got["type"] == "pong" else got["code"]
        assert sorted(answered) == sent
        assert set(answered.values()) == {"pong", "rate"}
        # a refused message did nothing: the same request with a new id, later, is answered
        await asyncio.sleep(1.1)
        again = await ann.send({"type": "ping"})
        got = await until(ann, lambda m: m.get("id") == again if isinstance(m, dict)
                          else False)
        assert got["type"] == "pong"
        await ann.close()


async def test_a_silent_player_gets_the_stand_in_after_the_turn_timeout() -> None:
    config = TableConfig(deals=1, seed=9, start_when=2, turn_timeout=0.3, away_timeout=60)
    async with served(config) as s:
        ann, bob = TableClient(s.invite, name="Ann"), TableClient(s.invite, name="Bob")
        await ann.connect()
        await bob.connect()
        seen: list[Any] = []

        async def silent() -> None:  # connected, reading, never playing
            while (message := await bob.receive(60)) is not None:
                seen.append(message)
                if bob.record is not None:
                    return

        listening = asyncio.ensure_future(silent())
        record = await asyncio.wait_for(play_scripted(ann, random.Random(1)), 60)
        await asyncio.wait_for(listening, 10)
        assert record is not None
        check_record(record)
        stood_in = record.get("incidents", [])
        assert stood_in and {i["seat"] for i in stood_in} == {bob.seat}
        # every card of Bob's (a deal may end early, once its outcome is sure)
        assert len(stood_in) == len(record["deals"][0]["tricks"])
        notices = [e for m in seen if isinstance(m, dict) and m.get("type") == "seats"
                   for e in m["events"]]
        assert {"kind": "stand_in", "seat": bob.seat, "bot": "normal", "why": "silent"} \
            in notices
        assert ann.seats is not None and ann.seats["turn_timeout"] == 0.3
        await ann.close()
        await bob.close()


async def test_a_silent_player_who_plays_again_has_their_seat_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """After the turn timeout the stand-in plays; on each later turn it waits a moment first,
    in which the player's own card is played and the seat is theirs again."""
    monkeypatch.setattr(clock, "SILENT_GRACE", 5.0)
    config = TableConfig(deals=1, seed=10, start_when=1, turn_timeout=0.2)
    async with served(config) as s:
        ann = TableClient(s.invite, name="Ann")
        await ann.connect()
        await until(ann, lambda m: isinstance(m, session.BotFailed) and m.seat == 0)
        state = await until(ann, lambda m: isinstance(m, session.TableState)
                            and m.pace == "your_turn")
        card = state.legal[0]
        await ann.play(card, state.turn)
        await until(ann, lambda m: of_type("seats")(m)
                    and {"kind": "back", "seat": 0, "name": "Ann"} in m["events"])
        played = await until(ann, lambda m: isinstance(m, session.Played) and m.seat == 0
                             or of_type("refused")(m))
        assert isinstance(played, session.Played) and played.card == card
        assert not s.table.seating[0].stand_in
        await ann.close()


async def test_a_go_on_while_cards_are_played_is_refused() -> None:
    async with served(TableConfig(deals=2, seed=11, start_when=1)) as s:
        ann = TableClient(s.invite, name="Ann")
        await ann.connect()
        await until(ann, lambda m: isinstance(m, session.TableState))
        asked = await ann.go_on()
        got = await until(ann, of_type("refused"))
        assert (got["code"], got["id"]) == ("no_pause", asked)
        assert not s.table.seating[0].ready
        await ann.close()


@pytest.mark.parametrize(("protocol", "app", "reason"), [
    (PROTOCOL + 1, None, f"you have {short_version(__version__)} (protocol {PROTOCOL + 1})"),
    (PROTOCOL, "9.9.9", f"you have 9.9 (protocol {PROTOCOL})"),
    (PROTOCOL, "nonsense", f"you have an unknown version (protocol {PROTOCOL})"),
])
async def test_a_client_of_another_version_is_told_what_differs(
        protocol: int, app: str | None, reason: str) -> None:
    async with served(TableConfig(deals=1, seed=1)) as s:
        client = TableClient(s.invite, protocol=protocol, app=app or __version__)
        with pytest.raises(JoinError) as caught:
            await client.connect()
        assert caught.value.code == "wrong_version"
        assert caught.value.reason == \
            f"this table runs nil-tui {short_version(__version__)} (protocol {PROTOCOL}); " \
            + reason
        assert all(seat.kind == "empty" for seat in s.table.seating)



async def test_names_are_cleaned_cut_and_unique_within_the_longest_name() -> None:
    async with served(TableConfig(deals=1, seed=12)) as s:
        long = "Bartholomew Montgomery-Smythe"  # cut to 24 characters
        first = TableClient(s.invite, name="  Bartholomew\n  Montgomery-Smythe\x07 ")
        assert (await first.connect())["name"] == long[:24]
        second = TableClient(s.invite, name=long)
        name = (await second.connect())["name"]
        assert name == long[:22] + " 2" and len(name) == 24
        ann = TableClient(s.invite, name="Ann")
        await ann.connect()
        key = ann.key
        await ann.close()
        # coming back under another's name: made unique too
        back = TableClient(s.invite, key=key, name=long)
        assert (await back.connect())["name"] == long[:22] + " 3"
        for c in (first, second, back):
            await c.close()
