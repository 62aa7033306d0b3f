"""The expert's estimate of one decision, from the deciding seat's view only.

For each layout of the hidden cards drawn by the expert's sampler (posterior layouts: the
opponents' plays so far make some layouts likelier than others), every distinct legal card is
played and the deal finished: by the rules of thumb for all four seats, or near the end of the
deal by exact search in which every other seat plays for its edge and the analysed seat for its
own points. A card's figure is the seat's mean points over the layouts; every card is tried on
the same layouts, so the difference between two cards is measured layout by layout (paired),
which makes it far more precise than either figure alone.

Every budget counts work (layouts, search nodes), never time, and the random stream of a
decision is derived from what the seat could see, so the figures are the same on every run and
every machine.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..bots.knowledge import Knowledge, posterior_layouts
from ..bots.search import Utility, distinct_moves, edge_utility, maxn, rollout
from ..engine import DECK, Deal, PlayerView, mask_of


@dataclass(frozen=True)
class Budget:
    """How much work one decision gets.

    Layouts are drawn in batches of ``batch``; after ``min_layouts`` the search stops at the
    end of a batch once the cost of every card against the best one is known to within
    ``target_se`` (one standard error; a clearly bad card to within a twentieth of its cost),
    and in any case at ``max_layouts``, or at the batch that brings the playouts (layouts
    times distinct cards) to ``max_playouts``: a lead from thirteen different cards gets fewer
    layouts, each of them worth more. With at most
    ``endgame`` cards left in all hands, each layout is searched exactly (up to
    ``endgame_nodes`` nodes per card, beyond which the search finishes by the rules of thumb).
    ``eps`` is the sampler's chance that an opponent strayed from the rules of thumb.
    """

    batch: int = 100
    min_layouts: int = 300
    max_layouts: int = 2000
    max_playouts: int = 12000
    target_se: float = 0.02
    endgame: int = 12
    endgame_nodes: int = 4000
    eps: float = 0.1

    def __post_init__(self) -> None:
        for name in ("batch", "min_layouts", "max_layouts", "max_playouts", "endgame_nodes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number of at least 1, not {value!r}")
        if self.max_layouts < self.min_layouts:
            raise ValueError("max_layouts must be at least min_layouts")
        # Exact search starts after the first trick at the earliest (48 cards left).
        if isinstance(self.endgame, bool) or not isinstance(self.endgame, int) or \
                not 0 <= self.endgame <= 48:
            raise ValueError(f"endgame must be a whole number from 0 to 48, not "
                             f"{self.endgame!r}")
        if not (self.target_se >= 0 and math.isfinite(self.target_se)):
            raise ValueError(f"target_se must be a number of at least 0, not "
                             f"{self.target_se!r}")
        if not 0 <= self.eps < 1:
            raise ValueError(f"eps must be at least 0 and below 1, not {self.eps!r}")


DEFAULT_BUDGET = Budget()


@dataclass(frozen=True)
class CardFigures:
    """One distinct card's figures: mean points, their standard error, the share of layouts
    in which the seat ended the deal clean."""

    points: float
    se: float
    clean: float


@dataclass(frozen=True)
class DecisionFigures:
    """What the search found: figures per distinct card (by card index, the lowest card of
    each run standing for the run), the best card, the cost of the played card against it
    (mean paired difference and its standard error) and the layouts searched."""

    cards: dict[int, CardFigures]
    best: int
    cost: float
    cost_se: float
    layouts: int


def choices(view: PlayerView) -> list[int]:
    """The distinct legal cards of the view (card indices): one per run of legal cards that
    no card still in play separates, neither a card the seat cannot see nor a card on the
    table (with 7♥ winning the trick, 3♥ and A♥ are not the same card, even when every heart
    between them has gone)."""
    return distinct_moves(mask_of(view.legal), view.unseen_mask | mask_of(view.trick))


def run_of(card: int, reps: Sequence[int]) -> int:
    """The card standing for the run a legal card belongs to (the highest of ``reps`` not
    above it in its suit)."""
    return max(r for r in reps if r <= card and r // 13 == card // 13)


def decision_seed(view: PlayerView, salt: str = "decision") -> str:
    """The seed of a decision's random stream: a digest of what the seat could see (its
    cards as dealt, the dealer, every card played so far in order) and the salt. Never the
    time, the process or the hidden hands."""
    played = [str(c) for t in view.tricks for c in t.cards] + [str(c) for c in view.trick]
    dealt = sorted({c.index for c in view.hand} | {
        c.index for t in view.tricks for k, c in enumerate(t.cards)
        if (t.leader + k) & 3 == view.seat} | {
        c.index for k, c in enumerate(view.trick) if (view.leader + k) & 3 == view.seat})
    text = (f"nil-tui:analysis:{salt}:{view.seat}:{view.dealer}:"
            f"{','.join(str(DECK[i]) for i in dealt)}:{','.join(played)}")
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _own_points(seat: int) -> Utility:
    def u(points: Sequence[float]) -> float:
        return float(points[seat])

    return u


def _search_utilities(seat: int) -> list[Utility]:
    """What each seat plays for in the exact search (the analysed seat: its own points; the
    others: their edge), then whether the analysed seat ended clean, carried along the
    search's line (``maxn`` compares only the first four; its leaves are ``_leaf``'s)."""
    utils = [_own_points(s) if s == seat else edge_utility(s) for s in range(4)]
    return [*utils, _own_points(4)]


def _leaf(seat: int) -> Callable[[Deal], Sequence[float]]:
    """A finished deal as the exact search reads it: what it is worth to each seat under the
    game's scoring (``Deal.worth``), then 1.0 if ``seat`` took no trick, else 0.0."""
    def leaf(d: Deal) -> Sequence[float]:
        return (*d.worth, 0.0 if d.taken[seat] else 1.0)

    return leaf


