"""A plugin whose import takes $NIL_TUI_SLEEPY_SECONDS seconds (default 120): the game must
give up on it long before."""

from __future__ import annotations

import os
import time
from typing import Any

time.sleep(float(os.environ.get("NIL_TUI_SLEEPY_SECONDS", "120")))


class Bot:
    name = "Sleepy"

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, view: Any) -> Any:
        return view.legal[0]
