"""The scoring of a deal, in one place: "classic" (the translated rules, the default) and
"pool" (Florent Barraco's original: the points build up in a pool that a clean player collects).

A deal is played the same way under both (the early end: the moment every seat has taken a
trick); only what its result is worth differs, and, under the pool, a tie-break deal may follow
one in which two players stayed clean. :class:`DealRule` is what one deal needs to know of the
game (the scoring, the pool before it, the seats of a tie-break, whether it is the first deal);
:meth:`DealRule.settle` turns the tricks taken into a :class:`Settlement`, and
:meth:`DealRule.after` gives the next deal's rule. ``Deal.points`` and ``Game.totals`` read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

CLASSIC = "classic"
POOL = "pool"
SCORINGS = (CLASSIC, POOL)
DEFAULT_SCORING = CLASSIC
# What a perfect game (a clean deal or a sweep in the very first deal of a pool game) is worth
# to a search, in points: it ends the game at once with the other three under the table, so it
# is worth more than any pool of a first deal (always empty).
PERFECT_WORTH = 20.0


def check_scoring(scoring: object) -> str:
    """The scoring's name, or ValueError naming the ones there are."""
    if scoring not in SCORINGS:
        raise ValueError(f"scoring must be one of {', '.join(SCORINGS)}, not {scoring!r}")
    return str(scoring)


def classic_points(taken: Sequence[int], early: bool) -> tuple[int, int, int, int]:
    """Points of a finished deal under the classic scoring (RULES.md): 1 each after an early
    end; 3 for the only clean player; 1 each for two clean players; 3 for a sweep."""
    clean = [s for s in range(4) if taken[s] == 0]
    if early or not clean:
        return (1, 1, 1, 1)
    pts = [0, 0, 0, 0]
    if len(clean) == 1:
        pts[clean[0]] = 3
    elif len(clean) == 2:
        pts[clean[0]] = pts[clean[1]] = 1
    else:  # three clean: the fourth player took every trick
        pts[next(s for s in range(4) if taken[s])] = 3
    return (pts[0], pts[1], pts[2], pts[3])


class Settlement(NamedTuple):
    """What a finished deal did to the scores.

    ``points``: the change of each seat's total. ``pool``: the pool after the deal (always 0
    under the classic scoring). ``paid``: what each seat paid into the pool. ``collected``: the
    seats that took (a share of) the pool, and ``share`` what each took. ``tiebreak``: the two
    seats of the tie-break deal that must follow (an odd pool they could not share), else ().
    ``perfect``: the seat whose clean deal or sweep in the first deal ends the game at once (the
    other three crawl under the table), else None."""

    points: tuple[int, int, int, int]
    pool: int = 0
    paid: tuple[int, int, int, int] = (0, 0, 0, 0)
    collected: tuple[int, ...] = ()
    share: int = 0
    tiebreak: tuple[int, ...] = ()
    perfect: int | None = None


