"""Whole games at a shared table over real loopback connections: two and three people with
bots in the other seats, every byte each client got checked for cards it may not see, the
records checked as every record is and compared between the players."""

from __future__ import annotations

import asyncio
import random

import pytest
from tablehelp import check_record, leaks, same_game, served, tapping_proxy

from nil_tui.net.client import TableClient, play_scripted
from nil_tui.net.keys import Invite
from nil_tui.session.table import TableConfig


@pytest.mark.parametrize("people", [2, 3])
async def test_people_and_bots_play_a_whole_game_and_no_one_sees_another_hand(
        people: int) -> None:
    saved: list[int] = []
    config = TableConfig(deals=3, seed=100 + people, start_when=people)
    async with served(config, save_game=lambda g: saved.append(1)) as s, \
            tapping_proxy(s.invite.port) as (proxy_port, taps):
        invite = Invite("127.0.0.1", proxy_port, s.invite.secret)
        clients = [TableClient(invite, name=f"P{i}") for i in range(people)]
        for c in clients:
            await c.connect()
        ends = await asyncio.wait_for(asyncio.gather(
            *(play_scripted(c, random.Random(i)) for i, c in enumerate(clients))), 120)
        for c in clients:
            await c.close()
        await asyncio.sleep(0.1)
        records = [end for end in ends if end is not None]
        assert len(records) == people
        for record in records:
            check_record(record)
        same_game(records)
        record = records[0]
        assert [p["kind"] for p in record["players"]] == \
            ["human"] * people + ["bot"] * (4 - people)
        assert [p["name"] for p in record["players"][:people]] == \
            [f"P{i}" for i in range(people)]
        # every byte each client was sent, frame by frame, against the game's record
        assert len(taps) == people
        for seat, tap in enumerate(taps):
            frames = tap.frames()
            assert len(frames) > 40  # the whole game went through this tap
            assert leaks(frames, seat, record) == []
        # the game was kept after every card (and at each new deal)
        plays = sum(len(t["cards"]) for d in record["deals"] for t in d["tricks"])
        assert len(saved) >= plays


async def test_the_leak_check_finds_a_hidden_card() -> None:
    """The check above can fail: a state or news carrying another seat's card is caught."""
    config = TableConfig(deals=1, seed=7, start_when=1)
    async with served(config) as s:
        c = TableClient(s.invite, name="A")
        await c.connect()
        record = await asyncio.wait_for(play_scripted(c, random.Random(1)), 60)
        assert record is not None
        hidden = record["deals"][0]["hands"][1][0]
        state = (b'{"protocol":1,"type":"TableState","seat":0,"pace":"bot_waits",'
                 b'"deal_number":1,"plays":[],"hand":["' + hidden.encode() + b'"]}')
        assert leaks([state], 0, record) != []
        assert leaks([state.replace(b'"seat":0', b'"seat":1')], 1, record) == []
        news = b'{"protocol":1,"type":"Played","seat":1,"card":"' + hidden.encode() + b'"}'
        empty = b'{"protocol":1,"type":"TableState","seat":0,"pace":"bot_waits",' \
            b'"deal_number":1,"plays":[],"hand":[]}'
        assert leaks([news, empty], 0, record) != []
        await c.close()


async def test_the_host_keeps_the_game_after_every_card() -> None:
    kept: list[str] = []
    config = TableConfig(deals=1, seed=9, start_when=1)
    async with served(config, save_game=lambda g: kept.append(
            str(sum(len(t.cards) for t in g.deal.tricks) + len(g.deal.trick)))) as s:
        c = TableClient(s.invite, name="A")
        await c.connect()
        record = await asyncio.wait_for(play_scripted(c, random.Random(2)), 60)
        assert record is not None
        plays = sum(len(t["cards"]) for t in record["deals"][0]["tricks"])
        assert kept[0] == "0" and kept[-1] == str(plays)
        assert [int(k) for k in kept] == list(range(plays + 1))
        await c.close()


def test_the_tables_writer_of_states_writes_what_the_session_writes() -> None:
    """The table writes each seat's state with its own quicker writer: the same text as the
    session's ``to_json``, for every seat after every card of whole games."""
    from nil_tui.engine import Game, Phase
    from nil_tui.net.wire import state_json
    from nil_tui.session import messages as session

    for seed in range(3):
        rng = random.Random(seed)
        game = Game(2, seed)
        turn = 0
        while True:
            for seat in range(4):
                pace = "your_turn" if game.deal.to_move == seat else "bot_waits"
                if game.phase is not Phase.PLAYING:
                    pace = game.phase.value
                state = session.table_state(
                    game, seat, turn=turn, pace=pace, names=["A", "B\u00e9", "C", "D"],
                    levels=[None, "normal", None, "expert"], thinking=3 if seat else None,
                    on_show=game.deal.tricks[-1] if game.deal.tricks else None,
                    forced=game.deal.legal_moves()[0] if game.phase is Phase.PLAYING
                    else None, help_allowed=False)
                assert state_json(state) == session.to_json(state)
                assert session.from_json(state_json(state)) == state
            if game.phase is Phase.GAME_OVER:
                break
            if game.phase is Phase.DEAL_OVER:
                game.next_deal()
            else:
                game.play(rng.choice(game.deal.legal_moves()))
            turn += 1


def test_the_four_states_of_a_position_are_each_seats_own() -> None:
    """The table builds the four seats' states of a position from one: each is what the
    session's ``table_state`` gives that seat, after every card of whole games."""
    from nil_tui.engine import Phase
    from nil_tui.session.table import Table

    for seed in range(3):
        table = Table(TableConfig(deals=2, seed=seed, bots=("normal",) * 4))
        for seat in table.seating:
            seat.kind, seat.name = "person", f"P{seat.number}"
        table.seating[2].stand_in = True
        table.tell = lambda *a, **k: None  # type: ignore[method-assign]
        table.start()
        game, driver = table.game, table.driver
        assert game is not None and driver is not None
        rng = random.Random(seed)
        while True:
            for order in ([0, 1, 2, 3], [3, 1], [2]):
                assert table.states(order) == {s: table.state_of(s) for s in order}
            if game.phase is Phase.GAME_OVER:
                break
            if game.phase is Phase.DEAL_OVER:
                driver.next_deal()
            else:
                driver.play(rng.choice(game.deal.legal_moves()))
        driver.close()


async def test_at_a_table_without_a_host_seat_the_first_to_sit_down_starts_it() -> None:
    async with served(TableConfig(deals=1, seed=5)) as s:
        first, second = TableClient(s.invite, name="A"), TableClient(s.invite, name="B")
        assert (await first.connect())["owner"] is True
        assert (await second.connect())["owner"] is False
        await second.start()
        for _ in range(20):
            got = await second.receive(5)
            if isinstance(got, dict) and got.get("type") == "refused":
                assert got["code"] == "not_owner"
                break
        assert s.table.game is None
        await first.start()
        records = await asyncio.wait_for(asyncio.gather(
            play_scripted(first, random.Random(1)), play_scripted(second, random.Random(2))),
            60)
        assert all(r is not None and r["finished"] for r in records)
        assert [p["kind"] for p in records[0]["players"]] == ["human", "human", "bot", "bot"]
        await first.close()
        await second.close()
