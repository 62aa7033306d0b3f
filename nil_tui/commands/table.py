"""``nil-tui host`` and ``nil-tui join``: their options and what they run (a shared table:
:mod:`nil_tui.net`; on a terminal, its screens: :mod:`nil_tui.tui.table_apps`).

Only argparse is imported at the top: the command line's parser is built for every command.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from ..util import argtypes

CARD_STYLES = ("words", "codes", "symbols")  # (as nil_tui.lines.cards says them)

if TYPE_CHECKING:
    from pathlib import Path

    from ..net.client import TableClient
    from ..net.hosting import HostSettings


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
    from ..net.keys import port_number

    try:
        return port_number(text.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{exc} (0: any free port)") from None


def bind(text: str) -> str:
    """The address to listen on: an IP address or a host name, checked before anything opens
    (an empty one would listen everywhere and print an invite nobody can use)."""
    from ..net.keys import host_address

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
    host.add_argument("--cards", choices=CARD_STYLES, default="words",
                      help="with --text, how cards are said: queen of hearts (words, the "
                      "default), QH (codes) or Q♥ (symbols)")
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
    join.add_argument("--cards", choices=CARD_STYLES, default="words",
                      help="in plain lines, how cards are said: queen of hearts (words, the "
                      "default), QH (codes) or Q♥ (symbols)")
    join.add_argument("--auto", type=seconds, nargs="?", const=0.0, default=None,
                      metavar="SECONDS", help="play random legal cards by itself, after "
                      "SECONDS each (default 0: at once), for testing a table")


def run(args: argparse.Namespace) -> int:
    import asyncio

    from ..net.keys import InviteError
    from ..util.argtypes import UsageError

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
    from ..util.paths import default_home

    return default_home()


def _bots(spec: str | None) -> tuple[str, str, str, str]:
    from .bot_flags import parse_bots

    west, north, east = parse_bots(None, spec, ("normal", "normal", "normal"))
    return ("normal", west, north, east)


def host_settings(args: argparse.Namespace) -> HostSettings:
    """The table ``nil-tui host`` opens, from its options."""
    from ..net.hosting import HostSettings

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

    from ..tui.table_apps import host_app

    return host_app(replace(host_settings(args), own_history=False))


async def _host(args: argparse.Namespace) -> int:
    from ..net.hosting import HostError, open_table
    from ..util.argtypes import UsageError

    try:
        hosted = await open_table(host_settings(args))
    except HostError as exc:
        raise UsageError(str(exc)) from None
    from ..net.server import collect_less
    collect_less()  # the table is open: what lives now stays out of the collector's passes
    for line in hosted.lines():
        print(line, flush=True)
    try:
        if args.no_seat:
            await hosted.serve_until_over()
            return 0
        from ..lines.table import NOTHING_TO_READ, InputEnded

        try:
            status = await _seat(hosted.own_client(), auto=None, home=None,
                                 cards=args.cards)
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

    from ..net.keys import parse_invite
    from ..tui.table_apps import JoinRequest, join_app

    invite = parse_invite(args.invite)
    tls = None
    if invite.tls:
        tls = ssl.create_default_context(cafile=args.cafile)
        if args.cafile:
            tls.check_hostname = False  # the table's own certificate, trusted by file
    return join_app(JoinRequest(invite, args.name, args.seat, tls, _home()))


async def _join(args: argparse.Namespace) -> int:
    import ssl

    from ..net.client import TableClient
    from ..net.keys import kept_key, parse_invite

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
    from ..lines.table import NOTHING_TO_READ, InputEnded

    try:
        return await _seat(client, auto=args.auto, home=home, kept=kept is not None,
                           cards=args.cards)
    except InputEnded:
        _say(f"nil-tui join: {NOTHING_TO_READ}: you leave the table (the game goes on; a bot "
             "plays for you after the table's wait); the same nil-tui join brings you back")
        return 1


def _say(line: str) -> None:
    import sys

    print(line, file=sys.stderr, flush=True)


async def _seat(client: TableClient, *, auto: float | None, home: Path | None,
                kept: bool = False, cards: str = "words") -> int:
    """Play a seat in plain lines (the line front end, as a game played here) until the
    game is over, coming back after a lost connection. Standard input ended while the game
    waits for a card (a file played to its end, /dev/null): the seat is left and
    :class:`~nil_tui.lines.table.InputEnded` raised."""
    import sys

    from ..lines.cards import CardWords
    from ..lines.table import play_seat
    from ..net.joining import connect

    problem = await connect(client, home, kept)
    if problem is not None:
        print(f"nil-tui join: {problem}", file=sys.stderr)
        await client.close()
        return 1
    return await play_seat(client, auto=auto, home=home, cards=CardWords(cards))


__all__ = ["add_host_parser", "add_join_parser", "run"]
