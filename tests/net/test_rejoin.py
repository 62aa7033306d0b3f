"""Coming back after a lost link: what was missed is told as the news the table would have sent,
and the tries to take the seat back stop after a bound in time."""

from __future__ import annotations

import asyncio
import random
import socket
from pathlib import Path
from typing import Any

import pytest
from tablehelp import served

from nil_tui.commands import table as commands
from nil_tui.engine import Game
from nil_tui.net import client as client_module
from nil_tui.net.client import TableClient, rejoin
from nil_tui.net.keys import Invite
from nil_tui.net.link import read_deals
from nil_tui.net.seen import caught_up, seen_of
from nil_tui.net.wire import finished_deals
from nil_tui.session import messages as session
from nil_tui.session.table import TableConfig
from nil_tui.session.table.values import news_of, seat_states

NAMES = ("Ann", "West", "North", "East")
LEVELS = (None, "normal", "normal", "normal")


def _state(game: Game, turn: int) -> session.TableState:
    return seat_states(game, turn, NAMES, LEVELS, [0])[0]


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_the_news_missed_are_those_the_table_sent_meanwhile(seed: int) -> None:
    """From a position in the first deal to one in the last (deals over, a new one begun),
    or to the game's end: every card, trick, deal result and the end, as the table told
    them, in order; a card a bot played for the seat is said first."""
    rng = random.Random(seed)
    game = Game(deals_planned=3, seed=seed)
    turn = 0
    for _ in range(rng.randrange(1, 20)):
        game.play(rng.choice(game.deal.legal_moves()))
        turn += 1
    before = seen_of(_state(game, turn))
    told: list[session.News] = []
    played_for: dict[tuple[int, int, Any], str] = {}
    stop_at = rng.randrange(60, 160)
    while not game.is_over and turn < stop_at:
        if game.deal.is_over:
            news = news_of(game, game.next_deal())
        else:
            seat, card = game.deal.to_move, rng.choice(game.deal.legal_moves())
            if seat == 0 and rng.random() < 0.3:  # the stand-in played this one
                played_for[(game.deal_number, 0, card)] = "Ann was away"
                told.append(session.BotFailed(0, card, "Ann was away"))
            for event in game.play(card):
                news = news_of(game, event)
                if news is not None:
                    told.append(news)
            news = None
        if news is not None:
            told.append(news)
        turn += 1
    deals = read_deals(finished_deals(game, 0), 0).deals
    state = _state(game, turn)
    assert caught_up(before, state, deals, played_for) == told
    assert caught_up(seen_of(state), state, deals, played_for) == []


async def test_rejoin_stops_trying_after_its_bound() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = TableClient(Invite("127.0.0.1", port, "a" * 26), key="b" * 26)
    loop = asyncio.get_running_loop()
    began = loop.time()
    assert await rejoin(client, within=1.5) == "the table could not be reached for 1.5 s"
    assert 1.4 <= loop.time() - began < 4.0


