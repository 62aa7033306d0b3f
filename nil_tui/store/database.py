"""The connection to the data file and what is known of its state now: ready, held by another
program (``busy``), waiting for a file that cannot be used (a full disk, an I/O error,
something in the way, a read-only file: read from a copy meanwhile), or saving nothing this
session (``read_only_reason``). Transactions and reads go through here, never waiting longer
than ``busy_timeout``."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..util.paths import DB_NAME
from . import messages
from .files import plain
from .locking import is_busy, kind_of
from .schema import SCHEMA_VERSION, StoreError, migrate, verify

RECORDS_DIR = "records"

UNUSABLE = ("full", "unusable", "read-only")
"""What a probe may find that says nothing of the file's content: it is left as it is, read
from a copy, and written once it can be."""


def connect(path: Path, busy_timeout: float) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                           timeout=busy_timeout)
    conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
    return conn


def journal(conn: sqlite3.Connection) -> None:
    """WAL where the file allows it; a read-only or locked file keeps the mode it has."""
    try:
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":  # pragma: no cover - e.g. network drives
            conn.execute("PRAGMA journal_mode = DELETE")
    except sqlite3.OperationalError:
        pass
    conn.execute("PRAGMA synchronous = NORMAL")


def probe(conn: sqlite3.Connection) -> tuple[str, str]:
    """Check and migrate the file: ("ready", ""), ("busy", ""), ("newer", version),
    ("read-only", why), ("full", why), ("unusable", why) or ("damaged", why). Only "damaged"
    says the file's content fails a check; an unknown version (negative, or newer than ours)
    is "newer"."""
    try:
        version = verify(conn)
        if version > SCHEMA_VERSION or version < 0:
            return "newer", str(version)
        journal(conn)
        if version < SCHEMA_VERSION:
            migrate(conn)
    except StoreError as exc:
        return "damaged", str(exc)
    except sqlite3.Error as exc:
        kind = kind_of(exc)
        return kind, (f"it is damaged ({plain(exc)})" if kind == "damaged" else plain(exc))
    return "ready", ""


class Database:
    """One connection and its state, shared by the store's parts under one lock (``mutex``).
    Made by :mod:`.opening`."""

    def __init__(self, conn: sqlite3.Connection, home: Path, warnings: list[str], *,
                 busy_timeout: float, open_wait: float, persistent: bool = True,
                 ready: bool = True, read_only_reason: str | None = None) -> None:
        self.conn = conn
        self.mutex = threading.RLock()
        self.home = home
        self.path = home / DB_NAME
        self.records_dir = home / RECORDS_DIR
        self.warnings = warnings  # the store's own list: what the player is told
        self.busy_timeout, self.open_wait = busy_timeout, open_wait
        self.persistent = persistent
        self.read_only_reason = read_only_reason
        self.ready = ready
        self.busy = False
        self.problem: str | None = None  # the write problem not solved now
        self.wait = busy_timeout  # the busy timeout set on the connection now
        self.snapshot: sqlite3.Connection | None = None  # read while the file cannot be
        self.waiting_reason: str | None = None  # why the file cannot be used now, if so
        self.unknown_version: str | None = None  # the file's version is not one we know
        self.reopen = False  # the connection met a read-only file: open it again to write
        self.slot = 0
        self.on_ready: Callable[[], None] | None = None  # called when a late file is ready
        # how the file is opened again, as at first (set by .opening): for a file that
        # became readable but is not usable as it is (damaged, newer)
        self.open_again: Callable[[], Database] | None = None
        # the connection and the log file (device, inode) it was seen writing into
        self.log_id: tuple[sqlite3.Connection, tuple[int, int]] | None = None

    # --- transactions and reads ------------------------------------------------------------
    @contextmanager
    def tx(self) -> Iterator[sqlite3.Connection]:
        with self.mutex:
            conn = self.conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    def pace(self) -> None:
        """While another program is known to hold the database, each try waits a fifth of
        ``busy_timeout``, so that a game saving after every card does not stall on it."""
        wanted = self.busy_timeout / 5 if self.busy else self.busy_timeout
        if wanted != self.wait:
            self.conn.execute(f"PRAGMA busy_timeout = {int(wanted * 1000)}")
            self.wait = wanted

    def rows(self, sql: str, params: tuple[object, ...] = ()) -> list[Any] | None:
        """The rows of a query, or None when the database cannot be read now (from the copy
        while the file cannot be used)."""
        with self.mutex:
            self.pace()
            conn = self.conn
            if self.snapshot is not None and not self.ready:
                conn = self.snapshot  # the file cannot be used now: read its copy
            elif not self.ensure_ready():
                return None
            try:
                rows = conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                self.busy = is_busy(exc)
                if not self.busy:
                    self.problem = f"nil-tui could not read its data ({plain(exc)})."
                return None
            return rows

    # --- a file that was not ready ---------------------------------------------------------
    def reconnect(self) -> bool:
        """A new connection to the file (one that SQLite opened read-only stays read-only
        after the file becomes writable); False when none can be made now."""
        if not self.persistent:
            return False
        try:
            fresh = connect(self.path, self.busy_timeout)
            fresh.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.Error:
            return False
        self.conn.close()
        self.conn, self.wait = fresh, self.busy_timeout
        return True

    def ensure_ready(self) -> bool:
        """Finish opening a store that was locked (or could not be used) at first; False
        while it still is."""
        if self.ready:
            return True
        if self.waiting_reason is not None and not self.reconnect():
            return False
        kind, why = probe(self.conn)
        if kind == "busy":
            self.busy = True
            return False
        if kind in UNUSABLE:
            self.problem = self.waiting_reason = messages.unusable(self.home, kind, why)
            return False
        if kind == "ready":  # the saved game is checked when it is loaded, or kept (unseen)
            self.ready, self.busy, self.waiting_reason = True, False, None
            self._drop_snapshot()
            if self.on_ready is not None:
                self.on_ready()
            return True
        # Readable at last, but not usable as it is: fall back as opening would have.
        if self.open_again is None:
            return False
        self._drop_snapshot()
        self.conn.close()
        fresh = self.open_again()
        for name in ("conn", "ready", "persistent", "read_only_reason", "records_dir", "busy",
                     "snapshot", "waiting_reason", "unknown_version", "problem"):
            setattr(self, name, getattr(fresh, name))
        self.wait = -1.0  # a new connection: set its timeout at the next call
        return self.ready

    def _drop_snapshot(self) -> None:
        if self.snapshot is not None:
            self.snapshot.close()
            self.snapshot = None

    def log_lost(self) -> bool:
        """After a write: the write-ahead log this connection writes into is no longer the
        file's own (another program removed it, or removed it and made a new one), so what
        was written since then is read by nobody and lost when nil-tui ends. SQLite never
        removes a log while a connection uses it; this sees it if anything else does."""
        if not self.persistent:
            return False
        try:
            mode = self.conn.execute("PRAGMA journal_mode").fetchone()[0]
            if str(mode).lower() != "wal":
                return False
            st = os.stat(self.path.with_name(self.path.name + "-wal"))
        except FileNotFoundError:
            return True
        except (OSError, sqlite3.Error):
            return False  # nothing known: the next write looks again
        now = (st.st_dev, st.st_ino)
        if self.log_id is None or self.log_id[0] is not self.conn:
            self.log_id = (self.conn, now)
        return self.log_id[1] != now

    def unreadable(self) -> str | None:
        """Why the saved data cannot be read now (see ``Store.unreadable``)."""
        if self.unknown_version is not None:
            return self.unknown_version
        if not self.ready and self.snapshot is None and self.busy:
            return messages.LOCKED_READING
        return None

    def close(self) -> None:
        with self.mutex:
            try:
                self.conn.close()
            finally:
                self._drop_snapshot()
