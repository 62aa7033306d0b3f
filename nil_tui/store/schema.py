"""The database's tables, the check that a file is a sound nil-tui store, and the migrations
that bring an older store up to date, one version at a time, each in its own transaction."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

from .files import dumps, loads_or
from .summaries import (
    GameSummary,
    challenge_diff,
    challenge_of,
    fingerprint,
    seed_text,
    summarize,
)

SCHEMA_VERSION = 4

Migration = Callable[[sqlite3.Connection], None]


class StoreError(Exception):
    """A store file that cannot be used; the message says why in plain words."""


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

# Version 3: seeds kept as text (any integer fits), and unfinished games kept in history
# (``finished = 0``: set aside when a new game replaced them; statistics skip them).
_MIGRATE_V2_TO_V3 = """
CREATE TABLE games_v3 (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    finished_at TEXT NOT NULL,
    path        TEXT,
    record      TEXT NOT NULL,
    options     TEXT NOT NULL,
    fingerprint TEXT,
    seed        TEXT,
    difficulty  TEXT NOT NULL DEFAULT '',
    opponents   TEXT NOT NULL DEFAULT '',
    deals       INTEGER NOT NULL DEFAULT 0,
    totals      TEXT NOT NULL DEFAULT '[]',
    losers      TEXT NOT NULL DEFAULT '[]',
    lost        INTEGER NOT NULL DEFAULT 0,
    clean_deals INTEGER NOT NULL DEFAULT 0,
    points      INTEGER NOT NULL DEFAULT 0,
    finished    INTEGER NOT NULL DEFAULT 1
);
INSERT INTO games_v3(id, finished_at, path, record, options, fingerprint, seed, difficulty,
                     opponents, deals, totals, losers, lost, clean_deals, points, finished)
    SELECT id, finished_at, path, record, options, fingerprint, CAST(seed AS TEXT),
           difficulty, opponents, deals, totals, losers, lost, clean_deals, points, 1
    FROM games;