def evaluate(view: PlayerView, budget: Budget = DEFAULT_BUDGET, played: int | None = None,
             should_stop: Callable[[], bool] | None = None) -> DecisionFigures | None:
    """The figures of every distinct legal card of ``view`` (a view of the seat to move), and
    the cost of ``played`` (a legal card index; the best card when None). None when
    ``should_stop`` (asked after each batch of layouts) said stop."""
    seat = view.seat
    if view.to_move != seat or not view.legal:
        raise ValueError("the view must be of the seat to move, with cards to play")
    moves = choices(view)
    if played is not None and not (0 <= played < 52 and DECK[played] in view.legal):
        raise ValueError(f"card index {played!r} is not a legal card of this view")
    played_rep = None if played is None else run_of(played, moves)
    know = Knowledge(view)
    rng = random.Random(decision_seed(view))
    layouts = posterior_layouts(know, rng, budget.eps)
    exact = sum(view.hand_sizes) <= budget.endgame
    utils = _search_utilities(seat)
    leaf = _leaf(seat)
    points: dict[int, list[float]] = {i: [] for i in moves}
    clean: dict[int, int] = dict.fromkeys(moves, 0)
    seen: dict[tuple[int, ...], list[tuple[float, bool]]] = {}

    def outcomes(hands: list[int]) -> list[tuple[float, bool]]:
        """Per move, on one layout: the seat's points and whether it ended clean."""
        found = []
        base = know.deal(hands)
        for i in moves:
            d = base.copy()
            d.play(DECK[i])
            if exact:
                line = maxn(d, utils, [budget.endgame_nodes], leaf)
                found.append((line[seat], line[4] == 1.0))
            else:
                found.append((rollout(d)[seat], d.taken[seat] == 0))
        return found

    n = 0
    while True:
        for _ in range(budget.batch):
            hands = next(layouts)
            if exact:  # an exact search of a layout gives the same answer every time
                key = tuple(hands)
                found = seen.get(key)
                if found is None:
                    found = seen[key] = outcomes(hands)
            else:
                found = outcomes(hands)
            for i, (value, stayed) in zip(moves, found):
                points[i].append(value)
                clean[i] += stayed
        n += budget.batch
        if should_stop is not None and should_stop():
            return None
        if n >= budget.max_layouts or (n >= budget.min_layouts and (
                n * len(moves) >= budget.max_playouts or _settled(points, budget.target_se))):
            break
    return _figures(points, clean, n, played_rep)


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return mean, 0.0
    var = math.fsum((x - mean) ** 2 for x in values) / (n - 1)
    return mean, math.sqrt(var / n)


def _best(points: dict[int, list[float]], prefer: int | None) -> int:
    """The card with the highest mean (ties: ``prefer``, else the lowest card)."""
    means = {i: math.fsum(v) / len(v) for i, v in points.items()}
    top = max(means.values())
    tied = [i for i in sorted(means) if means[i] >= top - 1e-9]
    return prefer if prefer in tied else tied[0]


def _settled(points: dict[int, list[float]], target_se: float) -> bool:
    """Whether every card's cost against the best card is known to within ``target_se``
    (one standard error), or to within a twentieth of itself for a clearly bad card (a cost
    of about 1.5 points needs no second decimal)."""
    best = _best(points, None)
    base = points[best]
    for i, vals in points.items():
        if i != best:
            cost, se = _mean_se([b - a for a, b in zip(vals, base)])
            if se > max(target_se, 0.05 * cost):
                return False
    return True


def _figures(points: dict[int, list[float]], clean: dict[int, int], n: int,
             played: int | None) -> DecisionFigures:
    cards = {}
    for i, vals in points.items():
        mean, se = _mean_se(vals)
        cards[i] = CardFigures(mean, se, clean[i] / n)
    best = _best(points, played)
    if played is None:
        played = best
    cost, cost_se = _mean_se([b - a for a, b in zip(points[played], points[best])])
    return DecisionFigures(cards, best, max(0.0, cost), cost_se, n)


def clean_chance(view: PlayerView, *, seed: int = 0, layouts: int = 300) -> float:
    """The chance that the seat of ``view`` takes no trick for the rest of the deal: the share
    of ``layouts`` layouts of the hidden cards (drawn by the expert's sampler, from the view
    only) in which the deal, finished by the rules of thumb for all four seats, leaves the seat
    clean. 0.0 once it has taken a trick; 1.0 for a clean seat once the deal is over."""
    seat = view.seat
    if view.taken[seat]:
        return 0.0
    if view.to_move is None:
        return 1.0
    if isinstance(layouts, bool) or not isinstance(layouts, int) or layouts < 1:
        raise ValueError(f"layouts must be a whole number of at least 1, not {layouts!r}")
    know = Knowledge(view)
    rng = random.Random(decision_seed(view, f"clean:{seed}"))
    drawn = posterior_layouts(know, rng, DEFAULT_BUDGET.eps)
    stayed = 0
    for _ in range(layouts):
        d = know.deal(next(drawn))
        rollout(d)
        stayed += d.taken[seat] == 0
    return stayed / layouts
