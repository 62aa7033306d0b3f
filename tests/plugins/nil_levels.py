"""Bots standing in for built-in levels in tests (registered in LEVELS by the test)."""

from __future__ import annotations

import threading
from typing import Any, ClassVar


class Recorder:
    """Plays its highest legal card and notes the thread it was asked in."""

    name = "Recorder"
    threads: ClassVar[list[int]] = []

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, view: Any) -> Any:
        Recorder.threads.append(threading.get_ident())
        return view.legal[-1]


class Capped:
    """A search bot whose wall-clock safety cap fires at every decision."""

    name = "Capped"

    def __init__(self, seed: int = 0) -> None:
        self.safety_cap: float | None = 99.0
        self.cap_fired = False

    def choose(self, view: Any) -> Any:
        self.cap_fired = True
        return view.legal[-1]


class Cheater:
    """Rewrites its view's legal cards to a card it does not hold, and answers that card."""

    name = "Cheater"

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, view: Any) -> Any:
        foreign = view.unseen[0]
        object.__setattr__(view, "legal", (foreign,))
        return foreign


class Raiser:
    name = "Raiser"

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, view: Any) -> Any:
        raise RuntimeError("boom " * 1000)


class Seer:
    """Uses the whole deal when it is offered."""

    name = "Seer"
    seen: ClassVar[list[object]] = []

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, view: Any) -> Any:
        return view.legal[0]

    def choose_perfect(self, view: Any, deal: Any) -> Any:
        Seer.seen.append(deal)
        return view.legal[-1]
