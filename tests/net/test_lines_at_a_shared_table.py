"""A seat of a shared table played in plain lines: the line front end drives the seat's
:class:`~nil_tui.net.remote.RemoteSession` exactly as it drives a game played here, beside
another person whose seat is carried out as the table screen does (its session's effects,
the first legal card). Served on loopback; the whole game, both records the same game."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from tablehelp import served

from nil_tui.engine import Game
from nil_tui.game.options import PlayOptions
from nil_tui.lines.cards import CardWords
from nil_tui.lines.front import LineFront
from nil_tui.lines.reader import LineReader
from nil_tui.net.client import TableClient
from nil_tui.net.link import SeatLink
from nil_tui.net.remote import RemoteSession
from nil_tui.session import game_session as gs
from nil_tui.session.messages import GoOn, PlayCard
from nil_tui.session.table import TableConfig
from nil_tui.session.words import seat_labels


async def _seated(invite: object, seat: int, name: str) -> TableClient:
    client = TableClient(invite, name=name, seat=seat)  # type: ignore[arg-type]
    await client.connect()
    return client


async def _screen_player(session: RemoteSession) -> None:
    """The other person: what the table screen does with its session's output."""
    out = session.start()
    while True:
        while out:
            item = out.pop(0)
            if isinstance(item, gs.Wait):
                out.extend(session.timer_done(item.token))
            elif isinstance(item, gs.YourTurn):
                out.extend(session.act(PlayCard(session.state().legal[0])))
            elif isinstance(item, gs.DealSummary):
                out.extend(session.act(GoOn()))
            elif isinstance(item, gs.GameFinished):
                return
        more = await asyncio.wait_for(session.pushed(), 60)
        assert more is not None
        out = more


def test_a_seat_in_lines_beside_a_seat_on_screen_plays_a_whole_game() -> None:
    kept: dict[str, Game] = {}
    said: list[str] = []

    async def main() -> None:
        config = TableConfig(deals=1, seed=7, bots=("easy", "easy", "easy", "easy"))
        async with served(config) as table:
            ann = await _seated(table.invite, 0, "Ann")
            bob = await _seated(table.invite, 2, "Bob")
            await ann.start()
            look = PlayOptions(speed="instant", auto_play=True)
            screen = RemoteSession(SeatLink(ann), look,
                                   on_finished=lambda g: kept.setdefault("ann", g) and None)
            lines = RemoteSession(SeatLink(bob), look,
                                  on_finished=lambda g: kept.setdefault("bob", g) and None)
            assert await screen.ready() and await lines.ready()
            typed_r, typed_w = os.pipe()

            def write(line: str) -> None:
                said.append(line)
                if line.startswith("Your turn"):
                    os.write(typed_w, b"1\n")
                elif line.startswith("Press Enter"):
                    os.write(typed_w, b"\n")

            front = LineFront(lines, LineReader(typed_r), write, cards=CardWords(),
                              labels=seat_labels(lines.home_seat))
            try:
                await asyncio.wait_for(asyncio.gather(front.run(), _screen_player(screen)),
                                       90)
            finally:
                os.close(typed_w)
                await ann.close()
                await bob.close()
            real = table.table.game
            assert real is not None and real.is_over

    asyncio.run(main())
    assert "ann" in kept and "bob" in kept
    assert any(line.startswith("The game is over. Final scores:") for line in said), said[-5:]
    # Bob sits at North: the seats are named as he sees them (Ann, at South, is across).
    assert any(line.startswith("South ") for line in said)
    assert not any(line.startswith("North ") for line in said)
    mine = [line for line in said if line.startswith("Your turn")]
    assert mine and all("\x1b" not in line for line in said)


def test_a_seat_in_lines_beside_the_real_table_screen(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The other person on the real table screen (keys pressed), the seat in lines."""
    from nil_tui.tui.app import NilApp
    from nil_tui.tui.remote_table import show_remote_table
    from nil_tui.tui.screens.gameover import GameOverScreen
    from nil_tui.tui.screens.summary import SummaryScreen
    from nil_tui.tui.screens.table import TableScreen

    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("NIL_TUI_HOME", str(home))
    said: list[str] = []

    async def main() -> None:
        config = TableConfig(deals=1, seed=3, bots=("easy", "easy", "easy", "easy"))
        async with served(config) as table:
            app = NilApp("history")
            async with app.run_test(size=(100, 32)) as pilot:
                ann = await _seated(table.invite, 0, "Ann")
                bob = await _seated(table.invite, 2, "Bob")
                await ann.start()
                app.home.options = PlayOptions(speed="fast", trick_pause="brief")
                show_remote_table(app, ann, home=home)
                lines = RemoteSession(SeatLink(bob), PlayOptions(speed="instant"))
                assert await lines.ready()
                typed_r, typed_w = os.pipe()

                def write(line: str) -> None:
                    said.append(line)
                    if line.startswith("Your turn"):
                        os.write(typed_w, b"1\n")
                    elif line.startswith("Press Enter"):
                        os.write(typed_w, b"\n")

                front = LineFront(lines, LineReader(typed_r), write,
                                  labels=seat_labels(lines.home_seat))
                playing = asyncio.ensure_future(front.run())
                try:
                    for _ in range(3000):
                        await pilot.pause(0.02)
                        if isinstance(app.screen, GameOverScreen) and playing.done():
                            break
                        if isinstance(app.screen, (TableScreen, SummaryScreen)):
                            await pilot.press("enter")
                    else:
                        raise AssertionError(f"no game over: {app.screen!r}, {said[-3:]}")
                    await playing  # (its errors, if any)
                finally:
                    playing.cancel()
                    os.close(typed_w)
                    await ann.close()
                    await bob.close()

    asyncio.run(main())
    assert any(line.startswith("The game is over. Final scores:") for line in said), said[-5:]
    assert "Waiting for Ann." in said  # the person on screen, named when awaited
    from nil_tui.store import Store

    store = Store.open(home)
    try:
        kept = store.history()
    finally:
        store.close()
    assert len(kept) == 1 and kept[0].path is not None  # the screen's record, valid
    assert Game.from_record(json.loads(kept[0].path.read_text(encoding="utf-8"))).is_over
