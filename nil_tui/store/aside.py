"""Keeping what cannot be used: rows that cannot be read (bad or hostile JSON), a saved game
that no longer loads, a table of another shape, writes still waiting when the store closes.
Each is kept whole in a file beside the database (``set-aside-<what>-<time>.json``), never
deleted, and the player is told where; the rest of the store goes on."""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from .database import Database
from .files import (
    JSONDamage,
    fallback_records_dir,
    keep_text,
    loads,
    loads_object,
    now_utc,
    plain,
    set_aside,
    stamp,
    write_new,
)
from .queue import ClearCurrent, WriteQueue
from .schema import (
    GAME_COLUMNS,
    GAME_SUMMARY_COLUMNS,
    SUMMARY_MARKS,
    count,
    misshapen,
    rebuild,
    summary_row,
    table_rows,
)
from .summaries import GameSummary, JSONObject, fingerprint, seed_label, summarize


def unsaved_dir() -> Path:
    """Where games that could not be written are kept when the data folder cannot hold them."""
    return Path(tempfile.gettempdir()) / "nil-tui-unsaved"


def keep_file(db: Database, what: str, content: JSONObject) -> Path:
    """Data that cannot be used, kept as ``set-aside-<what>-<time>.json`` beside the
    database; raises OSError when it cannot be written."""
    return set_aside(db.home, f"set-aside-{what}-{stamp()}.json", content)


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


def saved_game(db: Database, record_text: object, options_text: object,
               reason: str) -> tuple[Path | None, ClearCurrent]:
    """A saved game that cannot be resumed, kept in a file (or, when no file can be written,
    inside the store by the write returned, which also clears it)."""
    content = {"why": reason, "record": keep_text(record_text),
               "options": keep_text(options_text)}
    try:
        kept: Path | None = keep_file(db, "saved-game", content)
    except OSError as exc:
        kept = None
        where = (f"It could not be written to a file ({exc.strerror or exc}), so it was "
                 "kept inside the data file.")
        op = ClearCurrent(keep=(str(record_text), str(options_text)))
    else:
        where = f"It was kept as {kept}."
        op = ClearCurrent()
    db.warnings.append(f"The saved game cannot be resumed: {reason}. {where}")
    return kept, op


def archive_in(db: Database, conn: sqlite3.Connection) -> int | None:
    """Inside a transaction: move this slot's saved game into history as unfinished (one
    that cannot be read is kept in a file instead)."""
    row = conn.execute("SELECT record, options FROM current WHERE slot = ?",
                       (db.slot,)).fetchone()
    if row is None:
        return None
    try:
        record, options = loads_object(row[0]), loads_object(row[1])
        summary = summarize(record, options, finished=False)
        mark = "unfinished-" + fingerprint(record)
    except (JSONDamage, TypeError, ValueError, RecursionError) as exc:
        kept = keep_file(db, "saved-game", {"why": plain(exc), "record": keep_text(row[0]),
                                            "options": keep_text(row[1])})
        db.warnings.append(f"The saved game cannot be resumed: {plain(exc)}. It was kept as "
                           f"{kept}.")
        conn.execute("DELETE FROM current WHERE slot = ?", (db.slot,))
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
    conn.execute("DELETE FROM current WHERE slot = ?", (db.slot,))
    return game_id


