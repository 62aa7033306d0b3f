"""What history and statistics keep of a game: pure functions of its record, no SQL."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

JSONObject = dict[str, Any]  # a record or options object as JSON gives it back

LONG_SEED = 20  # digits; a longer seed is shortened (with a hash) in record file names


class GameSummary(NamedTuple):
    """One game from South's side (seat 0), as history and statistics keep it."""

    seed: int | None
    difficulty: str
    opponents: str
    deals: int
    totals: list[int]
    losers: list[int]
    lost: bool
    result: str
    clean_deals: int
    points: int
    assisted: bool = False  # undo, hints or the meter were used: kept apart in statistics
    challenge: str | None = None  # the date of the daily challenge this game is
    challenge_diff: int | None = None  # points minus the expert's (finished, reference known)
    scoring: str = "classic"  # "pool": its points are the pool's, kept apart in statistics


ASSISTED = " (assisted)"  # added to the level and the opponents of an assisted game
POOL = " (pool)"  # added to the level and the opponents of a game scored with the pool


def scoring_of(record: JSONObject) -> str:
    """The record's scoring: "pool" when its rules say so, else "classic"."""
    rules = record.get("rules")
    return "pool" if isinstance(rules, dict) and rules.get("scoring") == "pool" else "classic"


class Figures(NamedTuple):
    """Games played and lost, deals kept clean and points, with their shares."""

    games: int
    lost: int
    deals: int
    clean_deals: int
    points: int

    def as_dict(self) -> JSONObject:
        return {"games": self.games, "lost": self.lost, "deals": self.deals,
                "clean_deals": self.clean_deals, "points": self.points,
                "points_per_deal": self.points / self.deals if self.deals else 0.0,
                "clean_share": self.clean_deals / self.deals if self.deals else 0.0,
                "lost_share": self.lost / self.games if self.games else 0.0}


def _bots(options: JSONObject | None, record: JSONObject | None) -> list[str]:
    if isinstance(options, dict) and isinstance(options.get("bots"), (list, tuple)):
        return [str(b) for b in options["bots"]]
    if isinstance(record, dict) and isinstance(record.get("players"), list):
        return [str(p.get("bot", "?")) for p in record["players"][1:] if isinstance(p, dict)]
    return []


def difficulty_of(options: JSONObject | None, record: JSONObject | None = None) -> str:
    """One word for the opponents' level: their shared level, else "mixed"."""
    bots = _bots(options, record)
    if not bots:
        return "unknown"
    return bots[0] if len(set(bots)) == 1 else "mixed"


def opponents_of(options: JSONObject | None, record: JSONObject | None = None) -> str:
    """The three opponents' levels, short: "easy x3" or "easy, hard, normal"."""
    bots = _bots(options, record)
    if not bots:
        return "?"
    if len(set(bots)) == 1:
        return f"{bots[0]} x{len(bots)}"
    return ", ".join(bots)


def result_text(lost: bool, losers: list[int], finished: bool = True) -> str:
    if not finished:
        return "unfinished"
    if lost:
        return "under the table" if len(losers) <= 1 else "under the table (shared)"
    return "draw" if not losers else "safe"


def _complete_deals(record: JSONObject) -> list[JSONObject]:
    deals = [d for d in record.get("deals") or [] if isinstance(d, dict)]
    return [d for d in deals if isinstance(d.get("points"), list) and len(d["points"]) == 4]


def _totals(record: JSONObject) -> list[int]:
    """The record's totals; for a record without them, the engine's (from its deals)."""
    totals = record.get("totals")
    if isinstance(totals, list) and len(totals) == 4:
        return [int(t) for t in totals]
    from ..engine import Game, RecordError

    try:
        return list(Game.from_record(record).totals)
    except RecordError:
        return [0, 0, 0, 0]


def _losers(record: JSONObject, totals: list[int], finished: bool) -> list[int]:
    if not finished:
        return []
    losers = record.get("losers")
    if isinstance(losers, list):
        return [int(s) for s in losers]
    from ..engine.game import lowest

    return list(lowest(totals))


