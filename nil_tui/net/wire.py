"""The shared table's protocol: JSON text messages over a WebSocket (docs/PROTOCOL.md).

The game itself travels as the session's values (:mod:`nil_tui.session.messages`): a seat is
sent the news of what happened (``Played``, ``TrickTaken``...) and its ``TableState``, each as
one message written by the session's ``to_json``, and sends its actions (``PlayCard``,
``GoOn``) wrapped with the number of the message and of the position they answer. What only a
table over a network needs (the hello with the invite, the seats and who is present,
refusals, the record at the end) is written here, in lower-case types. What a client may send
is read here with every field checked (:func:`read_hello`, :func:`read_request`), and a
hello checked against the table's invite and version (:func:`check_hello`), so the table only
ever sees well-formed calls. What the table tells a seat (:mod:`nil_tui.session.table.member`'s
values) is written here too (:class:`FrameWriter`). Card codes are those of docs/RECORDS.md.
"""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple, TypeGuard

from .. import __version__
from ..engine import DECK, Card, Game, Play, Trick
from ..session import messages as session
from ..session.table import MAX_NAME, Parting, TableRefusal, Update, Welcome
from ..session.table import member as told
from ..session.table.seat_keys import same_secret
from ..session.table.values import GameSoFar, game_so_far

PROTOCOL = 1
"""The protocol version; a table refuses a client of another version, naming both."""

MAX_MESSAGE = 4096
"""The largest message a client may send, in bytes (the largest real one is under 400)."""

INVITE_HEADER = "Nil-Invite"
"""A client may show the invite's secret in its WebSocket handshake under this header: the
connection is then let in even while silent ones fill the places of those not yet seated."""

VERSION = re.compile(r"[0-9]+\.[0-9]+(\.[0-9A-Za-z.+-]*)?")
"""What an ``app`` of a hello must look like: a nil-tui version."""

CLIENT_TYPES = frozenset({"hello", "act", "start", "ping"})

JSON = dict[str, Any]


class Refusal(TableRefusal):
    """A message the table will not act on: ``code`` for programs, ``reason`` for people.
    ``fatal`` ones close the connection (after the hello); others leave it open. ``msg_id``:
    the message refused, when it could be read."""

    def __init__(self, code: str, reason: str, *, fatal: bool = False,
                 msg_id: int | None = None) -> None:
        super().__init__(code, reason, fatal=fatal)
        self.msg_id = msg_id

    @classmethod
    def answering(cls, refusal: TableRefusal, msg_id: int | None) -> Refusal:
        """The table's refusal as the wire's, answering message ``msg_id`` (a refusal of
        the wire's own is kept as it is)."""
        if isinstance(refusal, Refusal):
            return refusal
        return cls(refusal.code, refusal.reason, fatal=refusal.fatal, msg_id=msg_id)

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


def _id_in(raw: str | bytes) -> int | None:
    """The ``id`` of a message refused as a whole, when it is an object with one."""
    if len(raw) > MAX_MESSAGE:
        return None
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    msg_id = value.get("id") if isinstance(value, dict) else None
    return msg_id if _is_int(msg_id) and 0 <= msg_id < 2**53 else None


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


def check_hello(hello: Hello, secret: str) -> None:
    """Refusal (fatal) for a hello with another table's invite (``secret`` is this table's)
    or another version."""
    if not same_secret(hello.invite, secret):
        raise Refusal("not_invited", "this invite does not open this table", fatal=True)
    theirs = short_version(hello.app) if VERSION.fullmatch(hello.app) else None
    if hello.protocol != PROTOCOL or theirs != short_version(__version__):
        raise Refusal("wrong_version", f"this table runs nil-tui {short_version(__version__)} "
                      f"(protocol {PROTOCOL}); you have "
                      f"{theirs or 'an unknown version'} (protocol {hello.protocol})",
                      fatal=True)


def clean_name(name: str) -> str:
    """A name as others see it: printable characters only, trimmed, at most MAX_NAME."""
    printable = "".join(ch for ch in name if ch.isprintable() and ch not in "[]\\")
    return " ".join(printable.split())[:MAX_NAME]


