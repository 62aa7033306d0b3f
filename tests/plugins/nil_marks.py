"""What a test plugin leaves so that a test can tell whether its process is still alive,
without process ids (a plugin's process may live in a PID namespace of its own, where its
ids mean nothing to the test): a file it holds locked for as long as it lives (its children
inherit the lock, so the file is free once they are all gone)."""

from __future__ import annotations

import fcntl
import os
import secrets

_HELD: dict[int, tuple[int, str]] = {}


def mark(folder: str) -> str:
    """This process's mark (created the first time it is asked for): a locked file's path."""
    pid = os.getpid()
    if pid not in _HELD:
        path = os.path.join(folder, f"alive-{secrets.token_hex(6)}.lock")
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
        _HELD[pid] = (fd, path)
    return _HELD[pid][1]


def alive(path: str) -> bool:
    """Whether some process still holds the mark at ``path``."""
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False
