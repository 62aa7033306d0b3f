"""Opening a shared table, without a screen: its store and keys in the data folder, the
table (new, or brought back as it was kept) and its server listening. ``nil-tui host`` and the
app's **Host a table** both open their table here, and then only differ in what they show.
"""

from __future__ import annotations

import asyncio
import json
import ssl
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..util.textsafe import one_line
from .keys import Invite, host_address, port_number

if TYPE_CHECKING:
    from ..engine import Game
    from ..session.table import Table
    from ..store import Saved, Store
    from .client import TableClient
    from .server import WireServer
    from .wire import JSON

TABLE_DIR = "table"  # the host's table (its store and its keys) inside the data folder
TABLE_FILE = "table.json"
DEFAULT_PORT = 4711
LOCAL = ("127.0.0.1", "localhost", "::1")


class HostError(Exception):
    """The table cannot be opened: one line saying why (nothing was changed)."""


@dataclass
class HostSettings:
    deals: int = 8
    bots: tuple[str, str, str, str] = ("normal", "normal", "normal", "normal")
    seed: int | None = None
    scoring: str = "classic"
    bind: str = "127.0.0.1"
    port: int | None = None  # None: 4711 (or the resumed table's)
    certfile: str | None = None
    keyfile: str | None = None
    name: str | None = None  # the host's name at South
    seat: bool = True  # the host plays South (else the table runs without them)
    players: int | None = None  # start by itself once this many people are seated
    away_timeout: float = 60.0
    turn_timeout: float = 120.0  # a person here who does not play: then the stand-in does
    deal_pause: float = 30.0
    ping_timeout: float = 20.0
    max_connections: int = 64
    resume: bool = False
    replace: bool = False
    home: Path | None = None  # the data folder (default: the player's)
    own_history: bool = True
    """A finished game joins the host's own history here (the app keeps it itself)."""


@dataclass
class HostedTable:
    """An open table: its server listens, its game is kept in ``store``."""

    table: Table
    server: WireServer
    store: Store
    invite: Invite  # as friends use it
    local: Invite  # as the host's own seat reaches it, over this machine
    bind: str
    tls: bool
    finished: list[Game] = field(default_factory=list)
    _closed: bool = False

    @property
    def code(self) -> str:
        """The invite to read out: address, port and the secret in groups of four."""
        return self.invite.spoken

    @property
    def local_only(self) -> bool:
        return self.bind in LOCAL

    def lines(self) -> list[str]:
        """What the host is told once the table is open."""
        lines = [f"Table open. Invite your friends with:\n  nil-tui join {self.invite}",
                 f"(or read out: {self.code})"]
        if self.local_only:
            lines.append("It listens on this machine only: a friend elsewhere comes through "
                         "an SSH tunnel (see Playing together in the documentation).")
        return lines

    def own_client(self) -> TableClient:
        """A client for the host's own seat (South), with its seat key."""
        from .client import TableClient

        owner = self.table.seating[0]
        context = None
        if self.tls:
            context = ssl.create_default_context()
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE  # our own table, over this machine
        return TableClient(self.local, key=owner.key, name=owner.name, tls=context)

    async def serve_until_over(self, grace: float = 60.0) -> None:
        """Serve until the game is over and every person at the table has been there since
        (a seat connected at the end or after it is sent the end); at most ``grace`` seconds
        after the end for a player whose link dropped to come back for it."""
        table = self.table
        while not self.finished:
            await asyncio.sleep(0.5)
        for _ in range(int(grace / 0.5)):
            people = {s.number for s in table.seating if s.kind == "person"}
            if people <= table.told_the_end and not any(s.member is not None
                                                        for s in table.seating):
                return
            await asyncio.sleep(0.5)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            await self.server.close()
        finally:
            self.store.close()


def private_folder(path: Path) -> None:
    """A folder only its owner may enter (made if need be)."""
    import os

    path.mkdir(parents=True, exist_ok=True)
    try:
        os.chmod(path, 0o700)
    except OSError:
        pass


