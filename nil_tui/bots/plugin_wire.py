"""The messages between the game and a plugin bot's process.

A plugin never gets the game's objects, only this copy of its :class:`PlayerView`, rebuilt
in its own process from plain numbers (cards by their 0..51 index). Both sides import this
module, which needs only the engine and the standard library.

Every message is a frame: its length (4 bytes, little-endian), one byte that says what it is,
then its body. The rare messages carry a JSON object; a decision and its answer, the only
frequent ones, are a few packed integers (see :func:`encode_decide`), so that a decision costs
little more than the two writes and two reads that carry it.

The game speaks first, and waits for each answer before it says anything else (so a
process never reads a message meant for the next one)::

    game -> host    h {"target": "module:Name", "path": [...]}
    host -> game    l {} | m {"why": "..."} (missing) | b {"why": "..."} (broken)
    game -> bot     n {"seed": 123}               (one game, in a fresh process)
    bot  -> game    r {"name": "Ducker"} | b {"why": ...}
    game -> bot     d n, the view                 (see encode_decide)
    bot  -> game    c n, card index | x n, why (not a card) | f n, why (it raised)
    game -> bot     e {}                          (the game is over: the process ends)
    bot  -> game    i {}                          (the next game's process is ready)

The next game's process is forked while a game runs and waits until its predecessor has
ended; its "i" is also how the game learns that a process ended in the middle of a game.
"""

from __future__ import annotations

import json
import struct
from typing import Any

from ..engine import DECK, Card, PlayerView, Trick
from ..engine.scoring import CLASSIC, POOL, DealRule

MAX_MESSAGE = 1 << 16  # longest message accepted; a longer one is a broken bot
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


# --- frames ---------------------------------------------------------------------------------
HELLO, LOADED, MISSING, BROKEN = b"h", b"l", b"m", b"b"
NEW, READY, DECIDE, END, IDLE = b"n", b"r", b"d", b"e", b"i"
CARD, BAD, ERROR = b"c", b"x", b"f"
_LENGTH = struct.Struct("<I")
_ANSWER = struct.Struct("<IB")  # decision number, card index
_NUMBER = struct.Struct("<I")


CARD_SIZE = 4 + 1 + _ANSWER.size  # an answer that is a card: its whole frame
CARD_HEAD = _LENGTH.pack(1 + _ANSWER.size) + CARD


def frame(kind: bytes, body: bytes = b"") -> bytes:
    return _LENGTH.pack(len(body) + 1) + kind + body


def dump(kind: bytes, message: dict[str, Any] | None = None) -> bytes:
    """A rare message: its kind and a JSON object."""
    text = json.dumps(message or {}, separators=(",", ":"), ensure_ascii=True)
    return frame(kind, text.encode())


def load(body: bytes) -> dict[str, Any]:
    """The JSON object of a rare message (empty when it is not one)."""
    try:
        message = json.loads(body[1:])
    except ValueError:
        return {}
    return message if isinstance(message, dict) else {}


def split(buffer: bytes) -> tuple[bytes | None, bytes]:
    """(the first whole message, the rest) of what was read; (None, buffer) while the message
    is incomplete. ValueError when the length is not that of a message."""
    if len(buffer) < 4:
        return None, buffer
    (size,) = _LENGTH.unpack_from(buffer)
    if not 0 < size <= MAX_MESSAGE:
        raise ValueError("not a message")
    end = 4 + size
    if len(buffer) < end:
        return None, buffer
    return buffer[4:end], buffer[end:]


def answer_card(n: int, index: int) -> bytes:
    return frame(CARD, _ANSWER.pack(n & 0xFFFFFFFF, index))


def answer_why(kind: bytes, n: int, why: str) -> bytes:
    return frame(kind, _NUMBER.pack(n & 0xFFFFFFFF) + why.encode("utf-8", "replace"))


def read_answer(body: bytes) -> tuple[bytes, int, int | str]:
    """(kind, decision number, card index or why) of an answer; ValueError if it is none."""
    kind = body[:1]
    if kind == CARD and len(body) == 1 + _ANSWER.size:
        n, index = _ANSWER.unpack_from(body, 1)
        return kind, n, index
    if kind in (BAD, ERROR) and len(body) >= 1 + _NUMBER.size:
        (n,) = _NUMBER.unpack_from(body, 1)
        return kind, n, body[1 + _NUMBER.size:].decode("utf-8", "replace")
    raise ValueError("not an answer")


