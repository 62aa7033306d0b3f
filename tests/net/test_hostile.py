"""A hostile client: every bad input is refused with a reason, and nothing it sends changes the
game or reveals a hidden card."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from tablehelp import CARD, served
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from nil_tui import __version__
from nil_tui.net import keys
from nil_tui.net.client import JoinError, TableClient, play_scripted
from nil_tui.net.server import Limits
from nil_tui.net.wire import PROTOCOL, hello, short_version
from nil_tui.session.table import TableConfig


async def raw(url: str) -> ClientConnection:
    return await connect(url, compression=None, proxy=None, max_size=2**22)


async def answer(ws: ClientConnection, message: Any, timeout: float = 5.0) -> dict[str, Any]:
    await ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))


async def closed(ws: ClientConnection, timeout: float = 5.0) -> bool:
    try:
        await asyncio.wait_for(ws.recv(), timeout)
    except ConnectionClosed:
        return True
    return False


def kind(message: object) -> object:
    """The type of one of the table's own messages (None for a session value)."""
    return message.get("type") if isinstance(message, dict) else None


def position(s: Any) -> Any:
    game = s.table.game
    return None if game is None else (game.to_record()["deals"], s.table.turn)


async def test_a_connection_without_the_invite_gets_one_error_and_learns_nothing() -> None:
    async with served(TableConfig(deals=1, seed=1)) as s:
        for bad in ["", "a" * 26, keys.new_secret(), s.table.secret[:-1] + "a"
                    if s.table.secret[-1] != "a" else s.table.secret[:-1] + "b"]:
            ws = await raw(s.invite.url)
            got = await answer(ws, hello(bad, name="Mallory"))
            assert got == {"type": "error", "code": "not_invited",
                           "reason": "this invite does not open this table"}
            assert await closed(ws)
        # a wrong invite is refused before the version is looked at (no version leaks)
        ws = await raw(s.invite.url)
        got = await answer(ws, hello("x" * 26, protocol=99, app="9.9"))
        assert got["code"] == "not_invited"
        assert all(seat.kind == "empty" for seat in s.table.seating)


async def test_a_client_of_another_version_is_told_both_versions() -> None:
    async with served(TableConfig(deals=1, seed=1)) as s:
        client = TableClient(s.invite, protocol=PROTOCOL + 1, app="0.9.3")
        with pytest.raises(JoinError) as caught:
            await client.connect()
        assert caught.value.code == "wrong_version"
        assert caught.value.reason == (f"this table runs nil-tui {short_version(__version__)}"
                                       f" (protocol {PROTOCOL}); you have 0.9 (protocol "
                                       f"{PROTOCOL + 1})")
        assert all(seat.kind == "empty" for seat in s.table.seating)


@pytest.mark.parametrize(("first", "code"), [
    ("{not json", "malformed"),
    ("[1, 2]", "malformed"),
    (json.dumps({"type": "act", "turn": 0, "id": 1, "action": {}}), "hello_expected"),
    (json.dumps({"type": "shout"}), "unknown_type"),
    (json.dumps({"type": "hello", "protocol": "1", "app": "0.1.0"}), "not_invited"),
    (b"\xff\xfe binary", "malformed"),
])
async def test_a_bad_hello_is_refused_and_closed(first: str | bytes, code: str) -> None:
    async with served(TableConfig(deals=1, seed=1)) as s:
        ws = await raw(s.invite.url)
        got = await answer(ws, first)
        assert got["type"] == "error" and got["code"] == code
        assert await closed(ws)
        assert all(seat.kind == "empty" for seat in s.table.seating)


async def test_a_guessed_seat_key_opens_nothing() -> None:
    async with served(TableConfig(deals=1, seed=1, start_when=1)) as s:
        owner = TableClient(s.invite, name="A")
        await owner.connect()
        assert owner.key is not None
        guesses = [keys.new_secret(), owner.key[:-2] + "zz", owner.key.upper() + "a", ""]
        for guess in guesses:
            before = position(s)
            thief = TableClient(s.invite, key=guess, name="M")
            with pytest.raises(JoinError) as caught:
                await thief.connect()
            assert caught.value.code in ("unknown_key", "started")
            assert position(s) == before
        assert s.table.seating[0].member is not None  # the owner is still seated
        await owner.close()


