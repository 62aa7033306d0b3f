"""The ``Store``: settings, the game in progress, history and statistics, in SQLite.

The store never stops the game and never loses it:

- A file whose content fails a check (not a database, a failed integrity check, schema
  garbage) is moved aside (kept, never deleted) and a fresh store started; ``warnings`` says
  where it went. A full disk, an I/O error, something in the journal's way or a read-only
  file is never damage: nothing is renamed, the file is read from a copy, and every write
  waits until it can be used (see :mod:`.opening`).
- A file that another program holds is *not* damage: opening waits briefly
  (``Store.open_wait``), then returns a store that is ``busy``; no call blocks longer than
  ``Store.busy_timeout``; writes that meet the lock wait in a queue (:mod:`.queue`), retried
  by ``retry_pending`` (the app calls it from a timer) and at the next write.
- A file with a version this nil-tui does not know is left untouched: the store runs in
  memory, saving nothing, and says so (``read_only_reason``, ``unreadable``).
- Every write says whether it is durably stored, and ``problem`` says in plain words what is
  keeping it from being stored, until a later write succeeds.
- Rows that cannot be read are set aside into files beside the database (:mod:`.aside`).

Two instances at once: the first holds the main lock and the main game slot; any other is
``is_secondary`` and keeps its game in a slot of its own, so neither overwrites the other.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import ClassVar

from ..util.paths import default_home
from . import aside, reads
from .database import Database
from .files import (
    JSONDamage,
    dumps,
    fallback_records_dir,
    loads_object,
)
from .locking import FileLock, is_busy
from .messages import PLAYED_ELSEWHERE, write_problem
from .opening import adopt_left_behind, in_memory, open_database, played_elsewhere
from .queue import (
    Archive,
    ChallengeReference,
    ClearCurrent,
    Op,
    Remember,
    SaveCurrent,
    SaveSettings,
    WriteQueue,
    finish,
    reopen_in,
)
from .rows import ChallengeFound, Finished, HistoryRow, Saved, Stats
from .summaries import JSONObject

_UNREAD: dict[str, list[str]] = {}  # warnings of closed stores nobody read, by folder


def _key(home: Path) -> str:
    return os.path.abspath(home)


def as_options(options: JSONObject) -> JSONObject:
    """JSON keeps tuples as lists: give ``bots`` back as the tuple PlayOptions holds."""
    if isinstance(options.get("bots"), list):
        options["bots"] = tuple(options["bots"])
    return options


class Store:
    """Settings, the game in progress, history and statistics. Open with ``Store.open``.

    Reading: ``load_settings``, ``load_current``, ``history``, ``load_record``, ``stats``,
    ``computed``, ``find_challenge``.
    Writing (each returns whether the data is durably stored): ``save_settings``,
    ``save_current``, ``clear_current``, ``keep_finished`` (``finish_game``),
    ``archive_current``, ``reopen``, ``set_aside_current``, ``remember``,
    ``set_challenge_reference``; ``retry_pending`` retries what could not be written yet;
    ``close`` keeps what still waits in a file (``keep_unsaved``).
    State for the player: ``warnings`` (what happened at opening and since), ``problem`` (the
    write problem unsolved now), ``unreadable``, ``busy``, ``read_only_reason``,
    ``is_secondary``.
    """

    open_wait: ClassVar[float] = 1.0  # seconds opening may wait for a locked database
    busy_timeout: ClassVar[float] = 0.25  # seconds any one call may wait for the lock

    def __init__(self, db: Database, lock: FileLock | None = None) -> None:
        self._db = db
        self._queue = WriteQueue()
        self._lock = lock
        self._warnings_read = False
        self.current_seen = db.ready  # the saved game in the file was read (or none was)
        self._set_aside_ids: set[int] = set()
        self._games_checked = False
        db.on_ready = lambda: aside.rebuild_misshapen(db)

    # --- opening -------------------------------------------------------------------------
    @classmethod
    def open(cls, home: str | os.PathLike[str] | None = None) -> Store:
        """Open (or create) the store in ``home``; never raises for a damaged, locked, full
        or newer store, and waits at most about ``open_wait`` seconds. ``warnings`` then says
        what was found."""
        base = Path(home).expanduser() if home is not None else default_home()
        db, lock = open_database(base, cls.open_wait, cls.busy_timeout)
        store = cls(db, lock)
        if db.ready:
            if db.slot == 0 and db.persistent:
                adopt_left_behind(db)
            store._check_current(seen=True)
        # Warnings nobody read (an earlier open in this process only looked up settings)
        # are handed to this one, so the player still hears what happened.
        db.warnings[:0] = _UNREAD.pop(_key(base), [])
        return store

    @classmethod
    def in_memory(cls, reason: str) -> Store:
        """A store that saves nothing between runs, for when the real one cannot be opened at
        all; finished games are still written as record files in the temporary folder."""
        text = f"Games cannot be saved this time ({reason})."
        base = fallback_records_dir().parent / "nil-tui-unsaved"
        return cls(in_memory(base, [text], text, cls.open_wait, cls.busy_timeout))

    def _check_current(self, seen: bool) -> None:
        """A saved game that no longer reads back is reported and set aside, not resumed."""
        rows = self._db.rows("SELECT record, options FROM current WHERE slot = ?", (self.slot,))
        if rows is None:
            return
        self.current_seen = seen
        if rows:
            problem = aside.current_problem(rows[0][0], rows[0][1])
            if problem is not None:
                self._submit(aside.saved_game(self._db, rows[0][0], rows[0][1], problem)[1])

    # --- state ---------------------------------------------------------------------------
    @property
    def warnings(self) -> list[str]:
        """What went wrong with the store, in plain words, for the app to show."""
        self._warnings_read = True
        return self._db.warnings

    @property
    def problem(self) -> str | None:
        """The write problem not solved now, in plain words (locked, read-only file or
        folder, disk full, newer version, no folder), or None: everything asked of the store
        is stored. Goes back to None once a later write succeeds."""
        return self._db.problem or self._db.read_only_reason

    @property
    def unreadable(self) -> str | None:
        """Why the saved data cannot be read now, in plain words, or None when the reads give
        all there is: another program holds the file so that even reading waits (a saved
        game may well be there), or the file has a version this nil-tui does not know; or
        the saved game is being played by another nil-tui running now. A caller that finds
        no saved game says this instead of "there is no saved game"."""
        with self._db.mutex:
            unreadable = self._db.unreadable()
            if unreadable is None and self._queue.current is None and played_elsewhere(self._db):
                return PLAYED_ELSEWHERE
            return unreadable

    @property
    def busy(self) -> bool:
        """Another program held the database at the last attempt to use it."""
        return self._db.busy

    @property
    def is_secondary(self) -> bool:
        """Another instance was already playing when this one opened the store."""
        return self.slot != 0

    @property
    def read_only_reason(self) -> str | None:
        """Why nothing is saved in this session (a newer nil-tui's data, a read-only folder,
        no folder at all), or None when the store saves."""
        return self._db.read_only_reason

    @property
    def persistent(self) -> bool:
        return self._db.persistent

    @property
    def home(self) -> Path:
        return self._db.home

    @property
    def slot(self) -> int:
        return self._db.slot

    @property
    def records_dir(self) -> Path:
        return self._db.records_dir

    @property
    def _conn(self) -> sqlite3.Connection:
        return self._db.conn

    @_conn.setter
    def _conn(self, conn: sqlite3.Connection) -> None:
        self._db.conn = conn

    @property
    def _pending(self) -> list[Op]:
        return list(self._queue.ops)

    # --- what the writes need (queue.Context) --------------------------------------------
    def archive_in(self, conn: sqlite3.Connection) -> int | None:
        return aside.archive_in(self._db, conn)

    def write_record_file(self, record: JSONObject, seed: int | None,
                          fallback: bool = True) -> Path:
        return aside.write_record_file(self._db, record, seed, fallback)

    # --- writes --------------------------------------------------------------------------
    def _submit(self, op: Op) -> bool:
        with self._db.mutex:
            self._queue.push(op)
            return self._queue.flush(self, self._db) and self.persistent

    def retry_pending(self) -> bool:
        """Try again the writes that could not be done (a lock, a full disk, a read-only
        file); True when everything asked of the store is now durably stored. The app calls
        it from a timer while ``problem`` is set; each call waits at most ``busy_timeout``."""
        return self._queue.flush(self, self._db) and self.persistent

    def save_settings(self, settings: JSONObject) -> bool:
        """Keep these settings (merged over the ones already kept); True when stored."""
        try:
            rows = [(str(k), dumps(v)) for k, v in settings.items()
                    if not str(k).startswith("_")]
        except JSONDamage as exc:
            self._db.problem = f"The settings cannot be saved: {exc}."
            return False
        return self._submit(SaveSettings(rows))

    def save_current(self, record: JSONObject, options: JSONObject) -> bool:
        """The game in progress, in one transaction: all of it or (on a crash) the last one.
        True when it is durably stored; else it waits (the newest save replacing an older
        one that waits) and ``problem`` says why."""
        try:
            texts = dumps(record), dumps(options)
        except JSONDamage as exc:
            self._db.problem = f"The game in progress cannot be saved: {exc}."
            return False
        return self._submit(SaveCurrent((record, dict(options)), *texts))

    def clear_current(self) -> bool:
        """Forget the game in progress (it was finished or set aside); True when stored."""
        return self._submit(ClearCurrent())

    def archive_current(self) -> int | None:
        """Move this instance's saved game into history, marked unfinished (resumable with
        ``reopen``), before a new game replaces it. Its history id; None when there is no
        saved game, or when it cannot be done now (it waits; ``problem`` says why)."""
        op = Archive()
        self._submit(op)
        return op.game_id

    def reopen(self, game_id: int) -> Saved | None:
        """Make an unfinished game from history the saved game again (archiving the current
        one first); (record, options), or None when there is no such unfinished game or the
        store cannot be written now."""
        db = self._db
        with db.mutex:
            if not self._queue.flush(self, db):
                return None
            try:
                saved = reopen_in(db, self, game_id)
                if saved is None:
                    return None
            except JSONDamage as exc:
                self._set_aside_game(game_id, f"its record {exc}")
                return None
            except sqlite3.Error as exc:
                db.problem = write_problem(exc, "the game to resume", self.home, db.path)
                db.busy = is_busy(exc)
                return None
            self.current_seen = True
            return saved[0], as_options(saved[1])

    def keep_finished(self, record: JSONObject, options: JSONObject) -> Finished:
        """Write the finished game's record file, add it to history and statistics and clear
        the game in progress, all at once (the same game twice counts once). ``stored`` is
        True only once it is durably in history; else it waits (``retry_pending`` tries
        again, ``close`` keeps it in a file) and ``problem`` says why. ``record_file`` is
        where its record file went, if it was written (a store that saves nothing writes it
        in the temporary folder)."""
        with self._db.mutex:
            return finish(self._db, self._queue, self, record, options)

    def finish_game(self, record: JSONObject, options: JSONObject) -> Path | None:
        """``keep_finished``, as its record file: None when the game is not stored now (it
        waits). In a store that saves nothing (``read_only_reason``) the record file is
        still written (in the temporary folder) and returned."""
        kept = self.keep_finished(record, options)
        return kept.record_file if kept.stored or not self.persistent else None

    def remember(self, key: str, value: JSONObject) -> bool:
        """Keep a computed result (an analysis, an expert's reference) under ``key``, so that
        it is not computed again (the newest ``queue.COMPUTED_KEPT`` are kept). True when
        durably stored; False when it cannot be kept (not a JSON object, a store that saves
        nothing) or must wait (like other writes; ``computed`` already returns it)."""
        if not isinstance(key, str) or not isinstance(value, dict):
            return False
        try:
            text = dumps(value)
        except JSONDamage:
            return False
        return self._submit(Remember(key, text))

    def set_challenge_reference(self, date: str, reference: list[int]) -> bool:
        """The expert's points per deal of the challenge of ``date``, known after its game
        went into history: written into that game's record (and its record file) and its
        difference worked out. True when a game was brought up to date and stored; False
        when there is no such game (nothing changes), the reference does not fit the game,
        or the write must wait (it is queued like a save)."""
        from ..engine.records import RecordError, read_reference

        try:
            reference = read_reference(reference)
        except RecordError:
            return False
        with self._db.mutex:
            waiting = self._queue.finishing_challenge(date) is not None
            rows = self._db.rows("SELECT 1 FROM games WHERE challenge = ? LIMIT 1", (date,))
            if rows == [] and not waiting:
                return False  # no such game: a no-op
            op = ChallengeReference(date, list(reference))
            return self._submit(op) and op.updated > 0

    def set_aside_current(self, reason: str) -> Path | None:
        """The saved game cannot be resumed (its record does not load in the engine): keep it
        as a file beside the store and clear it. That file (also said in ``warnings``), or
        None when no file could be written (it is kept inside the store) or there is none."""
        with self._db.mutex:
            last = self._queue.last_save
            if last is not None and self._queue.ops[-1] is last:
                texts: tuple[object, object] = last.record_text, last.options_text
            else:
                rows = self._db.rows("SELECT record, options FROM current WHERE slot = ?",
                                     (self.slot,))
                if not rows:
                    return None
                texts = rows[0][0], rows[0][1]
            kept, op = aside.saved_game(self._db, texts[0], texts[1], reason)
            self._submit(op)
            return kept

    # --- reads ---------------------------------------------------------------------------
    def load_settings(self) -> JSONObject:
        """The settings kept (a setting that cannot be read is set aside into a file)."""
        return as_options(reads.settings(self._db))

    def load_current(self) -> Saved | None:
        """(record, options) of this instance's saved game, or None (also while the store is
        ``busy`` and the game cannot be read: ``unreadable`` says so). A saved game that no
        longer reads back is set aside into a file (see ``warnings``)."""
        with self._db.mutex:
            op = self._queue.current  # what waits to be written is the newest
            if op is not None:
                return None if op.saved is None else (
                    loads_object(dumps(op.saved[0])), as_options(dict(op.saved[1])))
            rows = self._db.rows("SELECT record, options FROM current WHERE slot = ?",
                                 (self.slot,))
            if rows is None:
                return None
            self.current_seen = True
            if not rows:
                return None
            problem = aside.current_problem(rows[0][0], rows[0][1])
            if problem is not None:
                self._submit(aside.saved_game(self._db, rows[0][0], rows[0][1], problem)[1])
                return None
            return loads_object(rows[0][0]), as_options(loads_object(rows[0][1]))

    def history(self) -> list[HistoryRow]:
        """Games in history, newest first: finished ones and unfinished ones (``finished``
        False, ``result`` "unfinished": set aside when a new game replaced them; resumable
        with ``reopen``). A row that cannot be read is set aside into a file and left out."""
        rows = reads.history(self._db, self._set_aside_game)
        self._games_checked = rows is not None
        return rows or []

    def load_record(self, game_id: int) -> JSONObject | None:
        """The record of a game from history, finished or not (kept in the store, so it
        opens even if its file was moved); None when there is none or it cannot be read (it
        is then set aside into a file)."""
        rows = self._db.rows("SELECT record FROM games WHERE id = ?", (game_id,))
        if not rows:
            return None
        try:
            return loads_object(rows[0][0])
        except JSONDamage as exc:
            self._set_aside_game(game_id, f"its record {exc}")
            return None

    def stats(self) -> Stats:
        """Finished games only, by difficulty and overall, a series of points per deal game
        by game, and the daily challenges finished (see :class:`.rows.Stats`)."""
        if not self._games_checked:
            self.history()  # sets aside unreadable rows, so the figures count the rest
        return reads.stats(self._db)

    def computed(self, key: str) -> JSONObject | None:
        """The result kept under ``key`` by ``remember``, or None (none kept, the store busy
        now, or a value that cannot be read: it is then set aside into a file)."""
        with self._db.mutex:
            waiting = self._queue.remembered(key)
            if waiting is not None:
                return loads_object(waiting.text)
            rows = self._db.rows("SELECT value FROM computed WHERE key = ?", (key,))
            if not rows:
                return None
            try:
                return loads_object(rows[0][0])
            except JSONDamage as exc:
                aside.computed(self._db, key, rows[0][0], str(exc))
                return None

    def find_challenge(self, date: str) -> ChallengeFound | None:
        """The game of the daily challenge of ``date``, if one was started: the saved game
        ("current"), else the one in history (a finished game is preferred to one set aside
        unfinished; ``id`` is None while it waits to be written). None when there is none
        (or the store cannot be read now)."""
        with self._db.mutex:
            return reads.find_challenge(self._db, self._queue, date)

    def _set_aside_game(self, game_id: int, problem: str) -> None:
        if game_id not in self._set_aside_ids:
            self._set_aside_ids.add(game_id)
            aside.history_game(self._db, game_id, problem)

    # --- closing -------------------------------------------------------------------------
    def close(self) -> Path | None:
        """Write what waits if the database allows it now, and let go of the store. Returns
        the file that keeps what could still not be written (see ``keep_unsaved``), or None
        when nothing of a game was left unwritten."""
        kept: Path | None = None
        with self._db.mutex:
            if self._queue and not self._queue.flush(self, self._db):
                kept = self.keep_unsaved()
            if self._db.warnings and not self._warnings_read:
                _UNREAD.setdefault(_key(self.home), []).extend(self._db.warnings)
                self._db.warnings.clear()
            try:
                self._db.close()
            finally:
                if self._lock is not None:
                    self._lock.release()
                    self._lock = None
        return kept

    def keep_unsaved(self) -> Path | None:
        """What waits to be written that holds a game (the game in progress, finished games),
        kept whole as ``set-aside-unsaved-<time>.json`` beside the database, or in the
        temporary folder when that cannot be written (a full disk); the next open in this
        process says where. That file; None when no game waits or no file could be written.
        ``close`` calls it; the writes keep waiting."""
        with self._db.mutex:
            kept, said = aside.unsaved(self._db, self._queue)
        if kept is not None:
            _UNREAD.setdefault(_key(self.home), []).append(said)
        return kept

    def __enter__(self) -> Store:  # noqa: PYI034
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
