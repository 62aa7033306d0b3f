"""The values a game session exchanges with the people (and front ends) at its table.

What a player does goes in as an *action* (:class:`PlayCard`, :class:`Undo`,
:class:`AskHint`, :class:`SetMeter`, :class:`GoOn`, :class:`Quit`); what happened comes out
as *news* (:class:`Played`, :class:`TrickTaken`, :class:`DealOver`...), and what one seat may
see now as a :class:`TableState`. Every value is immutable and compared by type and value.

They are the messages of a protocol: the same values cross a process boundary (a friend's
terminal across the network, a browser), one seat's view per client. So:

- :func:`table_state` builds a seat's state from that seat's :class:`PlayerView` and public
  facts only; the hands as dealt are in it once the deal is over, never before.
- :func:`to_json` writes a message as one JSON object ``{"protocol": 1, "type": ..., ...}``
  with the card codes of docs/RECORDS.md (``"QS"``, ``"TD"``); :func:`from_json` reads one
  back and refuses anything else (another version, an unknown type or field, a missing field,
  a value of the wrong kind, a card code not written exactly so, a seat outside 0..3, plays
  that break the order of play) with a :class:`ProtocolError` that names the field.
"""

# Annotations are evaluated here (no ``from __future__ import annotations``): each field of a
# NamedTuple written as a string is compiled into a ForwardRef, and these values are loaded
# before the table's first frame.
import json
import sys
import types
import typing
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..engine import DECK, Card, Play, Trick
from ..engine.deal import trick_winner
from ..engine.game import lowest
from ..engine.scoring import DealRule

if TYPE_CHECKING:
    from ..engine import Deal, Game

PROTOCOL_VERSION = 1
"""Bumped whenever a message changes shape; a reader refuses any other version."""

AWAY, FOR_THEM = " was away: ", " for them"  # the pieces a reader of that reason finds


def away_reason(name: str, bot: str) -> str:
    """Why a bot played a card for a person (an incident's reason, in the log and the
    record): "Bo was away: the normal bot played for them"."""
    return f"{name}{AWAY}the {bot} bot played{FOR_THEM}"


MAX_TEXT = 2000
"""The longest text a message may carry (a reason, a name), in characters."""


class ProtocolError(ValueError):
    """A message that is not one of this protocol's, with what is wrong and where."""


def _typed_eq(a: tuple[Any, ...], b: object) -> bool:
    return type(a) is type(b) and tuple.__eq__(a, b)


def _typed_ne(a: tuple[Any, ...], b: object) -> bool:
    return not _typed_eq(a, b)


def _typed_hash(a: tuple[Any, ...]) -> int:
    return hash((type(a).__name__, tuple.__hash__(a)))


# --- what a player does ---------------------------------------------------------------------
class PlayCard(NamedTuple):
    """Play this card from the seat's hand (refused with a reason when it may not be played)."""

    card: Card


class Undo(NamedTuple):
    """Take back the seat's last card of this deal and every card after it (help: refused in
    a daily challenge; the game then counts as assisted)."""



class AskHint(NamedTuple):
    """Suggest a card for the seat's turn, with the reason (help, as for :class:`Undo`)."""



class SetMeter(NamedTuple):
    """Show (``on``) or hide the chance to stay clean this deal (help, as for :class:`Undo`;
    it applies to this game only)."""

    on: bool


class GoOn(NamedTuple):
    """Go on: put away the trick on show, or start the next deal once the last one is over."""



class Quit(NamedTuple):
    """The seat leaves; the game is saved where it stands."""



Action = PlayCard | Undo | AskHint | SetMeter | GoOn | Quit


# --- what happened (news for every seat unless said otherwise) ------------------------------
class Played(NamedTuple):
    """A card was played: by whom, and whether it was that seat's only legal card."""

    seat: int
    card: Card
    forced: bool


class TrickTaken(NamedTuple):
    """A trick was completed; ``first_for_winner``: its winner was clean until now."""

    trick: Trick
    first_for_winner: bool


class DealBegun(NamedTuple):
    """A new deal was dealt (each seat's cards come in its own :class:`TableState`)."""

    deal_number: int
    dealer: int


