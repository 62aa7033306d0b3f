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
from nil_tui.net.table import TableConfig


@pytest.mark.parametrize("people", [2, 3])
async def test_people_and_bots_play_a_whole_game_and_no_one_sees_another_hand(
        people: int) -> None:
    saved: list[int] = []
    config = TableConfig(deals=3, seed=100 + people, start_when=people)
    async with served(config, save_game=lambda g: saved.append(1)) as s:
        async with tapping_proxy(s.invite.port) as (proxy_port, taps):
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