def read_request(raw: str | bytes) -> Request:
    """A message after the hello; Refusal when it is malformed (naming the message's ``id``
    whenever one can be read)."""
    try:
        msg = decode(raw)
    except Refusal as exc:
        raise Refusal(exc.code, exc.reason, msg_id=_id_in(raw)) from None
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
    common = _common_action(action)
    if common is not None:
        return Request("act", msg_id, common, turn)
    try:
        value = session.from_json(json.dumps(action))
    except session.ProtocolError as exc:
        raise Refusal("malformed", f"action: {exc}", msg_id=msg_id) from None
    if not isinstance(value, (session.PlayCard, session.Undo, session.AskHint,
                              session.SetMeter, session.GoOn, session.Quit)):
        raise Refusal("malformed", "action: not an action", msg_id=msg_id)
    return Request("act", msg_id, value, turn)


_CARDS_BY_CODE: dict[str, Card] = {str(card): card for card in DECK}


def _common_action(action: dict[str, Any]) -> session.Action | None:
    """A card played or a go-on written exactly as the session writes them, read at once
    (every card of a game comes so); None for anything else, which the session's reader
    then reads field by field (and refuses, naming what is wrong). Both accept the same."""
    if type(action.get("protocol")) is not int or action["protocol"] != \
            session.PROTOCOL_VERSION:
        return None
    kind = action.get("type")
    if kind == "PlayCard" and len(action) == 3:
        code = action.get("card")
        card = _CARDS_BY_CODE.get(code) if type(code) is str else None
        return session.PlayCard(card) if card is not None else None
    if kind == "GoOn" and len(action) == 2:
        return session.GoOn()
    return None


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
_QUOTED: dict[Card, str] = {card: f'"{card}"' for card in DECK}
_PLAYS: dict[Play, str] = {
    Play(seat, card, forced): json.dumps({"seat": seat, "card": str(card), "forced": forced},
                                         separators=(",", ":"))
    for seat in range(4) for card in DECK for forced in (False, True)}
"""Each play a deal can hold, as JSON: a deal's plays are written by joining them."""


def _cards_json(cards: tuple[Card, ...]) -> str:
    return "[" + ",".join([_QUOTED[c] for c in cards]) + "]"


def _plays_json(plays: tuple[Play, ...]) -> str:
    written = _PLAYS.get
    parts = [written(p) for p in plays]
    if None in parts:  # not an engine play of this deck: the plain way
        return json.dumps(_plain(plays), separators=(",", ":"), ensure_ascii=True)
    return "[" + ",".join(parts) + "]"  # type: ignore[arg-type]


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


_OWN = ("seat", "hand", "legal", "pace")
"""The fields of a TableState that are each seat's own; the rest is the same for every seat
at one position (public facts)."""
_OWN_AT = tuple(session.TableState._fields.index(name) for name in _OWN)
_VARIED = ("plays", "to_move", "turn", "thinking")
"""Public fields that change with every card: written into a position's text, like a seat's
own fields, so that the text of the rest is kept from one card to the next."""
_MARKED = tuple(name for name in session.TableState._fields if name in _OWN or name in _VARIED)
_MARKED_AT = tuple(session.TableState._fields.index(name) for name in _MARKED)
_KEPT_AT = tuple(i for i in range(len(session.TableState._fields)) if i not in _MARKED_AT)
_MARKS = {name: f"\x00{name}\x00" for name in _MARKED}  # no state's text has them
_WRITTEN_MARKS = {name: json.dumps(mark) for name, mark in _MARKS.items()}
_PACES = {pace: json.dumps(pace) for pace in session.PACES}
_TEMPLATES: dict[tuple[Any, ...], list[str]] = {}
"""The text of a state around its marked fields, by the values (and their types) of the rest:
a table's text is written once a deal or so, not once a card."""
_MAX_TEMPLATES = 1024


def _field_json(name: str, value: Any) -> str:
    kind = type(value)
    if kind is int and name != "pace":
        return str(value)
    if value is None:
        return "null"
    if name == "pace":
        written = _PACES.get(value)
        if written is not None:
            return written
    if name in ("hand", "legal") and kind is tuple:
        try:
            return _cards_json(value)
        except KeyError:  # not cards of this deck: the plain way
            pass
    if name == "plays" and kind is tuple:
        return _plays_json(value)
    return json.dumps(_plain(value), separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False)


