"""What the store tells the player, in plain words: each message says what happened, what
was kept where, and whether the game is being saved."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

from ..util.paths import DB_NAME
from .files import plain
from .locking import is_busy, is_full, is_read_only, kind_of, no_room

LOCKED = ("Another program is using nil-tui's data; your game goes on and will be saved as "
          "soon as it is free.")

LOCKED_READING = ("Another program is using nil-tui's data so that even reading it must wait: "
                  "the saved game cannot be read now. Nothing was changed; try again once that "
                  "program is closed.")

PLAYED_ELSEWHERE = ("The saved game is being played in another nil-tui now: go on with it "
                    "there, or quit that one and resume it here.")

_FULL_ERRNOS = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}
_READ_ONLY_ERRNOS = {errno.EROFS, errno.EACCES, errno.EPERM}


def newer(version: int) -> str:
    """A schema version this nil-tui does not know: a newer one, or one no nil-tui wrote."""
    if version < 0:
        return (f"This data has a schema version no nil-tui knows ({version}); this version "
                "will not change it, so nothing is saved in this session.")
    return (f"This data was written by a newer nil-tui (schema {version}); this version will "
            "not change it, so nothing is saved in this session.")


def unusable(home: Path, kind: str, why: str) -> str:
    """Why a data file that is not damaged cannot be used now ("full", "read-only" or
    "unusable")."""
    path = home / DB_NAME
    if kind == "read-only":
        return read_only_file(path)
    if kind == "full" or no_room(home):
        return full(home)
    for suffix in ("-wal", "-shm", "-journal"):
        side = path.with_name(path.name + suffix)
        if side.exists() and not side.is_file():
            return (f"nil-tui cannot use its data file: {side} is in the way (SQLite keeps "
                    "its journal under that name; move it elsewhere). Your game goes on, but "
                    "it is not saved until then.")
    return (f"nil-tui's data file {path} cannot be used now ({why}); it was left as it is. "
            "Your game goes on, but it is not saved until the file can be used.")


def full(home: Path) -> str:
    return (f"The disk that holds nil-tui's data ({home}) is full; your game goes on, but it "
            "is not saved until there is room.")


def read_only_file(path: Path) -> str:
    return (f"nil-tui's data file {path} is read-only; your game goes on, but it is not saved "
            "until the file can be written.")


def read_only_folder(folder: Path) -> str:
    return (f"The folder {folder} is read-only; your game goes on, but it is not saved until "
            "the folder can be written.")


def damaged_kept(problem: str, kept: Path) -> str:
    return (f"The data file could not be used: {problem}. It was kept as {kept} and a fresh "
            "one was started (settings, statistics and the saved game start over).")


def log_lost(db_path: Path) -> str:
    return (f"Another program removed the journal of nil-tui's data file {db_path} while "
            "nil-tui was writing to it, so your game is not saved now. Quit nil-tui and start "
            "it again: what could not be saved is then kept in a file beside the data file.")


def write_problem(exc: BaseException, what: str, home: Path, db_path: Path) -> str:
    """Why a write failed, for ``Store.problem``."""
    if is_busy(exc):
        return LOCKED
    if is_full(exc) or (kind_of(exc) == "unusable" and no_room(home)):
        return full(home)
    if is_read_only(exc):
        return read_only_file(db_path)
    if isinstance(exc, OSError) and exc.errno in _FULL_ERRNOS:
        return full(home)
    if isinstance(exc, OSError) and exc.errno in _READ_ONLY_ERRNOS:
        where = Path(exc.filename).parent if exc.filename else home
        return read_only_folder(where)
    if isinstance(exc, (sqlite3.Error, OSError)):
        return (f"nil-tui could not save {what} ({plain(exc)}); your game goes on and saving "
                "is tried again.")
    return f"nil-tui could not save {what} ({plain(exc)})."  # pragma: no cover
