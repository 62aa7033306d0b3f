"""Game records (RECORDS.md, version 1): written from a Game, read back with every play checked
by the engine itself, so a record that breaks a rule is rejected with the field that does."""

from __future__ import annotations

import datetime as _dt
from typing import Any

from .cards import Card
from .deal import Deal, IllegalPlay
from .game import MAX_DEALS, Cut, Game, lowest

FORMAT = "nil-tui-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read: the message names the field and the problem."""

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}" if where else problem)


def _app_version() -> str:
    try:
        from .. import __version__
    except ImportError:  # pragma: no cover
        return "unknown"
    return __version__


def now_utc() -> str:
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def to_record(game: Game) -> dict[str, Any]:
    """The game as a JSON-ready record (finished or in progress)."""
    deals = []
    for deal in game.deals:
        tricks: list[dict[str, Any]] = [
            {"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner}
            for t in deal.tricks
        ]
        if deal.trick:
            tricks.append({"leader": deal.leader, "cards": [str(c) for c in deal.trick],
                           "winner": None})
        deals.append({
            "dealer": deal.dealer,
            "hands": [[str(c) for c in deal.dealt_hand(s)] for s in range(4)],
            "tricks": tricks,
            "taken": list(deal.taken),
            "points": list(deal.points) if deal.is_over else None,
        })
    finished = game.is_over
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
        "deals": deals,
        "totals": list(game.totals),
        "finished": finished,
    }
    if finished:
        record["losers"] = list(game.losers)
    if game.incidents:
        record["incidents"] = [dict(i) for i in game.incidents]
    return record


# --- reading -------------------------------------------------------------------------------
def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _seat(value: Any, where: str) -> int:
    if not _is_int(value) or not 0 <= value <= 3:
        raise RecordError(where, f"expected a seat 0..3, got {value!r}")
    return int(value)


def _card(value: Any, where: str) -> Card:
    if not isinstance(value, str) or len(value) != 2:
        raise RecordError(where, f"expected a two-character card code, got {value!r}")
    try:
        return Card.parse(value)
    except ValueError:
        raise RecordError(where, f"{value!r} is not a card code") from None


