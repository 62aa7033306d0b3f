"""A seat of a shared table played in plain lines: ``nil-tui join --text`` (and ``join``
without a terminal) and ``nil-tui host --text``. Until the game starts the lobby is said in
lines (the one who may start it types s); then the line front end plays the seat through
its :class:`~nil_tui.net.remote.RemoteSession`, in the same words as a game played here.

Standard input that ends (a file played to its end, ``/dev/null``) leaves the seat when the
game next waits for its card (:class:`InputEnded`): the table plays on without it."""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine import SEAT_NAMES
from ..game.options import PlayOptions
from ..session.words import seat_labels, table_notice
from ..util.textsafe import one_line
from .cards import CardWords
from .front import LineFront
from .reader import LineReader, Typed

if TYPE_CHECKING:
    from ..engine import Game
    from ..net.client import TableClient
    from ..net.remote import RemoteSession

Write = Callable[[str], None]

NOTHING_TO_READ = "nothing more to read on standard input, and the game waits for you"
"""Said on standard error when the seat is left for want of input."""

START = "Type s and Enter to start the game."
LOBBY_WAIT = "The game has not started yet."


class InputEnded(Exception):
    """Standard input has nothing more to read while the game waits for a line from it (the
    seat was left)."""


class AutoPlayer:
    """Cards played by themselves (``join --auto``), as lines a player would type: a random
    legal card at each turn after ``delay`` seconds, the next deal asked for at once. A turn
    still waiting after a few seconds (its card lost with a link) is answered again."""

    live = True
    ended = False
    AGAIN = 5.0

    def __init__(self, session: RemoteSession, delay: float, rng: random.Random | None = None
                 ) -> None:
        self.session = session
        self.delay = delay
        self.rng = rng or random.Random()
        self._answered: tuple[object, ...] = ()
        self._at = 0.0

    async def get(self) -> str | None:
        loop = asyncio.get_running_loop()
        while True:
            state = self.session.state()
            key = (state.pace, state.deal_number, state.turn)
            fresh = key != self._answered or loop.time() - self._at > self.AGAIN
            if fresh and state.pace in ("your_turn", "deal_over"):
                if state.pace == "deal_over":
                    answer = ""
                else:
                    if self.delay:
                        await asyncio.sleep(self.delay)
                    state = self.session.state()
                    if (state.pace, state.deal_number, state.turn) != key:
                        continue
                    answer = str(self.rng.choice(state.legal))
                self._answered, self._at = key, loop.time()
                return answer
            await asyncio.sleep(0.05)


async def play_seat(client: TableClient, *, auto: float | None, home: Path | None,
                    cards: CardWords | None = None, write: Write | None = None) -> int:
    """Play ``client``'s seat (connected and seated) in lines until the game is over (0),
    the player leaves (0), or the table is lost for good (1, said on standard error); the
    link lost meanwhile is taken back by itself. ``home``: where the seat's key and the
    game's record are kept (None: the host's own seat, its table keeps the game). Raises
    :class:`InputEnded` once the seat was left for want of input."""
    from ..net.link import SeatLink
    from ..net.remote import RemoteSession
    from .start import write_line

    say = write or write_line
    say(f"You sit at {SEAT_NAMES[client.seat or 0]}.")
    reader = LineReader() if auto is None else None
    lost_for_good: list[str] = []

    async def reconnect() -> bool:
        problem = await rejoin(client, home)
        if problem is not None:
            lost_for_good.append(problem)
        return problem is None

    try:
        if not await lobby(client, reader, say, reconnect):
            return _gone(client, lost_for_good)
        session = RemoteSession(SeatLink(client, reconnect),
                                PlayOptions(speed="instant", auto_play=False),
                                on_finished=lambda game: keep_record(home, client, game))
        if not await session.ready():
            return _gone(client, lost_for_good)
        typed: Typed = reader if reader is not None else AutoPlayer(session, auto or 0.0)
        front = LineFront(session, typed, say, cards=cards or CardWords(),
                          labels=seat_labels(session.home_seat))
        await front.run()
        if front.finished:
            return 0
        if front.input_ended:
            raise InputEnded
        if front.ended:  # the player left (quit)
            return 0
        return _gone(client, lost_for_good)
    finally:
        await client.close()


def _gone(client: TableClient, lost_for_good: list[str]) -> int:
    """The seat is gone from the table: 0 when it was left on purpose or taken from another
    terminal, else 1, and why on standard error."""
    if lost_for_good:
        print(f"nil-tui join: {lost_for_good[-1]}; run the same join again to come back",
              file=sys.stderr, flush=True)
        return 1
    return 0 if client.left_for_good() else 1


