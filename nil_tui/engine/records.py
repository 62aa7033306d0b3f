"""Game records (RECORDS.md, version 1): written from a Game, read back with every play checked
by the engine itself, so a record that breaks a rule is rejected with the field that does."""

from __future__ import annotations

import datetime as _dt
import re
import reprlib
from typing import Any, NamedTuple

from .cards import DECK, Card
from .deal import Deal, IllegalPlay
from .game import MAX_DEALS, Cut, Game
from .meta import Challenge
from .scoring import CLASSIC, SCORINGS, DealRule, first_rule

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
        **_pool_fields(deal),
    }


def _pool_fields(deal: Deal) -> dict[str, Any]:
    """Under the pool scoring: the two seats of a tie-break deal, and the pool after the deal
    (null while it is played)."""
    rule = deal.rule
    if not rule.is_pool:
        return {}
    out: dict[str, Any] = {}
    if rule.tiebreak:
        out["tiebreak"] = list(rule.tiebreak)
    out["pool"] = deal.settle().pool if deal.is_over else None
    return out


def _optional_fields(game: Game) -> dict[str, Any]:
    """The fields a record has only when they say something."""
    out: dict[str, Any] = {}
    if game.is_over:
        out["losers"] = list(game.losers)
    if game.incidents:
        out["incidents"] = [_written(i) for i in game.incidents]
    if game.undone:
        out["undone"] = [_written(u) for u in game.undone]
    if game.assists:
        out["assists"] = list(game.assists)
    if game.challenge is not None:
        out["challenge"] = game.challenge.to_dict()
    return out


def _written(value: Any) -> Any:
    """A player's, an incident's or an undo's fields as a record keeps them: every text with
    its control characters escaped (``escape_controls``), so that the game never writes one,
    whoever named a player or a bot (a record read back is the same)."""
    if isinstance(value, str):
        return escape_controls(value)
    if isinstance(value, dict):
        return {escape_controls(k) if isinstance(k, str) else k: _written(v)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_written(v) for v in value]
    return value


