"""Determinized Monte Carlo search shared by the hard and expert levels (and the oracle).

For each of many layouts of the hidden cards (drawn consistently with everything public), every
candidate card is played through the engine and the deal is finished by the rules of thumb for
all four seats. Each card's value is its mean utility over the layouts: the searching seat's
points minus the others' mean, or late in a game the chance of not finishing lowest. Close to
the end of a deal the playouts are replaced by an exact search in which every seat plays for
its own payoff (not a paranoid "everyone against me"). A config may instead stop each playout
at the end of the trick in progress and judge the position by a function of it
(``SearchConfig.leaf``, as ``learned.py`` does); the levels do not.

Every budget counts work (layouts, playouts, search nodes), never time, so a decision depends
only on the seed, the seat and the view: a loaded machine plays the same cards, only later.
A wall-clock safety cap (``SearchBot.safety_cap``) cuts a search only as a last resort, and
the bot says so (``SearchBot.cap_fired``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ..engine import DECK, Card, Deal, PlayerView, mask_of
from ..engine.playout import Playout
from .easy import decision_rng
from .heuristic import FULL, edge, follow_index, lead_index, policy_index
from .knowledge import Knowledge, posterior_layouts

# What a finished deal is worth to each seat (``Deal.worth``: its points under the game's
# scoring, with the pool's tie-break and perfect game counted in) turned into one seat's value.
Utility = Callable[[Sequence[float]], float]
Leaf = Callable[[Deal], Sequence[float]]


def _worth(d: Deal) -> Sequence[float]:
    return d.worth


@dataclass(frozen=True)
class SearchConfig:
    worlds: int = 40  # layouts of the hidden cards
    playouts: int = 1  # playouts per layout and candidate card
    inference: bool = False  # draw layouts in proportion to how likely the others' plays were
    eps: float = 0.25  # inference: chance an opponent deviates from the rules of thumb
    thin: int = 4  # inference: card swaps tried between two layouts of a chain
    rollout_eps: float = 0.0  # chance a playout card is random instead of the rule of thumb
    endgame: int = 0  # exact search when at most this many cards are left in all hands
    match: bool = False  # value the match (not finishing lowest) late in a game
    margin: float = 0.0  # keep the rules-of-thumb card unless another is this much better
    z: float = 0.0  # ... and better by this many standard errors (over layouts)
    max_worlds: int = 0  # search up to this many layouts, in batches of ``worlds``,
    z_stop: float = 2.5  # stopping once the choice is settled at this many standard errors
    tol: float = 0.0  # ... or once that many standard errors are below this
    max_rollouts: int = 0  # stop after the layout that brings the playouts to this (0: no cap)
    max_nodes: int = 0  # ... or the exact-search nodes to this (0: no cap)
    endgame_nodes: int = 4000  # nodes of one exact search before it finishes by playouts
    leaf: Leaf | None = None  # judge a playout by this at the end of the trick in progress
    leaf_after: int = 0  # ... or this many tricks later


# seconds; only a machine far slower than any player's reaches it (None: no cap)
DEFAULT_SAFETY_CAP: float | None = 10.0


def edge_utility(seat: int) -> Utility:
    def u(points: Sequence[float]) -> float:
        return edge(points, seat)

    return u


def match_utility(view: PlayerView) -> Utility:
    """Points edge, except in the last deal of a game: then mostly whether the seat ends
    lowest (the totals are the game's: under the pool scoring, what the pool left them)."""
    seat = view.seat
    left = view.deals_left  # agreed deals after this one (a tie-break deal is not one)
    if left >= 1:
        return edge_utility(seat)
    weight = 3.0
    totals = view.totals

    def u(points: Sequence[float]) -> float:
        final = [totals[s] + points[s] for s in range(4)]
        low = min(final)
        lowest = final[seat] == low and not (final[0] == final[1] == final[2] == final[3])
        # a margin over the lowest rival is a safety cushion
        margin = min(final[s] for s in range(4) if s != seat) - final[seat]
        return (edge(points, seat) - weight * (1.0 if lowest else 0.0)
                + 0.1 * weight * max(-3, min(3, margin)))

    return u


def rollout(d: Deal, rng: random.Random | None = None,
            eps: float = 0.0) -> tuple[float, float, float, float]:
    """Finish a deal with the rules of thumb for every seat; return what it is worth to each
    seat under the game's scoring (``Deal.worth``: the points, and under the pool what a
    tie-break to come or a perfect game adds)."""
    line: list[int] = []
    Playout(d).worth(lead_index, follow_index, rng, eps, line=line)
    for i in line:
        d.play(DECK[i])
    return d.worth


def thumb_index(d: Deal, seat: int, legal: int) -> int:
    """The card the rules of thumb play for ``seat`` in a deal whose every hand is known."""
    trick = d.trick
    return policy_index(seat, d.hand_mask(seat), legal, trick, d.leader, d.taken,
                        d.played_mask, 0 if trick else d.voids_mask)


def judged(d: Deal, leaf: Leaf, after: int = 0) -> Sequence[float]:
    """Play on by the rules of thumb to the end of the trick in progress and ``after`` more
    tricks, then return what ``leaf`` says the position is worth to each seat (a deal over by
    then: its worth)."""
    stop = d.trick_number - (0 if d.trick else 1) + after  # tricks done at the leaf
    while d.to_move is not None and d.trick_number <= stop:
        seat = d.to_move
        legal = d.legal_mask()
        i = legal.bit_length() - 1 if legal & (legal - 1) == 0 else thumb_index(d, seat, legal)
        d.play(DECK[i])
    return d.worth if d.is_over else leaf(d)


def distinct_moves(legal: int, unseen: int) -> list[int]:
    """Legal card indices, one per run of cards that no card of ``unseen`` separates (playing
    any card of such a run comes to the same). ``unseen`` must hold every card still to be
    reckoned with: the other seats' cards and the cards of the trick in progress."""
    out: list[int] = []
    prev = -1  # the previous legal card (its index), -1 before the first
    while legal:  # the legal cards, lowest first (the exact search asks at every node)
        low = legal & -legal
        i = low.bit_length() - 1
        # the same run as the previous legal card: the same suit, no unseen card between
        if prev < 0 or i // 13 != prev // 13 or unseen & (low - (2 << prev)):
            out.append(i)
        prev = i
        legal ^= low
    return out


def maxn(d: Deal, seat_utils: Sequence[Utility], budget: list[int],
         leaf: Leaf = _worth) -> tuple[float, ...]:
    """Exact search to the end of the deal: every seat picks the card best for itself.
    Ties go to the rules-of-thumb card. ``budget`` counts nodes; it stops the search (falling
    back to a playout) when exhausted. Every card tried is taken back (``Deal.undo``): the
    deal is left as it was found. ``leaf``: what the utilities read of a finished deal (its
    worth to each seat, unless told otherwise)."""
    seat = d.to_move
    if seat is None:
        p: Sequence[float] = leaf(d)
        return tuple(u(p) for u in seat_utils)
    budget[0] -= 1
    if budget[0] <= 0:
        end = d.copy()
        rollout(end)
        p = leaf(end)
        return tuple(u(p) for u in seat_utils)
    legal = d.legal_mask()
    if legal & (legal - 1) == 0:
        d.play(DECK[legal.bit_length() - 1])
        only = maxn(d, seat_utils, budget, leaf)
        d.undo()
        return only
    hand = d.hand_mask(seat)
    # Cards that tell two of this seat's cards apart: the other seats' cards, and the cards
    # of the trick on the table (with 7H on it, 3H ducks and AH wins).
    trick = d.trick
    played = d.played_mask
    between = ~hand & ~played
    for c in trick:  # (a card is its index)
        between |= 1 << c
    moves = distinct_moves(legal, between & FULL)
    best: tuple[float, ...] | None = None
    pref = policy_index(seat, hand, legal, trick, d.leader, d.taken, played)
    for i in moves:
        d.play(DECK[i])
        v = maxn(d, seat_utils, budget, leaf)
        d.undo()
        if best is None or v[seat] > best[seat] + 1e-9 or (
                abs(v[seat] - best[seat]) <= 1e-9 and i == pref):
            best = v
    assert best is not None
    return best


class Searcher:
    """Values the legal cards of a view (or of a known deal) by determinized search.

    Layouts are searched in batches: after each batch the card with the best mean is compared
    with the rules-of-thumb card, world by world (the same layouts for every card), and the
    search stops as soon as the comparison is settled, or when a work budget is spent
    (``max_worlds`` layouts, ``max_rollouts`` playouts, ``max_nodes`` exact-search nodes).
    After each search, ``worlds_used``, ``rollouts`` and ``nodes`` say how much work it did,
    and ``cap_fired`` whether the safety deadline cut it short."""

    def __init__(self, config: SearchConfig) -> None:
        self.config = config
        self.pref = -1
        self.worlds_used = 0
        self.rollouts = 0
        self.nodes = 0
        self.cap_fired = False
        self._start: Playout | None = None

    def values(self, view: PlayerView, rng: random.Random,
               deal: Deal | None = None) -> dict[int, float]:
        """Mean utility per distinct legal card index (the search's estimate)."""
        return self._means(self.evaluate(view, rng, deal))

    def _means(self, scores: dict[int, list[float]]) -> dict[int, float]:
        n = max(1, self.worlds_used)
        return {i: sum(v) / n for i, v in scores.items()}

    def _candidates(self, view: PlayerView, know: Knowledge) -> list[int]:
        """The distinct legal card indices, the rules-of-thumb card standing for its run; sets
        ``pref`` to the rules-of-thumb card."""
        legal = 0
        for c in view.legal:
            legal |= c.bit
        moves = distinct_moves(legal, know.unseen | mask_of(view.trick))
        pref = self.preferred(view, know, legal)
        if pref not in moves:  # let the rules-of-thumb card stand for its run
            rep = max(m for m in moves if m <= pref and m // 13 == pref // 13)
            moves[moves.index(rep)] = pref
        self.pref = pref
        return moves

    def _utilities(self, view: PlayerView) -> list[Utility]:
        """Each seat's utility: the edge, or for the searching seat the match late in a game
        when the config says so."""
        utils = [edge_utility(s) for s in range(4)]
        if self.config.match:
            utils[view.seat] = match_utility(view)
        return utils

    def evaluate(self, view: PlayerView, rng: random.Random, deal: Deal | None = None,
                 deadline: float | None = None) -> dict[int, list[float]]:
        """Per distinct legal card index, its utility in each layout searched. ``deadline``
        (a ``time.perf_counter()`` value) is the safety cap: past it the search stops after
        the layout in progress and ``cap_fired`` is set."""
        know = Knowledge(view)
        moves = self._candidates(view, know)
        self.worlds_used = self.rollouts = self.nodes = 0
        self.cap_fired = False
        if len(moves) == 1:
            return {moves[0]: [0.0]}
        utils = self._utilities(view)
        cfg = self.config
        exact = bool(cfg.endgame) and sum(view.hand_sizes) <= cfg.endgame
        scores: dict[int, list[float]] = {i: [] for i in moves}
        self._start = None
        # A layout drawn again (late in a deal few layouts are possible, and the chains often
        # stay put) is worth what it was the first time: its values, and the playouts and
        # nodes they cost, are looked up instead of searched again. The work still counts
        # against the budgets, so the search stops where it would have. (Playouts that may
        # play random cards would differ: they are always searched.)
        seen: dict[tuple[int, ...], tuple[list[float], int, int]] | None = (
            {} if exact or cfg.playouts == 1 or not cfg.rollout_eps else None)
        for hands in self._worlds(know, rng, deal):
            key = tuple(hands)
            found = None if seen is None else seen.get(key)
            if found is None:
                rollouts, nodes = self.rollouts, self.nodes
                values = self._on_layout(hands, moves, know, deal, utils, view.seat, exact,
                                         rng)
                found = (values, self.rollouts - rollouts, self.nodes - nodes)
                if seen is not None:
                    seen[key] = found
            else:
                self.rollouts += found[1]
                self.nodes += found[2]
            for i, value in zip(moves, found[0]):
                scores[i].append(value)
            self.worlds_used += 1
            if self._done(scores, deadline):
                break
        return scores

    def _on_layout(self, hands: list[int], moves: Sequence[int], know: Knowledge,
                   deal: Deal | None, utils: Sequence[Utility], seat: int, exact: bool,
                   rng: random.Random) -> list[float]:
        """Each candidate card's utility on one layout of the hidden cards (``hands``)."""
        if exact or self.config.leaf is not None:
            base = know.deal(hands) if deal is None else deal.copy()
            out = []
            for i in moves:
                d = base.copy()
                d.play(DECK[i])
                out.append(self._exact(d, utils, seat) if exact
                           else self._judged(d, utils[seat]))
            return out
        if self._start is None:  # the position but for the hidden hands, read once a search
            self._start = Playout(know.deal(hands) if deal is None else deal)
        return [self._playouts(self._start, hands, i, utils[seat], rng) for i in moves]

    def _exact(self, d: Deal, utils: Sequence[Utility], seat: int) -> float:
        budget = [self.config.endgame_nodes]
        value = maxn(d, utils, budget)[seat]
        self.nodes += self.config.endgame_nodes - budget[0]
        return value

    def _playouts(self, start: Playout, hands: list[int], i: int, util: Utility,
                  rng: random.Random) -> float:
        """The mean utility of the playouts of this layout (``hands``) after card ``i``."""
        cfg = self.config
        total = 0.0
        for k in range(cfg.playouts):
            total += util(start.worth(lead_index, follow_index, rng,
                                      cfg.rollout_eps if k else 0.0, first=i, hands=hands))
        total /= cfg.playouts
        self.rollouts += cfg.playouts
        return total

    def _judged(self, d: Deal, util: Utility) -> float:
        """The mean utility of the playouts from ``d`` stopped and judged by the config's
        ``leaf`` (each from a copy; ``d`` itself is played on by the last)."""
        cfg = self.config
        leaf = cfg.leaf
        assert leaf is not None
        total = 0.0
        for k in range(cfg.playouts):
            dd = d.copy() if k < cfg.playouts - 1 else d
            total += util(judged(dd, leaf, cfg.leaf_after))
        total /= cfg.playouts
        self.rollouts += cfg.playouts
        return total

    def _done(self, scores: dict[int, list[float]], deadline: float | None) -> bool:
        """True when the search stops after the layouts so far: a work budget is spent, the
        choice is settled at the end of a batch, or (as a last resort) the deadline passed."""
        cfg = self.config
        n = self.worlds_used
        if n >= max(cfg.worlds, cfg.max_worlds) or (
                cfg.max_rollouts and self.rollouts >= cfg.max_rollouts) or (
                cfg.max_nodes and self.nodes >= cfg.max_nodes):
            return True
        if n >= cfg.worlds and n % cfg.worlds == 0 and self._settled(scores, self.pref):
            return True
        if deadline is not None and time.perf_counter() > deadline:
            self.cap_fired = True
            return True
        return False

    def _settled(self, scores: dict[int, list[float]], pref: int) -> bool:
        """True when more layouts would not change the choice: the best card beats the
        rules-of-thumb card clearly, or no card comes near beating it."""
        z = self.config.z_stop
        margin = self.config.margin
        for _card, mean, se in self._gains(scores, pref):
            # undecided: the gain may be on either side of the margin, and the estimate is
            # not yet fine enough for the difference to matter
            if abs(mean - margin) <= z * se and z * se > self.config.tol:
                return False
        return True

    @staticmethod
    def _gains(scores: dict[int, list[float]], pref: int) -> list[tuple[int, float, float]]:
        """Per card other than ``pref``: (card, mean gain over ``pref``, standard error),
        layout by layout."""
        base = scores[pref]
        n = len(base)
        out = []
        for i, vals in scores.items():
            if i == pref:
                continue
            diffs = [a - b for a, b in zip(vals, base)]
            mean = sum(diffs) / n
            if n > 1:
                var = sum((x - mean) ** 2 for x in diffs) / (n - 1)
                se = (var / n) ** 0.5
            else:
                se = 0.0
            out.append((i, mean, se))
        return out

    @staticmethod
    def preferred(view: PlayerView, know: Knowledge, legal: int) -> int:
        return policy_index(view.seat, know.hand, legal, view.trick, view.leader, view.taken,
                            know.played, know.voids)

    def _worlds(self, know: Knowledge, rng: random.Random, deal: Deal | None
                ) -> Iterator[list[int]]:
        cfg = self.config
        if deal is not None:  # perfect information: the one true layout
            hands = [deal.hand_mask(s) for s in range(4)]
            while True:
                yield hands
        if cfg.inference:
            yield from posterior_layouts(know, rng, cfg.eps, thin=cfg.thin)
        while True:
            yield know.sample(rng)

    def best(self, view: PlayerView, rng: random.Random, deal: Deal | None = None,
             deadline: float | None = None) -> tuple[int, dict[int, float]]:
        scores = self.evaluate(view, rng, deal, deadline)
        vals = self._means(scores)
        pref = self.pref
        if pref not in vals or len(vals) == 1:
            return max(sorted(vals), key=lambda i: vals[i]), vals
        # the card with the best mean gain over the rules-of-thumb card, if the gain is
        # clear of the margin by z standard errors (ties go to the lower card index)
        gains = sorted(self._gains(scores, pref))
        i, mean, se = max(gains, key=lambda g: g[1])
        if mean > self.config.margin + self.config.z * se:
            return i, vals
        return pref, vals


class SearchBot:
    """A bot that plays the card its ``Searcher`` finds best; levels differ by config.

    ``safety_cap`` (seconds, or None for none) is the last-resort wall-clock cap the caller
    may set; after each ``choose``, ``cap_fired`` says whether it cut the search (the card
    then depends on the machine's speed, which the caller records as an incident)."""

    name = "Search"
    config: SearchConfig
    salt = "search"  # keeps each level's random stream apart

    def __init__(self, seed: int = 0, config: SearchConfig | None = None) -> None:
        self.seed = seed
        if config is not None:
            self.config = config
        self.searcher = Searcher(self.config)
        self.safety_cap: float | None = DEFAULT_SAFETY_CAP
        self.cap_fired = False

    def choose(self, view: PlayerView) -> Card:
        return self._decide(view, self.salt, None)

    def _decide(self, view: PlayerView, salt: str, deal: Deal | None) -> Card:
        self.cap_fired = False
        if len(view.legal) == 1:
            return view.legal[0]
        cap = self.safety_cap
        deadline = None if cap is None else time.perf_counter() + cap
        best, _ = self.searcher.best(view, decision_rng(self.seed, view, salt), deal, deadline)
        self.cap_fired = self.searcher.cap_fired
        return DECK[best]