def _own_json(name: str, value: Any) -> str:
    return _field_json(name, value)


def _shared_part(state: session.TableState) -> tuple[Any, ...]:
    """The fields of a state that are not a seat's own (_OWN_AT, in order)."""
    a, b, c, d = _OWN_AT
    return state[a + 1:b] + state[b + 1:c] + state[c + 1:d] + state[d + 1:]


def _template(state: session.TableState) -> list[str]:
    """The text of ``state`` cut around its marked fields (len(_MARKED) + 1 pieces)."""
    kept = tuple(state[i] for i in _KEPT_AT)
    key = (kept, tuple(map(type, kept)))
    try:
        pieces = _TEMPLATES.get(key)
    except TypeError:  # a value that cannot be a key: written each time
        key, pieces = None, None  # type: ignore[assignment]
    if pieces is not None:
        return pieces
    data: JSON = {"protocol": session.PROTOCOL_VERSION, "type": "TableState"}
    for name, value in zip(state._fields, state):
        data[name] = _MARKS[name] if name in _MARKS else _plain(value)
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    pieces = []
    for name in _MARKED:  # in the order of the fields
        before, _, text = text.partition(_WRITTEN_MARKS[name])
        pieces.append(before)
    pieces.append(text)
    if key is not None:
        if len(_TEMPLATES) >= _MAX_TEMPLATES:
            _TEMPLATES.clear()
        _TEMPLATES[key] = pieces
    return pieces


class _Position:
    """The writer of the seats' states of one position, from the first one written (see
    :func:`states_json`)."""

    __slots__ = ("a", "b", "c", "d", "e", "first", "shared")

    def __init__(self, first: session.TableState) -> None:
        pieces = _template(first)
        # the text between a seat's own fields, the public fields that change with every
        # card written in once for all seats
        between: list[str] = []
        current = pieces[0]
        for k, (name, i) in enumerate(zip(_MARKED, _MARKED_AT)):
            if name in _OWN:
                between.append(current)
                current = pieces[k + 1]
            else:
                current += _field_json(name, first[i]) + pieces[k + 1]
        between.append(current)
        self.a, self.b, self.c, self.d, self.e = between
        self.first = first
        self.shared = _shared_part(first)

    def write(self, state: session.TableState) -> str:
        if state is not self.first and _shared_part(state) != self.shared:
            return _Position(state).write(state)  # not of this position: on its own
        a, b, c, d, e = self.a, self.b, self.c, self.d, self.e
        seat, hand, legal, pace = state.seat, state.hand, state.legal, state.pace
        try:  # the usual values, written at once
            if type(seat) is not int or type(hand) is not tuple or type(legal) is not tuple:
                raise KeyError(seat)
            return (a + str(seat) + b + _cards_json(hand) + c + _cards_json(legal) + d
                    + _PACES[pace] + e)
        except (KeyError, TypeError):  # anything else, the plain way
            return (a + _field_json("seat", seat) + b + _field_json("hand", hand) + c
                    + _field_json("legal", legal) + d + _field_json("pace", pace) + e)


def states_json(states: list[session.TableState]) -> list[str]:
    """Seats' states of one position, each written exactly as ``session.to_json`` writes it
    (a test compares them over whole games), but several times faster: what the states share
    (the public facts) is written once (and kept from card to card while only the plays, the
    seat to move, the position's number and the bot thinking change), and each seat's own
    fields (its seat, hand, legal cards and pace) are written into it for that seat from its
    own state. A state that differs from the first in anything else is written on its own."""
    if not states:
        return []
    position = _Position(states[0])
    return [position.write(state) for state in states]


def state_json(state: session.TableState) -> str:
    """A seat's state written exactly as ``session.to_json`` writes it (see
    :func:`states_json`)."""
    return states_json([state])[0]


# --- what the table tells a seat (nil_tui.session.table.member's values) ------------------------------
_NOTICES: dict[type[Any], str] = {
    told.Joined: "joined", told.Back: "back", told.Away: "away", told.Left: "left",
    told.OwnerMoved: "owner", told.Started: "started", told.StandIn: "stand_in"}