class DealOver(NamedTuple):
    """A deal ended: tricks taken, the deal's points, whether it ended early, the totals."""

    deal_number: int
    taken: tuple[int, int, int, int]
    points: tuple[int, int, int, int]
    early: bool
    totals: tuple[int, int, int, int]
    # the deal's rule (the scoring, the pool before it, a tie-break's seats): what the deal
    # did to the pool is told from it (engine/scoring.py)
    rule: DealRule | None = None


class GameOver(NamedTuple):
    """The last deal ended: the final totals and the seats with the lowest total."""

    totals: tuple[int, int, int, int]
    losers: tuple[int, ...]


class BotFailed(NamedTuple):
    """A bot failed (raised, answered wrongly, ran too long) and this card was played for it."""

    seat: int
    card: Card
    reason: str


class SeatReplaced(NamedTuple):
    """The bot of a seat could not play and another took its place for the rest of the game."""

    seat: int
    spec: str
    substitute: str
    reason: str


class TakenBack(NamedTuple):
    """An undo took these plays back, in the order they had been played."""

    plays: tuple[Play, ...]


class Hint(NamedTuple):
    """A suggested card for turn ``turn``, with its reason (only to the seat that asked)."""

    turn: int
    card: Card
    reason: str


class Refused(NamedTuple):
    """An action did nothing, and why ("Undo is off in the daily challenge."). A card that
    may not be played names itself, and ``suit`` the suit it must follow, if that is why."""

    action: str
    reason: str
    card: Card | None = None
    suit: int | None = None


class MeterReading(NamedTuple):
    """The chance (0..1) the seat stays clean this deal, for the position of ``turn``;
    ``certain`` when it is not an estimate (every legal card takes the trick, the deal is
    over)."""

    turn: int
    chance: float
    certain: bool


class SaveState(NamedTuple):
    """Whether the game is written where it is kept; ``problem`` says why not, when not."""

    saved: bool
    problem: str | None


# --- what a seat may see ---------------------------------------------------------------------
PACES = ("your_turn", "bot_waits", "trick_on_show", "forced", "deal_over", "game_over")
"""Where play stands, for the seat: its turn; another seat's card is awaited; a finished
trick is on show; the seat's only legal card is about to be played for it; a deal or the
game is over."""


class TableState(NamedTuple):
    """Everything one seat may see of the table now: enough to draw it, nothing hidden.

    ``plays`` is the deal's public sequence of cards (seat, card, forced); the tricks, the
    trick in progress, who leads, the tricks taken and the cards left per seat follow from it
    (properties). ``hands_dealt`` is None until the deal is over."""

    seat: int
    names: tuple[str, str, str, str]
    levels: tuple[str | None, str | None, str | None, str | None]
    deal_number: int
    deals_planned: int
    dealer: int
    totals: tuple[int, int, int, int]
    hand: tuple[Card, ...]
    legal: tuple[Card, ...]
    plays: tuple[Play, ...]
    to_move: int | None
    turn: int
    pace: str
    thinking: int | None = None
    on_show: Trick | None = None
    forced: Card | None = None
    hands_dealt: tuple[tuple[Card, ...], ...] | None = None
    challenge: str | None = None
    help_allowed: bool = True
    can_undo: bool = False
    meter_on: bool = False
    assisted: bool = False
    save_problem: str | None = None
    # the game's scoring; under the pool, the points in the pool now and the two seats of a
    # tie-break deal (engine/scoring.py)
    scoring: str = "classic"
    pool: int = 0
    tiebreak: tuple[int, ...] = ()

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The deal's completed tricks, in order."""
        return _split(self.plays, self.dealer)[0]

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards of the trick in progress, in play order."""
        return _split(self.plays, self.dealer)[1]

    @property
    def leader(self) -> int:
        """The seat that leads (or led) the trick in progress."""
        return _split(self.plays, self.dealer)[2]

    @property
    def taken(self) -> tuple[int, int, int, int]:
        t = [0, 0, 0, 0]
        for done in self.tricks:
            t[done.winner] += 1
        return (t[0], t[1], t[2], t[3])

    @property
    def hand_sizes(self) -> tuple[int, int, int, int]:
        n = [13, 13, 13, 13]
        for play in self.plays:
            n[play.seat] -= 1
        return (n[0], n[1], n[2], n[3])

    @property
    def losers(self) -> tuple[int, ...]:
        """The seats with the lowest total so far (none when all four are level)."""
        return lowest(self.totals)


def _split(plays: Sequence[Play], dealer: int) -> tuple[tuple[Trick, ...], tuple[Card, ...],
                                                         int]:
    """(completed tricks, cards of the trick in progress, its leader) from a deal's plays."""
    tricks: list[Trick] = []
    leader = (dealer + 1) & 3
    cards: list[Card] = []
    for play in plays:
        cards.append(play.card)
        if len(cards) == 4:
            winner = trick_winner(leader, cards)
            tricks.append(Trick(leader, tuple(cards), winner))
            leader, cards = winner, []
    return tuple(tricks), tuple(cards), leader