def public_address() -> str:
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the interface
            return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def unfinished_table(home: Path | None = None) -> bool:
    """Whether the last table opened here has a game under way (``--resume`` brings it back)."""
    from ..util.paths import default_home

    folder = (home or default_home()) / TABLE_DIR
    try:
        kept = json.loads((folder / TABLE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(kept, dict) and bool(kept.get("started"))


class _Keeping:
    """Where a hosted table keeps itself: its game in the table's store, its seats and keys
    in the table's file, a finished game in the history (the host's too, when they played
    South)."""

    def __init__(self, settings: HostSettings, store: Store, table_file: Path, bind: str,
                 port: int) -> None:
        self.settings, self.store, self.table_file = settings, store, table_file
        self.bind, self.port = bind, port
        self.finished: list[Game] = []
        self.table: Table | None = None

    def save_game(self, game: Game) -> None:
        self.store.save_current(game.to_record(), {"table": True})

    def save_table(self, data: JSON) -> None:
        from .keys import write_private

        write_private(self.table_file, {**data, "bind": self.bind, "port": self.port})

    def game_over(self, game: Game) -> None:
        from ..store import Store

        self.finished.append(game)
        record = game.to_record()
        others = [str(p.get("bot") or p.get("name")) for p in record["players"][1:]]
        self.store.finish_game(record, {"table": True, "bots": others})
        table = self.table
        if self.settings.own_history and table is not None and table.seating[0].hosts:
            # the host played South: the game joins their history
            mine = Store.open(self.settings.home)
            try:
                mine.finish_game(record, {"table": True, "bots": others})
            finally:
                mine.close()


def _read_json(path: Path) -> JSON | None:
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return kept if isinstance(kept, dict) else None


def _tls_of(settings: HostSettings) -> ssl.SSLContext | None:
    from .server import tls_context

    if not settings.certfile:
        return None
    try:
        return tls_context(settings.certfile, settings.keyfile)
    except (OSError, ssl.SSLError) as exc:
        raise HostError(f"cannot use the certificate: {exc}") from None


def _resumed(kept: JSON, saved: Saved | None, keeping: _Keeping) -> Table:
    """The last table back, with its game (its address as it was, unless given anew)."""
    from ..engine import Game
    from ..session.table import Table

    game = Game.from_record(saved[0]) if saved and kept.get("started") else None
    if kept.get("started") and game is None:
        raise HostError("the last table's game is over, or its store cannot be read "
                        "now (open a new table with nil-tui host)")
    try:
        if keeping.settings.port is None:
            keeping.port = port_number(str(kept.get("port", DEFAULT_PORT)))
        if keeping.bind == "127.0.0.1" and kept.get("bind"):
            keeping.bind = host_address(str(kept["bind"]))
        return Table.restore(kept, game, save_game=keeping.save_game,
                             save_table=keeping.save_table, on_game_over=keeping.game_over)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise HostError(f"the last table's file cannot be read ({one_line(str(exc))}): open "
                        "a new table with nil-tui host --replace") from None


def _opened(settings: HostSettings, unfinished: bool, keeping: _Keeping) -> Table:
    """A new table (refused over an unfinished game unless it replaces it)."""
    from ..session.table import Table, TableConfig

    if unfinished and not settings.replace:
        raise HostError("the last table's game is unfinished: nil-tui host --resume "
                        "brings it back (or add --replace to open a new table)")
    config = TableConfig(deals=settings.deals, seed=settings.seed, bots=settings.bots,
                         away_timeout=settings.away_timeout,
                         turn_timeout=settings.turn_timeout,
                         deal_pause=settings.deal_pause, start_when=settings.players,
                         scoring=settings.scoring)
    return Table(config, save_game=keeping.save_game, save_table=keeping.save_table,
                 on_game_over=keeping.game_over)


async def _listen(settings: HostSettings, table: Table, keeping: _Keeping,
                  tls: ssl.SSLContext | None) -> WireServer:
    from .server import Limits, WireServer

    limits = Limits(max_connections=settings.max_connections,
                    ping_timeout=settings.ping_timeout,
                    ping_interval=max(0.5, min(10.0, settings.ping_timeout / 2)))
    server = WireServer({"/": table}, limits)
    try:
        keeping.port = await server.start(keeping.bind, keeping.port, tls)
    except OSError as exc:
        await server.close()
        raise HostError(f"cannot listen on {keeping.bind}:{keeping.port} "
                        f"({exc.strerror or exc})") from None
    return server


async def open_table(settings: HostSettings) -> HostedTable:
    """Open the table (or bring the last one back) and listen; HostError says why not."""
    from ..store import Store
    from ..util.paths import default_home

    home = (settings.home or default_home()) / TABLE_DIR
    table_file = home / TABLE_FILE
    kept = _read_json(table_file)
    if settings.resume and kept is None:
        raise HostError("there is no table to resume (open one with nil-tui host)")
    tls = _tls_of(settings)
    private_folder(home)  # the store holds every hand of the game being played
    store = Store.open(home)
    try:
        saved = store.load_current()
    except Exception:
        store.close()
        raise
    port = settings.port if settings.port is not None else DEFAULT_PORT
    keeping = _Keeping(settings, store, table_file, settings.bind, port)
    try:
        if settings.resume:
            assert kept is not None
            table = _resumed(kept, saved, keeping)
        else:
            unfinished = kept is not None and bool(kept.get("started")) and bool(saved)
            table = _opened(settings, unfinished, keeping)
        keeping.table = table
        server = await _listen(settings, table, keeping, tls)
    except BaseException:
        store.close()
        raise
    # Listening: only now is anything of the last table replaced.
    if not settings.resume:
        if saved:
            store.clear_current()
        if settings.seat:
            table.seating.seat_host(0, settings.name)
    table.keep()
    bind, port = keeping.bind, keeping.port
    shown = bind if bind not in ("0.0.0.0", "::") else public_address()
    local = Invite("127.0.0.1" if bind in ("0.0.0.0", "127.0.0.1") else bind, port,
                   table.secret, tls is not None)
    return HostedTable(table, server, store, Invite(shown, port, table.secret, tls is not None),
                       local, bind, tls is not None, keeping.finished)


__all__ = ["HostError", "HostSettings", "HostedTable", "open_table", "unfinished_table"]