async def test_oversized_floods_and_silence_are_cut_off_while_the_game_goes_on() -> None:
    limits = Limits(hello_timeout=0.5, max_connections=4, rate=20, burst=10, flood_close=30)
    async with served(TableConfig(deals=1, seed=3, start_when=1), limits) as s:
        player = TableClient(s.invite, name="A")
        await player.connect()
        game = asyncio.ensure_future(play_scripted(player, random.Random(5)))
        # a hello never sent: one error, closed
        ws = await raw(s.invite.url)
        assert json.loads(await asyncio.wait_for(ws.recv(), 5))["code"] == "hello_timeout"
        assert await closed(ws)
        # a message over the size limit closes the connection (1009), nothing else happens
        ws = await raw(s.invite.url)
        await ws.send(json.dumps(hello(s.table.secret, name="x" * 5000)))
        assert await closed(ws)
        assert ws.close_code == 1009
        # a flood: refusals, then the connection is closed
        flooder = TableClient(s.invite, key=None, name="F")
        with pytest.raises(JoinError):
            await flooder.connect()  # the game has started: no seat for a newcomer
        # too many connections not seated: refused before the WebSocket opens (at most
        # half the places: the rest stays for players with the invite)
        idle = [await raw(s.invite.url) for _ in range(2)]
        with pytest.raises(InvalidStatus) as caught:
            await raw(s.invite.url)
        assert caught.value.response.status_code == 503
        again = TableClient(s.invite, key=player.key)  # the invite in the handshake: let in
        await again.connect()  # (it takes the seat over: the game goes on with it)
        game.cancel()
        game = asyncio.ensure_future(play_scripted(again, random.Random(6)))
        for ws in idle:
            await ws.close()
        end = await asyncio.wait_for(game, 60)
        assert end is not None and end["finished"]
        await again.close()


async def test_a_seated_client_cannot_play_out_of_turn_for_others_or_twice() -> None:
    limits = Limits(rate=1000, burst=1000)
    async with served(TableConfig(deals=1, seed=11, start_when=2), limits) as s:
        a, b = TableClient(s.invite, name="A"), TableClient(s.invite, name="B")
        await a.connect()
        await b.connect()
        # play until it is A's turn (B plays its cards as they come)
        async def pump_until(client: TableClient, other: TableClient) -> None:
            for _ in range(200):
                if client.my_turn():
                    return
                for c in (client, other):
                    try:
                        await c.receive(0.05)
                    except (asyncio.TimeoutError, TimeoutError):
                        pass
                if other.my_turn():
                    assert other.state is not None
                    await other.play(other.state.legal[0])
            raise AssertionError("A's turn never came")

        await pump_until(a, b)
        assert a.state is not None and b.state is not None
        turn = a.state.turn
        before = position(s)
        hand = {str(c) for c in a.state.hand}
        not_held = next(c for c in [f"{r}{u}" for r in "23456789TJQKA" for u in "CDHS"]
                        if c not in hand)
        refused: list[dict[str, Any]] = []

        async def refusal(client: TableClient, message: dict[str, Any]) -> dict[str, Any]:
            await client.send(message)
            for _ in range(50):
                got = await client.receive(5)
                if kind(got) in ("refused", "error"):
                    refused.append(got)
                    return got
            raise AssertionError("no refusal came")

        # a card not in its hand, a card for another seat, out of turn, a stale position
        def play(card: object, turn: int, **extra: Any) -> dict[str, Any]:
            return {"type": "act", "turn": turn,
                    "action": {"protocol": 1, "type": "PlayCard", "card": str(card), **extra}}

        assert (await refusal(a, play(not_held, turn)))["code"] == "illegal"
        # the seat comes from the key: a seat named in the message is no field of an action
        assert (await refusal(b, play(b.state.hand[0], turn, seat=0)))["code"] == "malformed"
        assert (await refusal(b, play(b.state.hand[0], turn)))["code"] == "not_your_turn"
        assert (await refusal(a, play(a.state.legal[0], turn - 1)))["code"] == "stale"
        for helper in ("Undo", "AskHint"):
            got = await refusal(a, {"type": "act", "turn": turn,
                                    "action": {"protocol": 1, "type": helper}})
            assert got["code"] == "no_help"
        assert (await refusal(a, {"type": "start"}))["code"] in ("not_owner", "started")
        assert (await refusal(a, {"type": "shout"}))["code"] == "unknown_type"
        # nothing changed, and no refusal names a card the client does not hold
        assert position(s) == before
        for message in refused:
            for card in CARD.findall(json.dumps(message).encode()):
                assert card.decode() in hand | {not_held}
        # a replayed message: the same id again is refused, the card is not played twice
        assert a.ws is not None
        legal = str(a.state.legal[0])
        message = json.dumps({**play(legal, turn), "id": 1000})
        await a.ws.send(message)
        await a.ws.send(message)
        codes = []
        for _ in range(20):
            got = await a.receive(5)
            assert got is not None
            if kind(got) == "refused":
                codes.append(got["code"])
                break
        assert codes == ["replayed"]
        record = s.table.game.to_record() if s.table.game else {}
        played = [c for t in record["deals"][0]["tricks"] for c in t["cards"]]
        assert played.count(legal) == 1
        await a.close()
        await b.close()


