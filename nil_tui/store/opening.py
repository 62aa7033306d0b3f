"""Opening the data file, and recovering from what is found: never raising, waiting at most
about ``open_wait`` seconds, and setting a file aside only when its content fails a check.

- ready: the file is checked and brought up to our schema (one instance at a time);
- held by another program: a store that is ``busy``, reading and writing once it is free;
- full disk, I/O error, something in the journal's way, read-only file: nothing renamed or
  changed; read from a copy, every write waiting until the file can be used;
- a version this nil-tui does not know: left untouched, the session saves nothing;
- damaged: moved aside (kept, never deleted) and a fresh file started.
"""

from __future__ import annotations

import os
import sqlite3
import time
from functools import partial
from pathlib import Path

from ..util.paths import DB_NAME
from . import aside, messages
from .database import UNUSABLE, Database, connect, probe
from .files import fallback_records_dir, move_aside, plain
from .locking import LOCK_NAME, MAX_SLOTS, FileLock, claim_slot, slot_is_free
from .schema import SCHEMA_VERSION, StoreError, create, migrate, verify


def open_database(base: Path, open_wait: float,
                  busy_timeout: float) -> tuple[Database, FileLock | None]:
    """The database of the data folder ``base`` (created if need be), its slot taken (see
    :mod:`.locking`), and the lock that holds that slot."""
    warnings: list[str] = []
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        reason = (f"Cannot create the data folder {base} ({exc.strerror or exc}): this "
                  "game will not be saved.")
        warnings.append(reason)
        return in_memory(base, warnings, reason, open_wait, busy_timeout), None
    writable = os.access(base, os.W_OK | os.X_OK)
    slot, lock = claim_slot(base, writable)
    try:
        if writable:
            db = open_file(base, warnings, slot, open_wait, busy_timeout)
        else:
            reason = (f"The data folder {base} is read-only: this game, your settings and "
                      "statistics will not be saved.")
            warnings.append(reason)
            db = read_only_copy(base, warnings, reason, open_wait, busy_timeout)
    except Exception as exc:  # noqa: BLE001 - opening never stops the game
        reason = f"Games cannot be saved this time ({type(exc).__name__}: {plain(exc)})."
        warnings.append(reason)
        db = in_memory(base, warnings, reason, open_wait, busy_timeout)
    except BaseException:
        if lock is not None:
            lock.release()  # the slot is not kept by a store that was never made
        raise
    db.slot = slot
    return db, lock


def adopt_left_behind(db: Database) -> None:
    """A game saved by a second instance that is no longer running becomes the main saved
    game when there is none, so ``resume`` finds it."""
    rows = db.rows("SELECT slot FROM current WHERE slot != 0 ORDER BY saved_at DESC")
    if not rows or db.rows("SELECT 1 FROM current WHERE slot = 0"):
        return
    for (slot,) in rows:
        probe = slot_is_free(db.home, slot) if 0 < slot < MAX_SLOTS else None
        if probe is None and 0 < slot < MAX_SLOTS:
            continue  # that instance is still playing
        try:
            with db.tx() as conn:
                conn.execute("UPDATE current SET slot = 0 WHERE slot = ?", (slot,))
        except sqlite3.Error:
            pass  # next time
        finally:
            if probe is not None:
                probe.release()
        return


def played_elsewhere(db: Database) -> bool:
    """This instance has no saved game, and another nil-tui running now plays one (the main
    one, or a second one in its own slot)."""
    rows = db.rows("SELECT slot FROM current")
    if not rows or any(slot == db.slot for (slot,) in rows):
        return False
    for (slot,) in rows:
        if slot == 0:
            return True  # this instance is not the main one: the main one is running
        if 0 < slot < MAX_SLOTS:
            probe = slot_is_free(db.home, slot)
            if probe is None:
                return True  # that instance still holds its slot
            probe.release()
    return False


def in_memory(base: Path, warnings: list[str], reason: str, open_wait: float,
              busy_timeout: float) -> Database:
    """A database that saves nothing between runs; finished games are still written as
    record files in the temporary folder."""
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    create(conn)
    db = Database(conn, base, warnings, busy_timeout=busy_timeout, open_wait=open_wait,
                  persistent=False, read_only_reason=reason)
    db.records_dir = fallback_records_dir()
    return db


def read_only_copy(base: Path, warnings: list[str], reason: str, open_wait: float,
                   busy_timeout: float) -> Database:
    """What can be read from a store that cannot be written, copied into memory."""
    mem = readable_copy(base, warnings)
    if mem is None:
        return in_memory(base, warnings, reason, open_wait, busy_timeout)
    db = Database(mem, base, warnings, busy_timeout=busy_timeout, open_wait=open_wait,
                  persistent=False, read_only_reason=reason)
    db.records_dir = fallback_records_dir()
    return db