def history_game(db: Database, game_id: int, problem: str) -> None:
    """A history row that cannot be read: kept as a file, then taken out of history (and
    its game out of the statistics)."""
    rows = db.rows(f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE id = ?", (game_id,))
    if not rows:
        return
    row = dict(zip(GAME_COLUMNS, rows[0]))
    try:
        kept = keep_file(db, f"game-{game_id}", {
            "why": problem, "game": {k: keep_text(v) if k in ("record", "options", "totals",
                                                              "losers") else v
                                     for k, v in row.items()}})
    except OSError as exc:
        db.warnings.append(f"A game in history cannot be read ({problem}); it could not be "
                           f"copied to a file ({exc.strerror or exc}), so it stays in the "
                           "data file and is left out of history for now.")
        return
    db.warnings.append(f"A game in history cannot be read ({problem}); it was kept as "
                       f"{kept} and left out of history and statistics.")
    _drop_game(db, row)


def _drop_game(db: Database, row: dict[str, Any]) -> None:
    try:
        with db.tx() as conn:
            if row.get("finished") == 1:
                summary = GameSummary(None, str(row["difficulty"]), "", int(row["deals"]),
                                      [], [], bool(row["lost"]), "",
                                      int(row["clean_deals"]), int(row["points"]))
                count(conn, summary, sign=-1)
            conn.execute("DELETE FROM games WHERE id = ?", (row["id"],))
    except (sqlite3.Error, TypeError, ValueError):
        pass  # left out of this session's history all the same; its file is kept


def computed(db: Database, key: str, value: object, problem: str) -> None:
    """A computed result that cannot be read: kept as a file, then forgotten (it is computed
    again when needed)."""
    try:
        kept = keep_file(db, "computed", {"why": problem, "key": key, "value": keep_text(value)})
    except OSError:
        return  # skipped: computed again, and the value stays in the data file
    db.warnings.append(f"A kept result ({key!r}) cannot be read ({problem}); it was kept as "
                       f"{kept} and will be computed again.")
    try:
        with db.tx() as conn:
            conn.execute("DELETE FROM computed WHERE key = ? AND value = ?", (key, value))
    except sqlite3.Error:
        pass


def setting(db: Database, key: str, value: object, problem: str) -> None:
    """A setting that cannot be read: kept as a file, then forgotten (the default applies)."""
    try:
        kept = keep_file(db, "setting", {"why": problem, "key": key, "value": keep_text(value)})
    except OSError:
        return  # skipped: the default applies, the value stays in the data file
    db.warnings.append(f"The setting {key!r} cannot be read ({problem}); it was kept as "
                       f"{kept} and the default is used.")
    try:
        with db.tx() as conn:
            conn.execute("DELETE FROM settings WHERE key = ?", (key,))
    except sqlite3.Error:
        pass


def rebuild_misshapen(db: Database) -> None:
    """A table of another shape than this version writes (``settings``, ``current``,
    ``computed``, ``stats``) would make every write to it fail: its rows are kept in a file
    beside the database and the table is made again."""
    try:
        tables = misshapen(db.conn)
    except sqlite3.Error:
        return
    for table in tables:
        try:
            with db.tx() as conn:
                if table not in misshapen(conn):
                    continue  # another instance made it again just now
                rows = [{k: keep_text(v) if isinstance(v, (str, bytes)) else v
                         for k, v in row.items()} for row in table_rows(conn, table)]
                kept = keep_file(db, f"table-{table}", {
                    "why": f"the table {table!r} is not the one this nil-tui writes",
                    "table": table, "rows": rows})
                rebuild(conn, table)
        except OSError as exc:
            db.warnings.append(
                f"The data file's table {table!r} is not the one this nil-tui writes, so "
                f"what goes in it cannot be saved; it could not be copied to a file "
                f"({exc.strerror or exc}), so it was left as it is.")
            continue
        except sqlite3.Error:
            continue  # tried again at the next opening
        db.warnings.append(
            f"The data file's table {table!r} was not the one this nil-tui writes, so "
            f"nothing could be saved in it: its rows were kept as {kept} and the table was "
            "made again.")


def unsaved(db: Database, queue: WriteQueue) -> tuple[Path | None, str]:
    """What waits to be written that holds a game, kept whole in a file beside the database
    or, when that cannot be written (a full disk), in the temporary folder; the file (None
    when nothing of a game waits or nothing could be written) and what to tell the player."""
    last = queue.last_save
    content: JSONObject = {
        "why": db.problem or db.read_only_reason,
        "saved_game": None if last is None or last.saved is None else {
            "record": last.saved[0], "options": last.saved[1]},
        "finished_games": queue.finished_records()}
    if content["saved_game"] is None and not content["finished_games"]:
        return None, ""  # only settings or a clean-up waited: nothing of a game is lost
    name = f"set-aside-unsaved-{stamp()}.json"
    for folder in (db.home, unsaved_dir()):
        try:
            kept = set_aside(folder, name, content)
        except OSError:
            continue
        return kept, (f"The last game could not be written to the data file before nil-tui "
                      f"closed; it was kept as {kept}.")
    return None, ""


def write_record_file(db: Database, record: JSONObject, seed: int | None,
                      fallback: bool = True) -> Path:
    """The record file, in ``records_dir`` or else (``fallback``) the temporary folder;
    raises OSError when neither can be written."""
    name = f"{stamp()}_seed-{seed_label(seed)}.json"
    text = json.dumps(record, indent=1) + "\n"
    error: OSError | None = None
    folders = [db.records_dir, fallback_records_dir()] if fallback else [db.records_dir]
    for folder in folders:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = write_new(folder / name, text)
        except OSError as exc:
            error = error or exc
            continue
        if error is not None:
            db.warnings.append(f"Cannot write the game record in {db.records_dir} "
                               f"({error.strerror or error}); it was written as {path}.")
        return path
    assert error is not None
    raise error
