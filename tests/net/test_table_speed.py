"""The shared table's quick paths write and read exactly what the session's own writer and
reader do: the four seats' states of a position written from one, and a played card read at
once."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from nil_tui.engine import DECK, Phase
from nil_tui.net.wire import Refusal, _common_action, read_request, states_json
from nil_tui.session import messages as session
from nil_tui.session.table import Table, TableConfig


def test_the_states_of_a_position_are_written_as_the_session_writes_each() -> None:
    """After every card of whole games, for the four seats and for fewer (a seat away), the
    text of each seat's state is ``session.to_json`` of that seat's own state."""
    for seed in range(3):
        table = Table(TableConfig(deals=2, seed=seed, bots=("normal",) * 4))
        for seat in table.seating:
            seat.kind, seat.name = "person", f"P\u00e9{seat.number}"
        table.seating[1].stand_in = True
        table.tell = lambda *a, **k: None  # type: ignore[method-assign]
        table.start()
        game, driver = table.game, table.driver
        assert game is not None and driver is not None
        rng = random.Random(seed)
        while True:
            for order in ([0, 1, 2, 3], [2, 0], [3]):
                states = table.states(order)
                written = states_json(list(states.values()))
                assert written == [session.to_json(s) for s in states.values()]
                for text, seat in zip(written, order):
                    assert session.from_json(text) == table.state_of(seat)
            if game.phase is Phase.GAME_OVER:
                break
            if game.phase is Phase.DEAL_OVER:
                driver.next_deal()
            else:
                driver.play(rng.choice(game.deal.legal_moves()))
        driver.close()


def test_states_that_differ_in_more_than_a_seats_own_fields_are_each_written_whole() -> None:
    table = Table(TableConfig(deals=1, seed=4, bots=("normal",) * 4))
    for seat in table.seating:
        seat.kind, seat.name = "person", f"P{seat.number}"
    table.tell = lambda *a, **k: None  # type: ignore[method-assign]
    table.start()
    assert table.driver is not None
    states = list(table.states([0, 1, 2, 3]).values())
    odd = [states[0], states[1]._replace(names=("a", "b", "c", "\u2603"), totals=(1, 2, 3, 4)),
           states[2]._replace(pace="deal_over", hands_dealt=None), states[3]]
    assert states_json(odd) == [session.to_json(s) for s in odd]
    assert states_json([]) == []
    table.driver.close()


def _slow(action: Any) -> session.Message | None:
    try:
        return session.from_json(json.dumps(action))
    except session.ProtocolError:
        return None


ACTIONS: list[Any] = [
    *({"protocol": 1, "type": "PlayCard", "card": str(c)} for c in DECK),
    {"protocol": 1, "type": "GoOn"},
    {"protocol": True, "type": "PlayCard", "card": "QS"},
    {"protocol": 1.0, "type": "PlayCard", "card": "QS"},
    {"protocol": 2, "type": "PlayCard", "card": "QS"},
    {"protocol": 1, "type": "PlayCard", "card": "qs"},
    {"protocol": 1, "type": "PlayCard", "card": "10S"},
    {"protocol": 1, "type": "PlayCard", "card": 12},
    {"protocol": 1, "type": "PlayCard", "card": ["QS"]},
    {"protocol": 1, "type": "PlayCard"},
    {"protocol": 1, "type": "PlayCard", "card": "QS", "seat": 2},
    {"protocol": 1, "type": "PlayCard", "cards": "QS"},
    {"protocol": 1, "type": "GoOn", "card": "QS"},
    {"protocol": 1, "type": "Undo"},
    {"protocol": 1, "type": "Played", "seat": 1, "card": "QS", "forced": False},
    {"type": "PlayCard", "card": "QS"},
    {"protocol": 1, "type": "playcard", "card": "QS"},
]


@pytest.mark.parametrize("action", ACTIONS)
def test_a_card_read_at_once_is_what_the_session_reads(action: Any) -> None:
    """The quick reading takes only what the session's reader takes, as the same value;
    anything else goes to the session's reader (and its refusals)."""
    quick = _common_action(action)
    slow = _slow(action)
    assert quick is None or quick == slow
    raw = json.dumps({"type": "act", "id": 1, "turn": 0, "action": action})
    try:
        got: Any = read_request(raw).action
    except Refusal:
        got = None
    expected = slow if isinstance(slow, (session.PlayCard, session.GoOn, session.Undo)) \
        else None
    assert got == expected


def test_the_news_of_a_card_is_written_as_the_session_writes_it_every_time() -> None:
    """The news of a card is kept once written: the same text, every time, as the plain
    writer's; a value of the wrong kind is written as it is, not as the kept one."""
    from nil_tui.session.messages import _to_json

    for seat in range(4):
        for card in DECK:
            for forced in (False, True):
                news = session.Played(seat, card, forced)
                assert session.to_json(news) == _to_json(news) == session.to_json(news)
                assert session.from_json(session.to_json(news)) == news
    odd = session.Played(1, DECK[5], 1)  # type: ignore[arg-type]
    assert '"forced":1' in session.to_json(odd)
    assert '"forced":true' in session.to_json(session.Played(1, DECK[5], True))


class _Transport:
    def __init__(self) -> None:
        self.behind = 0  # bytes the socket has not taken yet

    def get_write_buffer_size(self) -> int:
        return self.behind