async def lobby(client: TableClient, reader: LineReader | None, say: Write,
                reconnect: Callable[[], Awaitable[bool]]) -> bool:
    """Say the lobby until the game starts (True); the one who may start it types s. False
    when the seat is gone first (the table closed, or refused it)."""
    line: asyncio.Future[str | None] | None = None
    asked = False  # a file is read one line each time the start is offered
    try:
        while client.state is None:
            if reader is not None and line is None and not reader.ended \
                    and (reader.live or (asked and client.owner)):
                asked = False
                line = asyncio.ensure_future(reader.get())
            heard = asyncio.ensure_future(client.receive())
            waited: set[asyncio.Future[Any]] = {heard} if line is None else {heard, line}
            done, _ = await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
            if line is not None and line in done:
                typed, line = line.result(), None
                if typed is not None:
                    await _typed_in_lobby(client, typed, say)
            if heard not in done:
                heard.cancel()
                continue
            offered = await _heard_in_lobby(heard, client, say, reconnect)
            if offered is None:
                return False
            asked = asked or offered
        return True
    finally:
        if line is not None:
            line.cancel()


async def _heard_in_lobby(heard: asyncio.Future[Any], client: TableClient, say: Write,
                          reconnect: Callable[[], Awaitable[bool]]) -> bool | None:
    """What the table said in the lobby, said: True when it offered this seat the start;
    None when the seat is gone (refused, closed, or its link lost for good)."""
    from ..net.client import JoinError
    from ..net.link import BACK, LOST

    try:
        message = heard.result()
    except JoinError as exc:  # the table refused the seat, or cannot be read
        print(f"nil-tui join: {one_line(exc.reason)}", file=sys.stderr, flush=True)
        return None
    if message is None:
        if client.left_for_good():
            return None
        say(LOST)
        if not await reconnect():
            return None
        say(BACK)
        return False
    offered = False
    if isinstance(message, dict) and message.get("type") in ("lobby", "seats"):
        for text in lobby_lines(message, client.owner):
            say(text)
            offered = offered or text == START
    return offered


def lobby_lines(message: dict[str, Any], owner: bool) -> list[str]:
    """The table's notices, then (in the lobby) who sits where, and the way to start for the
    one who may."""
    seats = message.get("seats") or []
    names = [one_line(str(s.get("name") or SEAT_NAMES[i])) for i, s in enumerate(seats[:4])]
    names += list(SEAT_NAMES[len(names):])
    lines = [f"{text}." for e in message.get("events") or []
             if isinstance(e, dict) and (text := table_notice(e, names))]
    if message.get("type") == "lobby":
        for k, seat in enumerate(seats[:4]):
            who = names[k] if seat.get("kind") == "person" else "empty: a bot will play"
            lines.append(f"{SEAT_NAMES[k]}: {who}.")
        if owner:
            lines.append(START)
    return lines


async def _typed_in_lobby(client: TableClient, line: str, say: Write) -> None:
    word = line.strip().lower()
    if word == "s" and client.owner:
        await client.start()
    elif word:
        say(f"Not understood: {one_line(line.strip())[:40]}. " +
            (START if client.owner else f"{LOBBY_WAIT} The one who may start it will."))


async def rejoin(client: TableClient, home: Path | None) -> str | None:
    """Take the seat back with its key, for a while (the link may come back); None once
    back, else why not."""
    from ..net.client import rejoin as take_back
    from ..net.keys import keep_key

    problem = await take_back(client)
    if problem is None and home is not None and client.key is not None \
            and client.seat is not None:
        keep_key(home, client.invite, client.key, client.seat)
    return problem


def keep_record(home: Path | None, client: TableClient, game: Game) -> Path | None:
    """Keep the finished game's record (as the table wrote it) in the player's data folder;
    where it went (None: not kept here, or it could not be written)."""
    record = client.record
    if home is None or not isinstance(record, dict):
        return None
    import json

    folder = home / "records"
    name = f"table-{str(record.get('created', 'game')).replace(':', '')}-seat{client.seat}.json"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        print(f"nil-tui join: the game's record could not be kept in {folder}: "
              f"{exc.strerror or exc}", file=sys.stderr, flush=True)
        return None
    return folder / name


__all__ = ["NOTHING_TO_READ", "AutoPlayer", "InputEnded", "keep_record", "lobby",
           "lobby_lines", "play_seat", "rejoin"]
