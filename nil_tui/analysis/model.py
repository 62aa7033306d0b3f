"""The results of an analysis: per decision the figures of each legal card and the cost of the
card played, in plain words and as JSON (docs/ANALYSIS.md describes both)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from ..engine import Card

ANALYSIS_VERSION = 1
FORMAT = "nil-tui-analysis"
DIGITS = 4  # figures are kept rounded to this many decimals, so JSON gives them back exactly
MAX_POINTS = 3.0  # a seat scores 0, 1 or 3 points in a deal (classic scoring)


def point_bounds(pool: int | None) -> tuple[float, float]:
    """The lowest and highest figure a deal's points can have: 0 to 3 under the classic
    scoring; under the pool (``pool``: the pool before the deal), paying for 13 tricks up to
    collecting the pool, or a perfect game's worth (engine/scoring.py)."""
    if pool is None:
        return 0.0, MAX_POINTS
    from ..engine.scoring import PERFECT_WORTH

    return -13.0, pool + PERFECT_WORTH


def rounded(x: float) -> float:
    """A figure as it is kept (and written): to DIGITS decimals, never -0.0."""
    return round(x, DIGITS) + 0.0


class BadAnalysis(ValueError):
    """JSON that is not an analysis written by ``DealAnalysis.to_json``: the message names the
    field."""


@dataclass(frozen=True)
class Option:
    """One legal card of a decision: the seat's expected points for the rest of the deal if it
    plays this card (from its view at the time), their standard error, and the chance that the
    seat ends the deal without having taken a trick (0.0 when it had already taken one)."""

    card: Card
    points: float
    se: float
    clean: float


@dataclass(frozen=True)
class Decision:
    """One card a seat played, against the other cards it could have played.

    ``best`` is the card with the most expected points; ``cost`` is what the card played gave
    away against it (the mean of their difference over the same layouts, never negative) and
    ``cost_se`` its standard error. ``forced``: every legal card came to the same (one card,
    or cards of one run that no card still in play separates), so nothing was searched,
    ``options`` is empty and the cost is 0. ``took_trick``: the card played won its trick
    (False while the trick is unfinished); ``was_clean``: the seat had taken no trick before
    this one. ``legal`` lists the cards the seat could play; ``layouts`` says how many layouts
    of the hidden cards the figures come from.
    """

    deal: int
    trick: int
    seat: int
    played: Card
    best: Card
    cost: float
    cost_se: float
    options: tuple[Option, ...]
    forced: bool
    took_trick: bool
    was_clean: bool
    legal: tuple[Card, ...] = ()
    layouts: int = 0
    pool: int | None = None  # the pool before the deal (pool scoring), None under the classic

    @property
    def no_choice(self) -> str | None:
        """Why a forced decision had no choice, in two or three words: "only card" (one
        legal card) or "all the same" (every legal card came to the same); None when the
        seat had a choice."""
        if not self.forced:
            return None
        return "only card" if len(self.legal) <= 1 else "all the same"

    def option(self, card: Card) -> Option | None:
        """The figures of one legal card (None for a forced decision)."""
        for o in self.options:
            if o.card == card:
                return o
        return None

    def sentence(self, ascii: bool = False, subject: str | None = None) -> str:
        """The decision in plain words, e.g. "Trick 3: 9♠ instead of 4♠ cost about 0.4 points:
        you took the trick and lost your clean deal." Cards are written as the game writes
        them (9S with ``ascii``). ``subject`` names the seat in the third person ("West
        took the trick and lost their clean deal"); None speaks to the player ("you").

        Every reason given is a fact of the deal (the card played won the trick; the seat was
        clean before it) or an estimate said to be one (the chance to stay clean)."""
        you = subject is None
        who = "you" if you else subject
        whose = "your" if you else f"{subject}'s"
        played = self.played.pretty(ascii)
        head = f"Trick {self.trick}: "
        if self.forced:
            if len(self.legal) <= 1:
                return head + f"{played} was {whose} only card to play."
            return head + f"{played} (every card {who} could play came to the same)."
        best = self.best.pretty(ascii)
        if self.played == self.best:
            return head + f"{played} was the best card."
        if round(self.cost, 1) < 0.1:
            return head + f"{played} cost next to nothing against {best}."
        text = head + f"{played} instead of {best} cost about {self.cost:.1f} points"
        if self.pool is not None:
            text += f" (the pool is {self.pool})"
        reason = self._reason(who, whose, "your" if you else "their", ascii)
        return text + (f": {reason}." if reason else ".")

    def _reason(self, who: str | None, whose: str, possessive: str, ascii: bool) -> str:
        """Why the card cost, from facts and the estimated chances to stay clean ("" when
        nothing can be said truly)."""
        mine = self.option(self.played)
        other = self.option(self.best)
        # Said only when the best card gave a clearly better chance to stay clean: then the
        # lost chance is a reason for the cost, not just something that happened.
        if not self.was_clean or mine is None or other is None or \
                other.clean - mine.clean < 0.05:
            return ""
        if self.took_trick:
            return (f"{who} took the trick and lost {possessive} clean deal; with "
                    f"{self.best.pretty(ascii)} {whose} chance to stay clean was "
                    f"{_percent(other.clean)}")
        return (f"{whose} chance to stay clean fell from {_percent(other.clean)} to "
                f"{_percent(mine.clean)}")