# --- the view, by value --------------------------------------------------------------------
# A decision: its number; seat, leader, dealer, to_move (255: None); taken and hand sizes per
# seat; deal number and deals planned; the totals; how many cards the hand, the legal cards
# and the trick in play have and how many tricks are finished; the scoring (0 classic, 1 pool),
# whether it is the game's first deal, the two seats of a tie-break (255: none), the pool
# before the deal and the agreed deals after it. Then one byte per card: the hand, the legal
# cards, the trick, and per finished trick its leader, four cards, winner.
_VIEW = struct.Struct("<I12B2I4q4B4BIH")
_NONE = 255
_SCORING_CODES = (CLASSIC, POOL)


class Encoder:
    """The game's side: a view as a decision message. The finished tricks are encoded once
    per deal (kept while the views it is given extend the same tricks)."""

    def __init__(self) -> None:
        self._tricks: tuple[Trick, ...] = ()
        self._packed = b""

    def decide(self, n: int, view: PlayerView) -> bytes:
        tricks = view.tricks
        known = self._tricks
        if len(tricks) < len(known) or (
                known and not all(map(tuple.__eq__, known, tricks))):
            known, self._packed = (), b""
        if len(tricks) > len(known):
            parts = [self._packed]
            for trick in tricks[len(known):]:
                cards = trick.cards
                if len(cards) != 4:
                    raise ValueError("a finished trick has four cards")
                parts.append(bytes((trick.leader, *cards, trick.winner)))
            self._packed = b"".join(parts)
        self._tricks = tricks
        t, h, tt = view.taken, view.hand_sizes, view.totals
        hand, legal, cards = view.hand, view.legal, view.trick
        rule = view.rule
        pair = rule.tiebreak or (_NONE, _NONE)
        body = _VIEW.pack(
            n & 0xFFFFFFFF, view.seat, view.leader, view.dealer,
            _NONE if view.to_move is None else view.to_move, t[0], t[1], t[2], t[3],
            h[0], h[1], h[2], h[3], view.deal_number, view.deals_planned,
            tt[0], tt[1], tt[2], tt[3], len(hand), len(legal), len(cards), len(tricks),
            _SCORING_CODES.index(rule.scoring), rule.first, pair[0], pair[1], rule.pool,
            view.deals_left)
        return frame(DECIDE, body + bytes(hand) + bytes(legal) + bytes(cards) + self._packed)


_card = DECK.__getitem__


class Decoder:
    """The plugin's side: the view of a decision message. Its finished tricks are rebuilt
    once per deal (they cannot be changed: tuples of cards)."""

    def __init__(self) -> None:
        self._packed = b""
        self._tricks: tuple[Trick, ...] = ()

    def decide(self, body: bytes) -> tuple[int, PlayerView]:
        """(decision number, view); ValueError for anything that is not a decision."""
        try:
            (n, seat, leader, dealer, to_move, t0, t1, t2, t3, h0, h1, h2, h3, number, planned,
             s0, s1, s2, s3, nh, nl, nt, ntr, scoring, first, tie_a, tie_b, pool,
             left) = _VIEW.unpack_from(body, 1)
            a = 1 + _VIEW.size
            b, c, d = a + nh, a + nh + nl, a + nh + nl + nt
            if body[:1] != DECIDE or len(body) != d + 6 * ntr:
                raise ValueError("not a decision")
            packed = body[d:]
            known = self._packed
            if packed[:len(known)] != known:
                known, self._tricks = b"", ()
            tricks = self._tricks
            for k in range(len(known), len(packed), 6):
                r = packed[k:k + 6]
                tricks += (Trick(r[0], tuple(map(_card, r[1:5])), r[5]),)
            self._packed, self._tricks = packed, tricks
            view = PlayerView(
                seat=seat, hand=tuple(map(_card, body[a:b])),
                legal=tuple(map(_card, body[b:c])), trick=tuple(map(_card, body[c:d])),
                leader=leader, tricks=tricks, taken=(t0, t1, t2, t3),
                hand_sizes=(h0, h1, h2, h3), dealer=dealer, deal_number=number,
                deals_planned=planned, totals=(s0, s1, s2, s3),
                to_move=None if to_move == _NONE else to_move,
                rule=DealRule(_SCORING_CODES[scoring], pool,
                              () if tie_a == _NONE else (tie_a, tie_b), bool(first)),
                deals_left=left)
        except (struct.error, IndexError, TypeError) as exc:
            raise ValueError(f"not a view: {exc}") from None
        return n, view


def encode_view(view: PlayerView) -> bytes:
    """The view as a decision message (numbered 0)."""
    return Encoder().decide(0, view)


def decode_view(message: bytes) -> PlayerView:
    """The :class:`PlayerView` of a decision message as :func:`encode_view` wrote it
    (ValueError for anything else)."""
    return Decoder().decide(message[4:])[1]
