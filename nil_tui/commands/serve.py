"""``nil-tui serve``: the whole app in a browser, one app process per tab (textual-serve's
page and Textual's web driver). This module only reads the command line; the server, and
textual-serve with it, is loaded by :func:`run` (:mod:`nil_tui.serve.server`)."""

from __future__ import annotations

import argparse
from typing import Any
from urllib.parse import urlsplit

DEFAULT_BIND = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_MAX_SESSIONS = 4
MAX_SESSIONS = 64  # a bound on --max-sessions: each tab is a process of its own


def port(text: str) -> int:
    """A port to listen on, in ASCII digits (0: any free port), as host's and join's."""
    from ..net.keys import port_number

    try:
        return port_number(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def bind_address(text: str) -> str:
    """An IP address or a host name to listen on, checked as host's and join's are."""
    from ..net.keys import host_address

    try:
        return host_address(text.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def public_url(text: str) -> str:
    """The server's address as browsers reach it: http(s)://host[:port][/path]."""
    try:
        parts = urlsplit(text.strip())
        _ = parts.port  # raises ValueError for a bad port
    except ValueError:
        parts = None
    if (parts is None or parts.scheme not in ("http", "https") or not parts.hostname
            or parts.query or parts.fragment or not text.isprintable()):
        raise argparse.ArgumentTypeError(
            f"not an http:// or https:// address: {text[:60]!r}")
    return text.strip().rstrip("/")


def max_sessions(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text[:40]!r}") from None
    if not 1 <= value <= MAX_SESSIONS:
        raise argparse.ArgumentTypeError(f"between 1 and {MAX_SESSIONS}, not {value}")
    return value


def add_parser(sub: Any) -> None:
    """``serve`` among the commands of ``sub`` (argparse's subparsers)."""
    parser = sub.add_parser(
        "serve", help="play in a browser: one game per tab",
        description="Serve the game to a browser: open the printed link, one game per tab. "
        "Closing or reloading a tab saves its game (opening the page again offers Resume). "
        "Beyond this machine (--bind), the link carries an access token; the page needs no "
        "internet.")
    parser.add_argument("--bind", type=bind_address, default=DEFAULT_BIND, metavar="ADDR",
                        help="the address to listen on (default: 127.0.0.1, this machine "
                        "only); any other needs the link's access token")
    parser.add_argument("--port", type=port, default=DEFAULT_PORT, metavar="P",
                        help=f"the port (default: {DEFAULT_PORT}; 0: any free port)")
    parser.add_argument("--public-url", type=public_url, default=None, metavar="URL",
                        help="the address browsers reach the server at, when it is not "
                        "http://ADDR:P (a proxy, a name): the printed link uses it, and it "
                        "needs the link's access token too")
    parser.add_argument("--max-sessions", type=max_sessions, default=DEFAULT_MAX_SESSIONS,
                        metavar="N", help="at most N tabs at once, each its own game "
                        f"process (default: {DEFAULT_MAX_SESSIONS})")


def run(args: argparse.Namespace) -> int:
    from ..serve.server import serve

    return serve(args.bind, args.port, args.public_url, args.max_sessions)