def table_state(game: "Game", seat: int, *, turn: int, pace: str, names: Sequence[str],
                levels: Sequence[str | None], thinking: int | None = None,
                on_show: Trick | None = None, forced: Card | None = None,
                help_allowed: bool = True, can_undo: bool = False, meter_on: bool = False,
                save_problem: str | None = None) -> TableState:
    """What ``seat`` may see of ``game`` now: its own view (its hand, the legal cards on its
    turn) and the public facts. Another seat's cards appear only once played, or once the
    deal is over (``hands_dealt``)."""
    deal: Deal = game.deal
    view = deal.view(seat)
    over = deal.is_over
    date = game.challenge.date if game.challenge is not None else None
    return TableState(
        seat=seat, names=_four(names), levels=_four(levels), deal_number=game.deal_number,
        deals_planned=game.deals_planned, dealer=view.dealer, totals=game.totals,
        hand=view.hand, legal=view.legal, plays=deal.plays, to_move=view.to_move, turn=turn,
        pace=pace, thinking=thinking, on_show=on_show, forced=forced,
        hands_dealt=tuple(deal.dealt_hand(s) for s in range(4)) if over else None,
        challenge=str(date) if date else None, help_allowed=help_allowed, can_undo=can_undo,
        meter_on=meter_on, assisted=game.assisted, save_problem=save_problem,
        scoring=game.scoring, pool=game.pool, tiebreak=deal.rule.tiebreak)


def _four(values: Sequence[Any]) -> Any:
    if len(values) != 4:
        raise ValueError(f"four seats, not {len(values)}")
    return (values[0], values[1], values[2], values[3])


News = (Played | TrickTaken | DealBegun | DealOver | GameOver | BotFailed | SeatReplaced
        | TakenBack | Hint | Refused | MeterReading | SaveState)
Message = Action | News | TableState

MESSAGES: dict[str, type[Any]] = {
    cls.__name__: cls for cls in (
        PlayCard, Undo, AskHint, SetMeter, GoOn, Quit, Played, TrickTaken, DealBegun,
        DealOver, GameOver, BotFailed, SeatReplaced, TakenBack, Hint, Refused, MeterReading,
        SaveState, TableState)}
"""Every message by its ``type`` in JSON."""

for _cls in MESSAGES.values():
    # Compared by type and value: ``Undo() != Quit()``, though both are empty tuples.
    _cls.__eq__ = _typed_eq  # type: ignore[assignment]
    _cls.__ne__ = _typed_ne  # type: ignore[assignment]
    _cls.__hash__ = _typed_hash  # type: ignore[assignment]
del _cls

_PARTS: dict[str, type[Any]] = {"Trick": Trick, "Play": Play}  # values inside messages
_SEAT_FIELDS = frozenset({"seat", "dealer", "to_move", "thinking", "leader", "winner", "suit"})
"""Fields that hold a seat (or a suit): 0..3."""
_CARD_BY_CODE: dict[str, Card] = {str(c): c for c in DECK}


# --- JSON -------------------------------------------------------------------------------------
def to_json(message: Message) -> str:
    """One message as a line of JSON (compact, ASCII), versioned, cards as codes."""
    if type(message) is Played and type(message.seat) is int and type(
            message.card) is Card and type(message.forced) is bool:
        written = _PLAYED.get(message)  # the news of every card: each text written once
        if written is None:
            written = _PLAYED[message] = _to_json(message)
        return written
    return _to_json(message)