"""The ``kind`` of each notice of the seats message."""

PARTINGS: dict[Parting, tuple[int, str]] = {
    Parting.ELSEWHERE: (4000, "you joined this table again from elsewhere"),
    Parting.LEFT: (1000, "you left the table: the same join brings you back"),
}
"""The WebSocket close code and reason of each way the table lets a member go."""


def notice_json(notice: told.Notice) -> JSON:
    return {"kind": _NOTICES[type(notice)], **notice._asdict()}


def seats_json(seats: told.Seats) -> JSON:
    """Who sits where: ``lobby`` before the game, ``seats`` once it has started."""
    return {"type": "seats" if seats.started else "lobby",
            "seats": [seat._asdict() for seat in seats.seats],
            "events": [notice_json(n) for n in seats.events],
            "deals": seats.deals, "bots": list(seats.bots), "scoring": seats.scoring,
            "owner": seats.owner, "away_timeout": seats.away_timeout,
            "turn_timeout": seats.turn_timeout}


def welcome_json(welcome: Welcome) -> JSON:
    return {"type": "welcome", "protocol": PROTOCOL, "app": __version__,
            "seat": welcome.seat, "key": welcome.key, "owner": welcome.owner,
            "name": welcome.name}


def deals_json(so_far: GameSoFar) -> JSON:
    """The game so far, for a seat that comes back: each finished deal's dealer and cards
    in play order, and the seat's own hand as dealt; and the cards played for someone."""
    deals = [{"deal_number": deal.number, "dealer": deal.dealer,
              "plays": [{"seat": p.seat, "card": p.card.code, "forced": p.forced}
                        for p in deal.plays],
              "hand": [c.code for c in deal.hand]} for deal in so_far.deals]
    stood_in = [{"deal": p.deal, "seat": p.seat, "card": str(p.card), "reason": p.reason}
                for p in so_far.played_for]
    return {"type": "deals", "deals": deals, "incidents": stood_in}


def finished_deals(game: Game, seat: int) -> JSON:
    """The ``deals`` message a seat that comes back to ``game`` is sent."""
    return deals_json(game_so_far(game, seat))


def pong(msg_id: int, turn: int) -> JSON:
    return {"type": "pong", "id": msg_id, "turn": turn}


class FrameWriter:
    """Writes what a table tells each seat present after one change as that seat's one
    frame: who sits where (when that changed) and the news, one line each, then the seat's
    state, then the record once the game is over. What an :class:`Update` holds for every
    seat is written once, for the first seat told of it, and the states of the seats of one
    position are written from the first (see :func:`states_json`): the same text goes to
    every seat at the cost of one."""

    def __init__(self) -> None:
        self._update: Update | None = None
        self._before = ""  # the update's lines, each with its newline
        self._after = ""  # the record's line, after a newline
        self._alone = ""  # the update's lines without a state
        self._position: _Position | None = None

    def frame(self, update: Update, state: session.TableState | None) -> str:
        if update is not self._update:
            self._written(update)
        if state is None:
            return self._alone
        position = self._position
        if position is None:
            position = self._position = _Position(state)
        return self._before + position.write(state) + self._after

    def _written(self, update: Update) -> None:
        """What ``update`` tells every seat, written once."""
        lines = [encode(seats_json(update.seats))] if update.seats is not None else []
        lines += [session.to_json(n) for n in update.news]
        record = [encode({"type": "record", "record": update.record})] \
            if update.record is not None else []
        self._update, self._position = update, None
        self._before = "\n".join(lines) + "\n" if lines else ""
        self._after = "\n" + record[0] if record else ""
        self._alone = "\n".join(lines + record)


__all__ = ["INVITE_HEADER", "MAX_MESSAGE", "MAX_NAME", "PARTINGS", "PROTOCOL", "FrameWriter",
           "Hello", "Refusal", "Request", "act", "check_hello", "clean_name", "deals_json",
           "decode", "encode", "finished_deals", "hello", "is_session", "notice_json", "pong",
           "read_hello", "read_request", "seats_json", "short_version", "state_json",
           "states_json", "welcome_json"]
