"""Lines typed by the player, read without blocking the game, from standard input whatever it
is. A terminal, a pipe or a socket is read as its lines come, by a thread (the loop's own
watch refuses files); the game takes a line whenever it waits for one. A file, or
``/dev/null``, has every line ready: it is read one line each time the game asks for one,
as a person types at each prompt (``live`` is False). The end of the input is None."""

from __future__ import annotations

import asyncio
import os
import stat
import sys
import threading
from typing import Protocol

from ..util.textsafe import unsafe


class Typed(Protocol):
    """Where the player's lines come from (standard input, or cards played by themselves):
    ``live`` when lines may come at any time, rather than being read at each prompt."""

    live: bool

    async def get(self) -> str | None:
        """The next line (None: nothing more will come)."""


class LineReader:
    """Lines from the file descriptor ``fd`` (default: standard input's). It is read with
    ``os.read``, outside Python's buffered file: a read still waiting when the game ends
    holds no lock the interpreter's exit would wait for."""

    def __init__(self, fd: int | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.ended = False
        source = fd if fd is not None else _stdin()
        self._fd = source
        self._buffer = b""
        self.live = source is not None and _live(source)
        if source is None:
            self._queue.put_nowait(None)
        elif self.live:
            threading.Thread(target=self._read, args=(source,), daemon=True,
                             name="nil-tui-lines").start()

    def _read(self, fd: int) -> None:
        while True:
            line = self._next_line(fd)
            self._hand(line)
            if line is None:
                return

    def _next_line(self, fd: int) -> str | None:
        """The next line from ``fd`` (blocking), None at its end."""
        while b"\n" not in self._buffer:
            try:
                chunk = os.read(fd, 65536)
            except InterruptedError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                if not self._buffer:
                    return None
                self._buffer += b"\n"  # the last line had no newline
                break
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\n", 1)
        return unsafe().sub("", raw.decode("utf-8", "replace"))

    def _hand(self, line: str | None) -> None:
        try:
            self._loop.call_soon_threadsafe(self._queue.put_nowait, line)
        except RuntimeError:  # the loop is closed: the game is over
            pass

    async def get(self) -> str | None:
        """The next line (None: the input has ended, and stays so)."""
        if self.ended:
            return None
        if not self.live and self._fd is not None:
            line = self._next_line(self._fd)  # a file: every line is there already
        else:
            line = await self._queue.get()
        if line is None:
            self.ended = True
        return line


def _live(fd: int) -> bool:
    """Whether lines come on ``fd`` as someone writes them (a terminal, a pipe, a socket),
    rather than being all there (a file, ``/dev/null``)."""
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    if stat.S_ISREG(mode):
        return False
    if stat.S_ISCHR(mode):
        return os.isatty(fd)  # /dev/null and its like: nothing will ever come
    return True


def _stdin() -> int | None:
    stream = sys.stdin
    if stream is None:
        return None
    try:
        return stream.fileno()
    except (OSError, ValueError):
        return None


__all__ = ["LineReader", "Typed"]
