"""Determinized Monte Carlo search shared by the hard and expert levels (and the oracle).

For each of many layouts of the hidden cards (drawn consistently with everything public), every
candidate card is played through the engine and the deal is finished by the rules of thumb for
all four seats. Each card's value is its mean utility over the layouts: the searching seat's
points minus the others' mean, or late in a game the chance of not finishing lowest. Close to
the end of a deal the playouts are replaced by an exact search in which every seat plays for
its own payoff (not a paranoid "everyone against me").
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine import DECK, Card, Deal, PlayerView
from .easy import decision_rng
from .heuristic import SEG, policy_index, voids_mask
from .knowledge import Knowledge

Utility = Callable[[Sequence[int]], float]


@dataclass(frozen=True)
class SearchConfig:
    worlds: int = 40  # layouts of the hidden cards
    playouts: int = 1  # playouts per layout and candidate card
    inference: bool = False  # weight layouts by how likely the opponents' plays were
    candidates: int = 3  # layouts drawn per layout kept, when weighting
    eps: float = 0.25  # inference: chance an opponent deviates from the rules of thumb
    strict: float = 0.0  # share of layouts drawn assuming the others follow the rules of thumb
    rollout_eps: float = 0.0  # chance a playout card is random instead of the rule of thumb
    endgame: int = 0  # exact search when at most this many cards are left in all hands
    match: bool = False  # value the match (not finishing lowest) late in a game
    margin: float = 0.0  # keep the rules-of-thumb card unless another is this much better
    time_cap: float = 2.0  # safety cap in seconds; the iteration budget decides normally


def edge_utility(seat: int) -> Utility:
    def u(points: Sequence[int]) -> float:
        return points[seat] - (points[0] + points[1] + points[2] + points[3] - points[seat]) / 3

    return u


def match_utility(view: PlayerView) -> Utility:
    """Points edge, except in the last deal of a game: then mostly whether the seat ends
    lowest."""
    seat = view.seat
    left = view.deals_planned - view.deal_number  # deals after this one
    if left >= 1:
        return edge_utility(seat)
    weight = 3.0
    totals = view.totals

    def u(points: Sequence[int]) -> float:
        final = [totals[s] + points[s] for s in range(4)]
        low = min(final)
        lowest = final[seat] == low and not (final[0] == final[1] == final[2] == final[3])
        # a margin over the lowest rival is a safety cushion
        margin = min(final[s] for s in range(4) if s != seat) - final[seat]
        edge = points[seat] - (sum(points) - points[seat]) / 3
        return edge - weight * (1.0 if lowest else 0.0) + 0.1 * weight * max(-3, min(3, margin))

    return u


def rollout(d: Deal, rng: random.Random | None = None, eps: float = 0.0) -> tuple[int, ...]:
    """Finish a deal with the rules of thumb for every seat; return its points."""
    while True:
        seat = d.to_move
        if seat is None:
            return d.points
        legal = d.legal_mask()
        if legal & (legal - 1) == 0:
            i = legal.bit_length() - 1
        elif rng is not None and eps and rng.random() < eps:
            n = legal.bit_count()
            k = rng.randrange(n)
            m = legal
            for _ in range(k):
                m &= m - 1
            i = (m & -m).bit_length() - 1
        else:
            trick = d.trick
            voids = 0 if trick else voids_mask(d.tricks, trick, d.leader)
            i = policy_index(seat, d.hand_mask(seat), legal, trick, d.leader, d.taken,
                             d.played_mask, voids)
        d.play(DECK[i])


def distinct_moves(legal: int, unseen: int) -> list[int]:
    """Legal card indices, one per run of cards that no unseen card separates (playing any
    card of such a run comes to the same)."""
    out: list[int] = []
    for s in range(4):
        seg = (legal >> (13 * s)) & SEG
        if not seg:
            continue
        out_seg = (unseen >> (13 * s)) & SEG
        prev = -2
        for pos in range(13):
            if seg >> pos & 1:
                # same run as the previous legal card when no unseen card lies between
                if prev >= 0 and not (out_seg & ((1 << pos) - 1) & ~((1 << (prev + 1)) - 1)):
                    prev = pos
                    continue
                out.append(13 * s + pos)
                prev = pos
    return out


def maxn(d: Deal, seat_utils: Sequence[Utility], budget: list[int]) -> tuple[float, ...]:
    """Exact search to the end of the deal: every seat picks the card best for itself.
    Ties go to the rules-of-thumb card. ``budget`` counts nodes; it stops the search (falling
    back to a playout) when exhausted."""
    seat = d.to_move
    if seat is None:
        p: Sequence[int] = d.points
        return tuple(u(p) for u in seat_utils)
    budget[0] -= 1
    if budget[0] <= 0:
        p = rollout(d.copy())
        return tuple(u(p) for u in seat_utils)
    legal = d.legal_mask()
    if legal & (legal - 1) == 0:
        d2 = d.copy()
        d2.play(DECK[legal.bit_length() - 1])
        return maxn(d2, seat_utils, budget)
    unseen = ~d.hand_mask(seat) & ~d.played_mask  # the other seats' cards, from this seat
    moves = distinct_moves(legal, unseen & ((1 << 52) - 1))
    best: tuple[float, ...] | None = None
    best_move = -1
    pref = policy_index(seat, d.hand_mask(seat), legal, d.trick, d.leader, d.taken,
                        d.played_mask)
    for i in moves:
        d2 = d.copy()
        d2.play(DECK[i])
        v = maxn(d2, seat_utils, budget)
        if best is None or v[seat] > best[seat] + 1e-9 or (
                abs(v[seat] - best[seat]) <= 1e-9 and i == pref):
            best, best_move = v, i
    assert best is not None and best_move >= 0
    return best


class Searcher:
    """Values the legal cards of a view (or of a known deal) by determinized search."""

    def __init__(self, config: SearchConfig) -> None:
        self.config = config

    def values(self, view: PlayerView, rng: random.Random,
               deal: Deal | None = None) -> dict[int, float]:
        """Mean utility per distinct legal card index (the search's estimate)."""
        cfg = self.config
        know = Knowledge(view)
        legal = 0
        for c in view.legal:
            legal |= c.bit
        moves = distinct_moves(legal, know.unseen)
        pref = self.preferred(view, know, legal)
        if pref not in moves:  # let the rules-of-thumb card stand for its run
            rep = max(m for m in moves if m <= pref and m // 13 == pref // 13)
            moves[moves.index(rep)] = pref
        self.pref = pref
        if len(moves) == 1:
            return {moves[0]: 0.0}
        seat = view.seat
        util = match_utility(view) if cfg.match else edge_utility(seat)
        utils = [edge_utility(s) for s in range(4)]
        utils[seat] = util
        deadline = time.perf_counter() + cfg.time_cap
        totals = dict.fromkeys(moves, 0.0)
        weight_sum = 0.0
        cards_left = sum(view.hand_sizes)
        exact = cfg.endgame and cards_left <= cfg.endgame
        worlds = self._worlds(know, rng, deal)
        for hands, weight in worlds:
            base = know.deal(hands) if deal is None else deal.copy()
            for i in moves:
                d = base.copy()
                d.play(DECK[i])
                if exact:
                    total = maxn(d, utils, [4000])[seat]
                else:
                    total = 0.0
                    for k in range(cfg.playouts):
                        dd = d.copy() if k < cfg.playouts - 1 else d
                        total += util(rollout(dd, rng, cfg.rollout_eps if k else 0.0))
                    total /= cfg.playouts
                totals[i] += weight * total
            weight_sum += weight
            if time.perf_counter() > deadline:
                break
        if weight_sum <= 0:
            return totals
        return {i: v / weight_sum for i, v in totals.items()}

    @staticmethod
    def preferred(view: PlayerView, know: Knowledge, legal: int) -> int:
        return policy_index(view.seat, know.hand, legal, view.trick, view.leader, view.taken,
                            know.played, know.voids)

    def _worlds(self, know: Knowledge, rng: random.Random, deal: Deal | None
                ) -> list[tuple[list[int], float]]:
        cfg = self.config
        if deal is not None:  # perfect information: the one true layout
            return [([deal.hand_mask(s) for s in range(4)], 1.0)] * cfg.worlds
        if not cfg.inference or not know.history:
            return [(know.sample(rng), 1.0) for _ in range(cfg.worlds)]
        # draw layouts until the weights are spread over enough of them (effective sample
        # size), at most cfg.candidates per layout kept
        drawn: list[list[int]] = []
        weights: list[float] = []
        total = 0.0
        square = 0.0
        limit = cfg.worlds * cfg.candidates
        while len(drawn) < limit:
            h = know.sample(rng, rng.random() < cfg.strict)
            w = know.likelihood(h, cfg.eps)
            drawn.append(h)
            weights.append(w)
            total += w
            square += w * w
            if len(drawn) >= cfg.worlds and total * total >= cfg.worlds * square:
                break
        total = sum(weights)
        if total <= 0:
            return [(h, 1.0) for h in drawn[:cfg.worlds]]
        # systematic resampling: keep cfg.worlds layouts in proportion to their weight
        step = total / cfg.worlds
        pos = rng.random() * step
        out: list[tuple[list[int], float]] = []
        acc = 0.0
        k = 0
        for h, w in zip(drawn, weights):
            acc += w
            while pos < acc and k < cfg.worlds:
                out.append((h, 1.0))
                pos += step
                k += 1
        return out

    def best(self, view: PlayerView, rng: random.Random, deal: Deal | None = None
             ) -> tuple[int, dict[int, float]]:
        vals = self.values(view, rng, deal)
        # ties go to the lower card index: deterministic
        best = max(sorted(vals), key=lambda i: vals[i])
        pref = self.pref
        if pref in vals and vals[best] - vals[pref] <= self.config.margin:
            best = pref
        return best, vals


class SearchBot:
    """A bot that plays the card its ``Searcher`` finds best; levels differ by config."""

    name = "Search"
    config: SearchConfig
    salt = "search"  # keeps each level's random stream apart

    def __init__(self, seed: int = 0, config: SearchConfig | None = None) -> None:
        self.seed = seed
        if config is not None:
            self.config = config
        self.searcher = Searcher(self.config)

    def choose(self, view: PlayerView) -> Card:
        if len(view.legal) == 1:
            return view.legal[0]
        best, _ = self.searcher.best(view, decision_rng(self.seed, view, self.salt))
        return DECK[best]