def _percent(x: float) -> str:
    return f"{round(100 * x)}%"


@dataclass(frozen=True)
class DealAnalysis:
    """The decisions of one seat in one deal, in the order it played them. ``finished``: the
    deal was over when it was analysed (an unfinished one is analysed up to its last card)."""

    deal: int
    seat: int
    decisions: tuple[Decision, ...]
    finished: bool = True
    pool: int | None = None  # the pool before the deal (pool scoring), None under the classic

    def costly(self, threshold: float = 0.1) -> list[Decision]:
        """The decisions that cost ``threshold`` points or more, the costliest first. Costs
        are compared as they are shown, to two decimals (a cost of 0.0972 shows as 0.10)."""
        found = [d for d in self.decisions if round(d.cost, 2) >= threshold - 1e-9]
        return sorted(found, key=lambda d: -d.cost)

    @property
    def total_cost(self) -> float:
        """What the seat's cards gave away in this deal, added up."""
        return rounded(math.fsum(d.cost for d in self.decisions))

    @property
    def total_cost_se(self) -> float:
        """The standard error of ``total_cost`` (the decisions are searched independently)."""
        return rounded(math.sqrt(math.fsum(d.cost_se ** 2 for d in self.decisions)))

    def with_deal(self, deal: int) -> DealAnalysis:
        """The same analysis numbered as deal ``deal`` (one deal's analysis serves any game
        that holds the same cards and plays)."""
        return replace(self, deal=deal,
                       decisions=tuple(replace(d, deal=deal) for d in self.decisions))

    def to_json(self) -> dict[str, Any]:
        """The analysis as JSON-ready data (docs/ANALYSIS.md)."""
        return {
            "format": FORMAT,
            "version": ANALYSIS_VERSION,
            "deal": self.deal,
            "seat": self.seat,
            "finished": self.finished,
            "total_cost": self.total_cost,
            "total_cost_se": self.total_cost_se,
            "decisions": [_decision_json(d) for d in self.decisions],
            **({} if self.pool is None else {"pool": self.pool}),
        }

    @classmethod
    def from_json(cls, data: Any) -> DealAnalysis:
        """An analysis written by ``to_json``; BadAnalysis (a ValueError) naming the field for
        anything else, another version included."""
        top = _object(data, "analysis")
        if top.get("format") != FORMAT:
            raise BadAnalysis(f"analysis: format must be {FORMAT!r}")
        if top.get("version") != ANALYSIS_VERSION or isinstance(top.get("version"), bool):
            raise BadAnalysis(f"analysis: version must be {ANALYSIS_VERSION}")
        deal = _whole(top.get("deal"), "analysis.deal", 1, 99)
        seat = _whole(top.get("seat"), "analysis.seat", 0, 3)
        finished = _flag(top.get("finished"), "analysis.finished")
        pool = None if top.get("pool") is None else _whole(top.get("pool"), "analysis.pool",
                                                             0, 10**6)
        low, high = point_bounds(pool)
        items = top.get("decisions")
        if not isinstance(items, list) or len(items) > 13:
            raise BadAnalysis("analysis.decisions: expected a list of at most 13 decisions")
        decisions = tuple(_read_decision(item, f"analysis.decisions[{k}]", deal, seat,
                                         (low, high), pool)
                          for k, item in enumerate(items))
        tricks = [d.trick for d in decisions]
        if tricks != sorted(set(tricks)):
            raise BadAnalysis("analysis.decisions: expected one decision per trick, in order")
        analysis = cls(deal, seat, decisions, finished, pool)
        for name in ("total_cost", "total_cost_se"):
            if name in top and _figure(top[name], f"analysis.{name}", 0.0,
                                       13 * (high - low)) != \
                    getattr(analysis, name):
                raise BadAnalysis(f"analysis.{name}: does not match the decisions")
        return analysis


def _option_json(o: Option) -> dict[str, Any]:
    return {"card": str(o.card), "points": o.points, "se": o.se, "clean": o.clean}


def _decision_json(d: Decision) -> dict[str, Any]:
    return {
        "deal": d.deal,
        "trick": d.trick,
        "seat": d.seat,
        "played": str(d.played),
        "best": str(d.best),
        "cost": d.cost,
        "cost_se": d.cost_se,
        "forced": d.forced,
        "took_trick": d.took_trick,
        "was_clean": d.was_clean,
        "legal": [str(c) for c in d.legal],
        "layouts": d.layouts,
        "options": [_option_json(o) for o in d.options],
    }


