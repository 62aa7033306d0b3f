"""The ``Store``: settings, the game in progress, history and statistics, in SQLite.

The store never stops the game and never loses it:

- A damaged file (not a database, a failed integrity check, schema garbage) is moved aside
  (kept, never deleted) and a fresh store started; ``warnings`` says where it went.
- A file that another program holds is *not* damage: opening waits briefly
  (``Store.open_wait``), then returns a store that is ``busy``; no call blocks longer than
  ``Store.busy_timeout``; writes that meet the lock wait in a queue, retried by
  ``retry_pending`` (the app calls it from a timer) and at the next write.
- A file written by a newer nil-tui is left untouched: the store runs in memory, saving
  nothing, and says so (``read_only_reason``).
- Every write says whether it is durably stored, and ``problem`` says in plain words what is
  keeping it from being stored, until a later write succeeds.
- Rows that cannot be read (bad or hostile JSON) are set aside into files beside the database;
  the rest is kept.

Two instances at once: the first holds the main lock and the main game slot; any other is
``is_secondary`` and keeps its game in a slot of its own, so neither overwrites the other.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

from ..paths import DB_NAME, default_home
from . import messages
from .files import (
    JSONDamage,
    dumps,
    fallback_records_dir,
    keep_text,
    loads,
    loads_object,
    loads_or,
    move_aside,
    now_utc,
    plain,
    set_aside,
    stamp,
    write_new,
)
from .locking import (
    LOCK_NAME,
    MAX_SLOTS,
    FileLock,
    claim_slot,
    is_busy,
    kind_of,
    slot_is_free,
)
from .schema import (
    GAME_COLUMNS,
    GAME_SUMMARY_COLUMNS,
    SCHEMA_VERSION,
    SUMMARY_MARKS,
    StoreError,
    count,
    create,
    migrate,
    misshapen,
    rebuild,
    summary_row,
    table_rows,
    verify,
)
from .summaries import (
    Figures,
    GameSummary,
    JSONObject,
    challenge_of,
    fingerprint,
    result_text,
    seed_from_text,
    seed_label,
    summarize,
)

RECORDS_DIR = "records"
COMPUTED_KEPT = 500
"""Computed results (analyses, the expert's references) kept at most: the oldest are
forgotten first, and worked out again if they are asked for again."""

Saved = tuple[JSONObject, JSONObject]  # (record, options) of a game in progress


class Finished(NamedTuple):
    """What became of a finished game (``Store.keep_finished``)."""

    stored: bool
    """True only when the game is durably in history (and its statistics)."""
    record_file: Path | None
    """Its record file, if one could be written (maybe in the temporary folder)."""
    problem: str | None
    """Why it is not stored yet (it waits and is tried again), or None when stored."""


def unsaved_dir() -> Path:
    """Where games that could not be written are kept when the data folder cannot hold them."""
    return Path(tempfile.gettempdir()) / "nil-tui-unsaved"

_UNREAD: dict[str, list[str]] = {}  # warnings of closed stores nobody read, by folder


def _key(home: Path) -> str:
    return os.path.abspath(home)


def as_options(options: JSONObject) -> JSONObject:
    """JSON keeps tuples as lists: give ``bots`` back as the tuple PlayOptions holds."""
    if isinstance(options.get("bots"), list):
        options["bots"] = tuple(options["bots"])
    return options


def current_problem(record_text: object, options_text: object) -> str | None:
    """Why a saved game cannot be resumed, or None when its record rebuilds a game."""
    try:
        record = loads(record_text)
    except JSONDamage as exc:
        return str(exc)
    try:
        loads_object(options_text)
    except JSONDamage as exc:
        return f"its options cannot be used ({exc})"
    from ..engine.records import RecordError, from_record

    try:
        from_record(record)
    except RecordError as exc:
        return f"its record does not check out ({exc})"
    except Exception as exc:  # noqa: BLE001 - a saved game must never stop the app
        return f"its record cannot be rebuilt ({type(exc).__name__}: {exc})"
    return None


def _int_list(text: object) -> list[int]:
    value = loads(text)
    if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise JSONDamage("it is not a list of numbers")
    return value


# --- writes that wait for the database -------------------------------------------------------
class _Op:
    """A write that runs inside one transaction; kept in a queue while it cannot."""

    kind = "write"
    what = "your data"

    def run(self, store: Store, conn: sqlite3.Connection) -> None:
        raise NotImplementedError


class _SaveCurrent(_Op):
    kind, what = "save", "the game in progress"

    def __init__(self, saved: Saved, record_text: str, options_text: str) -> None:
        self.saved, self.record_text, self.options_text = saved, record_text, options_text

    def run(self, store: Store, conn: sqlite3.Connection) -> None:
        if not store._current_seen:  # a saved game nobody has seen yet is kept, not replaced
            store._archive_in(conn)
        conn.execute("INSERT OR REPLACE INTO current(slot, record, options, saved_at) "
                     "VALUES (?, ?, ?, ?)",
                     (store.slot, self.record_text, self.options_text, now_utc()))
        store._current_seen = True


class _ClearCurrent(_Op):
    kind, what = "clear", "the end of the saved game"

    def __init__(self, keep: tuple[str, str] | None = None) -> None:
        self.keep = keep  # a saved game to keep inside the store (no file could hold it)

    def run(self, store: Store, conn: sqlite3.Connection) -> None:
        if self.keep is not None:
            conn.execute("INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)",
                         (f"_unreadable_saved_game_{stamp()}",
                          json.dumps({"record": self.keep[0], "options": self.keep[1]})))
        conn.execute("DELETE FROM current WHERE slot = ?", (store.slot,))


class _SaveSettings(_Op):
    kind, what = "settings", "the settings"

    def __init__(self, rows: list[tuple[str, str]]) -> None:
        self.rows = rows

    def run(self, store: Store, conn: sqlite3.Connection) -> None:
        conn.executemany("INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)",
                         self.rows)


class _Archive(_Op):
    kind, what = "archive", "the unfinished game"

    def __init__(self) -> None:
        self.game_id: int | None = None

    def run(self, store: Store, conn: sqlite3.Connection) -> None:
        self.game_id = store._archive_in(conn)


class _Finish(_Op):
    kind, what = "finish", "the finished game"

    def __init__(self, record: JSONObject, texts: tuple[str, str], summary: GameSummary,
                 mark: str) -> None:
        self.record, self.summary, self.mark = record, summary, mark
        self.record_text, self.options_text = texts
        self.path: Path | None = None

    def run(self, store: Store, conn: sqlite3.Connection) -> None:
        known = conn.execute("SELECT path FROM games WHERE fingerprint = ? AND finished = 1",
                             (self.mark,)).fetchone()
        if known is not None:  # another instance finished this very game
            if self.path is not None and known[0] and Path(known[0]) != self.path:
                self.path.unlink(missing_ok=True)
            self.path = Path(known[0]) if known[0] else self.path
            if self.summary.challenge_diff is not None:  # the expert's reference came since
                conn.execute("UPDATE games SET record = ?, challenge_diff = ? "
                             "WHERE fingerprint = ? AND finished = 1 AND challenge_diff IS NULL",
                             (self.record_text, self.summary.challenge_diff, self.mark))
        else:
            if self.path is None:
                self.path = store._write_record_file(self.record, self.summary.seed)
            conn.execute(
                "INSERT INTO games(finished_at, path, record, options, fingerprint, finished, "
                f"{GAME_SUMMARY_COLUMNS}) VALUES (?, ?, ?, ?, ?, 1, {SUMMARY_MARKS})",
                (now_utc(), str(self.path), self.record_text, self.options_text, self.mark,
                 *summary_row(self.summary)))
            count(conn, self.summary)
        conn.execute("DELETE FROM current WHERE slot = ?", (store.slot,))


class _Remember(_Op):
    kind, what = "computed", "a computed result"

    def __init__(self, key: str, text: str) -> None:
        self.key, self.text = key, text

    def run(self, store: Store, conn: sqlite3.Connection) -> None:
        conn.execute("INSERT OR REPLACE INTO computed(key, value, created) VALUES (?, ?, ?)",
                     (self.key, self.text, now_utc()))
        conn.execute("DELETE FROM computed WHERE rowid NOT IN (SELECT rowid FROM computed "
                     "ORDER BY created DESC, rowid DESC LIMIT ?)", (COMPUTED_KEPT,))


class _ChallengeReference(_Op):
    """The expert's points per deal of a challenge, known after its game went into history:
    written into the record of each game of that date and its difference worked out."""

    kind, what = "reference", "the expert's result of the challenge"

    def __init__(self, date: str, reference: list[int]) -> None:
        self.date, self.reference = date, reference
        self.updated = 0

    def run(self, store: Store, conn: sqlite3.Connection) -> None:
        self.updated = 0
        rows = conn.execute("SELECT id, record, options, finished, path FROM games "
                            "WHERE challenge = ?", (self.date,)).fetchall()
        for gid, record_text, options_text, finished, path in rows:
            record = _with_reference(record_text, self.reference)
            if record is None:
                continue  # unreadable or not of this shape: history sets it aside
            options = loads_or(options_text, {})
            try:
                summary = summarize(record, options if isinstance(options, dict) else {},
                                    finished=bool(finished))
                text = dumps(record)
            except (JSONDamage, TypeError, ValueError, RecursionError):
                continue
            conn.execute("UPDATE games SET record = ?, challenge_diff = ? WHERE id = ?",
                         (text, summary.challenge_diff, gid))
            self.updated += 1
            if finished and path:
                _rewrite_record_file(Path(path), record)


def _with_reference(record_text: object, reference: list[int]) -> JSONObject | None:
    """The record with the challenge's reference set, or None when the record cannot be read
    or the reference does not fit it (the engine's reader says which records are sound)."""
    try:
        record = loads_object(record_text)
    except JSONDamage:
        return None
    field = record.get("challenge")
    if not isinstance(field, dict):
        return None
    record["challenge"] = dict(field, reference=list(reference))
    from ..engine.records import RecordError, from_record

    try:
        from_record(record)
    except RecordError:
        return None
    except Exception:  # noqa: BLE001 - a record that cannot be rebuilt is left as it was
        return None
    return record


def _rewrite_record_file(path: Path, record: JSONObject) -> None:
    """The game's record file brought up to date (whole, or left as it was), if it still is
    this game's record."""
    try:
        old = loads_object(path.read_text(encoding="utf-8"))
        if fingerprint(old) != fingerprint(record):
            return
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(json.dumps(record, indent=1) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
    except (OSError, JSONDamage, UnicodeDecodeError):
        pass  # the store holds the record; the file is a copy for the player


def _optional_int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# --- the store -------------------------------------------------------------------------------
class Store:
    """Settings, the game in progress, history and statistics. Open with ``Store.open``.

    Reading: ``load_settings``, ``load_current``, ``history``, ``load_record``, ``stats``,
    ``computed``, ``find_challenge``.
    Writing (each returns whether the data is durably stored): ``save_settings``,
    ``save_current``, ``clear_current``, ``finish_game``, ``archive_current``, ``reopen``,
    ``set_aside_current``, ``remember``, ``set_challenge_reference``; ``retry_pending`` retries what could not be written yet.
    State for the player: ``warnings`` (what happened at opening and since), ``problem`` (the
    write problem unsolved now), ``busy``, ``read_only_reason``, ``is_secondary``.
    """

    open_wait: ClassVar[float] = 1.0  # seconds opening may wait for a locked database
    busy_timeout: ClassVar[float] = 0.25  # seconds any one call may wait for the lock

    def __init__(self, conn: sqlite3.Connection, home: Path, *, slot: int = 0,
                 persistent: bool = True, warnings: list[str] | None = None,
                 lock: FileLock | None = None, ready: bool = True,
                 read_only_reason: str | None = None) -> None:
        self._conn = conn
        self._mutex = threading.RLock()
        self.home = home
        self.slot = slot
        self.persistent = persistent
        self.read_only_reason = read_only_reason
        """Why nothing is saved in this session (a newer nil-tui's data, a read-only folder,
        no folder at all), or None when the store saves."""
        self._warnings: list[str] = list(warnings or [])
        self._warnings_read = False
        self._lock = lock
        self._ready = ready
        self._busy = False
        self._wait = self.busy_timeout  # the busy timeout set on the connection now
        self._problem: str | None = None
        self._pending: list[_Op] = []
        self._current_seen = ready
        self._set_aside_ids: set[int] = set()
        self._games_checked = False
        self.records_dir = home / RECORDS_DIR
        self._db_path = home / DB_NAME
        self._snapshot: sqlite3.Connection | None = None  # read while the file cannot be
        self._waiting_reason: str | None = None  # why the file cannot be used now, if so
        self._unknown_version: str | None = None  # the file's version is not one we know
        self._reopen = False  # the connection met a read-only file: open it again to write

    # --- opening -------------------------------------------------------------------------
    @classmethod
    def open(cls, home: str | os.PathLike[str] | None = None) -> Store:
        """Open (or create) the store in ``home``; never raises for a damaged, locked or
        newer store, and waits at most about ``open_wait`` seconds. ``warnings`` then says
        what was found: a damaged file and where it was kept, a lock, a newer version."""
        base = Path(home).expanduser() if home is not None else default_home()
        store = cls._open(base)
        # Warnings nobody read (an earlier open in this process only looked up settings)
        # are handed to this one, so the player still hears what happened.
        store._warnings[:0] = _UNREAD.pop(_key(base), [])
        return store

    @property
    def warnings(self) -> list[str]:
        """What went wrong with the store, in plain words, for the app to show."""
        self._warnings_read = True
        return self._warnings

    @property
    def problem(self) -> str | None:
        """The write problem not solved now, in plain words (locked, read-only file or
        folder, disk full, newer version, no folder), or None: everything asked of the store
        is stored. Goes back to None once a later write succeeds."""
        return self._problem or self.read_only_reason

    @property
    def unreadable(self) -> str | None:
        """Why the saved data cannot be read now, in plain words, or None when the reads give
        all there is: another program holds the file so that even reading waits (a saved
        game may well be there), or the file has a version this nil-tui does not know. A
        caller that finds no saved game says this instead of "there is no saved game"."""
        if self._unknown_version is not None:
            return self._unknown_version
        if not self._ready and self._snapshot is None and self._busy:
            return messages.LOCKED_READING
        return None

    @property
    def busy(self) -> bool:
        """Another program held the database at the last attempt to use it."""
        return self._busy

    @property
    def is_secondary(self) -> bool:
        """Another instance was already playing when this one opened the store."""
        return self.slot != 0

    @classmethod
    def _open(cls, base: Path) -> Store:
        warnings: list[str] = []
        try:
            base.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            reason = (f"Cannot create the data folder {base} ({exc.strerror or exc}): this "
                      "game will not be saved.")
            warnings.append(reason)
            return cls._in_memory(base, warnings, reason)
        writable = os.access(base, os.W_OK | os.X_OK)
        slot, lock = claim_slot(base, writable)
        try:
            if writable:
                store = cls._open_file(base, warnings, slot)
            else:
                reason = (f"The data folder {base} is read-only: this game, your settings and "
                          "statistics will not be saved.")
                warnings.append(reason)
                store = cls._read_only_copy(base, warnings, reason)
        except Exception as exc:  # noqa: BLE001 - opening never stops the game
            reason = f"Games cannot be saved this time ({type(exc).__name__}: {plain(exc)})."
            warnings.append(reason)
            store = cls._in_memory(base, warnings, reason)
        except BaseException:
            if lock is not None:
                lock.release()  # the slot is not kept by a store that was never made
            raise
        store.slot, store._lock = slot, lock
        if store._ready:
            if slot == 0 and store.persistent:
                store._adopt_left_behind()
            store._check_current(seen=True)
        return store

    @classmethod
    def in_memory(cls, reason: str) -> Store:
        """A store that saves nothing between runs, for when the real one cannot be opened at
        all; finished games are still written as record files in the temporary folder."""
        text = f"Games cannot be saved this time ({reason})."
        return cls._in_memory(fallback_records_dir().parent / "nil-tui-unsaved", [text], text)

    @classmethod
    def _in_memory(cls, base: Path, warnings: list[str], reason: str) -> Store:
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        create(conn)
        store = cls(conn, base, persistent=False, warnings=warnings, read_only_reason=reason)
        store.records_dir = fallback_records_dir()
        return store

    @classmethod
    def _read_only_copy(cls, base: Path, warnings: list[str], reason: str) -> Store:
        """What can be read from a store that cannot be written, copied into memory."""
        mem = _readable_copy(base, warnings)
        if mem is None:
            return cls._in_memory(base, warnings, reason)
        store = cls(mem, base, persistent=False, warnings=warnings, read_only_reason=reason)
        store.records_dir = fallback_records_dir()
        return store

    @classmethod
    def _waiting(cls, conn: sqlite3.Connection, base: Path, warnings: list[str],
                 reason: str) -> Store:
        """A file that cannot be used now (a full disk, an I/O error, something in its way):
        nothing is renamed or changed; what it holds is read from a copy in memory, and every
        write waits until the file can be used again (``retry_pending``)."""
        warnings.append(reason)
        store = cls(conn, base, warnings=warnings, ready=False)
        store._snapshot = _readable_copy(base, warnings)
        store._problem = store._waiting_reason = reason
        return store

    @classmethod
    def _connect(cls, path: Path) -> sqlite3.Connection:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                               timeout=cls.busy_timeout)
        conn.execute(f"PRAGMA busy_timeout = {int(cls.busy_timeout * 1000)}")
        return conn

    @staticmethod
    def _probe(conn: sqlite3.Connection) -> tuple[str, str]:
        """Check and migrate the file: ("ready", ""), ("busy", ""), ("newer", version),
        ("read-only", why), ("full", why), ("unusable", why) or ("damaged", why). Only
        "damaged" says the file's content fails a check; an unknown version (negative, or
        newer than ours) is "newer"."""
        try:
            version = verify(conn)
            if version > SCHEMA_VERSION or version < 0:
                return "newer", str(version)
            _journal(conn)
            if version < SCHEMA_VERSION:
                migrate(conn)
        except StoreError as exc:
            return "damaged", str(exc)
        except sqlite3.Error as exc:
            kind = kind_of(exc)
            return kind, (f"it is damaged ({plain(exc)})" if kind == "damaged" else plain(exc))
        return "ready", ""

    @classmethod
    def _probe_until(cls, conn: sqlite3.Connection, deadline: float) -> tuple[str, str]:
        while True:
            kind, why = cls._probe(conn)
            if kind != "busy" or time.monotonic() + cls.busy_timeout > deadline:
                return kind, why
            time.sleep(0.05)

    @classmethod
    def _open_file(cls, base: Path, warnings: list[str], slot: int) -> Store:
        """The store on the file, or the fallback its state calls for."""
        gate = FileLock(base / f"{LOCK_NAME}.open")  # one instance checks and migrates
        deadline = time.monotonic() + cls.open_wait
        gate.acquire(blocking=True, timeout=cls.open_wait / 2)
        try:
            for _ in range(3):  # the file, then at most two fresh ones if it is damaged
                path = base / DB_NAME
                try:
                    conn = cls._connect(path)
                except sqlite3.Error as exc:
                    text = f"The data file {path} cannot be opened ({plain(exc)}); " \
                           "this game will not be saved."
                    warnings.append(text)
                    return cls._in_memory(base, warnings, text)
                kind, why = cls._probe_until(conn, deadline)
                store = cls._after_probe(conn, base, warnings, slot, (kind, why))
                if store is not None:
                    return store
            text = "A fresh data file could not be started; this game will not be saved."
            warnings.append(text)  # pragma: no cover - a fresh file that fails again
            return cls._in_memory(base, warnings, text)  # pragma: no cover
        finally:
            gate.release()

    @classmethod
    def _after_probe(cls, conn: sqlite3.Connection, base: Path, warnings: list[str],
                     slot: int, probed: tuple[str, str]) -> Store | None:
        """The store for what the probe found; None to try a fresh file."""
        kind, why = probed
        path = base / DB_NAME
        if kind == "ready":
            store = cls(conn, base, warnings=warnings)
            store._rebuild_misshapen()
            return store
        if kind == "busy":
            warnings.append(messages.LOCKED)
            store = cls(conn, base, warnings=warnings, ready=False)
            store._busy, store._problem = True, messages.LOCKED
            return store
        if kind in ("full", "unusable", "read-only"):
            return cls._waiting(conn, base, warnings, messages.unusable(base, kind, why))
        conn.close()
        if kind == "newer":
            text = messages.newer(int(why))
            warnings.append(text)
            store = cls._in_memory(base, warnings, text)
            store._unknown_version = text
            return store
        if slot != 0:
            text = (f"The data file {path} cannot be used: {why}. Another nil-tui is "
                    "running; this one plays without saving.")
            warnings.append(text)
            return cls._in_memory(base, warnings, text)
        moved = move_aside(path)
        if moved is None:
            text = (f"The data file {path} cannot be used: {why}; it could not be moved "
                    "aside either, so this game will not be saved.")
            warnings.append(text)
            return cls._in_memory(base, warnings, text)
        warnings.append(messages.damaged_kept(why, moved))
        return None

    def _reconnect(self) -> bool:
        """A new connection to the file (one that SQLite opened read-only stays read-only
        after the file becomes writable); False when none can be made now."""
        if not self.persistent:
            return False
        try:
            fresh = self._connect(self._db_path)
            fresh.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.Error:
            return False
        self._conn.close()
        self._conn, self._wait = fresh, self.busy_timeout
        return True

    def _ensure_ready(self) -> bool:
        """Finish opening a store that was locked at first; False while it still is."""
        if self._ready:
            return True
        if self._waiting_reason is not None and not self._reconnect():
            return False
        kind, why = self._probe(self._conn)
        if kind == "busy":
            self._busy = True
            return False
        if kind in ("full", "unusable", "read-only"):
            self._problem = self._waiting_reason = messages.unusable(self.home, kind, why)
            return False
        if kind == "ready":  # the saved game is checked when it is loaded, or kept (unseen)
            self._ready, self._busy, self._waiting_reason = True, False, None
            if self._snapshot is not None:
                self._snapshot.close()
                self._snapshot = None
            self._rebuild_misshapen()
            return True
        self._snapshot = None
        # Readable at last, but not usable as it is: fall back as opening would have.
        self._conn.close()
        fresh = self._open_file(self.home, self._warnings, self.slot)
        self._conn, self._ready = fresh._conn, fresh._ready
        self.persistent, self.read_only_reason = fresh.persistent, fresh.read_only_reason
        self.records_dir, self._busy = fresh.records_dir, fresh._busy
        self._wait = -1.0  # a new connection: set its timeout at the next call
        return self._ready

    def _rebuild_misshapen(self) -> None:
        """A table of another shape than this version writes (``settings``, ``current``,
        ``computed``, ``stats``) would make every write to it fail: its rows are kept in a
        file beside the database and the table is made again."""
        try:
            tables = misshapen(self._conn)
        except sqlite3.Error:
            return
        for table in tables:
            try:
                with self._tx() as conn:
                    if table not in misshapen(conn):
                        continue  # another instance made it again just now
                    rows = [{k: keep_text(v) if isinstance(v, (str, bytes)) else v
                             for k, v in row.items()} for row in table_rows(conn, table)]
                    kept = self._keep_file(f"table-{table}", {
                        "why": f"the table {table!r} is not the one this nil-tui writes",
                        "table": table, "rows": rows})
                    rebuild(conn, table)
            except OSError as exc:
                self._warnings.append(
                    f"The data file's table {table!r} is not the one this nil-tui writes, so "
                    f"what goes in it cannot be saved; it could not be copied to a file "
                    f"({exc.strerror or exc}), so it was left as it is.")
                continue
            except sqlite3.Error:
                continue  # tried again at the next opening
            self._warnings.append(
                f"The data file's table {table!r} was not the one this nil-tui writes, so "
                f"nothing could be saved in it: its rows were kept as {kept} and the table "
                "was made again.")

    def _adopt_left_behind(self) -> None:
        """A game saved by a second instance that is no longer running becomes the main saved
        game when there is none, so ``resume`` finds it."""
        rows = self._rows("SELECT slot FROM current WHERE slot != 0 ORDER BY saved_at DESC")
        if not rows or self._rows("SELECT 1 FROM current WHERE slot = 0"):
            return
        for (slot,) in rows:
            probe = slot_is_free(self.home, slot) if 0 < slot < MAX_SLOTS else None
            if probe is None and 0 < slot < MAX_SLOTS:
                continue  # that instance is still playing
            try:
                with self._tx() as conn:
                    conn.execute("UPDATE current SET slot = 0 WHERE slot = ?", (slot,))
            except sqlite3.Error:
                pass  # next time
            finally:
                if probe is not None:
                    probe.release()
            return

    def _check_current(self, seen: bool) -> None:
        """A saved game that no longer reads back is reported and set aside, not resumed."""
        rows = self._rows("SELECT record, options FROM current WHERE slot = ?", (self.slot,))
        if rows is None:
            return
        self._current_seen = seen
        if rows:
            problem = current_problem(rows[0][0], rows[0][1])
            if problem is not None:
                self._set_aside_texts(rows[0][0], rows[0][1], problem)

    # --- transactions and reads ----------------------------------------------------------
    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._mutex:
            conn = self._conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    def _pace(self) -> None:
        """While another program is known to hold the database, each try waits a fifth of
        ``busy_timeout``, so that a game saving after every card does not stall on it."""
        wanted = self.busy_timeout / 5 if self._busy else self.busy_timeout
        if wanted != self._wait:
            self._conn.execute(f"PRAGMA busy_timeout = {int(wanted * 1000)}")
            self._wait = wanted

    def _rows(self, sql: str, params: tuple[object, ...] = ()) -> list[Any] | None:
        """The rows of a query, or None when the database cannot be read now."""
        with self._mutex:
            self._pace()
            conn = self._conn
            if self._snapshot is not None and not self._ready:
                conn = self._snapshot  # the file cannot be used now: read its copy
            elif not self._ensure_ready():
                return None
            try:
                rows = conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                self._busy = is_busy(exc)
                if not self._busy:
                    self._problem = f"nil-tui could not read its data ({plain(exc)})."
                return None
            return rows

    # --- writes --------------------------------------------------------------------------
    def _submit(self, op: _Op) -> bool:
        with self._mutex:
            same = [k for k, o in enumerate(self._pending)
                    if isinstance(op, _Remember) and isinstance(o, _Remember) and o.key == op.key]
            if op.kind == "save" and self._pending and self._pending[-1].kind == "save":
                self._pending[-1] = op  # the newest saved game supersedes the older one
            elif same:
                self._pending[same[0]] = op  # the newest value of a key supersedes the older
            else:
                self._pending.append(op)
            return self._flush() and self.persistent

    def _flush(self) -> bool:
        """Write what waits, in order; True when nothing waits any more."""
        with self._mutex:
            self._pace()
            if self._pending and not self._ensure_ready():
                self._problem = self._waiting_reason or messages.LOCKED
                return False
            if self._reopen and self._pending and self._reconnect():
                self._reopen = False
            failed: str | None = None
            while self._pending:
                op = self._pending[0]
                try:
                    with self._tx() as conn:
                        op.run(self, conn)
                except (sqlite3.Error, OSError) as exc:
                    failed = messages.write_problem(exc, op.what, self.home, self._db_path)
                    self._problem, self._busy = failed, is_busy(exc)
                    # a file opened read-only stays so: open it again at the next try
                    self._reopen = kind_of(exc) == "read-only"
                    if isinstance(exc, (sqlite3.OperationalError, OSError)):
                        return False  # kept, to try again
                self._pending.pop(0)  # done, or never possible (then ``problem`` says so)
            self._problem, self._busy = failed, False
            return failed is None

    def retry_pending(self) -> bool:
        """Try again the writes that could not be done (a lock, a full disk, a read-only
        file); True when everything asked of the store is now durably stored. The app calls
        it from a timer while ``problem`` is set; each call waits at most ``busy_timeout``."""
        return self._flush() and self.persistent

    def save_settings(self, settings: JSONObject) -> bool:
        """Keep these settings (merged over the ones already kept); True when stored."""
        try:
            rows = [(str(k), dumps(v)) for k, v in settings.items()
                    if not str(k).startswith("_")]
        except JSONDamage as exc:
            self._problem = f"The settings cannot be saved: {exc}."
            return False
        return self._submit(_SaveSettings(rows))

    def save_current(self, record: JSONObject, options: JSONObject) -> bool:
        """The game in progress, in one transaction: all of it or (on a crash) the last one.
        True when it is durably stored; else it waits (the newest save replacing an older
        one that waits) and ``problem`` says why."""
        try:
            texts = dumps(record), dumps(options)
        except JSONDamage as exc:
            self._problem = f"The game in progress cannot be saved: {exc}."
            return False
        return self._submit(_SaveCurrent((record, dict(options)), *texts))

    def clear_current(self) -> bool:
        """Forget the game in progress (it was finished or set aside); True when stored."""
        return self._submit(_ClearCurrent())

    def archive_current(self) -> int | None:
        """Move this instance's saved game into history, marked unfinished (its record kept,
        resumable with ``reopen``), before a new game replaces it. Returns its history id;
        None when there is no saved game, or when it cannot be done now (then it waits, is
        done before any later save, and ``problem`` says why)."""
        op = _Archive()
        self._submit(op)
        return op.game_id

    def reopen(self, game_id: int) -> Saved | None:
        """Make an unfinished game from history the saved game again (archiving the current
        one first) and take it off the unfinished list; returns (record, options), or None
        when there is no such unfinished game or the store cannot be written now."""
        with self._mutex:
            if not self._flush():
                return None
            try:
                with self._tx() as conn:
                    row = conn.execute("SELECT record, options FROM games "
                                       "WHERE id = ? AND finished = 0", (game_id,)).fetchone()
                    if row is None:
                        return None
                    saved = loads_object(row[0]), loads_object(row[1])
                    self._archive_in(conn)
                    conn.execute("INSERT OR REPLACE INTO current(slot, record, options, "
                                 "saved_at) VALUES (?, ?, ?, ?)",
                                 (self.slot, row[0], row[1], now_utc()))
                    conn.execute("DELETE FROM games WHERE id = ?", (game_id,))
            except JSONDamage as exc:
                self._set_aside_game(game_id, f"its record {exc}")
                return None
            except sqlite3.Error as exc:
                self._problem = messages.write_problem(exc, "the game to resume", self.home,
                                                       self._db_path)
                self._busy = is_busy(exc)
                return None
            self._current_seen = True
            return saved[0], as_options(saved[1])

    def finish_game(self, record: JSONObject, options: JSONObject) -> Path | None:
        """Write the finished game's record file, add it to history and statistics and clear
        the game in progress, all at once. Finishing the same game twice counts it once.
        Returns the record file, or None when the record or the history row could not be
        written now (it waits and is retried; ``problem`` says why). In a store that saves
        nothing (``read_only_reason``) the record file is still written (in the temporary
        folder) and returned."""
        try:
            texts = dumps(record), dumps(options)
            summary = summarize(record, options)
            mark = fingerprint(record)
        except (JSONDamage, TypeError, ValueError, RecursionError) as exc:
            self._problem = f"The finished game cannot be saved: {plain(exc)}."
            return None
        with self._mutex:
            known = self._rows("SELECT path FROM games WHERE fingerprint = ? AND finished = 1",
                               (mark,))
            if known:
                date, ref = challenge_of(record)
                if date is not None and ref is not None:  # the expert's reference came since
                    self._submit(_ChallengeReference(date, ref))
                self._submit(_ClearCurrent())
                return Path(known[0][0]) if known[0][0] else None
            waiting = [op for op in self._pending if isinstance(op, _Finish) and op.mark == mark]
            op = waiting[0] if waiting else _Finish(record, texts, summary, mark)
            if not waiting:
                op.path = self._try_record_file(record, summary.seed)
                self._pending.append(op)
            stored = self._flush()
            return op.path if stored and (self.persistent or op.path is not None) else None

    def keep_finished(self, record: JSONObject, options: JSONObject) -> Finished:
        """``finish_game``, told in full: ``stored`` is True only once the game is durably in
        history; else it waits in the queue (``retry_pending`` tries again, ``close`` keeps
        it in a file) and ``problem`` says why. ``record_file`` is where its record file was
        written, if it was (in a store that saves nothing, only there)."""
        path = self.finish_game(record, options)
        with self._mutex:
            mark = None
            try:
                mark = fingerprint(record)
            except (TypeError, ValueError, RecursionError):
                pass
            waiting = [op for op in self._pending if isinstance(op, _Finish) and op.mark == mark]
            stored = path is not None and self.persistent and not waiting
            if waiting and path is None:
                path = waiting[0].path
        return Finished(stored, path, None if stored else self.problem)

    def remember(self, key: str, value: JSONObject) -> bool:
        """Keep a computed result (an analysis, an expert's reference) under ``key``, so that
        it is not computed again (the newest ``COMPUTED_KEPT`` are kept). True when it is
        durably stored; False when it cannot be kept (not a JSON object, a store that saves
        nothing) or must wait (a lock, a full disk: it is kept in the queue like other writes,
        and ``computed`` already returns it). Never raises, and waits at most
        ``busy_timeout``."""
        if not isinstance(key, str) or not isinstance(value, dict):
            return False
        try:
            text = dumps(value)
        except JSONDamage:
            return False
        return self._submit(_Remember(key, text))

    def computed(self, key: str) -> JSONObject | None:
        """The result kept under ``key`` by ``remember``, or None (none kept, the store busy
        now, or a value that cannot be read: it is then set aside into a file)."""
        with self._mutex:
            for op in reversed(self._pending):
                if isinstance(op, _Remember) and op.key == key:
                    return loads_object(op.text)
            rows = self._rows("SELECT value FROM computed WHERE key = ?", (key,))
            if not rows:
                return None
            try:
                return loads_object(rows[0][0])
            except JSONDamage as exc:
                self._set_aside_computed(key, rows[0][0], str(exc))
                return None

    def find_challenge(self, date: str) -> JSONObject | None:
        """The game of the daily challenge of ``date``, if one was started: {"where":
        "current", "id": None, "finished": False} when it is the saved game; else {"where":
        "history", "id": its history id, "finished": bool} (a finished game is preferred to
        one set aside unfinished; "id" is None while the game waits to be written). None
        when there is none (or the store cannot be read now)."""
        with self._mutex:
            current: object = None
            look_in_file = True
            for op in reversed(self._pending):
                if isinstance(op, _Finish) and op.summary.challenge == date:
                    return {"where": "history", "id": None, "finished": True}
                if isinstance(op, _SaveCurrent):
                    current, look_in_file = op.saved[0], False
                    break
                if isinstance(op, (_ClearCurrent, _Finish, _Archive)):
                    look_in_file = False
                    break
            if look_in_file:
                rows = self._rows("SELECT record FROM current WHERE slot = ?", (self.slot,))
                current = loads_or(rows[0][0], None) if rows else None
            if isinstance(current, dict) and challenge_of(current)[0] == date:
                return {"where": "current", "id": None, "finished": False}
            rows = self._rows("SELECT id, finished FROM games WHERE challenge = ? "
                              "ORDER BY finished DESC, finished_at DESC, id DESC LIMIT 1",
                              (date,))
            if not rows:
                return None
            return {"where": "history", "id": int(rows[0][0]), "finished": bool(rows[0][1])}

    def set_challenge_reference(self, date: str, reference: list[int]) -> bool:
        """The expert's points per deal of the challenge of ``date``, known after its game
        went into history: written into that game's record (and its record file) and its
        difference worked out for history and statistics. True when a game was brought up to
        date and stored; False when there is no such game in history (nothing changes), the
        reference does not fit the game, or the write must wait (it is queued like a save)."""
        from ..engine.records import RecordError, read_reference

        try:
            reference = read_reference(reference)
        except RecordError:
            return False
        with self._mutex:
            waiting = any(isinstance(op, _Finish) and op.summary.challenge == date
                          for op in self._pending)
            rows = self._rows("SELECT 1 FROM games WHERE challenge = ? LIMIT 1", (date,))
            if rows == [] and not waiting:
                return False  # no such game: a no-op
            op = _ChallengeReference(date, list(reference))
            stored = self._submit(op)
            return stored and op.updated > 0

    def set_aside_current(self, reason: str) -> Path | None:
        """The saved game cannot be resumed (its record does not load in the engine): keep it
        as a file beside the store and clear it. Returns that file (also said in
        ``warnings``), or None when no file could be written (it is then kept inside the
        store) or there is no saved game."""
        with self._mutex:
            waiting = [op for op in self._pending if isinstance(op, _SaveCurrent)]
            if waiting and self._pending[-1] is waiting[-1]:
                texts: tuple[object, object] = (waiting[-1].record_text,
                                                waiting[-1].options_text)
            else:
                rows = self._rows("SELECT record, options FROM current WHERE slot = ?",
                                  (self.slot,))
                if not rows:
                    return None
                texts = rows[0][0], rows[0][1]
            return self._set_aside_texts(texts[0], texts[1], reason)

    # --- reads ---------------------------------------------------------------------------
    def load_settings(self) -> JSONObject:
        """The settings kept (a setting that cannot be read is set aside into a file)."""
        rows = self._rows("SELECT key, value FROM settings WHERE key NOT LIKE '\\_%' "
                          "ESCAPE '\\'") or []
        settings: JSONObject = {}
        for key, value in rows:
            try:
                settings[key] = loads(value)
            except JSONDamage as exc:
                self._set_aside_setting(key, value, str(exc))
        return as_options(settings)

    def load_current(self) -> Saved | None:
        """(record, options) of this instance's saved game, or None (also while the store is
        ``busy`` and the game cannot be read). A saved game that no longer reads back is set
        aside into a file (see ``warnings``) and None is returned."""
        with self._mutex:
            for op in reversed(self._pending):  # what waits to be written is the newest
                if isinstance(op, _SaveCurrent):
                    return loads_object(op.record_text), as_options(dict(op.saved[1]))
                if isinstance(op, (_ClearCurrent, _Finish, _Archive)):
                    return None
            rows = self._rows("SELECT record, options FROM current WHERE slot = ?",
                              (self.slot,))
            if rows is None:
                return None
            self._current_seen = True
            if not rows:
                return None
            problem = current_problem(rows[0][0], rows[0][1])
            if problem is not None:
                self._set_aside_texts(rows[0][0], rows[0][1], problem)
                return None
            return loads_object(rows[0][0]), as_options(loads_object(rows[0][1]))

    def history(self) -> list[dict[str, Any]]:
        """Games in history, newest first: finished ones and unfinished ones (``finished``
        False, ``result`` "unfinished": set aside when a new game replaced them; resumable
        with ``reopen``). Each row: id, path (the record file, None for unfinished games),
        finished_at (when it entered history), finished, deals (complete deals), result,
        opponents, totals, lost, losers, difficulty, seed, clean_deals, points, challenge
        (the date of the daily challenge it is, or None) and challenge_diff (South's points
        minus the expert's over the challenge's deals, once the game is finished and the
        expert's reference known; else None). A row that cannot be read is set aside into a
        file and left out."""
        rows = self._rows(
            "SELECT id, path, finished_at, deals, opponents, totals, lost, difficulty, seed, "
            "clean_deals, points, losers, finished, challenge, challenge_diff FROM games "
            "ORDER BY finished_at DESC, id DESC")
        self._games_checked = rows is not None
        out = []
        for (gid, path, finished_at, deals, opponents, totals, lost, difficulty, seed,
             clean, points, losers, finished, challenge, diff) in rows or []:
            try:
                total_list, loser_list = _int_list(totals), _int_list(losers)
            except JSONDamage as exc:
                self._set_aside_game(gid, f"its summary {exc}")
                continue
            out.append({
                "id": gid, "path": Path(path) if path else None, "finished_at": finished_at,
                "finished": bool(finished), "deals": deals,
                "result": result_text(bool(lost), loser_list, bool(finished)),
                "opponents": opponents, "totals": total_list, "lost": bool(lost),
                "losers": loser_list, "difficulty": difficulty, "seed": seed_from_text(seed),
                "clean_deals": clean, "points": points,
                "challenge": challenge if isinstance(challenge, str) else None,
                "challenge_diff": _optional_int(diff),
            })
        return out

    def load_record(self, game_id: int) -> JSONObject | None:
        """The record of a game from history, finished or not (kept in the store, so it
        opens even if its file was moved); None when there is none or it cannot be read (it
        is then set aside into a file)."""
        rows = self._rows("SELECT record FROM games WHERE id = ?", (game_id,))
        if not rows:
            return None
        try:
            return loads_object(rows[0][0])
        except JSONDamage as exc:
            self._set_aside_game(game_id, f"its record {exc}")
            return None

    def stats(self) -> dict[str, Any]:
        """Finished games only: games played and lost, deals kept clean and points per deal,
        by difficulty ("by_difficulty") and "overall"; a "series" of points per deal, game by
        game, oldest first; and the daily "challenges" finished, oldest first: date,
        finished_at, points (South's), reference (the expert's points from South's seat, None
        until known) and diff (points minus reference, or None)."""
        if not self._games_checked:
            self.history()  # sets aside unreadable rows, so the figures count the rest
        rows = self._rows("SELECT difficulty, games, lost, deals, clean_deals, points "
                          "FROM stats WHERE games > 0 ORDER BY games DESC, difficulty") or []
        by = {d: Figures(*figures) for d, *figures in rows}
        overall = Figures(*(sum(getattr(f, key) for f in by.values()) for key in
                            ("games", "lost", "deals", "clean_deals", "points")))
        series_rows = self._rows(
            "SELECT finished_at, difficulty, deals, points, lost, clean_deals FROM games "
            "WHERE finished = 1 ORDER BY finished_at, id") or []
        series = [{"finished_at": f, "difficulty": d, "deals": n, "points": p,
                   "points_per_deal": p / n if n else 0.0, "lost": bool(lo), "clean_deals": c}
                  for f, d, n, p, lo, c in series_rows]
        challenge_rows = self._rows(
            "SELECT challenge, finished_at, points, challenge_diff FROM games "
            "WHERE finished = 1 AND challenge IS NOT NULL ORDER BY finished_at, id") or []
        challenges = []
        for date, f, p, diff in challenge_rows:
            known = _optional_int(diff)
            challenges.append({"date": str(date), "finished_at": f, "points": p,
                               "reference": None if known is None else p - known,
                               "diff": known})
        return {"by_difficulty": {d: f.as_dict() for d, f in by.items()},
                "overall": overall.as_dict(), "series": series, "challenges": challenges}

    # --- keeping what cannot be used -----------------------------------------------------
    def _archive_in(self, conn: sqlite3.Connection) -> int | None:
        """Inside a transaction: move this slot's saved game into history as unfinished."""
        row = conn.execute("SELECT record, options FROM current WHERE slot = ?",
                           (self.slot,)).fetchone()
        if row is None:
            return None
        try:
            record, options = loads_object(row[0]), loads_object(row[1])
            summary = summarize(record, options, finished=False)
            mark = "unfinished-" + fingerprint(record)
        except (JSONDamage, TypeError, ValueError, RecursionError) as exc:
            kept = self._keep_file("saved-game", {"why": plain(exc),
                                                  "record": keep_text(row[0]),
                                                  "options": keep_text(row[1])})
            self._warnings.append(f"The saved game cannot be resumed: {plain(exc)}. It was "
                                  f"kept as {kept}.")
            conn.execute("DELETE FROM current WHERE slot = ?", (self.slot,))
            return None
        known = conn.execute("SELECT id FROM games WHERE fingerprint = ?", (mark,)).fetchone()
        if known is not None:
            game_id = int(known[0])
        else:
            cursor = conn.execute(
                "INSERT INTO games(finished_at, path, record, options, fingerprint, finished, "
                f"{GAME_SUMMARY_COLUMNS}) VALUES (?, NULL, ?, ?, ?, 0, {SUMMARY_MARKS})",
                (now_utc(), row[0], row[1], mark, *summary_row(summary)))
            game_id = int(cursor.lastrowid or 0)
        conn.execute("DELETE FROM current WHERE slot = ?", (self.slot,))
        return game_id

    def _keep_file(self, what: str, content: JSONObject) -> Path:
        """Data that cannot be used, kept as ``set-aside-<what>-<time>.json`` beside the
        database; raises OSError when it cannot be written."""
        return set_aside(self.home, f"set-aside-{what}-{stamp()}.json", content)

    def _set_aside_texts(self, record_text: object, options_text: object,
                         reason: str) -> Path | None:
        content = {"why": reason, "record": keep_text(record_text),
                   "options": keep_text(options_text)}
        try:
            kept: Path | None = self._keep_file("saved-game", content)
        except OSError as exc:
            kept = None
            where = (f"It could not be written to a file ({exc.strerror or exc}), so it was "
                     "kept inside the data file.")
            op = _ClearCurrent(keep=(str(record_text), str(options_text)))
        else:
            where = f"It was kept as {kept}."
            op = _ClearCurrent()
        self._warnings.append(f"The saved game cannot be resumed: {reason}. {where}")
        self._submit(op)
        return kept

    def _set_aside_game(self, game_id: int, problem: str) -> None:
        """A history row that cannot be read: kept as a file, then taken out of history
        (and its game out of the statistics)."""
        if game_id in self._set_aside_ids:
            return
        self._set_aside_ids.add(game_id)
        rows = self._rows(f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE id = ?",
                          (game_id,))
        if not rows:
            return
        row = dict(zip(GAME_COLUMNS, rows[0]))
        try:
            kept = self._keep_file(f"game-{game_id}", {
                "why": problem, "game": {k: keep_text(v) if k in ("record", "options", "totals",
                                                                  "losers") else v
                                         for k, v in row.items()}})
        except OSError as exc:
            self._warnings.append(f"A game in history cannot be read ({problem}); it could not "
                                  f"be copied to a file ({exc.strerror or exc}), so it stays in "
                                  "the data file and is left out of history for now.")
            return
        self._warnings.append(f"A game in history cannot be read ({problem}); it was kept as "
                              f"{kept} and left out of history and statistics.")
        self._drop_game(row)

    def _drop_game(self, row: dict[str, Any]) -> None:
        try:
            with self._tx() as conn:
                if row.get("finished") == 1:
                    summary = GameSummary(None, str(row["difficulty"]), "", int(row["deals"]),
                                          [], [], bool(row["lost"]), "",
                                          int(row["clean_deals"]), int(row["points"]))
                    count(conn, summary, sign=-1)
                conn.execute("DELETE FROM games WHERE id = ?", (row["id"],))
        except (sqlite3.Error, TypeError, ValueError):
            pass  # left out of this session's history all the same; its file is kept

    def _set_aside_computed(self, key: str, value: object, problem: str) -> None:
        """A computed result that cannot be read: kept as a file, then forgotten (it is
        computed again when needed)."""
        try:
            kept = self._keep_file("computed", {"why": problem, "key": key,
                                                "value": keep_text(value)})
        except OSError:
            return  # skipped: computed again, and the value stays in the data file
        self._warnings.append(f"A kept result ({key!r}) cannot be read ({problem}); it was "
                              f"kept as {kept} and will be computed again.")
        try:
            with self._tx() as conn:
                conn.execute("DELETE FROM computed WHERE key = ? AND value = ?", (key, value))
        except sqlite3.Error:
            pass

    def _set_aside_setting(self, key: str, value: object, problem: str) -> None:
        try:
            kept = self._keep_file("setting", {"why": problem, "key": key,
                                               "value": keep_text(value)})
        except OSError:
            return  # skipped: the default applies, the value stays in the data file
        self._warnings.append(f"The setting {key!r} cannot be read ({problem}); it was kept "
                              f"as {kept} and the default is used.")
        try:
            with self._tx() as conn:
                conn.execute("DELETE FROM settings WHERE key = ?", (key,))
        except sqlite3.Error:
            pass

    def _try_record_file(self, record: JSONObject, seed: int | None) -> Path | None:
        try:
            return self._write_record_file(record, seed)
        except OSError as exc:
            self._problem = messages.write_problem(exc, "the game record", self.home,
                                                   self._db_path)
            return None

    def _write_record_file(self, record: JSONObject, seed: int | None) -> Path:
        """The record file, in ``records_dir`` or else the temporary folder; raises OSError
        when neither can be written."""
        name = f"{stamp()}_seed-{seed_label(seed)}.json"
        text = json.dumps(record, indent=1) + "\n"
        error: OSError | None = None
        for folder in (self.records_dir, fallback_records_dir()):
            try:
                folder.mkdir(parents=True, exist_ok=True)
                path = write_new(folder / name, text)
            except OSError as exc:
                error = error or exc
                continue
            if error is not None:
                self._warnings.append(f"Cannot write the game record in {self.records_dir} "
                                      f"({error.strerror or error}); it was written as {path}.")
            return path
        assert error is not None
        raise error

    # --- closing -------------------------------------------------------------------------
    def close(self) -> Path | None:
        """Write what waits if the database allows it now, and let go of the store. Returns
        the file that keeps what could still not be written (see ``keep_unsaved``), or None
        when nothing of a game was left unwritten."""
        kept: Path | None = None
        with self._mutex:
            if self._pending and not self._flush():
                kept = self.keep_unsaved()
            if self._warnings and not self._warnings_read:
                _UNREAD.setdefault(_key(self.home), []).extend(self._warnings)
                self._warnings = []
            try:
                self._conn.close()
                if self._snapshot is not None:
                    self._snapshot.close()
                    self._snapshot = None
            finally:
                if self._lock is not None:
                    self._lock.release()
                    self._lock = None
        return kept

    def keep_unsaved(self) -> Path | None:
        """What waits to be written that holds a game (the game in progress, finished games),
        kept whole as ``set-aside-unsaved-<time>.json`` beside the database, or in the
        temporary folder when that cannot be written (a full disk); the next open in this
        process says where (``warnings``). Returns that file; None when no game waits or no
        file could be written anywhere. ``close`` calls it; the writes keep waiting."""
        content: JSONObject = {"why": self.problem, "saved_game": None, "finished_games": []}
        with self._mutex:
            for op in self._pending:
                if isinstance(op, _SaveCurrent):
                    content["saved_game"] = {"record": op.saved[0], "options": op.saved[1]}
                elif isinstance(op, _Finish):
                    content["finished_games"].append(op.record)
        if content["saved_game"] is None and not content["finished_games"]:
            return None  # only settings or a clean-up waited: nothing of a game is lost
        name = f"set-aside-unsaved-{stamp()}.json"
        kept: Path | None = None
        for folder in (self.home, unsaved_dir()):
            try:
                kept = set_aside(folder, name, content)
            except OSError:
                continue
            break
        if kept is None:
            return None
        _UNREAD.setdefault(_key(self.home), []).append(
            f"The last game could not be written to the data file before nil-tui closed; it "
            f"was kept as {kept}.")
        return kept

    def __enter__(self) -> Store:  # noqa: PYI034
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _journal(conn: sqlite3.Connection) -> None:
    """WAL where the file allows it; a read-only or locked file keeps the mode it has."""
    try:
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":  # pragma: no cover - e.g. network drives
            conn.execute("PRAGMA journal_mode = DELETE")
    except sqlite3.OperationalError:
        pass
    conn.execute("PRAGMA synchronous = NORMAL")


def _readable_copy(base: Path, warnings: list[str]) -> sqlite3.Connection | None:
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
    """A copy in memory of the database at ``path``, made without writing anything beside
    it: the file and its write-ahead log are copied to the temporary folder and read there;
    when that cannot be done, the file alone is read (as immutable: its log, if it holds
    anything, is left unread). A missing file gives an empty database."""
    mem = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    if not path.is_file():
        return mem
    try:
        with tempfile.TemporaryDirectory(prefix="nil-tui-read-") as tmp:
            copy = Path(tmp) / path.name
            shutil.copyfile(path, copy)
            wal = path.with_name(path.name + "-wal")
            if wal.is_file():
                shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
            src = sqlite3.connect(copy)
            try:
                src.backup(mem)
            finally:
                src.close()
        return mem
    except (OSError, sqlite3.Error):
        pass
    src = sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True)
    try:
        src.backup(mem)
    finally:
        src.close()
    return mem