_PLAYED: dict[Played, str] = {}
"""Every ``Played`` written so far (at most 4 seats x 52 cards x forced or not)."""


def _to_json(message: Message) -> str:
    name = type(message).__name__
    if MESSAGES.get(name) is not type(message):
        raise TypeError(f"not a message of this protocol: {type(message).__name__}")
    data: dict[str, Any] = {"protocol": PROTOCOL_VERSION, "type": name}
    data.update(_plain(message))
    return _dumps(data)


_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode
_CODES: dict[Card, str] = {c: str(c) for c in DECK}


def _plain(value: Any) -> Any:
    kind = type(value)
    if kind is Card:
        return _CODES[value]
    if kind is tuple:
        return [_plain(item) for item in value]
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {key: _plain(item) for key, item in zip(value._fields, value)}
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def from_json(text: str | bytes) -> Message:
    """The message a line of JSON holds; :class:`ProtocolError` naming what is wrong for
    anything that is not exactly one message of this version."""
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message is a JSON object")
    version = data.pop("protocol", None)
    if type(version) is not int or version != PROTOCOL_VERSION:
        raise ProtocolError(f"protocol: version {version!r} is not {PROTOCOL_VERSION}")
    name = data.pop("type", None)
    cls = MESSAGES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ProtocolError(f"type: {str(name)[:40]!r} is not a message of this protocol")
    message = _read_tuple(cls, data, name)
    if isinstance(message, TableState):
        _check_state(message)
    return message  # type: ignore[no-any-return]


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number here")


_HINTS: dict[type[Any], dict[str, Any]] = {}


def _hints(cls: type[Any]) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        module = sys.modules[cls.__module__]
        namespace = {**vars(module), "Card": Card, "Trick": Trick, "Play": Play}
        hints = _HINTS[cls] = typing.get_type_hints(cls, globalns=namespace)
    return hints


def _read_tuple(cls: type[Any], data: object, where: str) -> Any:
    if not isinstance(data, dict):
        raise ProtocolError(f"{where}: expected an object")
    fields: tuple[str, ...] = cls._fields
    extra = sorted(set(data) - set(fields))
    if extra:
        raise ProtocolError(f"{where}.{str(extra[0])[:40]}: not a field of {cls.__name__}")
    hints = _hints(cls)
    defaults: dict[str, Any] = cls._field_defaults
    values = []
    for key in fields:
        if key not in data:
            if key in defaults:
                values.append(defaults[key])
                continue
            raise ProtocolError(f"{where}.{key}: missing")
        value = _read(hints[key], data[key], f"{where}.{key}")
        if key in _SEAT_FIELDS and value is not None and value not in (0, 1, 2, 3):
            raise ProtocolError(f"{where}.{key}: a seat is 0..3, not {value!r}")
        values.append(value)
    return cls(*values)


