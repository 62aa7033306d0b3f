"""``plugins.log``: what plugin bots write, kept within LIMIT bytes a file while it is written.

A plugin's standard output and standard error do not reach the file directly: its host's
first process (the warden, which runs none of the plugin's code) reads them from a pipe and
appends them here (:meth:`Log.append`). Several processes append at once (the host of each
plugin seat, of each ``simulate`` job), so each append holds the file's lock. When what is
written would take the file past LIMIT, the file is renamed ``plugins.log.1`` (the one before
it is dropped) and a fresh one starts with a line saying so; a process still holding the old
file finds at its next append that the name is another file's now, and opens that one.

Imports only the standard library: the plugin host imports it before any plugin.
"""

from __future__ import annotations

import os
import stat
import time

try:
    import fcntl
except ImportError:  # pragma: no cover - no file locks here: appends are not serialised
    fcntl = None  # type: ignore[assignment]

LIMIT = 1 << 20  # bytes of one file; the one before is kept as plugins.log.1
LOCK_WAIT = 0.5  # seconds an append waits for the file's lock before its text is dropped
LOCKED_OUT = 5.0  # seconds after such a wait during which appends are dropped at once
OLD_SUFFIX = ".1"
JUST_CUT = 10.0  # seconds: a file made this soon after a cut is the one that follows it
_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)


def cut_note(limit: int = LIMIT) -> bytes:
    """The first line of a file started afresh while plugins were writing."""
    return (f"{time.strftime('%Y-%m-%d %H:%M:%S')} nil-tui: plugins.log reached its limit of "
            f"{limit:,} bytes and was cut here: what came just before is in plugins.log.1, "
            "anything older is gone\n").encode()


def is_full(size: int, limit: int = LIMIT) -> bool:
    """Whether a log of ``size`` bytes is to be started afresh before anything more is
    written to it (the game does it when it starts a plugin's process)."""
    return size >= limit


class Log:
    """Appends to the log at ``path`` without taking it past ``limit`` bytes. With no path,
    ``fd`` (a descriptor that is not the log: /dev/null, a terminal) gets everything as it
    is. Never raises: a log that cannot be written is not worth a game."""

    def __init__(self, path: str | None, fd: int | None = None, limit: int = LIMIT) -> None:
        self.path = None if path is None else os.path.abspath(path)
        self.limit = limit
        self._fd = fd if self.path is None else None
        self._own = False  # whether _fd was opened here (and is closed here)
        self._cut = False  # the file held was renamed: a fresh one says it was cut
        self._locked_out = 0.0  # until then, a lock held by another is not waited for

    def append(self, data: bytes) -> None:
        if not data:
            return
        if self.path is None:
            if self._fd is not None:
                _write_all(self._fd, data)
            return
        try:
            self._append(data[-(self.limit // 2):])  # one write never fills a file alone
        except OSError:
            pass

    def _append(self, data: bytes) -> None:
        assert self.path is not None
        for _ in range(8):  # each turn: another process renamed the file meanwhile
            fd = self._open()
            if not self._lock(fd):
                return  # held by another for too long (a plugin may take it): dropped
            try:
                if not _names(fd, self.path):
                    continue  # renamed since it was opened: open the new one
                size = os.fstat(fd).st_size
                if size + len(data) > self.limit and size > 0:
                    os.replace(self.path, self.path + OLD_SUFFIX)
                    continue  # the next turn opens a fresh file and writes the note first
                if size == 0 and (self._cut or _just_cut(fd, self.path)):
                    data = cut_note(self.limit) + data
                _write_all(fd, data)
                self._cut = False
                return
            finally:
                _unlock(fd)

    def _lock(self, fd: int) -> bool:
        """Take the file's lock, waiting at most LOCK_WAIT seconds, not at all for
        LOCKED_OUT seconds after a wait that failed: a process that holds the lock forever
        costs the game no more than that, and what the plugins write meanwhile is dropped."""
        if fcntl is None:
            return True
        now = time.monotonic()
        deadline = now + (LOCK_WAIT if now >= self._locked_out else 0.0)
        pause = 0.001
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                now = time.monotonic()
                if now >= deadline:
                    self._locked_out = max(self._locked_out, now + LOCKED_OUT)
                    return False
                time.sleep(min(pause, deadline - now))
                pause = min(pause * 2, 0.05)
            except OSError:  # no locks on this file system: appends are not serialised
                return True

    def _open(self) -> int:
        """The log's descriptor, opened again when the name is another file's now."""
        assert self.path is not None
        fd = self._fd
        if fd is not None and _names(fd, self.path):
            return fd
        if fd is not None:
            # The file held is plugins.log.1 now: the fresh one says it was cut (not when
            # the file was taken away by hand).
            self._cut = _names(fd, self.path + OLD_SUFFIX)
            if self._own:
                os.close(fd)
        self._fd = None
        fd = os.open(self.path, _FLAGS, 0o600)
        self._fd, self._own = fd, True
        return fd

    def close(self) -> None:
        if self._own and self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
        self._fd, self._own = None, False


def _names(fd: int, path: str) -> bool:
    """Whether ``path`` names the file open on ``fd``."""
    try:
        held, named = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return stat.S_ISREG(named.st_mode) and (held.st_dev, held.st_ino) == (named.st_dev,
                                                                          named.st_ino)


def _just_cut(fd: int, path: str) -> bool:
    """Whether the empty file open on ``fd`` came after a cut: plugins.log.1 was renamed from
    it moments before this file was made. Another process may have made the cut and this one
    open the fresh file first (it never held the file that was cut, or held one cut twice
    since); a log taken away by hand, with no cut just before, gets no note."""
    try:
        fresh, old = os.fstat(fd), os.stat(path + OLD_SUFFIX)
    except OSError:
        return False
    return 0 <= fresh.st_ctime - old.st_ctime < JUST_CUT


def _unlock(fd: int) -> None:
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_UN)
        except OSError:
            pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(fd, view):]
        except InterruptedError:
            continue
        except OSError:
            return
