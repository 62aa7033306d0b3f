"""``nil-tui host`` and ``nil-tui join``: their options and what they run.

Only argparse is imported at the top: the command line's parser is built for every command.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from .. import argtypes

if TYPE_CHECKING:
    from pathlib import Path

    from .client import TableClient
    from .hosting import HostSettings
    from .protocol import JSON


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got "
                                         f"{argtypes.shown(text)}") from None
    if not 0 <= value <= 86400:
        raise argparse.ArgumentTypeError("expected 0 to 86400 seconds")
    return value


def port(text: str) -> int:
    """A port to listen on, 0 (any free port) to 65535, checked before anything opens."""
    from .keys import port_number

    try:
        return port_number(text.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{exc} (0: any free port)") from None


def bind(text: str) -> str:
    """The address to listen on: an IP address or a host name, checked before anything opens
    (an empty one would listen everywhere and print an invite nobody can use)."""
    from .keys import host_address

    try:
        return host_address(text.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def connections(text: str) -> int:
    digits = text.strip()
    value = int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 6 else 0
    if not 1 <= value <= 100_000:
        raise argparse.ArgumentTypeError(f"expected 1 to 100000 connections, got "
                                         f"{argtypes.shown(text)}")
    return value


def people(text: str) -> int:
    if text not in ("1", "2", "3", "4"):
        raise argparse.ArgumentTypeError("expected 1 to 4 people")
    return int(text)


def add_host_parser(sub: Any) -> None:
    """Add ``host`` to the command line's subcommands."""
    host = sub.add_parser(
        "host", help="open a table that friends join from their own terminals",
        description="Open a shared table: prints an invite for nil-tui join. You sit at "
        "South; the seats nobody takes get bots when the game starts. Binds to 127.0.0.1 "
        "unless --bind says otherwise (reach a friend through an SSH tunnel, or TLS).")
    host.add_argument("--deals", type=argtypes.deals, default=8, metavar="N",
                      help="number of deals, 1-99 (default: 8)")
    host.add_argument("--bots", metavar="W=SPEC,N=SPEC,E=SPEC", default=None,
                      help="the bot for each seat nobody takes (default: normal)")
    host.add_argument("--seed", type=argtypes.seed, default=None,
                      help="seed for a reproducible game")
    host.add_argument("--scoring", choices=("classic", "pool"), default="classic",
                      help="how deals are scored: classic (the default) or pool (the "
                      "original game's; see nil-tui rules)")
    host.add_argument("--bind", type=bind, default="127.0.0.1", metavar="ADDR",
                      help="address to listen on (default: 127.0.0.1, this machine only)")
    host.add_argument("--port", type=port, default=None, metavar="P",
                      help="port to listen on (default: 4711; 0 for any free port)")
    host.add_argument("--certfile", default=None, metavar="FILE",
                      help="serve TLS with this certificate (PEM; the key too, or --keyfile)")
    host.add_argument("--keyfile", default=None, metavar="FILE",
                      help="the certificate's private key (PEM)")
    host.add_argument("--name", default=None, help="your name at the table")
    host.add_argument("--text", action="store_true",
                      help="play in plain lines of text instead of the table screen")
    host.add_argument("--no-seat", action="store_true",
                      help="run the table without playing at it")
    host.add_argument("--players", type=people, default=None, metavar="N",
                      help="start by itself once N people are seated (default: you start it; "
                      "with --no-seat, the first person to sit down starts it)")
    host.add_argument("--away-timeout", type=seconds, default=60.0, metavar="SECONDS",
                      help="how long a dropped player's seat waits before a normal bot "
                      "plays it until they are back (default: 60)")
    host.add_argument("--turn-timeout", type=seconds, default=120.0, metavar="SECONDS",
                      help="how long the table waits for the card of a player who is "
                      "connected but does not play, before a normal bot plays for them until "
                      "they play again (default: 120)")
    host.add_argument("--deal-pause", type=seconds, default=30.0, metavar="SECONDS",
                      help="the longest wait after a deal for the players to ask for the "
                      "next one (default: 30)")
    host.add_argument("--ping-timeout", type=seconds, default=20.0, metavar="SECONDS",
                      help="a connection that answers no ping for this long is dropped "
                      "(its player counts as away; default: 20)")
    host.add_argument("--max-connections", type=connections, default=64, metavar="N",
                      help="connections open at once, at most (default: 64)")
    host.add_argument("--resume", action="store_true",
                      help="bring back the last table (after a crash or a kill): same "
                      "invite, same seats, its game as last saved")
    host.add_argument("--replace", action="store_true",
                      help="open a new table even though the last one's game is unfinished")


