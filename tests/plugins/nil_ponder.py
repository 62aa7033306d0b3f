"""A plugin bot that thinks long: each decision keeps a CPU busy for $NIL_TUI_PONDER_SECONDS
seconds (default 5) before it plays its first legal card, so that a test can act while a bot
is known to be thinking (the built-in levels are too quick to count on for that)."""

from __future__ import annotations

import os
import time
from typing import Any


class Bot:
    name = "Ponder"

    def __init__(self, seed: int = 0) -> None:
        self.seconds = float(os.environ.get("NIL_TUI_PONDER_SECONDS", "5"))

    def choose(self, view: Any) -> Any:
        end = time.monotonic() + self.seconds
        spins = 0
        while time.monotonic() < end:  # pure Python, as a search would be
            spins += 1
        return view.legal[0]
