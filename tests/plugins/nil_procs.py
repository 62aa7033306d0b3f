"""Finding every process a command started, wherever it went (another session, another PID
namespace, reparented to init): each carries the command's environment, with a tag the test
put there. Not a plugin: the tests' helper."""

from __future__ import annotations

import os
import secrets
import time

TAG = "NIL_TUI_TEST_TAG"


def new_tag() -> str:
    return secrets.token_hex(8)


def _start_and_state(pid: str) -> tuple[str, str] | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rpartition(")")[2].split()
        return fields[19], fields[0]  # start time, state
    except (OSError, IndexError):
        return None


def tagged(tag: str) -> set[tuple[int, str]]:
    """The living processes (pid, start time) whose environment holds the tag; zombies do
    not count (they have ended)."""
    needle = f"{TAG}={tag}".encode()
    found: set[tuple[int, str]] = set()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                if needle not in f.read().split(b"\0"):
                    continue
        except OSError:
            continue
        info = _start_and_state(name)
        if info is not None and info[1] not in ("Z", "X"):
            found.add((int(name), info[0]))
    return found


def alive(process: tuple[int, str]) -> bool:
    info = _start_and_state(str(process[0]))
    return info is not None and info[0] == process[1] and info[1] not in ("Z", "X")


def wait_for(predicate: object, timeout: float, step: float = 0.05) -> bool:
    """Poll ``predicate()`` until it is true or ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        if predicate():  # type: ignore[operator]
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(step)


def all_gone(tag: str, seen: set[tuple[int, str]], timeout: float) -> set[tuple[int, str]]:
    """Wait up to ``timeout`` seconds for every process seen and every tagged one to end;
    those still alive then."""
    def left() -> set[tuple[int, str]]:
        return {p for p in seen if alive(p)} | tagged(tag)

    wait_for(lambda: not left(), timeout)
    return left()