class DealRule(NamedTuple):
    """What one deal must know of its game to end and be scored.

    ``scoring``: CLASSIC or POOL. ``pool``: the pool before the deal. ``tiebreak``: the two
    seats of a tie-break deal (it ends the moment one of them takes a trick), () for an agreed
    deal. ``first``: the game's first deal (under the pool, a clean deal or a sweep in it is a
    perfect game)."""

    scoring: str = CLASSIC
    pool: int = 0
    tiebreak: tuple[int, ...] = ()
    first: bool = False

    @property
    def is_pool(self) -> bool:
        return self.scoring == POOL

    def settle(self, taken: Sequence[int], early: bool) -> Settlement:
        """The deal's result from the tricks each seat took and whether it ended early."""
        if self.scoring != POOL:
            return Settlement(classic_points(taken, early))
        pool = self.pool
        pair = self.tiebreak
        if pair:
            return _settle_tiebreak(taken, pool, pair)
        clean = [s for s in range(4) if taken[s] == 0]
        if early or not clean:  # everyone took a trick: each pays a point per trick
            paid = (taken[0], taken[1], taken[2], taken[3])
            return Settlement((-paid[0], -paid[1], -paid[2], -paid[3]), pool + sum(paid), paid)
        if len(clean) == 2:
            a, b = clean
            if pool % 2:  # an odd pool: a tie-break deal decides who collects it
                return Settlement((0, 0, 0, 0), pool, tiebreak=(a, b))
            return _collect((a, b), pool, pool // 2, 0)
        # one clean player, or three (one player swept the 13 tricks): one collects
        winner = clean[0] if len(clean) == 1 else next(s for s in range(4) if taken[s])
        settled = _collect((winner,), pool, pool, 0)
        return settled._replace(perfect=winner) if self.first else settled

    def points(self, taken: Sequence[int], early: bool) -> tuple[int, int, int, int]:
        """The change of each total (``settle(...).points``)."""
        if self.scoring != POOL:
            return classic_points(taken, early)
        return self.settle(taken, early).points

    def worth(self, taken: Sequence[int], early: bool) -> tuple[float, float, float, float]:
        """What the deal's result is worth to each seat, for a search: its points, except that
        the two seats of a tie-break to come may each expect half the pool, and a perfect game
        is worth ``PERFECT_WORTH`` to its player."""
        if self.scoring != POOL:
            p = classic_points(taken, early)
            return (float(p[0]), float(p[1]), float(p[2]), float(p[3]))
        s = self.settle(taken, early)
        out = [float(x) for x in s.points]
        for seat in s.tiebreak:
            out[seat] += s.pool / 2
        if s.perfect is not None:
            out[s.perfect] += PERFECT_WORTH
        return (out[0], out[1], out[2], out[3])

    def after(self, settled: Settlement) -> DealRule:
        """The rule of the deal that follows one settled so."""
        return DealRule(self.scoring, settled.pool, settled.tiebreak, False)


def _collect(seats: tuple[int, ...], pool: int, share: int, left: int) -> Settlement:
    pts = [0, 0, 0, 0]
    for s in seats:
        pts[s] = share
    return Settlement((pts[0], pts[1], pts[2], pts[3]), left, collected=seats, share=share)


def _settle_tiebreak(taken: Sequence[int], pool: int, pair: tuple[int, ...]) -> Settlement:
    """A tie-break deal: the first of the two to take a trick hands the pool to the other;
    both clean through the 13 tricks share what divides evenly, the odd point stays."""
    a, b = pair
    if taken[a] and not taken[b]:
        return _collect((b,), pool, pool, 0)
    if taken[b] and not taken[a]:
        return _collect((a,), pool, pool, 0)
    if not taken[a] and not taken[b]:
        return _collect((a, b), pool, pool // 2, pool % 2)
    raise ValueError("a tie-break deal ends the moment one of its two players takes a trick")


def first_rule(scoring: str) -> DealRule:
    """The rule of a game's first deal."""
    return DealRule(check_scoring(scoring), 0, (), scoring == POOL)


CLASSIC_RULE = DealRule()


def lowest(totals: Sequence[int]) -> tuple[int, ...]:
    """Seats with the lowest total; empty when all four are level (a draw)."""
    low = min(totals)
    seats = tuple(s for s in range(4) if totals[s] == low)
    return () if len(seats) == 4 else seats


def losers(totals: Sequence[int], perfect: int | None) -> tuple[int, ...]:
    """Who crawls under the table: after a perfect game the other three, else the lowest
    total(s) (nobody when all four are level)."""
    if perfect is not None:
        return tuple(s for s in range(4) if s != perfect)
    return lowest(totals)


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def describe_pool(settled: Settlement, taken: Sequence[int], names: Sequence[str]) -> str:
    """What a pool deal did to the pool, in the player's words ("East stayed clean and
    collects the pool: 7 points")."""
    if settled.tiebreak:
        a, b = settled.tiebreak
        return (f"{names[a]} and {names[b]} stayed clean but cannot share a pool of "
                f"{settled.pool}: a tie-break deal decides who collects it.")
    if settled.perfect is not None:
        s = settled.perfect
        how = "took every trick" if taken[s] else "stayed clean"
        return (f"{names[s]} {how} in the first deal: a perfect game! The other three crawl "
                f"under the table.")
    if settled.collected:
        who = settled.collected
        left = f"; {_points(settled.pool)} stay in the pool" if settled.pool else ""
        if len(who) == 2:
            return (f"{names[who[0]]} and {names[who[1]]} share the pool: "
                    f"{_points(settled.share)} each{left}.")
        s = who[0]
        how = ("took every trick and" if taken[s] == 13 else
               "stayed clean longer and" if sum(taken) < 13 else "stayed clean and")
        verb = "collect" if names[s].lower() == "you" else "collects"
        return f"{names[s]} {how} {verb} the pool: {_points(settled.share)}."
    paid = sum(settled.paid)
    return (f"Everyone took a trick: {_points(paid)} paid into the pool, "
            f"which now holds {settled.pool}.")
