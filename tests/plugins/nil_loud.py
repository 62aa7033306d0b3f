"""A plugin bot that writes a great deal to its standard error and standard output (which
the game sends to plugins.log) at every decision."""

from __future__ import annotations

import os
import sys
from typing import Any

CHUNK = 1 << 20  # what it writes at each decision


class Loud:
    """Writes CHUNK bytes at each decision, half by print, half straight to file descriptor
    2, then plays its lowest legal card."""

    name = "Loud"

    def __init__(self, seed: int = 0) -> None:
        self.decisions = 0

    def choose(self, view: Any) -> Any:
        self.decisions += 1
        line = f"decision {self.decisions} " + "x" * 100 + "\n"
        print(line * (CHUNK // 2 // len(line)), end="", flush=True)
        data = line.encode() * (CHUNK // 2 // len(line))
        while data:
            data = data[os.write(2, data):]
        sys.stderr.flush()
        return min(view.legal, key=lambda c: (c.rank, c.suit))