async def test_malformed_messages_after_the_hello_are_refused_and_the_seat_stays() -> None:
    async with served(TableConfig(deals=1, seed=2)) as s:
        a = TableClient(s.invite, name="A")
        await a.connect()
        assert a.ws is not None
        for bad, code in [("{oops", "malformed"), ('"text"', "malformed"),
                          ('{"type":"ping"}', "malformed"), ('{"type":"warp","id":3}',
                                                              "unknown_type"),
                          (('{"type":"act","id":4,"turn":0,"action":{"protocol":1,'
                            '"type":"PlayCard","card":"ZZ"}}'), "malformed"),
                          ('{"type":"act","id":5,"action":{"protocol":1,"type":"GoOn"}}',
                           "malformed"),
                          (('{"type":"act","id":6,"turn":0,"action":{"protocol":2,'
                            '"type":"GoOn"}}'), "malformed"),
                          (('{"type":"act","id":7,"turn":0,"action":{"protocol":1,'
                            '"type":"Played","seat":0,"card":"2C","forced":false}}'),
                           "malformed"),
                          (('{"type":"act","id":8,"turn":0,"action":{"protocol":1,'
                            '"type":"GoOn"}}'), "not_started")]:
            await a.ws.send(bad)
            for _ in range(10):
                got = await a.receive(5)
                assert got is not None
                if kind(got) == "refused":
                    assert got["code"] == code, bad
                    # a refusal names the message it refuses, whenever it has an id
                    sent = json.loads(bad) if bad.startswith("{\"") else None
                    assert got.get("id") == (sent or {}).get("id"), (bad, got)
                    break
        await a.ws.send('{"type":"ping","id":99}')
        for _ in range(10):
            got = await a.receive(5)
            assert got is not None
            if kind(got) == "pong":
                break
        assert s.table.seating[0].member is not None and s.table.game is None
        await a.close()


async def test_a_flood_is_refused_then_closed_and_the_others_play_on() -> None:
    limits = Limits(rate=50, burst=50, flood_close=20)
    async with served(TableConfig(deals=1, seed=4, start_when=2), limits) as s:
        flooder, player = TableClient(s.invite, name="F"), TableClient(s.invite, name="P")
        await flooder.connect()
        await player.connect()
        game = asyncio.ensure_future(play_scripted(player, random.Random(3)))
        assert flooder.ws is not None
        codes: list[str] = []
        unnamed: list[dict[str, Any]] = []  # a refusal must say which message it refuses
        try:
            for i in range(1000):
                await flooder.ws.send(json.dumps({"type": "ping", "id": i + 1}))
        except ConnectionClosed:
            pass
        for _ in range(500):
            got = await flooder.receive(5)
            if got is None:
                break
            if kind(got) == "refused":
                codes.append(got["code"])
                if "id" not in got:
                    unnamed.append(got)
        assert "rate" in codes and unnamed == []
        assert flooder.ws.close_code == 1008
        s.table.config.away_timeout = 0.0  # a bot stands in for the flooder at once
        s.table.clock.poke()
        end = await asyncio.wait_for(game, 60)
        assert end is not None and end["finished"]
        await player.close()
