"""Writes that wait for the database: each runs in one transaction, in order; while the file
is locked, full or read-only they wait here and are tried again (``WriteQueue.flush``).

What waits is the newest truth, so reads look here first. The queue keeps an index for each
question asked of it (the saved game, a finished game by its fingerprint or its challenge's
date, a computed result by its key): one lookup each, kept up to date as writes come and go.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from pathlib import Path
from typing import ClassVar, Protocol, TypeVar

from . import messages
from .database import Database
from .files import JSONDamage, dumps, loads_object, loads_or, now_utc, plain, stamp
from .locking import is_busy, kind_of
from .rows import Finished, Saved
from .schema import GAME_SUMMARY_COLUMNS, SUMMARY_MARKS, count, summary_row
from .summaries import GameSummary, JSONObject, challenge_of, fingerprint, summarize

T = TypeVar("T")

COMPUTED_KEPT = 500
"""Computed results (analyses, the expert's references) kept at most: the oldest are
forgotten first, and worked out again if they are asked for again."""


class Context(Protocol):
    """What a write needs of the store: its slot, whether the saved game in the file was
    seen, where record files go, and how a saved game goes into history and a record into
    its file."""

    @property
    def slot(self) -> int: ...

    @property
    def records_dir(self) -> Path: ...

    current_seen: bool

    def archive_in(self, conn: sqlite3.Connection) -> int | None: ...

    def write_record_file(self, record: JSONObject, seed: int | None,
                          fallback: bool = True) -> Path: ...


class Op:
    """A write that runs inside one transaction; kept in the queue while it cannot."""

    what: ClassVar[str] = "your data"
    ends_current: ClassVar[bool] = False  # it takes the saved game away
    saved: Saved | None = None  # the saved game it writes, if it writes one
    key: str | None = None  # a newer write of the same key replaces it while it waits

    def run(self, ctx: Context, conn: sqlite3.Connection) -> None:
        raise NotImplementedError

    def enter(self, queue: WriteQueue) -> None:
        """Put itself in the queue's indexes (``WriteQueue._pop`` takes it out)."""
        if self.key is not None:
            queue._keyed[self.key] = self
        if self.saved is not None or self.ends_current:
            queue._current = self


class SaveCurrent(Op):
    what = "the game in progress"

    def __init__(self, saved: Saved, record_text: str, options_text: str) -> None:
        self.saved, self.record_text, self.options_text = saved, record_text, options_text

    def run(self, ctx: Context, conn: sqlite3.Connection) -> None:
        if not ctx.current_seen:  # a saved game nobody has seen yet is kept, not replaced
            ctx.archive_in(conn)
        conn.execute("INSERT OR REPLACE INTO current(slot, record, options, saved_at) "
                     "VALUES (?, ?, ?, ?)",
                     (ctx.slot, self.record_text, self.options_text, now_utc()))
        ctx.current_seen = True

    def enter(self, queue: WriteQueue) -> None:
        super().enter(queue)
        queue._last_save = self


class ClearCurrent(Op):
    what, ends_current = "the end of the saved game", True

    def __init__(self, keep: tuple[str, str] | None = None) -> None:
        self.keep = keep  # a saved game to keep inside the store (no file could hold it)

    def run(self, ctx: Context, conn: sqlite3.Connection) -> None:
        if self.keep is not None:
            conn.execute("INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)",
                         (f"_unreadable_saved_game_{stamp()}",
                          json.dumps({"record": self.keep[0], "options": self.keep[1]})))
        conn.execute("DELETE FROM current WHERE slot = ?", (ctx.slot,))


class SaveSettings(Op):
    what = "the settings"

    def __init__(self, rows: list[tuple[str, str]]) -> None:
        self.rows = rows

    def run(self, ctx: Context, conn: sqlite3.Connection) -> None:
        conn.executemany("INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)",
                         self.rows)


class Archive(Op):
    what, ends_current = "the unfinished game", True

    def __init__(self) -> None:
        self.game_id: int | None = None

    def run(self, ctx: Context, conn: sqlite3.Connection) -> None:
        self.game_id = ctx.archive_in(conn)


class Finish(Op):
    what, ends_current = "the finished game", True

    def __init__(self, record: JSONObject, texts: tuple[str, str], summary: GameSummary,
                 mark: str) -> None:
        self.record, self.summary, self.mark = record, summary, mark
        self.record_text, self.options_text = texts
        self.path: Path | None = None

    def run(self, ctx: Context, conn: sqlite3.Connection) -> None:
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
                self.path = ctx.write_record_file(self.record, self.summary.seed)
            elif self.path.parent != ctx.records_dir:
                self.path = into_records(ctx, self.record, self.summary.seed, self.path)
            conn.execute(
                "INSERT INTO games(finished_at, path, record, options, fingerprint, finished, "
                f"{GAME_SUMMARY_COLUMNS}) VALUES (?, ?, ?, ?, ?, 1, {SUMMARY_MARKS})",
                (now_utc(), str(self.path), self.record_text, self.options_text, self.mark,
                 *summary_row(self.summary)))
            count(conn, self.summary)
        conn.execute("DELETE FROM current WHERE slot = ?", (ctx.slot,))

    def enter(self, queue: WriteQueue) -> None:
        super().enter(queue)
        queue._finishes[self.mark] = self
        if self.summary.challenge is not None:
            queue._challenges[self.summary.challenge] = self


class Remember(Op):
    what = "a computed result"

    def __init__(self, name: str, text: str) -> None:
        self.name, self.text, self.key = name, text, f"computed:{name}"

    def run(self, ctx: Context, conn: sqlite3.Connection) -> None:
        conn.execute("INSERT OR REPLACE INTO computed(key, value, created) VALUES (?, ?, ?)",
                     (self.name, self.text, now_utc()))
        conn.execute("DELETE FROM computed WHERE rowid NOT IN (SELECT rowid FROM computed "
                     "ORDER BY created DESC, rowid DESC LIMIT ?)", (COMPUTED_KEPT,))

    def enter(self, queue: WriteQueue) -> None:
        super().enter(queue)
        queue._remembered[self.name] = self


class ChallengeReference(Op):
    """The expert's points per deal of a challenge, known after its game went into history:
    written into the record of each game of that date and its difference worked out."""

    what = "the expert's result of the challenge"

    def __init__(self, date: str, reference: list[int]) -> None:
        self.date, self.reference = date, reference
        self.updated = 0

    def run(self, ctx: Context, conn: sqlite3.Connection) -> None:
        self.updated = 0
        rows = conn.execute("SELECT id, record, options, finished, path FROM games "
                            "WHERE challenge = ?", (self.date,)).fetchall()
        for gid, record_text, options_text, finished, path in rows:
            record = with_reference(record_text, self.reference)
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
                rewrite_record_file(Path(path), record)


class WriteQueue:
    """The writes waiting, in order, and an index for each question reads ask of them."""

    def __init__(self) -> None:
        self.ops: list[Op] = []
        self._current: Op | None = None  # the newest write that sets or ends the saved game
        self._last_save: SaveCurrent | None = None  # the newest saved game waiting
        self._keyed: dict[str, Op] = {}  # writes that a newer one of their key replaces
        self._remembered: dict[str, Remember] = {}  # computed results by name
        self._finishes: dict[str, Finish] = {}  # finished games by fingerprint
        self._challenges: dict[str, Finish] = {}  # finished games by their challenge's date

    def __bool__(self) -> bool:
        return bool(self.ops)

    # --- one lookup per question ----------------------------------------------------------
    @property
    def current(self) -> Op | None:
        """The newest write that sets (``saved``) or ends the saved game: what a read of the
        saved game must give; None when none waits (the file says)."""
        return self._current

    @property
    def last_save(self) -> SaveCurrent | None:
        return self._last_save

    def finishing(self, mark: str) -> Finish | None:
        return self._finishes.get(mark)

    def finishing_challenge(self, date: str) -> Finish | None:
        return self._challenges.get(date)

    def finished_records(self) -> list[JSONObject]:
        return [op.record for op in self._finishes.values()]

    def remembered(self, name: str) -> Remember | None:
        return self._remembered.get(name)

    # --- coming and going -----------------------------------------------------------------
    def push(self, op: Op) -> None:
        """Queue ``op``: the newest saved game replaces one waiting last, the newest value
        of a key replaces the one waiting."""
        if op.saved is not None and self.ops and self.ops[-1] is self._last_save:
            self.ops[-1] = op
        elif op.key is not None and op.key in self._keyed:
            self.ops[self.ops.index(self._keyed[op.key])] = op
        else:
            self.ops.append(op)
        op.enter(self)

    def _pop(self) -> None:
        op = self.ops.pop(0)
        _forget(self._keyed, op)
        _forget(self._remembered, op)
        _forget(self._finishes, op)
        _forget(self._challenges, op)
        if self._current is op:
            self._current = None  # nothing newer touches the saved game: the file says
        if self._last_save is op:
            self._last_save = None

    def flush(self, ctx: Context, db: Database) -> bool:
        """Write what waits, in order; True when nothing waits any more."""
        with db.mutex:
            db.pace()
            if self.ops and not db.ensure_ready():
                db.problem = db.waiting_reason or messages.LOCKED
                return False
            if db.reopen and self.ops and db.reconnect():
                db.reopen = False
            failed: str | None = None
            while self.ops:
                op = self.ops[0]
                try:
                    with db.tx() as conn:
                        op.run(ctx, conn)
                    if db.log_lost():  # written where nobody will read it: kept, and said
                        db.problem, db.busy = messages.log_lost(db.path), False
                        return False
                except (sqlite3.Error, OSError) as exc:
                    failed = messages.write_problem(exc, op.what, db.home, db.path)
                    db.problem, db.busy = failed, is_busy(exc)
                    # a file opened read-only stays so: open it again at the next try
                    db.reopen = kind_of(exc) == "read-only"
                    if isinstance(exc, (sqlite3.OperationalError, OSError)):
                        return False  # kept, to try again
                self._pop()  # done, or never possible (then ``problem`` says so)
            db.problem, db.busy = failed, False
            return failed is None


def into_records(ctx: Context, record: JSONObject, seed: int | None, path: Path) -> Path:
    """A record file written elsewhere (the temporary folder) while the records folder could
    not take it, moved there now that the game goes into history (which names the file):
    the new file, or ``path`` when it still cannot be written there."""
    try:
        moved = ctx.write_record_file(record, seed, fallback=False)
    except OSError:
        return path
    path.unlink(missing_ok=True)
    return moved


def finish(db: Database, queue: WriteQueue, ctx: Context, record: JSONObject,
           options: JSONObject) -> Finished:
    """See ``Store.keep_finished``: a finished game asked for again while it waits is the
    same write; one already in history is not counted again."""
    try:
        texts = dumps(record), dumps(options)
        summary = summarize(record, options)
        mark = fingerprint(record)
    except (JSONDamage, TypeError, ValueError, RecursionError) as exc:
        db.problem = f"The finished game cannot be saved: {plain(exc)}."
        return Finished(False, None, db.problem)
    unsaved = db.read_only_reason  # a store that saves nothing says why
    known = db.rows("SELECT path FROM games WHERE fingerprint = ? AND finished = 1", (mark,))
    if known:
        date, ref = challenge_of(record)
        if date is not None and ref is not None:  # the expert's reference came since
            queue.push(ChallengeReference(date, ref))
        queue.push(ClearCurrent())
        queue.flush(ctx, db)
        path = Path(known[0][0]) if known[0][0] else None
        return Finished(db.persistent, path, unsaved)
    op = queue.finishing(mark)
    if op is None:
        op = Finish(record, texts, summary, mark)
        try:
            op.path = ctx.write_record_file(record, summary.seed)
        except OSError as exc:
            db.problem = messages.write_problem(exc, "the game record", db.home, db.path)
        queue.push(op)
    stored = queue.flush(ctx, db) and db.persistent
    return Finished(stored, op.path, None if stored else (db.problem or unsaved))


def reopen_in(db: Database, ctx: Context, game_id: int) -> Saved | None:
    """In one transaction: the unfinished game ``game_id`` of history becomes the saved game
    again (the current one going to history first); None when there is no such game. Raises
    JSONDamage for a record that cannot be read, sqlite3.Error when it cannot be written."""
    with db.tx() as conn:
        row = conn.execute("SELECT record, options FROM games WHERE id = ? AND finished = 0",
                           (game_id,)).fetchone()
        if row is None:
            return None
        saved = loads_object(row[0]), loads_object(row[1])
        ctx.archive_in(conn)
        conn.execute("INSERT OR REPLACE INTO current(slot, record, options, saved_at) "
                     "VALUES (?, ?, ?, ?)", (ctx.slot, row[0], row[1], now_utc()))
        conn.execute("DELETE FROM games WHERE id = ?", (game_id,))
    return saved


def _forget(index: dict[str, T], op: Op) -> None:
    for name in [k for k, v in index.items() if v is op]:
        del index[name]


def with_reference(record_text: object, reference: list[int]) -> JSONObject | None:
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


def rewrite_record_file(path: Path, record: JSONObject) -> None:
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

