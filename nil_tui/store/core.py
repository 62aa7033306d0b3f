"""Everything the player keeps between runs: settings, the game in progress, finished games,
statistics. SQLite in the user data directory; this module is the only one that knows SQL.

The store never stops the game from starting: a damaged or unreadable database is moved aside
(kept, never deleted), a fresh one is started (in memory when the directory cannot be written)
and ``Store.warnings`` says in plain words what happened.

Two instances at once: the first holds the main lock and the main game slot; any other is
``is_secondary`` and keeps its game in a slot of its own, so neither overwrites the other.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

try:  # pragma: no cover - every supported POSIX system has fcntl
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock, every instance is the main one
    fcntl = None  # type: ignore[assignment]

DB_NAME = "nil-tui.db"
LOCK_NAME = "nil-tui.lock"
RECORDS_DIR = "records"
SCHEMA_VERSION = 2
MAX_SLOTS = 16
BUSY_TIMEOUT_MS = 10_000

# --- schema ----------------------------------------------------------------------------------
# Version 1: settings, the game in progress per slot, finished games as whole records.
_SCHEMA_V1 = """
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE current (
    slot     INTEGER PRIMARY KEY,
    record   TEXT NOT NULL,
    options  TEXT NOT NULL,
    saved_at TEXT NOT NULL
);
CREATE TABLE games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    finished_at TEXT NOT NULL,
    path        TEXT,
    record      TEXT NOT NULL,
    options     TEXT NOT NULL
);
"""

# Version 2: a summary per finished game (for the history list without parsing records) and
# running statistics per difficulty, kept in the same transaction as the game they count.
_MIGRATE_V1_TO_V2 = """
ALTER TABLE games ADD COLUMN fingerprint TEXT;
ALTER TABLE games ADD COLUMN seed INTEGER;
ALTER TABLE games ADD COLUMN difficulty TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN opponents TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN deals INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN totals TEXT NOT NULL DEFAULT '[]';
ALTER TABLE games ADD COLUMN losers TEXT NOT NULL DEFAULT '[]';
ALTER TABLE games ADD COLUMN lost INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clean_deals INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN points INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX games_fingerprint ON games(fingerprint);
CREATE INDEX games_finished_at ON games(finished_at);
CREATE TABLE stats (
    difficulty  TEXT PRIMARY KEY,
    games       INTEGER NOT NULL DEFAULT 0,
    lost        INTEGER NOT NULL DEFAULT 0,
    deals       INTEGER NOT NULL DEFAULT 0,
    clean_deals INTEGER NOT NULL DEFAULT 0,
    points      INTEGER NOT NULL DEFAULT 0
);
"""

_TABLES = {1: {"settings", "current", "games"}, 2: {"settings", "current", "games", "stats"}}

SEAT_LABELS = ("South", "West", "North", "East")


_UNREAD: dict[str, list[str]] = {}  # warnings of closed stores nobody read, by folder


def _key(home: Path) -> str:
    return os.path.abspath(home)


class StoreError(Exception):
    """A store file that cannot be used; the message says why in plain words."""


def now_utc() -> str:
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def default_home() -> Path:
    """``$NIL_TUI_HOME`` when set, else the platform's user data directory."""
    env = os.environ.get("NIL_TUI_HOME")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("nil-tui", appauthor=False))


# --- summaries of finished games (pure functions of the record) -----------------------------
def difficulty_of(options: dict[str, Any] | None, record: dict[str, Any] | None = None) -> str:
    """One word for the opponents' level: their shared level, else "mixed"."""
    bots: list[str] = []
    if isinstance(options, dict) and isinstance(options.get("bots"), (list, tuple)):
        bots = [str(b) for b in options["bots"]]
    elif isinstance(record, dict) and isinstance(record.get("players"), list):
        bots = [str(p.get("bot", "?")) for p in record["players"][1:]
                if isinstance(p, dict)]
    if not bots:
        return "unknown"
    return bots[0] if len(set(bots)) == 1 else "mixed"


def opponents_of(options: dict[str, Any] | None, record: dict[str, Any] | None = None) -> str:
    """The three opponents' levels, short: "easy x3" or "easy, hard, normal"."""
    bots: list[str] = []
    if isinstance(options, dict) and isinstance(options.get("bots"), (list, tuple)):
        bots = [str(b) for b in options["bots"]]
    elif isinstance(record, dict) and isinstance(record.get("players"), list):
        bots = [str(p.get("bot", "?")) for p in record["players"][1:] if isinstance(p, dict)]
    if not bots:
        return "?"
    if len(set(bots)) == 1:
        return f"{bots[0]} x{len(bots)}"
    return ", ".join(bots)


