"""Who plays in which slot, and telling a lock from damage.

The first instance holds the main lock file and plays in slot 0; any other takes the first
free ``nil-tui.lock.N`` and keeps its game in slot N, so neither overwrites the other. The
locks are ``flock``s: released when the file is closed or the process dies.

SQLite's own lock is another matter: a database that another process holds (a second
nil-tui finishing a game, a backup tool, ``sqlite3`` at a prompt) answers "database is
locked". That is never damage; ``is_busy`` tells it apart.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

try:  # pragma: no cover - every supported POSIX system has fcntl
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock, every instance is the main one
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = "nil-tui.lock"
MAX_SLOTS = 16

_BUSY_CODES = {5, 6}  # SQLITE_BUSY, SQLITE_LOCKED
_READONLY_CODES = {8}  # SQLITE_READONLY
_FULL_CODES = {13}  # SQLITE_FULL


def _code(exc: sqlite3.Error) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+
    return code & 0xFF if isinstance(code, int) else None


def is_busy(exc: BaseException) -> bool:
    """Another connection holds the database: wait and try again, it is not damage."""
    if not isinstance(exc, sqlite3.Error):
        return False
    code = _code(exc)
    if code is not None:
        return code in _BUSY_CODES
    text = str(exc).lower()  # Python 3.10: only the message tells
    return "database is locked" in text or "database table is locked" in text


def is_read_only(exc: BaseException) -> bool:
    if not isinstance(exc, sqlite3.Error):
        return False
    code = _code(exc)
    if code is not None:
        return code in _READONLY_CODES
    return "readonly database" in str(exc).lower()


def is_full(exc: BaseException) -> bool:
    if not isinstance(exc, sqlite3.Error):
        return False
    code = _code(exc)
    if code is not None:
        return code in _FULL_CODES
    return "disk is full" in str(exc).lower()


_DAMAGE_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
_UNUSABLE_CODES = {3, 7, 9, 10, 14, 15, 23}
"""SQLITE_PERM, NOMEM, INTERRUPT, IOERR, CANTOPEN, PROTOCOL, AUTH: the file cannot be used
*now* (a full disk, an I/O error, something in the way), which says nothing of its content."""
_UNUSABLE_TEXTS = ("disk i/o error", "unable to open database file", "out of memory",
                   "access permission denied", "interrupted", "locking protocol")


def kind_of(exc: BaseException) -> str:
    """What an SQLite error says of the file: "busy" (another program holds it), "read-only",
    "full", "unusable" (it cannot be used now: an I/O error, something in the way) or
    "damaged" (its content fails SQLite's checks). Only "damaged" is a reason to set a file
    aside."""
    if is_busy(exc):
        return "busy"
    if is_read_only(exc):
        return "read-only"
    if is_full(exc):
        return "full"
    if isinstance(exc, OSError):
        return "unusable"
    if not isinstance(exc, sqlite3.Error):
        return "damaged"
    code = _code(exc)
    if code is not None:
        return "unusable" if code in _UNUSABLE_CODES else "damaged"
    text = str(exc).lower()  # Python 3.10
    return "unusable" if any(t in text for t in _UNUSABLE_TEXTS) else "damaged"


def no_room(folder: Path) -> bool:
    """The filesystem holding ``folder`` has no free block left (for an I/O error that is
    really a full disk: SQLite reports a full disk met while sizing its shared memory file
    as an I/O error)."""
    try:
        st = os.statvfs(folder)
    except (OSError, AttributeError):
        return False
    return st.f_bavail * st.f_frsize < 64 * 1024


class FileLock:
    """An exclusive ``flock`` on a file: released when closed or when the process dies."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd: int | None = None

    def _open(self) -> int | None:
        try:
            return os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            try:
                return os.open(self.path, os.O_RDONLY)
            except OSError:
                return None

    def acquire(self, blocking: bool = False, timeout: float = 1.0) -> bool:
        if fcntl is None:  # pragma: no cover
            return True
        fd = self._open()
        if fd is None:
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


def claim_slot(base: Path, writable: bool) -> tuple[int, FileLock | None]:
    """This instance's slot and the lock that holds it (None when nothing can be locked)."""
    main = FileLock(base / LOCK_NAME)
    if not writable and not main.path.exists():
        return 0, None  # nobody can lock here: nothing to share
    if main.acquire():
        return 0, main
    for n in range(1, MAX_SLOTS):
        other = FileLock(base / f"{LOCK_NAME}.{n}")
        if other.acquire():
            return n, other
    return MAX_SLOTS + os.getpid() % 100_000, None


def slot_is_free(base: Path, slot: int) -> FileLock | None:
    """The lock of a secondary slot whose instance is gone (held until released), or None
    while that instance still plays."""
    probe = FileLock(base / f"{LOCK_NAME}.{slot}")
    return probe if probe.acquire() else None