DROP TABLE games;
ALTER TABLE games_v3 RENAME TO games;
CREATE UNIQUE INDEX games_fingerprint ON games(fingerprint);
CREATE INDEX games_finished_at ON games(finished_at);
"""

# Version 4: the daily challenge a game is (its date) and South's points minus the expert's
# (once the expert's reference is known); results computed and kept (analyses, references;
# the newest are kept, see core.COMPUTED_KEPT), by a key that says what was computed.
_MIGRATE_V3_TO_V4 = """
ALTER TABLE games ADD COLUMN challenge TEXT;
ALTER TABLE games ADD COLUMN challenge_diff INTEGER;
CREATE INDEX games_challenge ON games(challenge);
CREATE TABLE computed (
    key     TEXT PRIMARY KEY,
    value   TEXT NOT NULL,
    created TEXT NOT NULL
);
"""

TABLES = {1: {"settings", "current", "games"}, 2: {"settings", "current", "games", "stats"},
          3: {"settings", "current", "games", "stats"},
          4: {"settings", "current", "games", "stats", "computed"}}
GAME_COLUMNS = ("id", "finished_at", "path", "record", "options", "fingerprint", "seed",
                "difficulty", "opponents", "deals", "totals", "losers", "lost",
                "clean_deals", "points", "finished", "challenge", "challenge_diff")

MIGRATIONS: dict[int, Migration] = {}


def _migration(version: int) -> Callable[[Migration], Migration]:
    def register(fn: Migration) -> Migration:
        MIGRATIONS[version] = fn
        return fn
    return register


def _run_script(conn: sqlite3.Connection, script: str) -> None:
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)


@_migration(1)
def _to_v1(conn: sqlite3.Connection) -> None:
    _run_script(conn, _SCHEMA_V1)


def _old_summary(record_text: object, options_text: object) -> tuple[GameSummary, str | None]:
    record = loads_or(record_text, {})
    options = loads_or(options_text, {})
    if not isinstance(record, dict):
        record = {}
    try:
        summary = summarize(record, options if isinstance(options, dict) else {})
        mark = fingerprint(record) if record else None
    except (TypeError, ValueError, RecursionError):
        summary, mark = summarize({}, {}), None
    return summary, mark


@_migration(2)
def _to_v2(conn: sqlite3.Connection) -> None:
    _run_script(conn, _MIGRATE_V1_TO_V2)
    rows = conn.execute("SELECT id, record, options FROM games ORDER BY id").fetchall()
    for gid, record_text, options_text in rows:
        s, found = _old_summary(record_text, options_text)
        mark = found or f"unreadable-{gid}"
        if conn.execute("SELECT 1 FROM games WHERE fingerprint = ?", (mark,)).fetchone():
            mark = f"{mark}-{gid}"  # the same game twice in an old store: keep both rows
        seed = s.seed if s.seed is not None and -2**63 <= s.seed < 2**63 else None
        conn.execute(
            "UPDATE games SET fingerprint = ?, seed = ?, difficulty = ?, opponents = ?, "
            "deals = ?, totals = ?, losers = ?, lost = ?, clean_deals = ?, points = ? "
            "WHERE id = ?",
            (mark, seed, s.difficulty, s.opponents, s.deals, json.dumps(s.totals),
             json.dumps(s.losers), int(s.lost), s.clean_deals, s.points, gid))
        count(conn, s)


@_migration(3)
def _to_v3(conn: sqlite3.Connection) -> None:
    _run_script(conn, _MIGRATE_V2_TO_V3)
    rows = conn.execute("SELECT id, record FROM games WHERE seed IS NULL").fetchall()
    for gid, record_text in rows:  # seeds too large for version 2's column
        s, _ = _old_summary(record_text, None)
        if s.seed is not None:
            conn.execute("UPDATE games SET seed = ? WHERE id = ?", (seed_text(s.seed), gid))


@_migration(4)
def _to_v4(conn: sqlite3.Connection) -> None:
    _run_script(conn, _MIGRATE_V3_TO_V4)
    rows = conn.execute("SELECT id, record, finished FROM games "
                        "WHERE record LIKE '%\"challenge\"%'").fetchall()
    for gid, record_text, finished in rows:  # games that already carry a challenge field
        record = loads_or(record_text, {})
        if not isinstance(record, dict):
            continue
        try:
            date, diff = challenge_of(record)[0], challenge_diff(record, bool(finished))
        except (TypeError, ValueError, RecursionError):
            continue
        conn.execute("UPDATE games SET challenge = ?, challenge_diff = ? WHERE id = ?",
                     (date, diff, gid))


def count(conn: sqlite3.Connection, summary: GameSummary, sign: int = 1) -> None:
    """Add a finished game to the statistics of its difficulty (``sign=-1`` takes it out)."""
    conn.execute(
        "INSERT INTO stats(difficulty, games, lost, deals, clean_deals, points) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(difficulty) DO UPDATE SET "
        "games = games + excluded.games, lost = lost + excluded.lost, "
        "deals = deals + excluded.deals, clean_deals = clean_deals + excluded.clean_deals, "
        "points = points + excluded.points",
        (summary.difficulty, sign, sign * int(summary.lost), sign * summary.deals,
         sign * summary.clean_deals, sign * summary.points))


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> None:
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


def create(conn: sqlite3.Connection) -> None:
    migrate(conn)


def version_of(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def verify(conn: sqlite3.Connection) -> int:
    """The store's schema version; raises StoreError (or sqlite3.DatabaseError, among them a
    lock, which the caller tells apart) unless the file is a sound nil-tui store. A version
    newer than ours is returned unchecked: it is not ours to judge."""
    rows = conn.execute("PRAGMA quick_check").fetchall()
    if [r[0] for r in rows] != ["ok"]:
        raise StoreError(f"it is damaged (integrity check: {rows[0][0]})")
    version = version_of(conn)
    tables = {r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
    if version == 0:
        if tables:
            raise StoreError("it is not a nil-tui store (unknown tables, no version)")
        return version
    if version in TABLES and not TABLES[version] <= tables:
        missing = ", ".join(sorted(TABLES[version] - tables))
        raise StoreError(f"it is damaged (missing tables: {missing})")
    if version == SCHEMA_VERSION:
        columns = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
        if not set(GAME_COLUMNS) <= columns:
            missing = ", ".join(sorted(set(GAME_COLUMNS) - columns))
            raise StoreError(f"it is damaged (missing columns in games: {missing})")
    return version


REBUILDABLE = ("settings", "current", "computed", "stats")
"""Tables that can be made again without losing anything: their rows are kept in a file first
(``stats`` is counted again from the finished games)."""

_SHAPES: dict[str, list[tuple[object, ...]]] = {}
_CREATE: dict[str, str] = {}


def _shape(conn: sqlite3.Connection, table: str) -> list[tuple[object, ...]]:
    """A table's columns as SQLite describes them: name, type, not null, default, key."""
    return [tuple(r[1:]) for r in conn.execute(f'PRAGMA table_info("{table}")')]