def open_file(base: Path, warnings: list[str], slot: int, open_wait: float,
              busy_timeout: float) -> Database:
    """The database on the file, or the fallback its state calls for."""
    gate = FileLock(base / f"{LOCK_NAME}.open")  # one instance checks and migrates
    deadline = time.monotonic() + open_wait
    gate.acquire(blocking=True, timeout=open_wait / 2)
    try:
        for _ in range(3):  # the file, then at most two fresh ones if it is damaged
            path = base / DB_NAME
            try:
                conn = connect(path, busy_timeout)
            except sqlite3.Error as exc:
                text = (f"The data file {path} cannot be opened ({plain(exc)}); this game "
                        "will not be saved.")
                warnings.append(text)
                return in_memory(base, warnings, text, open_wait, busy_timeout)
            while True:
                kind, why = probe(conn)
                if kind != "busy" or time.monotonic() + busy_timeout > deadline:
                    break
                time.sleep(0.05)
            db = Database(conn, base, warnings, busy_timeout=busy_timeout,
                          open_wait=open_wait)
            db.slot = slot
            db.open_again = partial(open_file, base, warnings, slot, open_wait, busy_timeout)
            if _after_probe(db, kind, why):
                return db

        text = "A fresh data file could not be started; this game will not be saved."
        warnings.append(text)  # pragma: no cover - a fresh file that fails again
        return in_memory(base, warnings, text, open_wait, busy_timeout)  # pragma: no cover
    finally:
        gate.release()


def _after_probe(db: Database, kind: str, why: str) -> bool:
    """Set ``db`` up for what the probe found; False to try a fresh file (the damaged one
    was moved aside). A database that saves nothing takes the place of ``db``'s connection
    when the file cannot be used at all."""
    base, warnings = db.home, db.warnings
    if kind == "ready":
        aside.rebuild_misshapen(db)
        return True
    if kind == "busy":
        warnings.append(messages.LOCKED)
        db.ready, db.busy, db.problem = False, True, messages.LOCKED
        return True
    if kind in UNUSABLE:
        reason = messages.unusable(base, kind, why)
        warnings.append(reason)
        db.ready = False
        # The failed probe may still hold a lock that keeps the copy from reading the log:
        # its connection is closed, and a connection in memory holds its place until the
        # file can be used (``Database.ensure_ready`` then connects to the file again).
        db.conn.close()
        db.snapshot = readable_copy(base, warnings)
        db.conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        db.problem = db.waiting_reason = reason
        return True
    db.conn.close()
    if kind == "newer":
        text = messages.newer(int(why))
        _saves_nothing(db, text)
        db.unknown_version = text
        return True
    if db.slot != 0:
        _saves_nothing(db, f"The data file {db.path} cannot be used: {why}. Another nil-tui "
                       "is running; this one plays without saving.")
        return True
    moved = move_aside(db.path)
    if moved is None:
        _saves_nothing(db, f"The data file {db.path} cannot be used: {why}; it could not be "
                       "moved aside either, so this game will not be saved.")
        return True
    warnings.append(messages.damaged_kept(why, moved))
    return False


def _saves_nothing(db: Database, reason: str) -> None:
    db.warnings.append(reason)
    memory = in_memory(db.home, db.warnings, reason, db.open_wait, db.busy_timeout)
    db.conn, db.persistent, db.read_only_reason = memory.conn, False, reason
    db.records_dir = memory.records_dir


def readable_copy(base: Path, warnings: list[str]) -> sqlite3.Connection | None:
    """What can be read of the data file, in memory and brought to our schema; None (and a
    warning) when nothing can be read."""
    path = base / DB_NAME
    mem: sqlite3.Connection | None = None
    try:
        mem = snapshot(path)
        version = verify(mem)
        if version > SCHEMA_VERSION or version < 0:
            raise StoreError(messages.newer(version))
        migrate(mem)
    except (sqlite3.Error, StoreError, OSError) as exc:
        warnings.append(f"The saved data in {path} cannot be read ({plain(exc)}); "
                        "starting with defaults.")
        if mem is not None:
            mem.close()
        return None
    return mem


def snapshot(path: Path) -> sqlite3.Connection:
    """A copy in memory of the database at ``path``, read through SQLite alone (its backup)
    and never by opening the file: closing any descriptor of the file in this process drops
    every lock this process holds on it, the running game's connection included, and a
    second program reading the file then takes its write-ahead log away from the game.

    A log that holds something is read with the file in exclusive mode (SQLite keeps the
    log's index in memory then, needing no room beside the file), else through the index
    already beside it; when neither can be done, or the log is empty, the file alone is read
    as immutable (nothing beside it read or made: a log that holds anything is left unread).
    A missing file gives an empty database."""
    if not path.is_file():
        return sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    uri = path.resolve().as_uri()
    log, index = (path.with_name(path.name + suffix) for suffix in ("-wal", "-shm"))
    ways: list[tuple[str, str | None]] = []
    if _size(log) > 0:
        ways.append((uri, "PRAGMA locking_mode = EXCLUSIVE"))
        if _size(index) > 0:
            ways.append((f"{uri}?mode=ro", None))
    ways.append((f"{uri}?immutable=1", None))
    for n, (name, first) in enumerate(ways, 1):
        try:
            return _backup(name, first)
        except sqlite3.Error:
            if n == len(ways):
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def _size(path: Path) -> int:
    try:
        return path.stat().st_size if path.is_file() else 0
    except OSError:
        return 0


def _backup(uri: str, first: str | None) -> sqlite3.Connection:
    """The database at ``uri`` copied into memory by SQLite's backup, without waiting for a
    lock: the read is begun first, so that a lock held elsewhere fails here at once (the
    backup itself would wait for it without end)."""
    src = sqlite3.connect(uri, uri=True, timeout=0, isolation_level=None,
                          check_same_thread=False)
    mem = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    try:
        if first is not None:
            src.execute(first)
        src.execute("BEGIN")
        src.execute("SELECT count(*) FROM sqlite_master").fetchall()
        src.backup(mem)
    except BaseException:
        mem.close()
        raise
    finally:
        src.close()
    return mem
