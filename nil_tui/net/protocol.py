"""The shared table's protocol: JSON text messages over a WebSocket (docs/PROTOCOL.md).

The game itself travels as the session's values (:mod:`nil_tui.session.protocol`): a seat is
sent the news of what happened (``Played``, ``TrickTaken``...) and its ``TableState``, each as
one message written by the session's ``to_json``, and sends its actions (``PlayCard``,
``GoOn``) wrapped with the number of the message and of the position they answer. What only a
table over a network needs (the hello with the invite, the seats and who is present,
refusals, the record at the end) is written here, in lower-case types. What a client may send
is read here with every field checked (:func:`read_hello`, :func:`read_request`), so the
table only ever sees well-formed requests. Card codes are those of docs/RECORDS.md.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple, TypeGuard

from .. import __version__
from ..engine import DECK, Card, Play, Trick
from ..session import protocol as session

PROTOCOL = 1
"""The protocol version; a table refuses a client of another version, naming both."""

MAX_MESSAGE = 4096
"""The largest message a client may send, in bytes (the largest real one is under 400)."""

MAX_NAME = 24
"""The longest player name, in characters."""

CLIENT_TYPES = frozenset({"hello", "act", "start", "ping"})

JSON = dict[str, Any]


class Refusal(Exception):
    """A message the table will not act on: ``code`` for programs, ``reason`` for people.
    ``fatal`` ones close the connection (after the hello); others leave it open."""

    def __init__(self, code: str, reason: str, *, fatal: bool = False,
                 msg_id: int | None = None) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.fatal = fatal
        self.msg_id = msg_id

    def message(self) -> JSON:
        out: JSON = {"type": "error" if self.fatal else "refused", "code": self.code,
                     "reason": self.reason}
        if self.msg_id is not None:
            out["id"] = self.msg_id
        return out


class Hello(NamedTuple):
    protocol: int
    app: str
    invite: str
    key: str | None
    name: str | None
    seat: int | None


class Request(NamedTuple):
    """A message after the hello: ``act`` (a session action, with the ``turn`` it answers),
    ``start`` or ``ping``; ``id`` grows with every message of a connection."""

    type: str
    id: int
    action: session.Action | None = None
    turn: int | None = None


def short_version(version: str) -> str:
    """``0.1.0`` -> ``0.1``: the part of a version players are told about."""
    return ".".join(version.split(".")[:2])


def encode(message: JSON) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def decode(raw: str | bytes) -> JSON:
    """One client message as an object; Refusal when it is not one."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Refusal("malformed", "not UTF-8 text") from None
    if len(raw.encode("utf-8")) > MAX_MESSAGE:
        raise Refusal("too_large", f"message over {MAX_MESSAGE} bytes")
    try:
        value = json.loads(raw)
    except (json.JSONDecodeError, RecursionError, ValueError):
        raise Refusal("malformed", "not a JSON message") from None
    if not isinstance(value, dict):
        raise Refusal("malformed", "a message must be a JSON object")
    kind = value.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        shown = kind if isinstance(kind, str) and len(kind) <= 20 else "?"
        raise Refusal("unknown_type", f"unknown message type {shown!r}")
    return value


def read_hello(raw: str | bytes) -> Hello:
    """The first message of a connection; Refusal (fatal) when it is not a valid hello."""
    try:
        msg = decode(raw)
    except Refusal as exc:
        raise Refusal(exc.code, exc.reason, fatal=True) from None
    if msg["type"] != "hello":
        raise Refusal("hello_expected", "the first message must be a hello", fatal=True)
    invite = msg.get("invite")
    if not isinstance(invite, str) or len(invite) > 100:
        raise Refusal("not_invited", "this table needs its invite", fatal=True)
    protocol, app = msg.get("protocol"), msg.get("app")
    if not _is_int(protocol) or not isinstance(app, str) or len(app) > 40:
        raise Refusal("malformed", "a hello needs protocol (a number) and app (text)",
                      fatal=True)
    key = msg.get("key")
    if key is not None and (not isinstance(key, str) or len(key) > 100):
        raise Refusal("malformed", "key must be text", fatal=True)
    name = msg.get("name")
    if name is not None:
        if not isinstance(name, str):
            raise Refusal("malformed", "name must be text", fatal=True)
        name = clean_name(name)
    seat = msg.get("seat")
    if seat is not None and (not _is_int(seat) or not 0 <= seat <= 3):
        raise Refusal("malformed", "seat must be 0 to 3", fatal=True)
    return Hello(protocol, app, invite, key, name or None, seat)