def add_join_parser(sub: Any) -> None:
    """Add ``join`` to the command line's subcommands."""
    join = sub.add_parser(
        "join", help="sit at a friend's table",
        description="Join a shared table with its invite. Run the same command again to "
        "get your seat back (your seat key is kept in your data folder); after a lost link "
        "it tries to take the seat back by itself for 3 minutes. Without a terminal it plays "
        "in plain lines: a file on standard input is read one line at each prompt, a pipe "
        "as its lines come; when there is nothing more to read at your turn, it leaves the "
        "seat.")
    join.add_argument("invite", metavar="INVITE",
                      help="the invite, nil://HOST:PORT/SECRET (or nils:// for TLS)")
    join.add_argument("--name", default=None, help="your name at the table")
    join.add_argument("--seat", type=argtypes.seat, default=None, metavar="S",
                      help="the seat you ask for (S, W, N, E; default: the next free one)")
    join.add_argument("--cafile", default=None, metavar="FILE",
                      help="trust this certificate (a table with its own TLS certificate)")
    join.add_argument("--text", action="store_true",
                      help="play in plain lines of text instead of the table screen (the "
                      "default when no terminal is attached)")
    join.add_argument("--auto", type=seconds, nargs="?", const=0.0, default=None,
                      metavar="SECONDS", help="play random legal cards by itself, after "
                      "SECONDS each (default 0: at once), for testing a table")


def run(args: argparse.Namespace) -> int:
    import asyncio

    from ..cli import UsageError
    from .keys import InviteError

    try:
        if args.command == "host":
            if not args.no_seat and _on_screen(args):
                return _host_on_screen(args)
            return asyncio.run(_host(args))
        if _on_screen(args):
            return _join_on_screen(args)
        return asyncio.run(_join(args))
    except InviteError as exc:
        raise UsageError(str(exc)) from None
    except KeyboardInterrupt:
        return 130


# --- host ------------------------------------------------------------------------------------
def _home() -> Path:
    from ..paths import default_home

    return default_home()


def _bots(spec: str | None) -> tuple[str, str, str, str]:
    from ..cli import parse_bots

    west, north, east = parse_bots(None, spec, ("normal", "normal", "normal"))
    return ("normal", west, north, east)


def host_settings(args: argparse.Namespace) -> HostSettings:
    """The table ``nil-tui host`` opens, from its options."""
    from .hosting import HostSettings

    return HostSettings(deals=args.deals, bots=_bots(args.bots), seed=args.seed,
                        scoring=args.scoring, bind=args.bind, port=args.port,
                        certfile=args.certfile, keyfile=args.keyfile, name=args.name,
                        seat=not args.no_seat, players=args.players,
                        away_timeout=args.away_timeout, turn_timeout=args.turn_timeout,
                        deal_pause=args.deal_pause,
                        ping_timeout=args.ping_timeout, max_connections=args.max_connections,
                        resume=args.resume, replace=args.replace)


def _host_on_screen(args: argparse.Namespace) -> int:
    """The host at South on the table screen, after the lobby."""
    from dataclasses import replace

    from ..tui.together import host_app

    return host_app(replace(host_settings(args), own_history=False))


async def _host(args: argparse.Namespace) -> int:
    from ..cli import UsageError
    from .hosting import HostError, open_table

    try:
        hosted = await open_table(host_settings(args))
    except HostError as exc:
        raise UsageError(str(exc)) from None
    from .server import collect_less
    collect_less()  # the table is open: what lives now stays out of the collector's passes
    for line in hosted.lines():
        print(line, flush=True)
    try:
        if args.no_seat:
            await hosted.serve_until_over()
            return 0
        try:
            status = await _seat(hosted.own_client(), auto=None, home=None)
        except InputEnded:
            _say(f"nil-tui host: {NOTHING_TO_READ}: you leave your seat (a bot plays for you "
                 "after the table's wait); the table stays open until its game is over "
                 "(Ctrl-C closes it)")
            await hosted.serve_until_over()
            return 0
        if hosted.finished:  # the others see the end too, one whose link dropped included
            hosted.table.told_the_end.add(0)
            await hosted.serve_until_over()
        return status
    finally:
        await hosted.close()


