"""Analysis of a seat's plays: for each card it played, the expert's estimate of the seat's
points for the rest of the deal with each legal card, from what the seat could see at the
time, and what the card played cost against the best one.

UI-free and blocking: call :func:`analyse_deal` from a thread; it spreads the decisions over
worker processes (see :mod:`.workers`). The figures depend only on the deal, the seat and the
budget, never on the machine, the time or the number of workers. docs/ANALYSIS.md says what
they mean.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine import DECK, Card, Deal, Game, PlayerView
from .estimate import (
    DEFAULT_BUDGET,
    Budget,
    DecisionFigures,
    choices,
    clean_chance,
    run_of,
)
from .model import ANALYSIS_VERSION, BadAnalysis, DealAnalysis, Decision, Option, rounded
from .workers import AnalysisFailed, Task, default_jobs, run_tasks

__all__ = [
    "ANALYSIS_VERSION", "DEFAULT_BUDGET", "AnalysisFailed", "BadAnalysis", "Budget", "DealAnalysis",
    "Decision", "Option", "analyse_deal", "analyse_game", "cache_key", "clean_chance",
    "default_jobs",
]


def _check(game: Game, deal: int, seat: int) -> Deal:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise ValueError(f"a seat is 0..3, not {seat!r}")
    if isinstance(deal, bool) or not isinstance(deal, int) or \
            not 1 <= deal <= len(game.deals):
        raise ValueError(f"the game has deals 1 to {len(game.deals)}, not {deal!r}")
    return game.deals[deal - 1]


def _plays(deal: Deal) -> list[Card]:
    """Every card played in the deal, in order."""
    return [c for t in deal.tricks for c in t.cards] + list(deal.trick)


def cache_key(game: Game, deal: int, seat: int) -> str:
    """The content address of a deal's analysis for a seat: a digest of the deal's cards as
    dealt, its dealer, its plays, the seat and ANALYSIS_VERSION (with the default budget). The
    same deal played the same way gives the same key in any game."""
    d = _check(game, deal, seat)
    text = json.dumps({
        "analysis": ANALYSIS_VERSION,
        "seat": seat,
        "dealer": d.dealer,
        "hands": [[str(c) for c in d.dealt_hand(s)] for s in range(4)],
        "plays": [str(c) for c in _plays(d)],
        # (under the pool the figures depend on the pool and a tie-break's seats)
        **({"rule": list(d.rule)} if d.rule.is_pool else {}),
    }, separators=(",", ":"), sort_keys=True)
    return "analysis:" + hashlib.sha256(text.encode("ascii")).hexdigest()


@dataclass(frozen=True)
class _Point:
    """A decision of the seat, as it stood before the card was played."""

    deal: int
    trick: int
    view: PlayerView
    played: Card
    took_trick: bool
    moves: list[int]

    @property
    def forced(self) -> bool:
        return len(self.moves) == 1


def _points(game: Game, number: int, seat: int) -> list[_Point]:
    """The seat's decisions in deal ``number``, replayed from the hands as dealt."""
    deal = game.deals[number - 1]
    replay = Deal(list(deal.dealt), deal.dealer, deal.rule)  # (the scoring, the pool)
    replay.context = deal.context
    tricks = deal.tricks
    out = []
    for ply, card in enumerate(_plays(deal)):
        if replay.to_move == seat:
            view = replay.view(seat)
            done = ply // 4
            took = done < len(tricks) and tricks[done].winner == seat
            out.append(_Point(number, replay.trick_number, view, card, took, choices(view)))
        replay.play(card)
    return out


def _decision(point: _Point, figures: DecisionFigures | None) -> Decision:
    view = point.view
    was_clean = view.taken[view.seat] == 0
    pool = view.rule.pool if view.rule.is_pool else None
    if figures is None:
        return Decision(point.deal, point.trick, view.seat, point.played, point.played, 0.0,
                        0.0, (), True, point.took_trick, was_clean, view.legal, 0, pool)
    options = []
    for card in view.legal:
        f = figures.cards[run_of(card.index, point.moves)]
        options.append(Option(card, rounded(f.points), rounded(f.se),
                              rounded(f.clean) if was_clean else 0.0))
    best = point.played if figures.best == run_of(point.played.index, point.moves) \
        else DECK[figures.best]
    return Decision(point.deal, point.trick, view.seat, point.played, best,
                    rounded(figures.cost), rounded(figures.cost_se), tuple(options), False,
                    point.took_trick, was_clean, view.legal, figures.layouts, pool)


def _work(point: _Point, budget: Budget) -> int:
    """A rough measure of a decision's work, to hand out the longest first."""
    n = len(point.moves)
    return min(n * budget.max_layouts, max(budget.max_playouts, n * budget.min_layouts)) * \
        sum(point.view.hand_sizes)


def analyse_game(game: Game, seat: int, deals: Sequence[int] | None = None, *,
                 jobs: int | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 should_stop: Callable[[], bool] | None = None,
                 budget: Budget = DEFAULT_BUDGET) -> list[DealAnalysis] | None:
    """The analyses of several deals of a game (every deal when ``deals`` is None), in the
    order asked, their decisions shared by one set of workers. See :func:`analyse_deal`."""
    numbers = list(range(1, len(game.deals) + 1)) if deals is None else list(deals)
    for number in numbers:
        _check(game, number, seat)
    if jobs is None:
        jobs = default_jobs()
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise ValueError(f"jobs must be a whole number of at least 0, not {jobs!r}")
    if should_stop is not None and should_stop():
        return None
    plans = [_points(game, number, seat) for number in numbers]
    points = [p for plan in plans for p in plan]
    searched = sorted((k for k, p in enumerate(points) if not p.forced),
                      key=lambda k: -_work(points[k], budget))
    tasks: list[Task] = [(points[k].view, points[k].played.index, budget) for k in searched]
    found: dict[int, DecisionFigures] = {}
    total = len(points)
    done = total - len(tasks)

    def on_done(index: int, figures: DecisionFigures) -> None:
        nonlocal done
        found[searched[index]] = figures
        done += 1
        if progress is not None:
            progress(done, total)

    if progress is not None:
        progress(done, total)
    if not run_tasks(tasks, jobs, on_done, should_stop):
        return None
    out = []
    k = 0
    for number, plan in zip(numbers, plans):
        decisions = []
        for point in plan:
            decisions.append(_decision(point, found.get(k)))
            k += 1
        rule = game.deals[number - 1].rule
        out.append(DealAnalysis(number, seat, tuple(decisions),
                                game.deals[number - 1].is_over,
                                rule.pool if rule.is_pool else None))
    return out


def analyse_deal(game: Game, deal: int, seat: int, *, jobs: int | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 should_stop: Callable[[], bool] | None = None,
                 budget: Budget = DEFAULT_BUDGET) -> DealAnalysis | None:
    """The analysis of ``seat``'s decisions in deal ``deal`` (1-based) of ``game``, up to the
    last card played when the deal is unfinished.

    Blocking: call it from a thread. The decisions are searched on ``jobs`` worker processes
    (default: the cores, at most 4; 0 searches in the calling thread); ``progress(done,
    total)`` is called after each decision; None as soon as ``should_stop()`` says stop (the
    workers are ended first). Deterministic: the same deal, seat and budget give the same
    figures on every run and machine, with any number of workers. ValueError for a deal or
    seat the game does not have."""
    found = analyse_game(game, seat, [deal], jobs=jobs, progress=progress,
                         should_stop=should_stop, budget=budget)
    return None if found is None else found[0]