def seed_of(record: JSONObject) -> int | None:
    seed = record.get("seed")
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else None


def challenge_of(record: JSONObject) -> tuple[str | None, list[int] | None]:
    """The challenge's date and the expert's points per deal (None until known), or
    (None, None) for a game that is no daily challenge (or whose field cannot be read)."""
    field = record.get("challenge")
    if not isinstance(field, dict):
        return None, None
    date = field.get("date")
    if not isinstance(date, str) or not date:
        return None, None
    ref = field.get("reference")
    if not isinstance(ref, list) or not all(
            isinstance(p, int) and not isinstance(p, bool) for p in ref):
        return date, None
    return date, list(ref)


def challenge_diff(record: JSONObject, finished: bool = True) -> int | None:
    """South's points minus the expert's over the challenge's deals: None for a game that is
    no challenge, is unfinished, or whose reference is not known yet. Points are good in Nil,
    so a positive difference means South scored more than the expert did."""
    _, ref = challenge_of(record)
    if ref is None or not finished:
        return None
    complete = _complete_deals(record)
    if len(ref) < len(complete):
        return None
    return sum(int(d["points"][0]) for d in complete) - sum(ref[:len(complete)])


def summarize(record: JSONObject, options: JSONObject | None,
              finished: bool = True) -> GameSummary:
    """What history and statistics keep of a game, from South's side (seat 0). An unfinished
    game has no losers yet: it is neither lost nor won. A game in which plays were taken back
    is "assisted": its level and opponents say so, so statistics keep it apart; so is a game
    scored with the pool (its points are not the classic scoring's)."""
    complete = _complete_deals(record)
    totals = _totals(record)
    losers = _losers(record, totals, finished)
    clean = sum(1 for d in complete
                if isinstance(d.get("taken"), list) and d["taken"] and d["taken"][0] == 0)
    lost = 0 in losers
    assisted = bool(record.get("undone") or record.get("assists"))
    scoring = scoring_of(record)
    mark = (POOL if scoring == "pool" else "") + (ASSISTED if assisted else "")
    return GameSummary(
        seed=seed_of(record), difficulty=difficulty_of(options, record) + mark,
        opponents=opponents_of(options, record) + mark, deals=len(complete), totals=totals,
        losers=losers, lost=lost, result=result_text(lost, losers, finished),
        clean_deals=clean, points=sum(int(d["points"][0]) for d in complete),
        assisted=assisted, challenge=challenge_of(record)[0],
        challenge_diff=challenge_diff(record, finished), scoring=scoring)


def fingerprint(record: JSONObject) -> str:
    """The same game gives the same fingerprint whenever its record was written (and
    whether or not the expert's reference of its challenge was known yet)."""
    same = {k: v for k, v in record.items() if k not in ("created", "app_version")}
    if isinstance(same.get("challenge"), dict):
        same["challenge"] = {k: v for k, v in same["challenge"].items() if k != "reference"}
    import hashlib  # (when a game is kept: not for opening the store)

    text = json.dumps(same, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def seed_text(seed: int | None) -> str | None:
    """A seed as the store keeps it: text, so that any integer fits (SQLite's INTEGER stops at
    2**63 - 1)."""
    if seed is None:
        return None
    try:
        return str(seed)
    except ValueError:  # more digits than Python converts to text
        return None


def seed_from_text(text: object) -> int | None:
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    if not isinstance(text, str):
        return None
    try:
        return int(text)
    except ValueError:
        return None


def seed_label(seed: int | None) -> str:
    """The seed as it appears in a record file name: short and safe whatever its size."""
    text = seed_text(seed)
    if text is None:
        return "none"
    if len(text) <= LONG_SEED:
        return text
    import hashlib

    digest = hashlib.sha256(text.encode("ascii")).hexdigest()[:10]
    return f"{text[:12]}-{digest}"