def summarize(record: dict[str, Any], options: dict[str, Any] | None) -> dict[str, Any]:
    """What history and statistics keep of a finished game, from South's side (seat 0)."""
    deals = [d for d in record.get("deals") or [] if isinstance(d, dict)]
    complete = [d for d in deals if isinstance(d.get("points"), list) and len(d["points"]) == 4]
    totals = record.get("totals")
    if not (isinstance(totals, list) and len(totals) == 4):
        totals = [sum(int(d["points"][s]) for d in complete) for s in range(4)]
    totals = [int(t) for t in totals]
    losers = record.get("losers")
    if not isinstance(losers, list):
        from .engine.game import lowest

        losers = list(lowest(totals))
    losers = [int(s) for s in losers]
    clean = sum(1 for d in complete
                if isinstance(d.get("taken"), list) and d["taken"] and d["taken"][0] == 0)
    points = sum(int(d["points"][0]) for d in complete)
    lost = 0 in losers
    if lost:
        result = "under the table" if len(losers) == 1 else "under the table (shared)"
    elif not losers:
        result = "draw"
    else:
        result = "safe"
    seed = record.get("seed")
    return {
        "seed": seed if isinstance(seed, int) and not isinstance(seed, bool) else None,
        "difficulty": difficulty_of(options, record),
        "opponents": opponents_of(options, record),
        "deals": len(complete),
        "totals": totals,
        "losers": losers,
        "lost": lost,
        "result": result,
        "clean_deals": clean,
        "points": points,
    }