def _read(kind: Any, value: object, where: str) -> Any:
    """``value`` read as ``kind`` (a type hint), strictly."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, _UnionType):
        options = typing.get_args(kind)
        if value is None and type(None) in options:
            return None
        rest = [k for k in options if k is not type(None)]
        return _read(rest[0], value, where)
    if origin is tuple:
        args = typing.get_args(kind)
        if not isinstance(value, list):
            raise ProtocolError(f"{where}: expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            if len(value) > 64:
                raise ProtocolError(f"{where}: too many items ({len(value)})")
            return tuple(_read(args[0], v, f"{where}[{i}]") for i, v in enumerate(value))
        if len(value) != len(args):
            raise ProtocolError(f"{where}: expected {len(args)} items, not {len(value)}")
        return tuple(_read(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, value)))
    reader = _SCALARS.get(kind)
    if reader is not None:
        return reader(value, where)
    if isinstance(kind, type) and issubclass(kind, tuple) and hasattr(kind, "_fields"):
        part = _read_tuple(kind, value, where)
        if kind is Trick:
            _check_trick(part, where)
        return part
    raise TypeError(f"{where}: no reader for {kind!r}")  # pragma: no cover - a bug here


_UnionType: Any = getattr(types, "UnionType", typing.Union)


def _read_int(value: object, where: str) -> int:
    if type(value) is not int or not -10**6 <= value <= 10**9:
        raise ProtocolError(f"{where}: expected a whole number, not {_shown(value)}")
    return value


def _read_bool(value: object, where: str) -> bool:
    if type(value) is not bool:
        raise ProtocolError(f"{where}: expected true or false, not {_shown(value)}")
    return value


def _read_str(value: object, where: str) -> str:
    if type(value) is not str or len(value) > MAX_TEXT:
        raise ProtocolError(f"{where}: expected a text of at most {MAX_TEXT} characters")
    return value


def _read_float(value: object, where: str) -> float:
    if type(value) not in (int, float) or not 0.0 <= value <= 1.0:  # type: ignore[operator]
        raise ProtocolError(f"{where}: expected a number from 0 to 1, not {_shown(value)}")
    return float(value)  # type: ignore[arg-type]


def _read_card(value: object, where: str) -> Card:
    card = _CARD_BY_CODE.get(value) if type(value) is str else None
    if card is None:
        raise ProtocolError(f"{where}: {_shown(value)} is not a card code (such as QS or TD)")
    return card


_SCALARS: dict[Any, Callable[[object, str], Any]] = {
    int: _read_int, bool: _read_bool, str: _read_str, float: _read_float, Card: _read_card}


def _shown(value: object) -> str:
    text = json.dumps(value) if isinstance(value, (str, int, float, bool, type(None))) else (
        type(value).__name__)
    return text if len(text) <= 24 else text[:20] + "..."


def _check_trick(trick: Trick, where: str) -> None:
    if len(trick.cards) != 4 or len(set(trick.cards)) != 4:
        raise ProtocolError(f"{where}.cards: a trick holds four different cards")
    if trick.winner != trick_winner(trick.leader, trick.cards):
        raise ProtocolError(f"{where}.winner: seat {trick.winner} did not win this trick")


def _check_state(state: TableState) -> None:
    """The plays follow the order of play, no card is played twice or held by the seat too,
    the legal cards are in the hand, and only a finished deal shows the hands as dealt."""
    seen: set[Card] = set()
    leader = (state.dealer + 1) & 3
    cards: list[Card] = []
    for i, play in enumerate(state.plays):
        expected = (leader + len(cards)) & 3
        if play.seat != expected:
            raise ProtocolError(f"TableState.plays[{i}].seat: seat {expected} plays here, "
                                f"not seat {play.seat}")
        if play.card in seen:
            raise ProtocolError(f"TableState.plays[{i}].card: {play.card} is played twice")
        seen.add(play.card)
        cards.append(play.card)
        if len(cards) == 4:
            leader, cards = trick_winner(leader, cards), []
    if len(state.plays) > 52:
        raise ProtocolError("TableState.plays: more than 52 cards")
    if seen & set(state.hand) or len(set(state.hand)) != len(state.hand):
        raise ProtocolError("TableState.hand: holds a card played or twice")
    if state.hand_sizes[state.seat] != len(state.hand):
        raise ProtocolError(f"TableState.hand: seat {state.seat} holds "
                            f"{state.hand_sizes[state.seat]} cards, not {len(state.hand)}")
    if not set(state.legal) <= set(state.hand):
        raise ProtocolError("TableState.legal: a legal card is not in the hand")
    if state.pace not in PACES:
        raise ProtocolError(f"TableState.pace: {state.pace[:40]!r} is not one of "
                            f"{', '.join(PACES)}")
    over = state.pace in ("deal_over", "game_over")
    if state.hands_dealt is not None and not over:
        raise ProtocolError("TableState.hands_dealt: hidden until the deal is over")
    if state.hands_dealt is not None and len(state.hands_dealt) != 4:
        raise ProtocolError("TableState.hands_dealt: four hands")


__all__ = [
    "MESSAGES", "PACES", "PROTOCOL_VERSION", "Action", "AskHint", "BotFailed", "DealBegun",
    "DealOver", "GameOver", "GoOn", "Hint", "Message", "MeterReading", "News", "PlayCard",
    "Played", "ProtocolError", "Quit", "Refused", "SaveState", "SeatReplaced", "SetMeter",
    "TableState", "TakenBack", "TrickTaken", "Undo", "from_json", "table_state", "to_json",
]