# --- join ------------------------------------------------------------------------------------
def _on_screen(args: argparse.Namespace) -> bool:
    """Whether ``join`` shows the table screen: on a terminal, unless asked for lines of
    text (``--text``) or for cards played by themselves (``--auto``)."""
    import sys

    if getattr(args, "text", False) or getattr(args, "auto", None) is not None:
        return False
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _join_on_screen(args: argparse.Namespace) -> int:
    import ssl

    from ..tui.remote_table import JoinRequest, join_app
    from .keys import parse_invite

    invite = parse_invite(args.invite)
    tls = None
    if invite.tls:
        tls = ssl.create_default_context(cafile=args.cafile)
        if args.cafile:
            tls.check_hostname = False  # the table's own certificate, trusted by file
    return join_app(JoinRequest(invite, args.name, args.seat, tls, _home()))


async def _join(args: argparse.Namespace) -> int:
    import ssl

    from .client import TableClient
    from .keys import kept_key, parse_invite

    invite = parse_invite(args.invite)
    home = _home()
    kept = kept_key(home, invite)
    tls = None
    if invite.tls:
        tls = ssl.create_default_context(cafile=args.cafile)
        if args.cafile:
            tls.check_hostname = False  # the table's own certificate, trusted by file
    client = TableClient(invite, name=args.name, key=kept[0] if kept else None,
                         seat=args.seat, tls=tls)
    try:
        return await _seat(client, auto=args.auto, home=home, kept=kept is not None)
    except InputEnded:
        _say(f"nil-tui join: {NOTHING_TO_READ}: you leave the table (the game goes on; a bot "
             "plays for you after the table's wait); the same nil-tui join brings you back")
        return 1


async def _connect(client: TableClient, home: Path | None, kept: bool) -> str | None:
    """Connect (once); None when seated, else why not."""
    from .client import JoinError
    from .keys import keep_key

    try:
        await client.connect()
    except JoinError as exc:
        if exc.code == "unknown_key" and kept:
            client.key = None  # the seat was given up before the game started
            return await _connect(client, home, False)
        return exc.reason
    if home is not None and client.key is not None and client.seat is not None:
        keep_key(home, client.invite, client.key, client.seat)
    return None


NOTHING_TO_READ = "nothing more to read on standard input, and the game waits for you"


def _say(line: str) -> None:
    import sys

    print(line, file=sys.stderr, flush=True)


class InputEnded(Exception):
    """Standard input has nothing more to read while the game waits for a line from it."""


ENDED = object()  # what the inbox gives once standard input has ended


async def _seat(client: TableClient, *, auto: float | None, home: Path | None,
                kept: bool = False) -> int:
    """Play a seat until the game is over, coming back after a lost connection. Standard
    input ended while the game waits for a line (a file played to its end, /dev/null): the
    seat is left and InputEnded raised."""
    import asyncio
    import random
    import sys

    from ..session import protocol as session
    from .client import REJOIN_WORDS, JoinError
    from .text import LineInput, Missed, describe_news, describe_seats, describe_state, out

    problem = await _connect(client, home, kept)
    if problem is not None:
        print(f"nil-tui join: {problem}", file=sys.stderr)
        return 1
    print(f"You sit at {('South', 'West', 'North', 'East')[client.seat or 0]}.", flush=True)
    lines = None if auto is not None else LineInput()
    inbox = Inbox(client, lines)
    missed = Missed(client.seat or 0)
    rng = random.Random()
    answered, went_on = -1, 0
    try:
        while True:
            if lines is not None:
                prompt = _prompt(client)
                if prompt is not None and lines.ended and prompt[0] == "turn":
                    await client.act(session.Quit())  # the table plays on without this seat
                    raise InputEnded
                if prompt is not None:
                    lines.want(prompt)
            try:
                message = await inbox.next()
            except JoinError as exc:
                print(f"nil-tui join: {exc.reason}", file=sys.stderr)
                return 1
            if message is None:  # the connection is gone
                if client.record is not None:
                    return 0
                if client.ws is not None and client.ws.close_code in (1000, 4000):
                    print("You left the table (the same join brings you back).", flush=True)
                    return 0
                missed.lost()
                print(f"Lost the table; trying to take the seat back for {REJOIN_WORDS}...",
                      flush=True)
                problem = await _rejoin(client, home)
                if problem is not None:
                    print(f"nil-tui join: {problem}; run the same join again to come back",
                          file=sys.stderr)
                    return 1
                print("Back at the table.", flush=True)
                answered, went_on = -1, 0  # what was sent may have been lost with the link
                if lines is not None:
                    lines.again()
                continue
            if message is ENDED:  # the seat is left when the game next waits for a card
                print("(Nothing more to read on standard input: you watch until your turn.)",
                      flush=True)
                continue
            if isinstance(message, str):  # a line typed
                if not await _typed(client, message) and lines is not None:
                    lines.again()
                continue
            out(missed.heard(message))
            state = client.state
            names = state.names if state is not None else ("South", "West", "North", "East")
            if isinstance(message, dict):
                kind = message.get("type")
                if kind in ("lobby", "seats"):
                    _owner_moved(client, message)
                    out(describe_seats(message, client.owner))
                elif kind == "record":
                    _keep_record(home, client.seat, message.get("record"))
                    return 0
                elif kind == "refused":
                    print(f"Refused: {message.get('reason')}", flush=True)
                    if lines is not None:
                        lines.again()
                continue
            if not isinstance(message, session.TableState):
                text = describe_news(message, names, client.seat)
                if text:
                    out([text])
                continue
            out(describe_state(message))
            if auto is not None:
                if message.pace == "deal_over" and went_on < message.deal_number:
                    went_on = message.deal_number
                    await client.go_on()
                if client.my_turn() and message.turn > answered:
                    answered = message.turn
                    if auto:
                        await asyncio.sleep(auto)
                    await client.play(rng.choice(message.legal), answered)
    finally:
        inbox.close()
        if lines is not None:
            lines.close()
        await client.close()


