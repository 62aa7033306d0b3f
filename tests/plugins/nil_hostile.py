"""Plugin bots that misbehave in every way the game must survive (see tests/bots)."""

from __future__ import annotations

import os
import select
import sys
import time
from typing import Any


def _lowest(view: Any) -> Any:
    return min(view.legal, key=lambda c: (c.rank, c.suit))


class Mutator:
    """Rewrites its view's legal cards (and the rank of a card) and answers a card it does
    not hold."""

    name = "Mutator"

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, view: Any) -> Any:
        foreign = view.unseen[0]
        object.__setattr__(view, "legal", (foreign,))
        object.__setattr__(view, "hand", (*view.hand, foreign))
        try:
            object.__setattr__(view.hand[0], "rank", 14)
        except Exception:  # noqa: BLE001, S110 - immutable cards are fine too
            pass
        return foreign


class Hanger:
    """Never answers its first decision of a deal (13 cards in hand); plays its lowest card
    otherwise. Writes its process's mark (see nil_marks) to $NIL_TUI_HANGER_OUT at each
    decision."""

    name = "Hanger"

    def __init__(self, seed: int = 0) -> None:
        self.out = os.environ.get("NIL_TUI_HANGER_OUT", "")

    def choose(self, view: Any) -> Any:
        if self.out:
            from nil_marks import mark

            with open(self.out, "a", encoding="utf-8") as f:
                f.write(f"{mark(os.path.dirname(self.out))} {len(view.hand)}\n")
        if len(view.hand) == 13:
            while True:
                time.sleep(0.05)
        return _lowest(view)


class _Unprintable:
    def __repr__(self) -> str:
        raise RuntimeError("no repr for you")

    def __str__(self) -> str:
        raise RuntimeError("no str for you")


class ReprRaiser:
    name = "ReprRaiser"

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, view: Any) -> Any:
        return _Unprintable()


class _BadError(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no str for this error")


class ErrorStrRaiser:
    name = "ErrorStrRaiser"

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, view: Any) -> Any:
        raise _BadError()


class Exiter:
    """Raises SystemExit, KeyboardInterrupt and a bare BaseException in turn."""

    name = "Exiter"

    def __init__(self, seed: int = 0) -> None:
        self.calls = 0

    def choose(self, view: Any) -> Any:
        self.calls += 1
        kind = (SystemExit, KeyboardInterrupt, BaseException)[self.calls % 3]
        raise kind(7)


class Crasher:
    """Ends its own process without a word at its first decision of a deal."""

    name = "Crasher"

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, view: Any) -> Any:
        if len(view.hand) == 13:
            os._exit(3)
        return _lowest(view)


class BadName:
    def __init__(self, seed: int = 0) -> None:
        pass

    @property
    def name(self) -> str:
        raise RuntimeError("no name")

    def choose(self, view: Any) -> Any:
        return _lowest(view)


class _Huge:
    def __repr__(self) -> str:
        return "x" * 40_000_000


class HugeRepr:
    name = "Huge" * 1000 + "\n\x1b[31m"

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, view: Any) -> Any:
        return _Huge()


class Printer:
    """Prints to stdout, writes to file descriptor 1 and to stderr, then plays normally."""

    name = "Printer"

    def __init__(self, seed: int = 0) -> None:
        print("hello from the printer's constructor")

    def choose(self, view: Any) -> Any:
        print('{"t": "card", "n": 1, "i": 0}')
        sys.stdout.flush()
        os.write(1, b"garbage on fd 1\n")
        print("printer to stderr", file=sys.stderr)
        return str(_lowest(view))


class Perfect:
    """Defines choose_perfect, which must never be offered to a plugin."""

    name = "Perfect"

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, view: Any) -> Any:
        return _lowest(view)

    def choose_perfect(self, view: Any, deal: Any) -> Any:
        with open(os.environ["NIL_TUI_PERFECT_OUT"], "a", encoding="utf-8") as f:
            f.write(repr(deal) + "\n")
        return _lowest(view)


class Trivial:
    """The lowest legal card, nothing else: for measuring the cost of a process."""

    name = "Trivial"

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, view: Any) -> Any:
        return view.legal[0]


class Forker:
    """At its first decision, forks a child that leaves the process group and the session
    (``setsid()``) and sleeps for ever, holding the process's mark (see nil_marks), written
    to $NIL_TUI_FORKER_OUT. Plays its lowest legal card."""

    name = "Forker"

    def __init__(self, seed: int = 0) -> None:
        self.out = os.environ.get("NIL_TUI_FORKER_OUT", "")
        self.forked = False

    def choose(self, view: Any) -> Any:
        if self.out and not self.forked:
            from nil_marks import mark

            self.forked = True
            ready, told = os.pipe()
            if os.fork() == 0:
                os.close(ready)
                os.setsid()
                held = mark(os.path.dirname(self.out))  # the grandchild inherits the lock
                if os.fork() != 0:  # the child writes the mark once, after the fork
                    with open(self.out, "a", encoding="utf-8") as f:
                        f.write(held + "\n")
                    os.write(told, b"x")
                os.close(told)
                while True:
                    time.sleep(1)
            os.close(told)
            # the card waits until the mark is written: a game that ended first would end the
            # child before it could write it, and the test would see no child at all
            select.select([ready], [], [], 10.0)
            os.close(ready)
        return _lowest(view)


class EveryOtherHanger:
    """Answers the first decision of its process, hangs on the second, answers the third,
    and so on (each fresh process starts again at the first)."""

    name = "EveryOther"

    def __init__(self, seed: int = 0) -> None:
        self.asked = 0

    def choose(self, view: Any) -> Any:
        self.asked += 1
        if self.asked % 2 == 0:
            while True:
                time.sleep(0.05)
        return _lowest(view)
