"""Lines typed by the player, read without blocking the game: a thread reads standard input
(a terminal, a pipe, a file or ``/dev/null`` alike: the loop's own watch refuses files) and
hands each line to the loop, which takes one whenever the game waits for the player. The
end of the input is None."""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import BinaryIO

from ..textsafe import UNSAFE


class LineReader:
    """Lines from ``stream`` (default: standard input) as they come."""

    def __init__(self, stream: BinaryIO | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.ended = False
        source = stream if stream is not None else _stdin()
        if source is None:
            self._queue.put_nowait(None)
            return
        threading.Thread(target=self._read, args=(source,), daemon=True,
                         name="nil-tui-lines").start()

    def _read(self, source: BinaryIO) -> None:
        try:
            for raw in iter(source.readline, b""):
                text = raw.decode("utf-8", "replace").rstrip("\r\n")
                self._hand(UNSAFE.sub("", text))
        except (OSError, ValueError):
            pass
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


def _stdin() -> BinaryIO | None:
    stream = sys.stdin
    if stream is None:
        return None
    try:
        stream.fileno()
    except (OSError, ValueError):
        return None
    return stream.buffer


__all__ = ["LineReader"]