class _Protocol:
    def __init__(self, out: list[str]) -> None:
        from websockets.protocol import State

        self.state = State.OPEN
        self.out = out
        self.pending: list[str] = []

    def send_text(self, data: bytes) -> None:
        self.pending.append(data.decode())


class _Socket:
    """What a connection uses of a websockets connection, writing into ``out``."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.protocol = _Protocol(self.out)
        self.transport = _Transport()
        self.send_in_progress = None
        self.closed: tuple[int, str] | None = None
        self.unblock = asyncio.Event()
        self.unblock.set()

    def send_data(self) -> None:
        self.out.extend(self.protocol.pending)
        self.protocol.pending.clear()

    async def send(self, text: str) -> None:
        await self.unblock.wait()  # the socket is behind: ws.send waits for it
        self.out.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


async def test_messages_are_written_at_once_in_order_and_a_client_behind_is_closed() -> None:
    """A message is written at once while the socket keeps up; once it is behind, messages
    wait in the connection's queue (never overtaken by later ones), and a client whose
    queue fills is closed, as before."""
    from nil_tui.net.server import Connection, Limits

    ws = _Socket()
    conn = Connection(ws, Limits(queue=4))  # type: ignore[arg-type]
    pump = asyncio.get_running_loop().create_task(conn.pump())
    conn.send_text("1")
    conn.send_text("2")
    assert ws.out == ["1", "2"] and conn.written_now == 2
    ws.transport.behind = 10_000
    ws.unblock.clear()
    conn.send_text("3")
    ws.transport.behind = 0  # the socket caught up, but "3" still waits: "4" goes after it
    conn.send_text("4")
    assert ws.out == ["1", "2"]
    await asyncio.sleep(0)
    assert conn.sending  # the pump took "3" and waits for the socket
    conn.send_text("5")
    ws.unblock.set()
    for _ in range(20):
        await asyncio.sleep(0)
    assert ws.out == ["1", "2", "3", "4", "5"]
    assert not conn.sending and conn.queue.empty()
    conn.send_text("6")
    assert ws.out[-1] == "6" and conn.written_now == 3
    # a client that stops reading: the socket stays behind and the queue fills
    ws.transport.behind = 10_000
    ws.unblock.clear()
    for n in range(7, 14):
        conn.send_text(str(n))
    assert conn.closing
    await asyncio.wait_for(pump, 5)
    assert ws.closed is not None and ws.closed[0] == 4008
    assert ws.out[-1] == "6"


SLEEPER = r"""
import asyncio, sys
from nil_tui.net.client import TableClient
from nil_tui.net.keys import Invite

async def main(port, secret):
    client = TableClient(Invite("127.0.0.1", int(port), secret), name="Sleepy")
    await client.connect()
    print("seated", client.seat, flush=True)
    while await client.receive() is not None:
        pass

asyncio.run(main(*sys.argv[1:]))
"""


async def test_a_player_whose_process_stops_is_noticed_by_the_tables_ping() -> None:
    """A player's process stopped (SIGSTOP: a laptop asleep; its socket stays open and its
    kernel acknowledges every byte) answers no ping: the table lets its seat go once the
    ping's time is out, while the process is still there, stopped."""
    import os
    import signal
    import sys

    from tablehelp import served

    from nil_tui.net.server import Limits

    limits = Limits(ping_interval=0.5, ping_timeout=1.0)
    async with served(TableConfig(deals=1, seed=3), limits) as s:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", SLEEPER, str(s.invite.port), s.invite.secret,
            stdout=asyncio.subprocess.PIPE)
        try:
            assert proc.stdout is not None
            line = await asyncio.wait_for(proc.stdout.readline(), 60)
            seat = int(line.split()[1])
            assert s.table.seating[seat].member is not None
            os.kill(proc.pid, signal.SIGSTOP)
            for _ in range(600):
                if s.table.seating[seat].member is None:
                    break
                await asyncio.sleep(0.1)
            assert s.table.seating[seat].member is None  # noticed by the ping alone
            assert proc.returncode is None
            assert s.server.connections == 0
        finally:
            os.kill(proc.pid, signal.SIGCONT)
            proc.kill()
            await proc.wait()


def test_a_seats_own_part_of_its_view_is_that_of_its_view() -> None:
    """``Deal.own_view`` (what the table writes into each seat's state) is the hand and the
    legal cards of that seat's own view, at every position of whole deals, for every seat."""
    from nil_tui.engine import Deal

    for seed in range(4):
        deal = Deal.new(dealer=seed % 4, rng=random.Random(seed))
        rng = random.Random(seed)
        while True:
            for seat in range(4):
                view = deal.view(seat)
                assert deal.own_view(seat) == (view.hand, view.legal)
            if deal.is_over:
                break
            deal.play(rng.choice(deal.legal_moves()))
    with pytest.raises(ValueError):
        deal.own_view(4)


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 4000, 65535, 65536, 70000])
def test_a_text_frame_written_at_once_is_the_frame_websockets_writes(size: int) -> None:
    from websockets.frames import Frame, Opcode

    from nil_tui.net.server import _text_frame_header

    data = "\u00e9x".encode()[:size] + b"y" * max(0, size - 3)
    data = data[:size]
    assert _text_frame_header(len(data)) + data == Frame(Opcode.TEXT, data).serialize(
        mask=False, extensions=[])
