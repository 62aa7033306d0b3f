"""Game records (RECORDS.md, version 1): written from a Game, read back with every play checked
by the engine itself, so a record that breaks a rule is rejected with the field that does."""

from __future__ import annotations

import datetime as _dt
import re
import reprlib
from typing import Any, NamedTuple

from .cards import Card
from .deal import Deal, IllegalPlay
from .game import MAX_DEALS, Cut, Game

FORMAT = "nil-tui-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read: the message names the field and the problem."""

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}" if where else problem)


def _app_version() -> str:
    from .. import __version__

    return __version__


def now_utc() -> str:
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _deal_record(deal: Deal) -> dict[str, Any]:
    """One deal as the record writes it (its last trick may be in progress)."""
    tricks: list[dict[str, Any]] = [
        {"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner}
        for t in deal.tricks
    ]
    if deal.trick:
        tricks.append({"leader": deal.leader, "cards": [str(c) for c in deal.trick],
                       "winner": None})
    return {
        "dealer": deal.dealer,
        "hands": [[str(c) for c in deal.dealt_hand(s)] for s in range(4)],
        "tricks": tricks,
        "taken": list(deal.taken),
        "points": list(deal.points) if deal.is_over else None,
    }


def _optional_fields(game: Game) -> dict[str, Any]:
    """The fields a record has only when they say something."""
    out: dict[str, Any] = {}
    if game.is_over:
        out["losers"] = list(game.losers)
    if game.incidents:
        out["incidents"] = [dict(i) for i in game.incidents]
    if game.undone:
        out["undone"] = [dict(u) for u in game.undone]
    if game.assists:
        out["assists"] = list(game.assists)
    if game.challenge is not None:
        ref = game.challenge.get("reference")
        out["challenge"] = {"date": game.challenge["date"],
                            "reference": None if ref is None else list(ref)}
    return out


def to_record(game: Game) -> dict[str, Any]:
    """The game as a JSON-ready record (finished or in progress)."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "app_version": _app_version(),
        "created": now_utc(),
        "seed": game.seed,
        "rules": {"deals_planned": game.deals_planned},
        "players": [dict(p) for p in game.players],
        "deals_planned": game.deals_planned,
        "cut": None if game.cut is None else {
            "draws": [[None if c is None else str(c) for c in row] for row in game.cut.draws],
            "dealer": game.cut.dealer,
        },
        "deals": [_deal_record(deal) for deal in game.deals],
        "totals": list(game.totals),
        "finished": game.is_over,
    }
    record.update(_optional_fields(game))
    return record


# --- reading -------------------------------------------------------------------------------
# Every reader below raises RecordError naming the field, and nothing else, whatever JSON it is
# given: values are quoted in messages through ``_show``, which bounds their length, their
# depth and the size of a number it writes out.
class _ShortRepr(reprlib.Repr):
    def repr_int(self, x: int, level: int) -> str:
        return repr(x) if x.bit_length() <= 128 else "a number too large to show"


_SHORT = _ShortRepr()
_SHORT.maxlevel = 3
_SHORT.maxstring = 40
_SHORT.maxother = 40


def _show(value: Any) -> str:
    """A short, safe ``repr`` of a value read from a record (at most 80 characters)."""
    text = _SHORT.repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _seat(value: Any, where: str) -> int:
    if not _is_int(value) or not 0 <= value <= 3:
        raise RecordError(where, f"expected a seat 0..3, got {_show(value)}")
    return int(value)


def _card(value: Any, where: str) -> Card:
    if not isinstance(value, str) or len(value) != 2:
        raise RecordError(where, f"expected a two-character card code, got {_show(value)}")
    try:
        return Card.parse(value)
    except ValueError:
        raise RecordError(where, f"{_show(value)} is not a card code") from None


def _list(value: Any, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(where, f"expected a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise RecordError(where, f"expected {length} entries, got {len(value)}")
    return value


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(where, "expected an object")
    return value


def _four_ints(value: Any, where: str) -> tuple[int, int, int, int]:
    items = _list(value, where, 4)
    if not all(_is_int(x) and x >= 0 for x in items):
        raise RecordError(where, f"expected four whole numbers, got {_show(items)}")
    return (items[0], items[1], items[2], items[3])


# A seed is written out again (in records, and in the text each deal's shuffle is seeded
# from), so it must be a number Python will print.
_SEED_DIGITS = 300
_SEED_LIMIT = 10**_SEED_DIGITS


class _Header(NamedTuple):
    planned: int
    seed: int | None
    players: list[dict[str, Any]]
    finished: bool


def _read_format(record: Any) -> dict[str, Any]:
    """The record as an object of a format and version this reader knows."""
    if not isinstance(record, dict):
        raise RecordError("", "a record must be a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError("format", f"expected {FORMAT!r}, got {_show(record.get('format'))}")
    version = record.get("version")
    if version != VERSION or not _is_int(version):
        raise RecordError("version", f"unknown record version {_show(version)} (this reader "
                          f"knows version {VERSION})")
    return record


def _read_planned(record: dict[str, Any]) -> int:
    """``deals_planned``, also found in (and checked against) ``rules``."""
    planned: Any = record.get("deals_planned")
    rules = record.get("rules")
    if planned is None and isinstance(rules, dict):
        planned = rules.get("deals_planned")
    if not _is_int(planned) or not 1 <= planned <= MAX_DEALS:
        raise RecordError("deals_planned", f"expected a whole number 1..{MAX_DEALS}, got "
                          f"{_show(planned)}")
    if isinstance(rules, dict) and rules.get("deals_planned", planned) != planned:
        raise RecordError("rules.deals_planned", "does not match deals_planned")
    return int(planned)


def _read_header(record: Any) -> _Header:
    """Format, version, deals planned, seed, players and whether the game is finished."""
    record = _read_format(record)
    planned = _read_planned(record)
    seed = record.get("seed")
    if seed is not None and not (_is_int(seed) and -_SEED_LIMIT < seed < _SEED_LIMIT):
        raise RecordError("seed", f"expected a whole number of at most {_SEED_DIGITS} digits "
                          f"or null, got {_show(seed)}")
    players = _list(record.get("players"), "players", 4)
    for s, p in enumerate(players):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            raise RecordError(f"players[{s}]", "expected an object with a name")
    finished = record.get("finished")
    if not isinstance(finished, bool):
        raise RecordError("finished", f"expected true or false, got {_show(finished)}")
    return _Header(planned, seed, [dict(p) for p in players], finished)


def _read_draw(row: Any, r: int, drawing: set[int]) -> tuple[Card | None, ...]:
    """One round of the cut: a card for each seat still drawing, null for the others."""
    row = _list(row, f"cut.draws[{r}]", 4)
    cards: list[Card | None] = []
    for s, code in enumerate(row):
        where = f"cut.draws[{r}][{s}]"
        if s in drawing:
            cards.append(_card(code, where))
        elif code is not None:
            raise RecordError(where, f"seat {s} did not draw in round {r + 1} (not tied "
                              "lowest), so this must be null")
        else:
            cards.append(None)
    drawn = [c for c in cards if c is not None]
    if len(set(drawn)) != len(drawn):
        raise RecordError(f"cut.draws[{r}]", "the same card is drawn twice in one round")
    return tuple(cards)


def _read_cut(value: Any) -> Cut:
    if not isinstance(value, dict):
        raise RecordError("cut", "expected an object or null")
    rows = _list(value.get("draws"), "cut.draws")
    if not rows:
        raise RecordError("cut.draws", "at least one round of drawing is needed")
    drawing = {0, 1, 2, 3}
    parsed = []
    for r, row in enumerate(rows):
        if len(drawing) == 1:
            raise RecordError(f"cut.draws[{r}]", "the cut was already decided")
        cards = _read_draw(row, r, drawing)
        parsed.append(cards)
        low = min(c.rank for c in cards if c is not None)
        drawing = {s for s in drawing if cards[s] is not None and cards[s].rank == low}  # type: ignore[union-attr]
    if len(drawing) != 1:
        raise RecordError("cut.draws", "the last round leaves a tie for lowest: the tied "
                          "seats must draw again")
    dealer = _seat(value.get("dealer"), "cut.dealer")
    (only,) = drawing
    if dealer != only:
        raise RecordError("cut.dealer", f"seat {only} drew lowest, not seat {dealer}")
    return Cut(tuple(parsed), dealer)


def _read_deal_list(record: dict[str, Any], planned: int) -> list[Any]:
    deals = _list(record.get("deals"), "deals")
    if not deals:
        raise RecordError("deals", "a record holds at least one deal")
    if len(deals) > planned:
        raise RecordError("deals", f"{len(deals)} deals recorded but only {planned} planned")
    return deals


def _read_objects(value: Any, field: str) -> list[dict[str, Any]]:
    """An optional list of objects (incidents, plays taken back)."""
    items = [] if value is None else _list(value, field)
    for k, item in enumerate(items):
        _object(item, f"{field}[{k}]")
    return [dict(i) for i in items]


def _read_hands(value: Any, where: str) -> list[list[Card]]:
    """Four hands of 13 cards, no card dealt twice."""
    hands = _list(value, f"{where}.hands", 4)
    seen: dict[Card, int] = {}
    out = []
    for s, hand in enumerate(hands):
        cards = []
        for k, code in enumerate(_list(hand, f"{where}.hands[{s}]", 13)):
            c = _card(code, f"{where}.hands[{s}][{k}]")
            if c in seen:
                raise RecordError(f"{where}.hands[{s}][{k}]", f"{c} is also dealt to seat "
                                  f"{seen[c]}")
            seen[c] = s
            cards.append(c)
        out.append(cards)
    return out


def _read_trick(deal: Deal, value: Any, where: str, may_be_partial: bool) -> None:
    """Play one recorded trick on ``deal``, checking every card, the leader and the winner."""
    if deal.is_over:
        raise RecordError(where, "the deal was already over (every player had taken a "
                          "trick, or 13 tricks were played)")
    t = _object(value, where)
    leader = _seat(t.get("leader"), f"{where}.leader")
    if leader != deal.leader:
        raise RecordError(f"{where}.leader", f"seat {deal.leader} leads this trick, not "
                          f"seat {leader}")
    cards = _list(t.get("cards"), f"{where}.cards")
    partial = len(cards) < 4
    if not cards or len(cards) > 4 or (partial and not may_be_partial):
        raise RecordError(f"{where}.cards", "a trick has four cards (only the last trick "
                          "of an unfinished game may have fewer)")
    for k, code in enumerate(cards):
        c = _card(code, f"{where}.cards[{k}]")
        try:
            deal.play(c)
        except IllegalPlay as exc:
            raise RecordError(f"{where}.cards[{k}]", f"seat {(leader + k) & 3} cannot "
                              f"play {c}: {exc.reason}") from None
    winner = t.get("winner")
    if partial:
        if winner is not None:
            raise RecordError(f"{where}.winner", "an unfinished trick has no winner (null)")
    elif winner != deal.tricks[-1].winner:
        raise RecordError(f"{where}.winner", f"seat {deal.tricks[-1].winner} wins this "
                          f"trick, not {_show(winner)}")


def _check_deal_end(d: dict[str, Any], deal: Deal, where: str, may_be_open: bool) -> None:
    """A deal stops only when it is over (or it is the game's unfinished last deal), and its
    ``taken`` and ``points`` are what the tricks give."""
    if not deal.is_over and not may_be_open:
        raise RecordError(f"{where}.tricks", f"the deal stops after {len(deal.tricks)} "
                          "tricks, but it is not over")
    if ("taken" in d or deal.is_over) and _four_ints(
            d.get("taken"), f"{where}.taken") != deal.taken:
        raise RecordError(f"{where}.taken", f"the tricks give {list(deal.taken)}")
    if deal.is_over:
        if _four_ints(d.get("points"), f"{where}.points") != deal.points:
            raise RecordError(f"{where}.points", f"the rules give {list(deal.points)}")
    elif d.get("points") is not None:
        raise RecordError(f"{where}.points", "an unfinished deal has no points (null)")


def _read_deal(value: Any, i: int, dealer: int, open_ok: bool) -> Deal:
    """Deal ``i`` (0-based), dealt by ``dealer``, replayed and checked. ``open_ok``: it is the
    last deal of an unfinished game, so it may stop before it is over."""
    where = f"deals[{i}]"
    d = _object(value, where)
    if _seat(d.get("dealer"), f"{where}.dealer") != dealer:
        raise RecordError(f"{where}.dealer", f"the dealer of deal {i + 1} must be seat "
                          f"{dealer} (the deal passes clockwise)")
    deal = Deal.from_hands(_read_hands(d.get("hands"), where), dealer)
    tricks = _list(d.get("tricks"), f"{where}.tricks")
    for j, t in enumerate(tricks):
        _read_trick(deal, t, f"{where}.tricks[{j}]", open_ok and j == len(tricks) - 1)
    _check_deal_end(d, deal, where, open_ok)
    return deal


def _check_result(record: dict[str, Any], game: Game, finished: bool) -> None:
    """``finished``, ``totals`` and ``losers`` agree with the deals."""
    totals = list(game.totals)
    if finished:
        if not game.is_over:
            raise RecordError("finished", f"true, but only {len(game.deals)} of "
                              f"{game.deals_planned} deals are complete")
        if _four_ints(record.get("totals"), "totals") != game.totals:
            raise RecordError("totals", f"the deals add up to {totals}")
        losers = [_seat(s, f"losers[{k}]")
                  for k, s in enumerate(_list(record.get("losers"), "losers"))]
        if sorted(losers) != list(game.losers) or len(set(losers)) != len(losers):
            raise RecordError("losers", f"the lowest totals are seats {list(game.losers)}")
    elif game.is_over:
        raise RecordError("finished", "false, but every planned deal is complete")
    elif "totals" in record and _four_ints(record["totals"], "totals") != game.totals:
        raise RecordError("totals", f"the finished deals add up to {totals}")


def from_record(record: Any) -> Game:
    """Rebuild a Game from a record, replaying and checking every play. Raises RecordError,
    naming the field, for anything that is not a valid record, and nothing else."""
    head = _read_header(record)
    value = record.get("cut")
    cut = None if value is None else _read_cut(value)
    raw = _read_deal_list(record, head.planned)
    incidents = _read_objects(record.get("incidents"), "incidents")
    undone = _read_objects(record.get("undone"), "undone")
    first = cut.dealer if cut else _seat(
        raw[0].get("dealer") if isinstance(raw[0], dict) else None, "deals[0].dealer")
    last = len(raw) - 1
    deals = [_read_deal(d, i, (first + i) & 3, i == last and not head.finished)
             for i, d in enumerate(raw)]
    try:
        game = Game.from_parts(deals_planned=head.planned, seed=head.seed,
                               players=head.players, cut=cut, first_dealer=first, deals=deals,
                               incidents=incidents, undone=undone)
    except ValueError as exc:  # pragma: no cover - the readers above check all of this
        raise RecordError("deals", str(exc)) from None
    _check_result(record, game, head.finished)
    game.assists = _read_assists(record.get("assists"))
    game.challenge = _read_challenge(record.get("challenge"), head.planned)
    return game


ASSISTS = ("hint", "meter")  # the kinds of help a record's ``assists`` may name


def _read_assists(value: Any) -> list[str]:
    items = [] if value is None else _list(value, "assists")
    out: list[str] = []
    for k, item in enumerate(items):
        if item not in ASSISTS:
            raise RecordError(f"assists[{k}]", f"expected one of {', '.join(ASSISTS)}, got "
                              f"{_show(item)}")
        if item not in out:
            out.append(item)
    return out


def _read_challenge(value: Any, planned: int) -> dict[str, Any] | None:
    if value is None:
        return None
    obj = _object(value, "challenge")
    date = obj.get("date")
    if not is_date(date):
        raise RecordError("challenge.date", f"expected a date YYYY-MM-DD, got {_show(date)}")
    ref = obj.get("reference")
    return {"date": date,
            "reference": None if ref is None else read_reference(ref, planned)}


def read_reference(value: Any, planned: int | None = None) -> list[int]:
    """A daily challenge's reference: the expert's points (0 to 3) on each deal, ``planned``
    of them when given. RecordError naming the field when it is not one."""
    ref = _list(value, "challenge.reference", planned)
    for k, p in enumerate(ref):
        if not _is_int(p) or not 0 <= p <= 3:
            raise RecordError(f"challenge.reference[{k}]", f"expected points 0..3, got "
                              f"{_show(p)}")
    return list(ref)


def is_date(text: object) -> bool:
    """Whether ``text`` is a real calendar date written YYYY-MM-DD (a challenge's date)."""
    if not isinstance(text, str) or not _DATE.fullmatch(text):
        return False
    try:
        _dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True


_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
