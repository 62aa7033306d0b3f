"""Silent connections from a second process fill only the places of connections not yet
seated, from their own address: a player showing the invite in the handshake gets in, and so
does a client from another address that shows it only in its hello (the flood of
benchmarks/table_flood.py, with small numbers)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from tablehelp import served

from nil_tui.net.client import TableClient
from nil_tui.net.server import Limits
from nil_tui.session.table import TableConfig

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import table_flood


async def test_players_get_in_while_silent_connections_flood_the_table() -> None:
    limits = Limits(hello_timeout=1.0, max_connections=16, unseated=8, per_address=4)
    async with served(TableConfig(deals=1, seed=3), limits) as s:
        url = s.invite.url
        child = await asyncio.to_thread(table_flood.flooder, url, 40, 60.0)
        try:
            for _ in range(200):  # the flood holds every place its address may
                if s.server.gate.unseated.get(table_flood.FLOODER, 0) >= 4:
                    break
                await asyncio.sleep(0.02)
            assert s.server.gate.unseated.get(table_flood.FLOODER) == 4
            for _ in range(3):
                ann = TableClient(s.invite, name="Ann")  # shows the invite in its handshake
                welcome = await ann.connect()
                key = welcome["key"]
                await ann.close()
                back = TableClient(s.invite, key=key)  # and comes back with the seat key
                assert (await back.connect())["seat"] == welcome["seat"]
                await back.close()
                took = await table_flood.join_once(url, s.table.secret, False,
                                                   table_flood.OTHER)
                assert took is not None, "a client from another address was turned away"
                for seat in s.table.seating:
                    seat.free()
        finally:
            out, _ = await asyncio.to_thread(child.communicate, "", 30)
        assert '"opened"' in out