def fingerprint(record: dict[str, Any]) -> str:
    """The same game gives the same fingerprint whenever its record was written."""
    same = {k: v for k, v in record.items() if k not in ("created", "app_version")}
    text = json.dumps(same, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- locks -----------------------------------------------------------------------------------
class _FileLock:
    """An exclusive ``flock`` on a file: released when closed or when the process dies."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd: int | None = None

    def acquire(self, blocking: bool = False, timeout: float = 10.0) -> bool:
        if fcntl is None:  # pragma: no cover
            return True
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            try:
                fd = os.open(self.path, os.O_RDONLY)
            except OSError:
                return False
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                if not blocking or time.monotonic() > deadline:
                    os.close(fd)
                    return False
                time.sleep(0.02)
                continue
            self.fd = fd
            return True

    def release(self) -> None:
        if self.fd is not None:
            try:
                os.close(self.fd)  # closing drops the flock
            finally:
                self.fd = None


# --- the store -------------------------------------------------------------------------------
class Store:
    """Settings, the game in progress, finished games and statistics. Open with ``Store.open``."""

    def __init__(self, conn: sqlite3.Connection, home: Path, *, slot: int = 0,
                 persistent: bool = True, warnings: list[str] | None = None,
                 lock: _FileLock | None = None) -> None:
        self._conn = conn
        self._mutex = threading.RLock()
        self.home = home
        self.slot = slot
        self.persistent = persistent
        self._warnings: list[str] = list(warnings or [])
        self._warnings_read = False
        self._lock = lock
        self.last_error: str | None = None
        self.records_dir = home / RECORDS_DIR
        self.db_path = home / DB_NAME

    # --- opening -------------------------------------------------------------------------
    @classmethod
    def open(cls, home: str | os.PathLike[str] | None = None) -> Store:
        """Open (or create) the store in ``home``; never raises for a damaged store."""
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

    @classmethod
    def _open(cls, base: Path) -> Store:
        warnings: list[str] = []
        try:
            base.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            warnings.append(f"Cannot create the data folder {base} ({exc.strerror or exc}): "
                            "this game will not be saved.")
            return cls._in_memory(base, warnings)
        writable = os.access(base, os.W_OK | os.X_OK)

        # The slot: 0 for the first instance, 1.. for others running at the same time.
        slot, lock = 0, _FileLock(base / LOCK_NAME)
        if not writable and not lock.path.exists():
            lock = None  # type: ignore[assignment]  # nobody can lock here: nothing to share
        elif not lock.acquire():
            lock = None  # type: ignore[assignment]
            for n in range(1, MAX_SLOTS):
                other = _FileLock(base / f"{LOCK_NAME}.{n}")
                if other.acquire():
                    slot, lock = n, other
                    break
            else:
                slot = MAX_SLOTS + os.getpid() % 100_000

        if not writable:
            warnings.append(f"The data folder {base} is read-only: this game, your settings "
                            "and statistics will not be saved.")
            store = cls._read_only_copy(base, warnings)
            store.slot = slot
            store._lock = lock
            return store

        # Only one instance at a time checks, repairs and migrates the file.
        gate = _FileLock(base / f"{LOCK_NAME}.open")
        gate.acquire(blocking=True, timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            conn = cls._connect_checked(base, warnings, may_move=slot == 0)
        finally:
            gate.release()
        if conn is None:
            store = cls._in_memory(base, warnings)
            store.slot = slot
            store._lock = lock
            return store
        store = cls(conn, base, slot=slot, persistent=True, warnings=warnings, lock=lock)
        if slot == 0:
            store._adopt_left_behind()
        store._check_current()
        return store

    @classmethod
    def in_memory(cls, reason: str) -> Store:
        """A store that saves nothing between runs, for when the real one cannot be opened at
        all; finished games are still written as record files in the temporary folder."""
        return cls._in_memory(_fallback_records_dir().parent / "nil-tui-unsaved",
                              [f"Games cannot be saved this time ({reason})."])

    @classmethod
    def _in_memory(cls, base: Path, warnings: list[str]) -> Store:
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        _create(conn)
        return cls(conn, base, persistent=False, warnings=warnings)

    @classmethod
    def _read_only_copy(cls, base: Path, warnings: list[str]) -> Store:
        """What can be read from a store in a read-only folder, copied into memory."""
        path = base / DB_NAME
        if path.exists():
            try:
                src = sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True)
                try:
                    _verify(src)
                    version = src.execute("PRAGMA user_version").fetchone()[0]
                    if version > SCHEMA_VERSION:
                        raise StoreError("written by a newer nil-tui")
                    mem = sqlite3.connect(":memory:", isolation_level=None,
                                          check_same_thread=False)
                    src.backup(mem)
                finally:
                    src.close()
                _migrate(mem)
                store = cls(mem, base, persistent=False, warnings=warnings)
                store._check_current()
                return store
            except (sqlite3.Error, StoreError) as exc:
                warnings.append(f"The saved data in {path} cannot be read ({_plain(exc)}); "
                                "starting with defaults.")
        return cls._in_memory(base, warnings)

    @classmethod
    def _connect_checked(cls, base: Path, warnings: list[str],
                         may_move: bool) -> sqlite3.Connection | None:
        path = base / DB_NAME
        for attempt in range(2):
            problem: str | None = None
            conn: sqlite3.Connection | None = None
            try:
                conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                                       timeout=BUSY_TIMEOUT_MS / 1000)
                conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                _verify(conn)
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version > SCHEMA_VERSION:
                    problem = (f"it was written by a newer version of nil-tui (store version "
                               f"{version}; this one reads up to {SCHEMA_VERSION})")
                else:
                    mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                    if str(mode).lower() != "wal":  # pragma: no cover - e.g. network drives
                        conn.execute("PRAGMA journal_mode = DELETE")
                    conn.execute("PRAGMA synchronous = NORMAL")
                    conn.execute("PRAGMA foreign_keys = ON")
                    _migrate(conn)
                    return conn
            except StoreError as exc:
                problem = str(exc)
            except sqlite3.DatabaseError as exc:
                problem = f"it is damaged or not a nil-tui store ({_plain(exc)})"
            if conn is not None:
                conn.close()
            if not may_move:
                warnings.append(f"The saved data in {path} cannot be used: {problem}. Another "
                                "nil-tui is running; this one plays without saving.")
                return None
            moved = _move_aside(path)
            if moved is None:
                warnings.append(f"The saved data in {path} cannot be used: {problem}; it could "
                                "not be moved aside either, so this game will not be saved.")
                return None
            warnings.append(f"The saved data could not be used: {problem}. It was kept as "
                            f"{moved.name} and a fresh store was started (settings, statistics "
                            "and the saved game start over).")
        return None  # pragma: no cover - a fresh file that fails again

    def _adopt_left_behind(self) -> None:
        """A game saved by a second instance that is no longer running becomes the main saved
        game when there is none, so ``resume`` finds it."""
        rows = self._conn.execute("SELECT slot FROM current WHERE slot != 0 ORDER BY saved_at "
                                  "DESC").fetchall()
        if not rows or self._conn.execute("SELECT 1 FROM current WHERE slot = 0").fetchone():
            return
        for (slot,) in rows:
            if 0 < slot < MAX_SLOTS:
                probe = _FileLock(self.home / f"{LOCK_NAME}.{slot}")
                if not probe.acquire():
                    continue  # that instance is still playing
            else:
                probe = None
            try:
                with self._tx() as conn:
                    conn.execute("UPDATE current SET slot = 0 WHERE slot = ?", (slot,))
            finally:
                if probe is not None:
                    probe.release()
            return

    def _check_current(self) -> None:
        """A saved game that no longer reads back is reported and set aside, not resumed."""
        row = self._conn.execute("SELECT record, options FROM current WHERE slot = ?",
                                 (self.slot,)).fetchone()
        if row is None:
            return
        problem = _current_problem(row[0], row[1])
        if problem is None:
            return
        kept = self._set_aside_current(row[0], row[1])
        where = f" It was kept as {kept}." if kept else ""
        self._warnings.append(f"The saved game cannot be resumed: {problem}.{where}")

    def _set_aside_current(self, record_text: str, options_text: str) -> Path | None:
        kept: Path | None = None
        try:
            self.records_dir.mkdir(parents=True, exist_ok=True)
            kept = _write_new(self.records_dir / f"unreadable-saved-game-{_stamp()}.json",
                              json.dumps({"record": _loads_or_text(record_text),
                                          "options": _loads_or_text(options_text)}, indent=1))
        except OSError:
            kept = None
        with self._tx() as conn:
            if kept is None:
                conn.execute("INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)",
                             (f"_unreadable_saved_game_{_stamp()}",
                              json.dumps({"record": record_text, "options": options_text})))
            conn.execute("DELETE FROM current WHERE slot = ?", (self.slot,))
        return kept

    # --- transactions --------------------------------------------------------------------
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

    def _read(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        with self._mutex:
            return fn(self._conn)

    # --- public API ----------------------------------------------------------------------
    @property
    def is_secondary(self) -> bool:
        """Another instance was already playing when this one opened the store."""
        return self.slot != 0

    def load_settings(self) -> dict[str, Any]:
        rows = self._read(lambda c: c.execute(
            "SELECT key, value FROM settings WHERE key NOT LIKE '\\_%' ESCAPE '\\'").fetchall())
        settings: dict[str, Any] = {}
        for key, value in rows:
            try:
                settings[key] = json.loads(value)
            except ValueError:
                continue
        return _as_options(settings)

    def _failed(self, what: str, exc: sqlite3.Error) -> None:
        """A write that failed while playing (disk full, store locked too long): the game
        goes on; the problem is kept in ``warnings`` and ``last_error``."""
        message = f"Could not save {what} ({_plain(exc)})."
        self.last_error = message
        if message not in self._warnings:
            self._warnings.append(message)

    def save_settings(self, settings: dict[str, Any]) -> None:
        """Keep these settings (merged over the ones already kept)."""
        rows = [(str(k), json.dumps(v)) for k, v in settings.items() if not str(k).startswith("_")]
        try:
            with self._tx() as conn:
                conn.executemany("INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)",
                                 rows)
        except sqlite3.Error as exc:
            self._failed("the settings", exc)

    def save_current(self, record: dict[str, Any], options: dict[str, Any]) -> None:
        """The game in progress, in one transaction: all of it or (on a crash) the last one."""
        record_text = json.dumps(record, separators=(",", ":"))
        options_text = json.dumps(options, separators=(",", ":"))
        try:
            with self._tx() as conn:
                conn.execute("INSERT OR REPLACE INTO current(slot, record, options, saved_at) "
                             "VALUES (?, ?, ?, ?)",
                             (self.slot, record_text, options_text, now_utc()))
        except sqlite3.Error as exc:
            self._failed("the game in progress", exc)

    def load_current(self) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """(record, options) of this instance's saved game, or None. A saved game that no
        longer reads back is set aside (see ``warnings``) and None is returned."""
        row = self._read(lambda c: c.execute(
            "SELECT record, options FROM current WHERE slot = ?", (self.slot,)).fetchone())
        if row is None:
            return None
        problem = _current_problem(row[0], row[1])
        if problem is not None:
            kept = self._set_aside_current(row[0], row[1])
            where = f" It was kept as {kept}." if kept else ""
            self._warnings.append(f"The saved game cannot be resumed: {problem}.{where}")
            return None
        return json.loads(row[0]), _as_options(json.loads(row[1]))

    def clear_current(self) -> None:
        try:
            with self._tx() as conn:
                conn.execute("DELETE FROM current WHERE slot = ?", (self.slot,))
        except sqlite3.Error as exc:
            self._failed("the end of the saved game", exc)

    def finish_game(self, record: dict[str, Any], options: dict[str, Any]) -> Path:
        """Write the finished game's record file, add it to history and statistics and clear
        the game in progress, all at once. Finishing the same game twice counts it once."""
        summary = summarize(record, options)
        mark = fingerprint(record)
        with self._mutex:
            try:
                known = self._conn.execute("SELECT path FROM games WHERE fingerprint = ?",
                                           (mark,)).fetchone()
            except sqlite3.Error:
                known = None
            if known is not None:
                self.clear_current()
                return Path(known[0])
            finished_at = now_utc()
            path = self._write_record_file(record, summary["seed"])
            try:
                self._add_game(record, options, summary, mark, finished_at, path)
            except sqlite3.IntegrityError:  # another instance finished this very game
                known = self._conn.execute("SELECT path FROM games WHERE fingerprint = ?",
                                           (mark,)).fetchone()
                self.clear_current()
                if known is not None and Path(known[0]) != path:
                    path.unlink(missing_ok=True)
                    path = Path(known[0])
            except sqlite3.Error as exc:
                self._failed("the finished game in history and statistics", exc)
        return path

    def _add_game(self, record: dict[str, Any], options: dict[str, Any],
                  summary: dict[str, Any], mark: str, finished_at: str, path: Path) -> None:
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO games(finished_at, path, record, options, fingerprint, seed, "
                "difficulty, opponents, deals, totals, losers, lost, clean_deals, points) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (finished_at, str(path), json.dumps(record, separators=(",", ":")),
                 json.dumps(options, separators=(",", ":")), mark, summary["seed"],
                 summary["difficulty"], summary["opponents"], summary["deals"],
                 json.dumps(summary["totals"]), json.dumps(summary["losers"]),
                 int(summary["lost"]), summary["clean_deals"], summary["points"]))
            _count(conn, summary)
            conn.execute("DELETE FROM current WHERE slot = ?", (self.slot,))

    def _write_record_file(self, record: dict[str, Any], seed: int | None) -> Path:
        name = f"{_stamp()}_seed-{seed if seed is not None else 'none'}.json"
        text = json.dumps(record, indent=1) + "\n"
        for folder in (self.records_dir, _fallback_records_dir()):
            try:
                folder.mkdir(parents=True, exist_ok=True)
                path = _write_new(folder / name, text)
            except OSError as exc:
                self._warnings.append(f"Cannot write the game record in {folder} "
                                     f"({exc.strerror or exc}).")
                continue
            return path
        return self.records_dir / name  # pragma: no cover - nowhere writable at all

    def history(self) -> list[dict[str, Any]]:
        """Finished games, newest first."""
        rows = self._read(lambda c: c.execute(
            "SELECT id, path, finished_at, deals, opponents, totals, lost, difficulty, seed, "
            "clean_deals, points, losers FROM games ORDER BY finished_at DESC, id DESC"
        ).fetchall())
        out = []
        for (gid, path, finished_at, deals, opponents, totals, lost, difficulty, seed,
             clean, points, losers) in rows:
            loser_list = _loads_or(losers, [])
            out.append({
                "id": gid, "path": Path(path) if path else None, "finished_at": finished_at,
                "deals": deals, "result": _result_text(bool(lost), loser_list),
                "opponents": opponents, "totals": _loads_or(totals, []), "lost": bool(lost),
                "losers": loser_list, "difficulty": difficulty, "seed": seed,
                "clean_deals": clean, "points": points,
            })
        return out

    def load_record(self, game_id: int) -> dict[str, Any] | None:
        """The record of a finished game from history (kept in the store, so it opens even
        if its file was moved)."""
        row = self._read(lambda c: c.execute("SELECT record FROM games WHERE id = ?",
                                             (game_id,)).fetchone())
        return None if row is None else _loads_or(row[0], None)

    def stats(self) -> dict[str, Any]:
        """Games played and lost, deals kept clean and points per deal, by difficulty and
        overall; and a series of points per deal, game by game, oldest first."""
        rows = self._read(lambda c: c.execute(
            "SELECT difficulty, games, lost, deals, clean_deals, points FROM stats "
            "ORDER BY games DESC, difficulty").fetchall())
        by: dict[str, dict[str, Any]] = {}
        overall = _figures(0, 0, 0, 0, 0)
        for difficulty, games, lost, deals, clean, points in rows:
            by[difficulty] = _figures(games, lost, deals, clean, points)
            for key in ("games", "lost", "deals", "clean_deals", "points"):
                overall[key] += by[difficulty][key]
        overall = _figures(overall["games"], overall["lost"], overall["deals"],
                           overall["clean_deals"], overall["points"])
        series_rows = self._read(lambda c: c.execute(
            "SELECT finished_at, difficulty, deals, points, lost, clean_deals FROM games "
            "ORDER BY finished_at, id").fetchall())
        series = [{"finished_at": f, "difficulty": d, "deals": n, "points": p,
                   "points_per_deal": p / n if n else 0.0, "lost": bool(lo), "clean_deals": c}
                  for f, d, n, p, lo, c in series_rows]
        return {"by_difficulty": by, "overall": overall, "series": series}

    def close(self) -> None:
        if self._warnings and not self._warnings_read:
            _UNREAD.setdefault(_key(self.home), []).extend(self._warnings)
            self._warnings = []
        with self._mutex:
            try:
                self._conn.close()
            finally:
                if self._lock is not None:
                    self._lock.release()
                    self._lock = None

    def __enter__(self) -> Store:  # noqa: PYI034
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --- helpers ---------------------------------------------------------------------------------
def _figures(games: int, lost: int, deals: int, clean: int, points: int) -> dict[str, Any]:
    return {"games": games, "lost": lost, "deals": deals, "clean_deals": clean,
            "points": points, "points_per_deal": points / deals if deals else 0.0,
            "clean_share": clean / deals if deals else 0.0,
            "lost_share": lost / games if games else 0.0}


def _count(conn: sqlite3.Connection, summary: dict[str, Any]) -> None:
    conn.execute(
        "INSERT INTO stats(difficulty, games, lost, deals, clean_deals, points) "
        "VALUES (?, 1, ?, ?, ?, ?) ON CONFLICT(difficulty) DO UPDATE SET "
        "games = games + 1, lost = lost + excluded.lost, deals = deals + excluded.deals, "
        "clean_deals = clean_deals + excluded.clean_deals, points = points + excluded.points",
        (summary["difficulty"], int(summary["lost"]), summary["deals"],
         summary["clean_deals"], summary["points"]))


def _result_text(lost: bool, losers: list[int]) -> str:
    if lost:
        return "under the table" if len(losers) <= 1 else "under the table (shared)"
    return "draw" if not losers else "safe"


def _verify(conn: sqlite3.Connection) -> None:
    """Raise StoreError (or sqlite3.DatabaseError) unless the file is a sound nil-tui store."""
    rows = conn.execute("PRAGMA quick_check").fetchall()
    if [r[0] for r in rows] != ["ok"]:
        raise StoreError(f"it is damaged ({rows[0][0]})")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    tables = {r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
    if version == 0:
        if tables:
            raise StoreError("it is not a nil-tui store (unknown tables, no version)")
        return
    if version in _TABLES and not _TABLES[version] <= tables:
        missing = ", ".join(sorted(_TABLES[version] - tables))
        raise StoreError(f"it is damaged (missing tables: {missing})")


def _create(conn: sqlite3.Connection) -> None:
    _migrate(conn)


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {}


def _migration(version: int) -> Callable[[Callable[[sqlite3.Connection], None]],
                                         Callable[[sqlite3.Connection], None]]:
    def register(fn: Callable[[sqlite3.Connection], None]) -> Callable[[sqlite3.Connection],
                                                                        None]:
        MIGRATIONS[version] = fn
        return fn
    return register


@_migration(1)
def _to_v1(conn: sqlite3.Connection) -> None:
    for statement in _SCHEMA_V1.split(";"):
        if statement.strip():
            conn.execute(statement)


@_migration(2)
def _to_v2(conn: sqlite3.Connection) -> None:
    for statement in _MIGRATE_V1_TO_V2.split(";"):
        if statement.strip():
            conn.execute(statement)
    rows = conn.execute("SELECT id, record, options FROM games ORDER BY id").fetchall()
    for gid, record_text, options_text in rows:
        record = _loads_or(record_text, {})
        options = _loads_or(options_text, {})
        if not isinstance(record, dict):
            record = {}
        s = summarize(record, options if isinstance(options, dict) else {})
        mark = fingerprint(record) if record else f"unreadable-{gid}"
        if conn.execute("SELECT 1 FROM games WHERE fingerprint = ?", (mark,)).fetchone():
            mark = f"{mark}-{gid}"  # the same game twice in an old store: keep both rows
        conn.execute(
            "UPDATE games SET fingerprint = ?, seed = ?, difficulty = ?, opponents = ?, "
            "deals = ?, totals = ?, losers = ?, lost = ?, clean_deals = ?, points = ? "
            "WHERE id = ?",
            (mark, s["seed"], s["difficulty"], s["opponents"], s["deals"],
             json.dumps(s["totals"]), json.dumps(s["losers"]), int(s["lost"]),
             s["clean_deals"], s["points"], gid))
        _count(conn, s)


def _migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> None:
    """Bring the schema to ``target``, one version at a time, each in its own transaction."""
    while True:
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version >= target:
                conn.execute("COMMIT")
                return
            MIGRATIONS[version + 1](conn)
            conn.execute(f"PRAGMA user_version = {version + 1}")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")


def _current_problem(record_text: str, options_text: str) -> str | None:
    try:
        record = json.loads(record_text)
        options = json.loads(options_text)
    except ValueError as exc:
        return f"it is not readable JSON ({exc})"
    if not isinstance(options, dict):
        return "its options are not a JSON object"
    from .engine.records import RecordError, from_record

    try:
        from_record(record)
    except RecordError as exc:
        return f"its record does not check out ({exc})"
    except Exception as exc:  # noqa: BLE001 - a saved game must never stop the app
        return f"its record cannot be rebuilt ({type(exc).__name__}: {exc})"
    return None


def _stamp() -> str:
    now = _dt.datetime.now(_dt.timezone.utc)
    return now.strftime("%Y-%m-%d_%H-%M-%S")


def _unique(path: Path) -> Path:
    if not path.exists():
        return path
    for n in range(2, 10_000):
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
        if not candidate.exists():
            return candidate
    raise OSError(f"too many files named like {path.name}")  # pragma: no cover


def _write_new(path: Path, text: str) -> Path:
    """Write a new file whole (a temporary file, then linked in under a name nobody has
    taken, even another instance at the same moment); returns the name it got."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        for n in range(1, 10_000):
            target = path if n == 1 else path.with_name(f"{path.stem}-{n}{path.suffix}")
            try:
                os.link(tmp, target)
            except FileExistsError:
                continue
            except OSError:  # no hard links here: claim the name, then replace it
                try:
                    os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
                except FileExistsError:
                    continue
                os.replace(tmp, target)
            return target
        raise OSError(f"too many files named like {path.name}")  # pragma: no cover
    finally:
        try:
            tmp.unlink()
        except OSError:
            pass


def _move_aside(path: Path) -> Path | None:
    """Rename a damaged store (and its journal files) to ``<name>.damaged-<time>``."""
    target = _unique(path.with_name(f"{path.name}.damaged-{_stamp()}"))
    try:
        if path.exists():
            os.replace(path, target)
        for suffix in ("-wal", "-shm", "-journal"):
            side = path.with_name(path.name + suffix)
            if side.exists():
                os.replace(side, target.with_name(target.name + suffix))
    except OSError:
        return None
    return target


def _fallback_records_dir() -> Path:
    import tempfile

    return Path(tempfile.gettempdir()) / "nil-tui-records"


def _plain(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text[0].lower() + text[1:] if text else text


def _as_options(options: dict[str, Any]) -> dict[str, Any]:
    """JSON keeps tuples as lists: give ``bots`` back as the tuple PlayOptions holds."""
    if isinstance(options.get("bots"), list):
        options["bots"] = tuple(options["bots"])
    return options


def _loads_or(text: Any, default: Any) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return default


def _loads_or_text(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text