def clean_name(name: str) -> str:
    """A name as others see it: printable characters only, trimmed, at most MAX_NAME."""
    printable = "".join(ch for ch in name if ch.isprintable() and ch not in "[]\\")
    return " ".join(printable.split())[:MAX_NAME]


def read_request(raw: str | bytes) -> Request:
    """A message after the hello; Refusal when it is malformed."""
    msg = decode(raw)
    kind = msg["type"]
    msg_id = msg.get("id")
    if not _is_int(msg_id) or not 0 <= msg_id < 2**53:
        raise Refusal("malformed", "every message after the hello needs a whole number id")
    if kind == "hello":
        raise Refusal("already_seated", "this connection has already said hello",
                      msg_id=msg_id)
    if kind != "act":
        return Request(kind, msg_id)
    action, turn = msg.get("action"), msg.get("turn")
    if not _is_int(turn):
        raise Refusal("malformed", "act needs turn, the number of the position it answers",
                      msg_id=msg_id)
    if not isinstance(action, dict):
        raise Refusal("malformed", "act needs action, a session action", msg_id=msg_id)
    try:
        value = session.from_json(json.dumps(action))
    except session.ProtocolError as exc:
        raise Refusal("malformed", f"action: {exc}", msg_id=msg_id) from None
    if not isinstance(value, (session.PlayCard, session.Undo, session.AskHint,
                              session.SetMeter, session.GoOn, session.Quit)):
        raise Refusal("malformed", "action: not an action", msg_id=msg_id)
    return Request("act", msg_id, value, turn)


# --- what a client sends -----------------------------------------------------------------------
def hello(invite: str, *, key: str | None = None, name: str | None = None,
          seat: int | None = None, protocol: int = PROTOCOL,
          app: str = __version__) -> JSON:
    return {"type": "hello", "protocol": protocol, "app": app, "invite": invite, "key": key,
            "name": name, "seat": seat}


def act(action: session.Action, turn: int) -> JSON:
    """An action for the position ``turn`` (the client adds the ``id``)."""
    return {"type": "act", "turn": turn, "action": json.loads(session.to_json(action))}


# --- what the table sends ----------------------------------------------------------------------
def is_session(message: JSON) -> bool:
    """Whether a message from the table is one of the session's values."""
    return "protocol" in message and message.get("type") in session.MESSAGES


_CODES: dict[Card, str] = {card: str(card) for card in DECK}


def _plain(value: Any) -> Any:
    """A field of a session value as JSON data: what the session's own writer makes of it,
    by the type of the value (a card, a play, a trick, a tuple)."""
    kind = type(value)
    if kind is Card:
        return _CODES[value]
    if kind is tuple:
        return [_plain(item) for item in value]
    if kind is Play:
        return {"seat": value.seat, "card": _CODES[value.card], "forced": value.forced}
    if kind is Trick:
        return {"leader": value.leader, "cards": [_CODES[c] for c in value.cards],
                "winner": value.winner}
    return value


_PLAYS_MARK = "\x00plays\x00"  # no text of a state holds it (names are printable)
_PLAYS_WRITTEN = json.dumps(_PLAYS_MARK)
_last_plays: list[tuple[tuple[Play, ...], str]] = [((), "[]")]


def _plays_json(plays: tuple[Play, ...]) -> str:
    """The deal's plays as JSON; the four seats' states after a card share them, so the last
    one written is kept."""
    last, text = _last_plays[0]
    if plays != last:
        text = json.dumps(_plain(plays), separators=(",", ":"), ensure_ascii=True)
        _last_plays[0] = (plays, text)
    return text


def state_json(state: session.TableState) -> str:
    """A seat's state written exactly as ``session.to_json`` writes it (a test compares
    them over whole games), but several times faster: the table writes four a card."""
    data: JSON = {"protocol": session.PROTOCOL_VERSION, "type": "TableState"}
    for name, value in zip(state._fields, state):
        data[name] = _PLAYS_MARK if name == "plays" else _plain(value)
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return text.replace(_PLAYS_WRITTEN, _plays_json(state.plays), 1)


__all__ = ["MAX_MESSAGE", "PROTOCOL", "Hello", "Refusal", "Request", "act", "clean_name",
           "decode", "encode", "hello", "is_session", "read_hello", "read_request",
           "short_version", "state_json"]