def to_record(game: Game) -> dict[str, Any]:
    """The game as a JSON-ready record (finished or in progress)."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "app_version": _app_version(),
        "created": now_utc(),
        "seed": game.seed,
        "rules": {"deals_planned": game.deals_planned, "scoring": game.scoring},
        "players": [_written(p) for p in game.players],
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


_CODES = {str(c): c for c in DECK}  # the one spelling of each card: "QS", "TD", "2C"


def _card(value: Any, where: str) -> Card:
    if not isinstance(value, str) or len(value) != 2:
        raise RecordError(where, f"expected a two-character card code, got {_show(value)}")
    card = _CODES.get(value)
    if card is None:
        raise RecordError(where, f"{_show(value)} is not a card code (a rank from "
                          "23456789TJQKA, then a suit from CDHS, in capitals)")
    return card


# Characters a terminal would obey (ESC, BEL, CR, newline, NUL...), turn the direction of
# text, or cannot write (lone surrogates): a text read from a record holds none of them, each
# is read as its escape ("\x1b"). The same class as ``nil_tui.util.textsafe.UNSAFE_CLASS`` (a
# test keeps the two equal); the engine imports nothing outside itself.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
                     "\u2066-\u2069\ud800-\udfff]")
_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
TEXT_LIMIT = 1000  # characters of a name, a bot or a reason in a record


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    code = ord(ch)
    return _SHORT_ESCAPES.get(ch) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def escape_controls(text: str) -> str:
    """``text`` with each character of ``CONTROL`` written as its escape."""
    return CONTROL.sub(_escape, text)


def _text(value: Any, where: str) -> str:
    """A text of a record (a name, a bot, a reason), its control characters escaped."""
    if not isinstance(value, str):
        raise RecordError(where, f"expected text, got {_show(value)}")
    if len(value) > TEXT_LIMIT:
        raise RecordError(where, f"expected at most {TEXT_LIMIT} characters, got "
                          f"{len(value):,}")
    return escape_controls(value)


def _whole(value: Any, where: str, low: int, high: int) -> int:
    if not _is_int(value) or not low <= value <= high:
        raise RecordError(where, f"expected a whole number {low}..{high}, got {_show(value)}")
    return int(value)


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


def _four_ints(value: Any, where: str, signed: bool = False) -> tuple[int, int, int, int]:
    """Four whole numbers, at least 0 unless ``signed`` (the pool scoring's points)."""
    items = _list(value, where, 4)
    if not all(_is_int(x) and (signed or x >= 0) for x in items):
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
    scoring: str = CLASSIC


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
    players = [_read_player(p, s) for s, p in enumerate(
        _list(record.get("players"), "players", 4))]
    finished = record.get("finished")
    if not isinstance(finished, bool):
        raise RecordError("finished", f"expected true or false, got {_show(finished)}")
    return _Header(planned, seed, players, finished, _read_scoring(record))


def _read_scoring(record: dict[str, Any]) -> str:
    """``rules.scoring``: "classic" (also when it is missing) or "pool"."""
    rules = record.get("rules")
    scoring = rules.get("scoring", CLASSIC) if isinstance(rules, dict) else CLASSIC
    if scoring not in SCORINGS:
        raise RecordError("rules.scoring", f"expected one of {', '.join(SCORINGS)}, got "
                          f"{_show(scoring)}")
    return str(scoring)


KINDS = ("human", "bot")


def _read_player(value: Any, s: int) -> dict[str, Any]:
    """``players[s]``: a name, a kind, the bot's spec (a bot's, optional) and the bots that
    were replaced in that seat (optional); other fields are kept as they are."""
    where = f"players[{s}]"
    if not isinstance(value, dict) or "name" not in value:
        raise RecordError(where, "expected an object with a name")
    player = dict(value)
    player["name"] = _text(value["name"], f"{where}.name")
    if value.get("kind") not in KINDS:
        raise RecordError(f"{where}.kind", f"expected one of {', '.join(KINDS)}, got "
                          f"{_show(value.get('kind'))}")
    if "bot" in value:
        player["bot"] = _text(value["bot"], f"{where}.bot")
    if "replaced" in value:
        player["replaced"] = [_read_replaced(r, f"{where}.replaced[{k}]") for k, r in
                              enumerate(_list(value["replaced"], f"{where}.replaced"))]
    return player


def _read_replaced(value: Any, where: str) -> dict[str, Any]:
    """One bot that left a seat: ``{"bot", "deal", "trick", "reason"}``; the deal is checked
    against the deals once they are read."""
    obj = _object(value, where)
    out = dict(obj)
    out["bot"] = _text(obj.get("bot"), f"{where}.bot")
    out["deal"] = _whole(obj.get("deal"), f"{where}.deal", 1, MAX_DEALS)
    out["trick"] = _whole(obj.get("trick"), f"{where}.trick", 1, 14)
    out["reason"] = _text(obj.get("reason"), f"{where}.reason")
    return out


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


def _read_deal_list(record: dict[str, Any], planned: int, scoring: str = CLASSIC) -> list[Any]:
    deals = _list(record.get("deals"), "deals")
    if not deals:
        raise RecordError("deals", "a record holds at least one deal")
    if scoring != CLASSIC:  # each agreed deal may be followed by a tie-break deal
        planned *= 2
    if len(deals) > planned:
        raise RecordError("deals", f"{len(deals)} deals recorded but only {planned} planned")
    return deals


def _played_by(deal: Deal, trick: int, card: Card) -> int | None:
    """The seat that played ``card`` in trick ``trick`` (1-based) of ``deal``, or None."""
    if trick <= len(deal.tricks):
        t = deal.tricks[trick - 1]
        leader, cards = t.leader, t.cards
    elif trick == len(deal.tricks) + 1:
        leader, cards = deal.leader, deal.trick
    else:
        return None
    return (leader + cards.index(card)) & 3 if card in cards else None


def _read_incident(value: Any, where: str, deals: list[Deal],
                   standing: bool) -> dict[str, Any]:
    """A card played for a failed bot: ``{"deal", "trick", "seat", "card", "reason"}``.
    ``standing``: the card is still in the deal's tricks, played by that seat in that trick
    (an incident of a play taken back is kept under ``undone``, and its card is not)."""
    obj = _object(value, where)
    out = dict(obj)
    number = _whole(obj.get("deal"), f"{where}.deal", 1, len(deals))
    trick = _whole(obj.get("trick"), f"{where}.trick", 1, 13)
    seat = _seat(obj.get("seat"), f"{where}.seat")
    card = _card(obj.get("card"), f"{where}.card")
    out["reason"] = _text(obj.get("reason"), f"{where}.reason")
    if standing and _played_by(deals[number - 1], trick, card) != seat:
        raise RecordError(where, f"seat {seat} did not play {card} in trick {trick} of "
                          f"deal {number}")
    out.update(deal=number, trick=trick, seat=seat, card=str(card))
    return out


def _read_incidents(value: Any, deals: list[Deal]) -> list[dict[str, Any]]:
    items = [] if value is None else _list(value, "incidents")
    return [_read_incident(item, f"incidents[{k}]", deals, True)
            for k, item in enumerate(items)]


def _read_undone(value: Any, deals: list[Deal]) -> list[dict[str, Any]]:
    """Plays taken back: ``{"deal", "trick", "cards", "incidents"}`` each, in order."""
    items = [] if value is None else _list(value, "undone")
    out = []
    for k, item in enumerate(items):
        where = f"undone[{k}]"
        obj = _object(item, where)
        entry = dict(obj)
        entry["deal"] = _whole(obj.get("deal"), f"{where}.deal", 1, len(deals))
        entry["trick"] = _whole(obj.get("trick"), f"{where}.trick", 1, 13)
        codes = _list(obj.get("cards"), f"{where}.cards")
        if not 1 <= len(codes) <= 52:
            raise RecordError(f"{where}.cards", f"expected 1 to 52 cards, got {len(codes)}")
        cards = [_card(c, f"{where}.cards[{j}]") for j, c in enumerate(codes)]
        if len(set(cards)) != len(cards):
            raise RecordError(f"{where}.cards", "the same card is taken back twice")
        entry["cards"] = [str(c) for c in cards]
        if "incidents" in obj:
            entry["incidents"] = [
                _read_incident(i, f"{where}.incidents[{j}]", deals, False)
                for j, i in enumerate(_list(obj["incidents"], f"{where}.incidents"))]
        out.append(entry)
    return out


def _check_replaced(players: list[dict[str, Any]], deals: list[Deal]) -> None:
    for s, player in enumerate(players):
        for k, entry in enumerate(player.get("replaced", ())):
            if entry["deal"] > len(deals):
                raise RecordError(f"players[{s}].replaced[{k}].deal", f"expected a whole "
                                  f"number 1..{len(deals)}, got {entry['deal']}")


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
        if _four_ints(d.get("points"), f"{where}.points", deal.rule.is_pool) != deal.points:
            raise RecordError(f"{where}.points", f"the rules give {list(deal.points)}")
    elif d.get("points") is not None:
        raise RecordError(f"{where}.points", "an unfinished deal has no points (null)")


def _read_deal(value: Any, i: int, dealer: int, open_ok: bool,
               rule: DealRule | None = None) -> Deal:
    """Deal ``i`` (0-based), dealt by ``dealer``, replayed and checked under ``rule`` (the
    scoring, the pool before it, a tie-break's seats). ``open_ok``: it is the last deal of an
    unfinished game, so it may stop before it is over."""
    where = f"deals[{i}]"
    d = _object(value, where)
    if _seat(d.get("dealer"), f"{where}.dealer") != dealer:
        raise RecordError(f"{where}.dealer", f"the dealer of deal {i + 1} must be seat "
                          f"{dealer} (the deal passes clockwise)")
    deal = Deal.from_hands(_read_hands(d.get("hands"), where), dealer)
    if rule is not None:
        _check_pool_rule(d, rule, where)
        deal.rule = rule  # (before any card: a tie-break deal ends differently)
    tricks = _list(d.get("tricks"), f"{where}.tricks")
    for j, t in enumerate(tricks):
        _read_trick(deal, t, f"{where}.tricks[{j}]", open_ok and j == len(tricks) - 1)
    _check_deal_end(d, deal, where, open_ok)
    if rule is not None and rule.is_pool:
        pool = deal.settle().pool if deal.is_over else None
        if d.get("pool") != pool or isinstance(d.get("pool"), bool):
            raise RecordError(f"{where}.pool", f"the pool scoring leaves {_show(pool)} in the "
                              f"pool, not {_show(d.get('pool'))}")
    return deal


def _check_pool_rule(d: dict[str, Any], rule: DealRule, where: str) -> None:
    """A pool game's deal says it is a tie-break deal exactly when the scoring makes it one."""
    if not rule.is_pool:
        return
    tiebreak = d.get("tiebreak")
    if rule.tiebreak and tiebreak != list(rule.tiebreak):
        raise RecordError(f"{where}.tiebreak", f"seats {list(rule.tiebreak)} play this "
                          f"tie-break deal, not {_show(tiebreak)}")
    if not rule.tiebreak and tiebreak is not None:
        raise RecordError(f"{where}.tiebreak", "the deal before did not call for a tie-break")


def _read_deals(raw: list[Any], first: int, open_ok: bool, scoring: str,
                planned: int) -> list[Deal]:
    """Every deal, in order, each under the rule the deals before it give (the pool carries
    over, an odd pool two clean players cannot share calls for a tie-break deal)."""
    deals: list[Deal] = []
    rule = first_rule(scoring)
    agreed = 0
    last = len(raw) - 1
    for i, d in enumerate(raw):
        if deals and deals[-1].is_over:
            settled = deals[-1].settle()
            if settled.perfect is not None or (agreed >= planned and not settled.tiebreak):
                raise RecordError(f"deals[{i}]", "the game was over after the deal before")
        deal = _read_deal(d, i, (first + i) & 3, i == last and open_ok, rule)
        agreed += not rule.tiebreak
        deals.append(deal)
        if deal.is_over:
            rule = rule.after(deal.settle())
    return deals


def _check_result(record: dict[str, Any], game: Game, finished: bool) -> None:
    """``finished``, ``totals`` and ``losers`` agree with the deals."""
    totals = list(game.totals)
    if finished:
        if not game.is_over:
            raise RecordError("finished", f"true, but only {len(game.deals)} of "
                              f"{game.deals_planned} deals are complete")
        if _four_ints(record.get("totals"), "totals", game.scoring != CLASSIC) != game.totals:
            raise RecordError("totals", f"the deals add up to {totals}")
        losers = [_seat(s, f"losers[{k}]")
                  for k, s in enumerate(_list(record.get("losers"), "losers"))]
        if sorted(losers) != list(game.losers) or len(set(losers)) != len(losers):
            raise RecordError("losers", f"the lowest totals are seats {list(game.losers)}")
    elif game.is_over:
        raise RecordError("finished", "false, but every planned deal is complete")
    elif "totals" in record and _four_ints(record["totals"], "totals",
                                           game.scoring != CLASSIC) != game.totals:
        raise RecordError("totals", f"the finished deals add up to {totals}")


def from_record(record: Any) -> Game:
    """Rebuild a Game from a record, replaying and checking every play. Raises RecordError,
    naming the field, for anything that is not a valid record, and nothing else."""
    head = _read_header(record)
    value = record.get("cut")
    cut = None if value is None else _read_cut(value)
    raw = _read_deal_list(record, head.planned, head.scoring)
    first = cut.dealer if cut else _seat(
        raw[0].get("dealer") if isinstance(raw[0], dict) else None, "deals[0].dealer")
    deals = _read_deals(raw, first, not head.finished, head.scoring, head.planned)
    incidents = _read_incidents(record.get("incidents"), deals)
    undone = _read_undone(record.get("undone"), deals)
    _check_replaced(head.players, deals)
    try:
        game = Game.from_parts(deals_planned=head.planned, seed=head.seed,
                               players=head.players, cut=cut, first_dealer=first, deals=deals,
                               incidents=incidents, undone=undone, scoring=head.scoring)
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


def _read_challenge(value: Any, planned: int) -> Challenge | None:
    if value is None:
        return None
    obj = _object(value, "challenge")
    date = obj.get("date")
    if not is_date(date):
        raise RecordError("challenge.date", f"expected a date YYYY-MM-DD, got {_show(date)}")
    ref = obj.get("reference")
    return Challenge(str(date), None if ref is None else tuple(read_reference(ref, planned)))


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
