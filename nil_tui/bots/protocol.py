"""The messages between the game and a plugin bot's process: one JSON object per line.

A plugin never gets the game's objects, only this copy of its :class:`PlayerView`, rebuilt
in its own process from plain numbers (cards by their 0..51 index). Both sides import this
module, which needs only the engine and the standard library.

The game speaks first and waits for each answer before it says anything else::

    game -> host    {"t": "hello", "target": "module:Name", "path": [...]}
    host -> game    {"t": "loaded"} | {"t": "missing", "why": "..."} | {"t": "broken", ...}
    game -> host    {"t": "new", "seed": 123}           (one game: a fresh bot process)
    bot  -> game    {"t": "ready", "name": "Ducker", "reuse": true} | {"t": "broken", ...}
    game -> bot     {"t": "decide", "n": 1, "v": [...]}  (the view, see encode_view)
    bot  -> game    {"t": "card", "n": 1, "i": 37} | {"t": "bad" | "error", "n": 1, "why": ...}
    game -> bot     {"t": "end"}
    host -> game    {"t": "idle"}                        (ready for the next "new")
"""

from __future__ import annotations

import json
from typing import Any

from ..engine import DECK, Card, PlayerView, Trick

MAX_LINE = 1 << 16  # longest message accepted; a longer line is a broken bot
WHY_LIMIT = 160  # characters kept of a bot's error text or of what it returned
NAME_LIMIT = 40  # characters kept of a bot's name


def clip(text: str, limit: int) -> str:
    """One line of at most ``limit`` characters: control characters become spaces and a text
    cut short ends with an ellipsis."""
    text = str.__str__(text) if isinstance(text, str) else ""
    head = text[: limit * 4]
    out = "".join(ch if ch.isprintable() else " " for ch in head)
    out = " ".join(out.split())
    if len(out) > limit or len(text) > len(head):
        out = out[: limit - 1].rstrip() + "…"
    return out


def describe(obj: object, limit: int = WHY_LIMIT) -> str:
    """What a bot returned or raised, in at most ``limit`` characters, whatever the object
    does: its ``repr`` when that works and is text, else its type's name."""
    try:
        text = repr(obj)
        if isinstance(text, str):
            return clip(text, limit)
    except BaseException:  # noqa: BLE001, S110 - a repr that fails is described by its type
        pass
    return f"a {type_name(obj)} object"


def describe_plain(obj: object, limit: int = WHY_LIMIT) -> str:
    """Like :func:`describe`, without running any code of the object: text, numbers, None and
    cards are shown, anything else by its type's name. For objects a bot in this process
    returned."""
    kind = type(obj)
    if kind is Card:
        return str(obj)
    if kind in (str, int, float, bool, type(None)):
        try:
            return clip(repr(obj), limit)
        except ValueError:  # an int too long to print
            pass
    return f"a {type_name(obj)} object"


def describe_error(exc: BaseException, limit: int = WHY_LIMIT) -> str:
    """``"RuntimeError: boom"`` for an exception, bounded, even if its ``str`` fails."""
    try:
        text = str(exc)
        if not isinstance(text, str):
            text = ""
    except BaseException:  # noqa: BLE001 - an exception whose str fails still has a type
        text = ""
    kind = type_name(exc)
    return clip(f"{kind}: {text}" if text else kind, limit)


def type_name(obj: object) -> str:
    try:
        name = type.__dict__["__name__"].__get__(type(obj))
        return clip(name, 40) if isinstance(name, str) else "?"
    except BaseException:  # noqa: BLE001 - an exotic type still gets a word
        return "?"


def safe_name(raw: object, default: str) -> str:
    """A bot's name to show: its ``name`` when that is text, short and on one line, else
    ``default``."""
    if isinstance(raw, str):
        name = clip(raw, NAME_LIMIT)
        if name:
            return name
    return clip(default, NAME_LIMIT) or "Bot"


# --- the view, by value --------------------------------------------------------------------
def _indexes(cards: tuple[Card, ...]) -> list[int]:
    return [c.index for c in cards]


def encode_view(view: PlayerView) -> list[Any]:
    """The view as plain numbers and lists (JSON-ready)."""
    return [view.seat, _indexes(view.hand), _indexes(view.legal), _indexes(view.trick),
            view.leader, [[t.leader, _indexes(t.cards), t.winner] for t in view.tricks],
            list(view.taken), list(view.hand_sizes), view.dealer, view.deal_number,
            view.deals_planned, list(view.totals), view.to_move]


def _cards(data: Any) -> tuple[Card, ...]:
    return tuple(DECK[i] for i in data)


def _four(data: Any) -> tuple[int, int, int, int]:
    a, b, c, d = (int(x) for x in data)
    return (a, b, c, d)


def decode_view(data: list[Any]) -> PlayerView:
    """The :class:`PlayerView` that ``encode_view`` wrote (ValueError for anything else)."""
    try:
        (seat, hand, legal, trick, leader, tricks, taken, sizes, dealer, number, planned,
         totals, to_move) = data
        return PlayerView(
            seat=int(seat), hand=_cards(hand), legal=_cards(legal), trick=_cards(trick),
            leader=int(leader),
            tricks=tuple(Trick(int(t[0]), _cards(t[1]), int(t[2])) for t in tricks),
            taken=_four(taken), hand_sizes=_four(sizes), dealer=int(dealer),
            deal_number=int(number), deals_planned=int(planned), totals=_four(totals),
            to_move=None if to_move is None else int(to_move))
    except (TypeError, ValueError, IndexError) as exc:
        raise ValueError(f"not a view: {exc}") from None


# --- lines -----------------------------------------------------------------------------------
def dump(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=True).encode() + b"\n"


def load(line: bytes) -> dict[str, Any] | None:
    """The message on one line, or None when it is not one (garbage, a stray print)."""
    if not line.endswith(b"\n") or len(line) > MAX_LINE:
        return None
    try:
        message = json.loads(line)
    except ValueError:
        return None
    if isinstance(message, dict) and isinstance(message.get("t"), str):
        return message
    return None