def _prompt(client: TableClient) -> tuple[object, ...] | None:
    """What the game waits for from this seat's player now, if anything: the start (the
    owner, in the lobby), a card, the next deal (which the table also starts by itself)."""
    state = client.state
    if state is None:
        lobby = client.seats is not None and client.seats.get("type") == "lobby"
        return ("start",) if lobby and client.owner else None
    if state.pace == "your_turn" and state.legal:
        return ("turn", state.turn)
    if state.pace == "deal_over":
        return ("deal", state.deal_number)
    return None


def _owner_moved(client: TableClient, message: JSON) -> None:
    """The lobby's owner changed (the one who starts the game left)."""
    for event in message.get("events") or []:
        if isinstance(event, dict) and event.get("kind") == "owner":
            client.owner = event.get("seat") == client.seat


class Inbox:
    """The next message from the table, or the next line typed (text), or ENDED once
    standard input has ended, or None when the connection has closed. A line that comes at
    the same moment as a message waits for the next call (nothing is dropped)."""

    def __init__(self, client: TableClient, lines: Any) -> None:
        self.client = client
        self.lines = lines
        self._line: Any = None  # the wait for a line, kept from one call to the next

    async def next(self) -> Any:
        import asyncio

        if self.lines is None:
            return await self.client.receive()
        if self._line is None:
            self._line = asyncio.ensure_future(self.lines.queue.get())
        message = asyncio.ensure_future(self.client.receive())
        done, _ = await asyncio.wait({self._line, message},
                                     return_when=asyncio.FIRST_COMPLETED)
        if message in done:
            return message.result()
        message.cancel()
        line, self._line = self._line.result(), None
        return ENDED if line is None else line

    def close(self) -> None:
        if self._line is not None:
            self._line.cancel()


async def _typed(client: TableClient, line: str) -> bool:
    """Send what a typed line asks for; False when it asks for nothing that can be done
    now (said in a line)."""
    word = line.strip().upper()
    state = client.state
    if word == "S" and state is None:
        await client.start()
    elif state is not None and state.pace == "deal_over" and word in ("", "R"):
        await client.go_on()
    elif len(word) == 2 and word.isascii() and word.isalnum():
        await client.play(word)
    else:
        if word:
            from ..textsafe import one_line

            print(f"Not understood: {one_line(line.strip())[:40]} (type a card, such as QH; "
                  "Enter after a deal)", flush=True)
        return False
    return True


async def _rejoin(client: TableClient, home: Path | None) -> str | None:
    """Come back with the seat key, for a while (the link may come back); None once back,
    else why not."""
    from .client import rejoin
    from .keys import keep_key

    problem = await rejoin(client)
    if problem is None and home is not None and client.key is not None \
            and client.seat is not None:
        keep_key(home, client.invite, client.key, client.seat)
    return problem


def _keep_record(home: Path | None, seat: int | None, record: object) -> None:
    """Keep the game's record in the player's data folder."""
    if home is None or not isinstance(record, dict):
        return
    import json

    folder = home / "records"
    folder.mkdir(parents=True, exist_ok=True)
    name = f"table-{str(record.get('created', 'game')).replace(':', '')}-seat{seat}.json"
    (folder / name).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"The game's record: {folder / name}", flush=True)


__all__ = ["add_host_parser", "add_join_parser", "run"]
