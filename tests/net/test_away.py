"""A player who drops: the seat waits, a normal bot stands in, the player comes back with the
seat key and plays on; the record says which cards the bot played for whom. And a game over a
slow link."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

from tablehelp import check_record, same_game, served, slow_proxy

from nil_tui.engine import PlayerView
from nil_tui.game.driver import Player, default_opener
from nil_tui.net.client import TableClient, play_scripted
from nil_tui.net.keys import Invite
from nil_tui.session import messages as session
from nil_tui.session.table import TableConfig


async def test_a_bot_stands_in_for_a_dropped_player_until_they_come_back() -> None:
    config = TableConfig(deals=2, seed=41, start_when=2, away_timeout=0.2)
    async with served(config) as s:
        ann, bob = TableClient(s.invite, name="Ann"), TableClient(s.invite, name="Bob")
        await ann.connect()
        await bob.connect()
        ann_game = asyncio.ensure_future(play_scripted(ann, random.Random(1)))
        # Bob plays a few cards, then his connection is gone
        rng = random.Random(2)
        played = 0
        for _ in range(1000):
            message = await bob.receive(10)
            if isinstance(message, session.TableState) and bob.my_turn():
                await bob.play(rng.choice(message.legal), message.turn)
                played += 1
                if played == 3:
                    break
        await bob.close()
        key = bob.key
        # the table waits, then a bot plays Bob's cards: Ann's game goes on
        for _ in range(200):
            if s.table.seating[bob.seat or 0].stand_in and s.table.stats.cards > 20:
                break
            await asyncio.sleep(0.05)
        assert s.table.seating[bob.seat or 0].stand_in
        # Bob comes back with his seat key and plays to the end
        again = TableClient(s.invite, key=key)
        welcome = await again.connect()
        assert welcome["seat"] == bob.seat and welcome["name"] == "Bob"
        assert not s.table.seating[bob.seat or 0].stand_in
        records = await asyncio.wait_for(asyncio.gather(
            ann_game, play_scripted(again, random.Random(3))), 120)
        assert records[0] is not None and records[1] is not None
        check_record(records[0])
        same_game([records[0], records[1]])
        stood_in = records[0].get("incidents", [])
        assert stood_in and all(i["seat"] == bob.seat and "Bob was away" in i["reason"]
                                for i in stood_in)
        await ann.close()
        await again.close()


async def test_everyone_gone_the_table_waits_with_the_game() -> None:
    config = TableConfig(deals=1, seed=42, start_when=1, away_timeout=0.0)
    async with served(config) as s:
        ann = TableClient(s.invite, name="Ann")
        await ann.connect()
        await ann.receive(10)
        await ann.close()
        for _ in range(40):
            if s.table.seating[0].member is None:
                break
            await asyncio.sleep(0.05)
        turn = s.table.turn
        await asyncio.sleep(0.5)  # no person present: no bot plays for anyone
        assert s.table.turn == turn and not s.table.game.is_over  # type: ignore[union-attr]


class SlowBots:
    """Opens the table's bots; each decision waits until ``go`` is set, and ``decided`` is
    set once one has been made (a bot thinking while the last person leaves)."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.asked = threading.Event()
        self.decided = threading.Event()
        self.opener = default_opener()

    def __call__(self, spec: str, seed: int) -> Player:
        inner = self.opener(spec, seed)
        bots = self

        class Slow:
            def decide(self, view: PlayerView, perfect: Any = None) -> Any:
                bots.asked.set()
                bots.go.wait(30)
                choice = inner.decide(view, perfect)
                bots.decided.set()
                return choice

            def close(self) -> None:
                inner.close()

        return Slow()


async def test_a_bot_card_decided_as_the_last_person_leaves_waits_for_them() -> None:
    """The race of the table left by everyone: a bot's card on its way when the last person
    went lands only once someone is back."""
    bots = SlowBots()
    config = TableConfig(deals=1, seed=42, start_when=1, away_timeout=0.0)
    async with served(config, opener=bots) as s:
        ann = TableClient(s.invite, name="Ann", seat=0)
        await ann.connect()
        for _ in range(200):  # a bot is thinking
            if bots.asked.is_set():
                break
            await asyncio.sleep(0.02)
        assert bots.asked.is_set()
        key = ann.key
        await ann.close()
        for _ in range(200):
            if s.table.seating[0].member is None:
                break
            await asyncio.sleep(0.02)
        turn = s.table.turn
        bots.go.set()
        for _ in range(500):  # the decision is made, and the table did something with it
            if bots.decided.is_set() and (s.table.turn != turn or s.table.held is not None):
                break
            await asyncio.sleep(0.02)
        assert s.table.turn == turn and s.table.held is not None
        # Ann comes back: the card lands and the game goes on
        again = TableClient(s.invite, key=key)
        await again.connect()
        for _ in range(500):
            if s.table.turn > turn:
                break
            await asyncio.sleep(0.02)
        assert s.table.turn > turn and s.table.held is None
        await again.close()


async def test_a_game_over_a_slow_link() -> None:
    config = TableConfig(deals=1, seed=43, start_when=2)
    async with served(config) as s, slow_proxy(s.invite.port, 0.03) as port:
        invite = Invite("127.0.0.1", port, s.invite.secret)
        clients = [TableClient(invite, name=n) for n in ("Ann", "Bob")]
        for c in clients:
            await c.connect()
        records = await asyncio.wait_for(asyncio.gather(
            *(play_scripted(c, random.Random(i)) for i, c in enumerate(clients))), 120)
        assert all(r is not None for r in records)
        check_record(records[0])  # type: ignore[arg-type]
        same_game(records)  # type: ignore[arg-type]
        for c in clients:
            await c.close()