# --- reading, with every field checked -------------------------------------------------------
def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadAnalysis(f"{where}: expected an object")
    return value


def _whole(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadAnalysis(f"{where}: expected a whole number from {low} to {high}")
    return value


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise BadAnalysis(f"{where}: expected true or false")
    return value


def _figure(value: Any, where: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not math.isfinite(value) or not low <= value <= high:
        raise BadAnalysis(f"{where}: expected a number from {low:g} to {high:g}")
    if rounded(float(value)) != value:
        raise BadAnalysis(f"{where}: expected at most {DIGITS} decimals")
    return float(value)


def _card(value: Any, where: str) -> Card:
    if not isinstance(value, str) or len(value) != 2:
        raise BadAnalysis(f"{where}: expected a two-character card code")
    try:
        return Card.parse(value)
    except ValueError:
        raise BadAnalysis(f"{where}: not a card code") from None


def _read_option(value: Any, where: str, was_clean: bool,
                 bounds: tuple[float, float] = (0.0, MAX_POINTS)) -> Option:
    item = _object(value, where)
    if set(item) != {"card", "points", "se", "clean"}:
        raise BadAnalysis(f"{where}: expected the fields card, points, se and clean")
    clean = _figure(item["clean"], f"{where}.clean", 0.0, 1.0)
    if clean and not was_clean:
        raise BadAnalysis(f"{where}.clean: the seat had taken a trick already")
    return Option(_card(item["card"], f"{where}.card"),
                  _figure(item["points"], f"{where}.points", bounds[0], bounds[1]),
                  _figure(item["se"], f"{where}.se", 0.0, bounds[1] - bounds[0]), clean)


_DECISION_FIELDS = {"deal", "trick", "seat", "played", "best", "cost", "cost_se", "forced",
                    "took_trick", "was_clean", "legal", "layouts", "options"}


def _read_fields(value: Any, where: str, deal: int, seat: int) -> dict[str, Any]:
    """A decision's object: exactly its fields, for this analysis's deal and seat."""
    item = _object(value, where)
    if set(item) != _DECISION_FIELDS:
        missing = sorted(_DECISION_FIELDS - set(item))
        extra = sorted(set(item) - _DECISION_FIELDS)
        raise BadAnalysis(f"{where}: " + (f"missing {', '.join(missing)}" if missing
                                         else f"unknown field {extra[0]!r}"))
    if item["deal"] != deal or isinstance(item["deal"], bool):
        raise BadAnalysis(f"{where}.deal: expected {deal}, the analysis's deal")
    if item["seat"] != seat or isinstance(item["seat"], bool):
        raise BadAnalysis(f"{where}.seat: expected {seat}, the analysis's seat")
    return item


def _read_legal(value: Any, where: str, played: Card) -> tuple[Card, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= 13:
        raise BadAnalysis(f"{where}: expected a list of 1 to 13 cards")
    legal = tuple(_card(c, f"{where}[{k}]") for k, c in enumerate(value))
    if len(set(legal)) != len(legal) or played not in legal:
        raise BadAnalysis(f"{where}: expected different cards, the card played among them")
    return legal


def _read_decision(value: Any, where: str, deal: int, seat: int,
                   bounds: tuple[float, float] = (0.0, MAX_POINTS),
                   pool: int | None = None) -> Decision:
    item = _read_fields(value, where, deal, seat)
    trick = _whole(item["trick"], f"{where}.trick", 1, 13)
    played = _card(item["played"], f"{where}.played")
    best = _card(item["best"], f"{where}.best")
    forced = _flag(item["forced"], f"{where}.forced")
    was_clean = _flag(item["was_clean"], f"{where}.was_clean")
    took = _flag(item["took_trick"], f"{where}.took_trick")
    spread = bounds[1] - bounds[0]
    cost = _figure(item["cost"], f"{where}.cost", 0.0, spread)
    cost_se = _figure(item["cost_se"], f"{where}.cost_se", 0.0, spread)
    layouts = _whole(item["layouts"], f"{where}.layouts", 0, 10**9)
    legal = _read_legal(item["legal"], f"{where}.legal", played)
    raw = item["options"]
    if not isinstance(raw, list):
        raise BadAnalysis(f"{where}.options: expected a list")
    options = tuple(_read_option(o, f"{where}.options[{k}]", was_clean, bounds)
                    for k, o in enumerate(raw))
    if forced:
        if options or best != played or cost or cost_se or layouts:
            raise BadAnalysis(f"{where}: a forced decision has no options, no cost and its "
                             "best card is the card played")
    elif [o.card for o in options] != list(legal) or best not in legal:
        raise BadAnalysis(f"{where}.options: expected one option per legal card, in order, "
                         "the best card among them")
    return Decision(deal, trick, seat, played, best, cost, cost_se, options, forced, took,
                    was_clean, legal, layouts, pool)
