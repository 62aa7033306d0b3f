"""A hostile plugin bot: at every decision it searches everything it can reach (the objects
the garbage collector knows, the call frames above it, the globals of every function and
module, and what those hold) for a deal, a game, or cards it may not see. It writes what it
finds, one JSON line per decision, to the file named by NIL_TUI_SPY_OUT, then plays its
lowest legal card."""

from __future__ import annotations

import gc
import json
import os
import sys
import types
from typing import Any

SUSPECT_TYPES = {"Deal", "Game", "GameDriver", "Driver", "NilApp", "TableScreen"}
NODE_LIMIT = 300_000


def _is_card(obj: object) -> bool:
    return type(obj).__name__ == "Card" and hasattr(obj, "index")


class Spy:
    name = "Spy"

    def __init__(self, seed: int = 0) -> None:
        self.out = os.environ.get("NIL_TUI_SPY_OUT", "")
        # What is there before any game: the engine's own tables hold every combination of
        # cards, so cards found there say nothing. Kept alive so that their ids stay theirs.
        self.baseline: list[object] = []
        self._walk(self._roots(), set(), [], self.baseline)
        self.known = {id(x) for x in self.baseline}

    def _hidden_cards(self, obj: object, visible: set[int]) -> list[str] | None:
        """The cards of a small collection of cards this seat may not see, if any."""
        if isinstance(obj, dict):
            items: list[object] = [*obj.keys(), *obj.values()]
        elif isinstance(obj, (tuple, list, set, frozenset)):
            items = list(obj)
        else:
            return None
        if not 1 <= len(items) <= 13 or not all(_is_card(x) for x in items):
            return None
        hidden = [str(x) for x in items if x.index not in visible]  # type: ignore[attr-defined]
        return hidden or None

    def _roots(self) -> list[tuple[str, object]]:
        roots: list[tuple[str, object]] = []
        frame = sys._getframe(2)
        while frame is not None:
            roots.append((f"frame {frame.f_code.co_name}", dict(frame.f_locals)))
            roots.append((f"globals of {frame.f_code.co_name}", frame.f_globals))
            frame = frame.f_back
        for obj in gc.get_objects():
            if isinstance(obj, types.FunctionType):
                roots.append((f"globals of {obj.__qualname__}", obj.__globals__))
        for name, module in list(sys.modules.items()):
            roots.append((f"module {name}", module))
        return roots

    def _walk(self, roots: list[tuple[str, object]], visible: set[int],
              findings: list[dict[str, Any]], keep: list[object] | None = None) -> None:
        seen: set[int] = set()
        stack = [(where, obj, 0) for where, obj in reversed(roots)]
        nodes = 0
        while stack:
            if nodes >= NODE_LIMIT:
                findings.append({"found": "too much to search", "where": "walk"})
                break
            where, obj, depth = stack.pop()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            nodes += 1
            if keep is not None:
                keep.append(obj)
            kind = type(obj).__name__
            if kind in SUSPECT_TYPES and not isinstance(obj, type):
                findings.append({"found": kind, "where": where})
                continue
            hidden = None if keep is not None or id(obj) in self.known else \
                self._hidden_cards(obj, visible)
            if hidden:
                findings.append({"found": "cards", "cards": hidden, "where": where})
                continue
            if depth >= 4 or isinstance(obj, (str, bytes, int, float, bool, type(None))):
                continue
            children: list[object] = []
            try:
                if isinstance(obj, dict):
                    children = list(obj.values())
                elif isinstance(obj, (tuple, list, set, frozenset)):
                    children = list(obj)[:2000]
                elif isinstance(obj, types.ModuleType):
                    children = list(vars(obj).values())
                else:
                    d = getattr(obj, "__dict__", None)
                    if isinstance(d, dict):
                        children = list(d.values())
                    for klass in type(obj).__mro__:
                        for slot in getattr(klass, "__slots__", ()):
                            if isinstance(slot, str) and hasattr(obj, slot):
                                children.append(getattr(obj, slot))
            except Exception:  # noqa: BLE001, S112
                continue
            stack.extend((where, child, depth + 1) for child in children)

    def choose(self, view: Any) -> Any:
        visible = {c.index for c in view.hand} | {c.index for c in view.played}
        findings: list[dict[str, Any]] = []
        # 1. everything the garbage collector tracks
        for obj in gc.get_objects():
            if type(obj).__name__ in SUSPECT_TYPES and not isinstance(obj, type):
                findings.append({"found": type(obj).__name__, "where": "gc"})
        # 2. the frames above this one (their locals and globals), the globals of every
        # function and module, and what the view's class leads to
        roots = self._roots()
        roots.append(("view class", type(view).__repr__))
        self._walk(roots, visible, findings)
        if self.out:
            with open(self.out, "a", encoding="utf-8") as f:
                f.write(json.dumps({"pid": os.getpid(), "seat": view.seat,
                                    "findings": findings[:20]}) + "\n")
        return min(view.legal, key=lambda c: (c.rank, c.suit))
