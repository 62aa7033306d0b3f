"""Lines typed by the player, read without blocking the game: a thread reads standard input
(a terminal, a pipe, a file or ``/dev/null`` alike: the loop's own watch refuses files) and
hands each line to the loop, which takes one whenever the game waits for the player. The
end of the input is None."""

from __future__ import annotations

import asyncio
import os
import sys
import threading

from ..textsafe import UNSAFE


class LineReader:
    """Lines from the file descriptor ``fd`` (default: standard input's) as they come. It is
    read with ``os.read``, outside Python's buffered file: a read still waiting when the
    game ends holds no lock the interpreter's exit would wait for."""

    def __init__(self, fd: int | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.ended = False
        source = fd if fd is not None else _stdin()
        if source is None:
            self._queue.put_nowait(None)
            return
        threading.Thread(target=self._read, args=(source,), daemon=True,
                         name="nil-tui-lines").start()

    def _read(self, fd: int) -> None:
        buffer = b""
        while True:
            try:
                chunk = os.read(fd, 65536)
            except InterruptedError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                break
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for raw in lines:
                self._hand(UNSAFE.sub("", raw.decode("utf-8", "replace")))
        if buffer:  # the last line had no newline
            self._hand(UNSAFE.sub("", buffer.decode("utf-8", "replace")))
        self._hand(None)

    def _hand(self, line: str | None) -> None:
        try:
            self._loop.call_soon_threadsafe(self._queue.put_nowait, line)
        except RuntimeError:  # the loop is closed: the game is over
            pass

    async def get(self) -> str | None:
        """The next line (None: the input has ended, and stays so)."""
        if self.ended:
            return None
        line = await self._queue.get()
        if line is None:
            self.ended = True
        return line


def _stdin() -> int | None:
    stream = sys.stdin
    if stream is None:
        return None
    try:
        return stream.fileno()
    except (OSError, ValueError):
        return None


__all__ = ["LineReader"]