def _list(value: Any, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(where, f"expected a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise RecordError(where, f"expected {length} entries, got {len(value)}")
    return value


def _four_ints(value: Any, where: str) -> tuple[int, int, int, int]:
    items = _list(value, where, 4)
    if not all(_is_int(x) and x >= 0 for x in items):
        raise RecordError(where, f"expected four whole numbers, got {items!r}")
    return (items[0], items[1], items[2], items[3])


def _read_cut(value: Any) -> Cut:
    if not isinstance(value, dict):
        raise RecordError("cut", "expected an object or null")
    rows = _list(value.get("draws"), "cut.draws")
    if not rows:
        raise RecordError("cut.draws", "at least one round of drawing is needed")
    drawing = {0, 1, 2, 3}
    parsed = []
    for r, row in enumerate(rows):
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
        parsed.append(tuple(cards))
        low = min(c.rank for c in drawn)
        drawing = {s for s in drawing if cards[s] is not None and cards[s].rank == low}  # type: ignore[union-attr]
        if len(drawing) == 1 and r != len(rows) - 1:
            raise RecordError(f"cut.draws[{r + 1}]", "the cut was already decided")
    if len(drawing) != 1:
        raise RecordError("cut.draws", "the last round leaves a tie for lowest: the tied "
                          "seats must draw again")
    dealer = _seat(value.get("dealer"), "cut.dealer")
    (only,) = drawing
    if dealer != only:
        raise RecordError("cut.dealer", f"seat {only} drew lowest, not seat {dealer}")
    return Cut(tuple(parsed), dealer)


def from_record(record: Any) -> Game:
    """Rebuild a Game from a record, replaying and checking every play."""
    if not isinstance(record, dict):
        raise RecordError("", "a record must be a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError("format", f"expected {FORMAT!r}, got {record.get('format')!r}")
    version = record.get("version")
    if version != VERSION or not _is_int(version):
        raise RecordError("version", f"unknown record version {version!r} (this reader "
                          f"knows version {VERSION})")
    planned: Any = record.get("deals_planned")
    rules = record.get("rules")
    if planned is None and isinstance(rules, dict):
        planned = rules.get("deals_planned")
    if not _is_int(planned) or not 1 <= planned <= MAX_DEALS:
        raise RecordError("deals_planned", f"expected a whole number 1..{MAX_DEALS}, got "
                          f"{planned!r}")
    if isinstance(rules, dict) and rules.get("deals_planned", planned) != planned:
        raise RecordError("rules.deals_planned", "does not match deals_planned")
    seed = record.get("seed")
    if seed is not None and not _is_int(seed):
        raise RecordError("seed", f"expected a whole number or null, got {seed!r}")
    players = _list(record.get("players"), "players", 4)
    for s, p in enumerate(players):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            raise RecordError(f"players[{s}]", "expected an object with a name")
    finished = record.get("finished")
    if not isinstance(finished, bool):
        raise RecordError("finished", f"expected true or false, got {finished!r}")
    cut = None if record.get("cut") is None else _read_cut(record["cut"])
    deals = _list(record.get("deals"), "deals")
    if not deals:
        raise RecordError("deals", "a record holds at least one deal")
    if len(deals) > planned:
        raise RecordError("deals", f"{len(deals)} deals recorded but only {planned} planned")

    game = Game.__new__(Game)
    game.deals_planned = planned
    game.seed = seed
    game.players = [dict(p) for p in players]
    incidents = record.get("incidents")
    incidents = [] if incidents is None else _list(incidents, "incidents")
    for k, item in enumerate(incidents):
        if not isinstance(item, dict):
            raise RecordError(f"incidents[{k}]", "expected an object")
    game.incidents = [dict(i) for i in incidents]
    game.deals = []
    game.cut = cut
    first = deals[0].get("dealer") if isinstance(deals[0], dict) else None
    game.first_dealer = cut.dealer if cut else _seat(first, "deals[0].dealer")

    for i, d in enumerate(deals):
        where = f"deals[{i}]"
        last = i == len(deals) - 1
        if not isinstance(d, dict):
            raise RecordError(where, "expected an object")
        dealer = _seat(d.get("dealer"), f"{where}.dealer")
        if dealer != game.dealer_of(i + 1):
            raise RecordError(f"{where}.dealer", f"the dealer of deal {i + 1} must be seat "
                              f"{game.dealer_of(i + 1)} (the deal passes clockwise)")
        hands = _list(d.get("hands"), f"{where}.hands", 4)
        seen: dict[Card, int] = {}
        for s, hand in enumerate(hands):
            hand = _list(hand, f"{where}.hands[{s}]", 13)
            for k, code in enumerate(hand):
                c = _card(code, f"{where}.hands[{s}][{k}]")
                if c in seen:
                    raise RecordError(f"{where}.hands[{s}][{k}]", f"{c} is also dealt to seat "
                                      f"{seen[c]}")
                seen[c] = s
        deal = Deal.from_hands(hands, dealer)
        game._add_deal(deal)
        tricks = _list(d.get("tricks"), f"{where}.tricks")
        for j, t in enumerate(tricks):
            tw = f"{where}.tricks[{j}]"
            if deal.is_over:
                raise RecordError(tw, "the deal was already over (every player had taken a "
                                  "trick, or 13 tricks were played)")
            if not isinstance(t, dict):
                raise RecordError(tw, "expected an object")
            leader = _seat(t.get("leader"), f"{tw}.leader")
            if leader != deal.leader:
                raise RecordError(f"{tw}.leader", f"seat {deal.leader} leads this trick, not "
                                  f"seat {leader}")
            cards = _list(t.get("cards"), f"{tw}.cards")
            partial = len(cards) < 4
            if not cards or len(cards) > 4 or (partial and not (last and j == len(tricks) - 1)):
                raise RecordError(f"{tw}.cards", "a trick has four cards (only the last trick "
                                  "of an unfinished game may have fewer)")
            for k, code in enumerate(cards):
                c = _card(code, f"{tw}.cards[{k}]")
                try:
                    deal.play(c)
                except IllegalPlay as exc:
                    raise RecordError(f"{tw}.cards[{k}]", f"seat {(leader + k) & 3} cannot "
                                      f"play {c}: {exc.reason}") from None
            winner = t.get("winner")
            if partial:
                if winner is not None:
                    raise RecordError(f"{tw}.winner", "an unfinished trick has no winner (null)")
            elif winner != deal.tricks[-1].winner:
                raise RecordError(f"{tw}.winner", f"seat {deal.tricks[-1].winner} wins this "
                                  f"trick, not {winner!r}")
        if not deal.is_over and not (last and not finished):
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
    if finished:
        if not game.is_over:
            raise RecordError("finished", f"true, but only {len(deals)} of {planned} deals "
                              "are complete")
        if _four_ints(record.get("totals"), "totals") != game.totals:
            raise RecordError("totals", f"the deals add up to {list(game.totals)}")
        losers = [_seat(s, f"losers[{k}]")
                  for k, s in enumerate(_list(record.get("losers"), "losers"))]
        if sorted(losers) != list(lowest(game.totals)) or len(set(losers)) != len(losers):
            raise RecordError("losers", f"the lowest totals are seats "
                              f"{list(lowest(game.totals))}")
    elif game.is_over:
        raise RecordError("finished", "false, but every planned deal is complete")
    elif "totals" in record and _four_ints(record["totals"], "totals") != game.totals:
        raise RecordError("totals", f"the finished deals add up to {list(game.totals)}")
    return game