async def test_join_text_gives_up_after_the_bound_and_says_for_how_long(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The table goes away for good in the middle of the game: the same loop as nil-tui join
    --text tries to come back for the bound (short here), then says so and ends with 1."""
    monkeypatch.setattr(client_module, "REJOIN_SECONDS", 1.0)
    async with served(TableConfig(deals=2, seed=7, start_when=1)) as table:
        client = TableClient(table.invite, name="Ann")
        seat = asyncio.ensure_future(commands._seat(client, auto=0.2, home=tmp_path))
        for _ in range(400):
            if client.state is not None and len(client.state.plays) >= 3:
                break
            await asyncio.sleep(0.05)
        assert client.state is not None
    loop = asyncio.get_running_loop()
    began = loop.time()
    assert await asyncio.wait_for(seat, 30) == 1
    assert loop.time() - began < 10
    err = capsys.readouterr().err
    assert f"could not be reached for {client_module.REJOIN_WORDS}" in err


async def test_the_table_screens_session_tells_what_was_missed_once_back() -> None:
    """Bob (North) on the table screen's session loses his link; a bot plays for him while
    Ann plays on; once back, his log is told every card it missed (those played for him said
    so), the tricks and the deals' results: each card of the game once, each deal's result
    once."""
    from collections import Counter

    from nil_tui.game.options import PlayOptions
    from nil_tui.net.client import play_scripted
    from nil_tui.net.link import SeatLink
    from nil_tui.net.remote import RemoteSession
    from nil_tui.session import game_session as gs

    config = TableConfig(deals=2, seed=41, start_when=2, away_timeout=0.1, deal_pause=0.1)
    async with served(config) as table:
        ann, bob = TableClient(table.invite, name="Ann"), TableClient(table.invite, name="Bob")
        await ann.connect()
        await bob.connect()
        ann_game = asyncio.ensure_future(play_scripted(ann, random.Random(1)))
        game_table = table.table

        async def back() -> bool:  # once the stand-in has played a few of Bob's cards
            for _ in range(400):
                game = game_table.game
                if game is not None and sum(1 for i in game.incidents
                                            if i["seat"] == bob.seat) >= 5:
                    break
                await asyncio.sleep(0.05)
            await bob.connect()
            return True

        remote = RemoteSession(SeatLink(bob, back), PlayOptions(
            speed="instant", trick_pause="brief", auto_play=False))
        assert await remote.ready()
        said: list[Any] = []
        out = remote.start()
        cut = False
        for _ in range(4000):
            while out:
                item = out.pop(0)
                said.append(item)
                if isinstance(item, gs.Wait):
                    out.extend(remote.timer_done(item.token))
                elif isinstance(item, gs.YourTurn):
                    if not cut:  # the link goes as Bob is to play
                        cut = True
                        assert bob.ws is not None and bob.ws.transport is not None
                        bob.ws.transport.abort()
                        continue
                    out.extend(remote.act(session.PlayCard(remote.state().legal[0])))
                elif isinstance(item, gs.DealSummary):
                    out.extend(remote.act(session.GoOn()))
            if remote.state().pace == "game_over" and any(
                    isinstance(x, gs.GameFinished) for x in said):
                break
            more = await asyncio.wait_for(remote.pushed(), 60)
            if more is None:
                break
            out = more
        record = await asyncio.wait_for(ann_game, 60)
        assert record is not None
        game = game_table.game
        assert game is not None and game.is_over
        mine = sorted(i["card"] for i in game.incidents if i["seat"] == bob.seat)
        assert len(mine) >= 5
        assert sorted(str(x.card) for x in said
                      if isinstance(x, session.BotFailed) and x.seat == 0) == mine
        played = Counter(str(x.card) for x in said if isinstance(x, session.Played))
        every = Counter(str(p.card) for d in game.deals for p in d.plays)
        assert played == every, [c for c, n in played.items() if n != 1]
        assert sum(1 for x in said if isinstance(x, session.DealOver)) == 2
        await ann.close()
        await bob.close()



def test_the_bound_is_said_as_it_is() -> None:
    import argparse

    assert client_module.REJOIN_SECONDS == 60 * int(client_module.REJOIN_WORDS.split()[0])
    sub = argparse.ArgumentParser().add_subparsers()
    commands.add_join_parser(sub)
    assert f"for {client_module.REJOIN_WORDS}" in sub.choices["join"].description


async def test_rejoin_stops_at_once_when_the_table_refuses_the_seat_for_good() -> None:
    async with served(TableConfig(deals=1, seed=2)) as table:
        client = TableClient(table.invite, key="b" * 26)  # a key the table never gave
        loop = asyncio.get_running_loop()
        began = loop.time()
        why = await rejoin(client, within=60)
        assert why is not None and "reached" not in why
        assert loop.time() - began < 5