def _reference() -> None:
    if _SHAPES:
        return
    ref = sqlite3.connect(":memory:", isolation_level=None)
    try:
        scripts = _SCHEMA_V1 + ";" + _MIGRATE_V1_TO_V2 + ";" + _MIGRATE_V3_TO_V4
        for statement in scripts.split(";"):  # the tables as each version made them
            words = statement.split()
            if words[:2] == ["CREATE", "TABLE"] and words[2] in REBUILDABLE:
                ref.execute(statement)
        for table in REBUILDABLE:
            _SHAPES[table] = _shape(ref, table)
            _CREATE[table] = ref.execute("SELECT sql FROM sqlite_master WHERE type = 'table' "
                                         "AND name = ?", (table,)).fetchone()[0]
    finally:
        ref.close()


def misshapen(conn: sqlite3.Connection) -> list[str]:
    """The rebuildable tables of a store at our version whose columns are not the ones this
    version writes (another program's table under the same name, an edit by hand): every
    write to them would fail."""
    _reference()
    return [t for t in REBUILDABLE if _shape(conn, t) != _SHAPES[t]]


def table_rows(conn: sqlite3.Connection, table: str) -> list[dict[str, object]]:
    cursor = conn.execute(f'SELECT * FROM "{table}"')
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def rebuild(conn: sqlite3.Connection, table: str) -> None:
    """Inside a transaction: make ``table`` again as this version writes it, empty (``stats``
    counted again from the finished games)."""
    _reference()
    conn.execute(f'DROP TABLE "{table}"')
    conn.execute(_CREATE[table])
    if table == "stats":
        conn.execute("INSERT INTO stats(difficulty, games, lost, deals, clean_deals, points) "
                     "SELECT difficulty, COUNT(*), SUM(lost), SUM(deals), SUM(clean_deals), "
                     "SUM(points) FROM games WHERE finished = 1 GROUP BY difficulty")


def summary_row(summary: GameSummary) -> tuple[object, ...]:
    """The summary columns of a games row, in the order of ``GAME_SUMMARY_COLUMNS``."""
    return (seed_text(summary.seed), summary.difficulty, summary.opponents, summary.deals,
            dumps(summary.totals), dumps(summary.losers), int(summary.lost),
            summary.clean_deals, summary.points, summary.challenge, summary.challenge_diff)


GAME_SUMMARY_COLUMNS = ("seed, difficulty, opponents, deals, totals, losers, lost, "
                        "clean_deals, points, challenge, challenge_diff")
SUMMARY_MARKS = ", ".join("?" * len(GAME_SUMMARY_COLUMNS.split(",")))
"""One placeholder per summary column."""
