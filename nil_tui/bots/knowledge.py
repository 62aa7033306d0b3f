"""What a seat can know about the hidden hands: card counting, shown voids, and layouts of the
unseen cards drawn consistently with everything public, optionally weighted by how likely each
opponent's past plays were under the normal level's rules of thumb."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from ..engine import Deal, PlayerView, legal_mask_of, trick_winner, voids_mask
from ..engine.playout import nth_card
from .heuristic import FULL, SEG, follow_index, lead_index


def _weighted_seat(cands: Sequence[int], need: Sequence[int], rng: random.Random) -> int:
    """One of the candidate seats, in proportion to the cards each still needs."""
    r = rng.random() * sum(need[s] for s in cands)
    for s in cands:
        r -= need[s]
        if r < 0:
            return s
    return cands[-1]


class Knowledge:
    """The public facts of one view, as bitmasks, ready for drawing layouts."""

    __slots__ = (
        "allowed",
        "hand",
        "history",
        "holders",
        "others",
        "played",
        "seat",
        "sizes",
        "strict",
        "unseen",
        "unseen_cards",
        "view",
        "voids",
    )

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.seat = view.seat
        hand = 0
        for c in view.hand:
            hand |= c.bit
        self.hand = hand
        self.played = view.played_mask
        self.unseen = FULL & ~self.played & ~hand
        self.voids = view.voids_mask
        self.sizes = view.hand_sizes
        self.others = [s for s in range(4) if s != self.seat]
        allowed = [0, 0, 0, 0]
        for s in range(4):
            if s == self.seat:
                continue
            a = self.unseen
            for suit in range(4):
                if self.voids >> (4 * s + suit) & 1:
                    a &= ~(SEG << (13 * suit))
            allowed[s] = a
        self.allowed = allowed
        hints = rule_hints(view)
        self.strict = [a & ~hints[s] for s, a in enumerate(allowed)]
        # What every layout drawn starts from, worked out once: the unseen cards, and per
        # card the other seats that may hold it (by ``allowed``, and by ``strict``).
        self.unseen_cards = [i for i in range(52) if self.unseen >> i & 1]
        self.holders = (self._holders(allowed), self._holders(self.strict))
        # every card played this deal, in order, with the seat that played it
        history: list[tuple[int, int]] = []
        for t in view.tricks:
            for k, c in enumerate(t.cards):
                history.append(((t.leader + k) & 3, c.index))
        for k, c in enumerate(view.trick):
            history.append(((view.leader + k) & 3, c.index))
        self.history = history

    def sample(self, rng: random.Random, strict: bool = False) -> list[int]:
        """Hands (bitmasks, by seat) with the unseen cards dealt at random to the other seats,
        respecting their hand sizes and shown voids; with ``strict``, also the cards the
        rules of thumb say they would have played had they held them (when that is
        possible at all)."""
        cards = self.unseen_cards[:]
        holders = self.holders[strict]
        self._order(cards, holders, rng)
        for _attempt in range(30):
            hands = self._deal_in_order(cards, holders, rng)
            if hands is not None:
                return hands
            self._order(cards, holders, rng)
        if strict:
            return self.sample(rng, False)
        # Should not happen for a real position; deal ignoring voids rather than fail.
        return self._deal_ignoring_voids(cards, rng)

    def _holders(self, allowed: Sequence[int]) -> list[tuple[int, ...]]:
        """Per card index, the other seats whose ``allowed`` cards hold it, in seat order."""
        return [tuple(s for s in self.others if allowed[s] >> i & 1) for i in range(52)]

    @staticmethod
    def _order(cards: list[int], holders: Sequence[tuple[int, ...]],
               rng: random.Random) -> None:
        """Shuffle the cards in place, then put the most constrained first (the fewest seats
        may hold them), in random order among equals."""
        rng.shuffle(cards)
        cards.sort(key=lambda i: len(holders[i]))

    def _hands(self) -> list[int]:
        """Four hands: this seat's own, the others empty."""
        hands = [0, 0, 0, 0]
        hands[self.seat] = self.hand
        return hands

    def _deal_in_order(self, cards: list[int], holders: Sequence[tuple[int, ...]],
                       rng: random.Random) -> list[int] | None:
        """Deal the cards in this order, each to a seat that may hold it (``holders``) and
        still needs cards, chosen in proportion to the cards it needs; None at a card no seat
        can take."""
        need = list(self.sizes)
        hands = self._hands()
        for i in cards:
            cands = [s for s in holders[i] if need[s]]
            if not cands:
                return None
            s = cands[0] if len(cands) == 1 else _weighted_seat(cands, need, rng)
            hands[s] |= 1 << i
            need[s] -= 1
        return hands

    def _deal_ignoring_voids(self, cards: list[int], rng: random.Random) -> list[int]:
        hands = self._hands()
        rng.shuffle(cards)
        k = 0
        for s in self.others:
            for _ in range(self.sizes[s]):
                hands[s] |= 1 << cards[k]
                k += 1
        return hands

    def deal(self, hands: Sequence[int]) -> Deal:
        """The position of the view with these hands."""
        v = self.view
        return Deal.from_position(hands, v.dealer, v.tricks, v.trick, v.leader, v.rule)

    def likelihood(self, hands: Sequence[int], eps: float = 0.25) -> float:
        """How likely the opponents' plays so far were, had they held these hands and played
        the rules of thumb (with probability ``1 - eps``; any other legal card otherwise)."""
        evidence = Evidence(self, eps)
        weight = 1.0
        for s in range(4):
            if s != self.seat:
                weight *= evidence.factor(s, hands[s])
        return weight


def rule_hints(view: PlayerView) -> list[int]:
    """Per seat, unseen cards it probably does not hold, judging by the rules of thumb: a
    clean player who followed under the winning card would have played any higher card still
    under it; a clean player who went over would have ducked with a lower card; whoever led a
    suit led its lowest card."""
    me = view.seat
    hints = [0, 0, 0, 0]
    taken = [0, 0, 0, 0]
    tricks = [(t.leader, t.cards, t.winner) for t in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick, -1))
    for leader, cards, winner in tricks:
        first = cards[0]
        led = first.suit
        base = 13 * led
        if leader != me:
            hints[leader] |= ((1 << (first.rank - 2)) - 1) << base  # lower cards of the suit
        for k in range(1, len(cards)):
            s = (leader + k) & 3
            c = cards[k]
            if c.suit != led or s == me or taken[s]:
                continue
            # the card winning the trick when this clean player followed
            best = cards[(trick_winner(leader, cards[:k]) - leader) & 3].rank
            if c.rank < best:
                between = ((1 << (best - 2)) - 1) & ~((1 << (c.rank - 1)) - 1)
                hints[s] |= between << base
            elif k < 3:
                hints[s] |= ((1 << (best - 2)) - 1) << base
        if winner >= 0:
            taken[winner] += 1
    unseen = view.unseen_mask
    return [h & unseen for h in hints]


# (cards the seat played from this decision on, cards of the trick down before it, led suit,
#  winning card and its seat (when a card was down), tricks taken, cards not played yet,
#  shown voids (for a lead), the card it played)
Decision = tuple[int, int, int, int, int, tuple[int, ...], int, int, int]


class Evidence:
    """Each opponent's plays this deal with the public state at the time of each, so that the
    likelihood of a hidden hand can be computed seat by seat.

    The rules of thumb decide from the deciding seat's own hand and public facts only, so the
    likelihood of a whole layout is the product of one factor per opponent, each depending on
    that opponent's hand alone. Swapping two cards between two opponents changes two factors.
    """

    __slots__ = ("decisions", "eps", "miss")

    def __init__(self, know: Knowledge, eps: float) -> None:
        v = know.view
        me = know.seat
        self.eps = eps
        self.miss = [0.0] * 14  # eps / (legal cards - 1), by legal count
        for n in range(2, 14):
            self.miss[n] = eps / (n - 1)
        tricks = [(t.leader, t.cards) for t in v.tricks]
        if v.trick:
            tricks.append((v.leader, v.trick))
        # (seat, index, then the public state: cards down, led suit, winning card and seat,
        # taken, played, voids) for every card played. The trick's suit, winning card and seat
        # are worked out here once, not at every layout the factor is asked of.
        plays: list[tuple[int, int, int, int, int, int, tuple[int, ...], int, int]] = []
        taken = [0, 0, 0, 0]
        played = 0
        for n, (leader, cards) in enumerate(tricks):
            voids = voids_mask(v.tricks[:n], (), leader)  # shown before this trick was led
            for k, c in enumerate(cards):
                winner = trick_winner(leader, cards[:k]) if k else leader
                plays.append(((leader + k) & 3, c.index, k, cards[0] // 13,
                              cards[(winner - leader) & 3], winner, tuple(taken), played,
                              voids if k == 0 else 0))
                played |= c.bit
            if n < len(v.tricks):
                taken[v.tricks[n].winner] += 1
        # per seat: (cards it played from this decision on, ...the public state..., the card it
        # played)
        decisions: list[list[Decision]] = [[], [], [], []]
        rest = [0, 0, 0, 0]
        for s, i, k, led, best, winner, tk, pl, voids in reversed(plays):
            rest[s] |= 1 << i
            if s != me:
                decisions[s].append((rest[s], k, led, best, winner, tk, FULL & ~pl, voids, i))
        self.decisions = decisions

    def factor(self, seat: int, hand: int) -> float:
        """How likely the seat's plays so far were, had it held ``hand`` (its unplayed cards)
        and played the rules of thumb with probability ``1 - eps``."""
        w = 1.0
        keep = 1.0 - self.eps
        miss = self.miss
        for rest, n, led, best, winner, taken, left, voids, i in self.decisions[seat]:
            h = hand | rest
            legal = legal_mask_of(h, led if n else None)
            if legal & (legal - 1) == 0:
                continue
            unseen = left & ~h
            # policy_index, its two halves called directly
            if n:
                pick = follow_index(seat, legal, n, led, best, winner, h, taken, unseen)
            else:
                pick = lead_index(seat, h, unseen, taken, voids)
            if pick == i:
                w *= keep
            else:
                w *= miss[legal.bit_count()]
        return w


def posterior_layouts(know: Knowledge, rng: random.Random, eps: float, chains: int = 8,
                      burn: int = 40, thin: int = 4) -> Iterator[list[int]]:
    """Endless layouts of the hidden cards drawn (approximately) from their posterior given
    everything public and the opponents' plays so far, by Metropolis sampling.

    Each chain starts from a layout that fits the rules-of-thumb hints and moves by swapping
    one card between two opponents, accepted by the ratio of the two likelihood factors that
    change (see :class:`Evidence`). The chains take turns, ``thin`` moves per layout."""
    me = know.seat
    others = [s for s in range(4) if s != me and know.sizes[s]]
    if len(others) < 2 or not any(s != me for s, _ in know.history):
        while True:  # nothing to infer from: plain layouts
            yield know.sample(rng, rng.random() < 0.5)
    ev = Evidence(know, eps)
    factor = ev.factor
    allowed = know.allowed
    pairs = [(a, b) for a in others for b in others if a < b]
    rand = rng.random
    states: list[tuple[list[int], list[float]]] = []

    def step(hands: list[int], f: list[float]) -> None:
        a, b = pairs[int(rand() * len(pairs))]
        ha, hb = hands[a], hands[b]
        ca = nth_card(ha, int(rand() * ha.bit_count()))
        cb = nth_card(hb, int(rand() * hb.bit_count()))
        if ca // 13 == cb // 13 or (allowed[b] >> ca & 1 and allowed[a] >> cb & 1):
            na = ha ^ (1 << ca) ^ (1 << cb)
            nb = hb ^ (1 << cb) ^ (1 << ca)
            fa = factor(a, na)
            fb = factor(b, nb)
            new = fa * fb
            cur = f[a] * f[b]
            if new >= cur or rand() * cur < new:
                hands[a], hands[b], f[a], f[b] = na, nb, fa, fb

    k = 0
    while True:
        if len(states) < chains:  # start the next chain
            hands = know.sample(rng, True)
            f = [factor(s, hands[s]) if s in others else 1.0 for s in range(4)]
            for _ in range(burn):
                step(hands, f)
            states.append((hands, f))
        else:
            hands, f = states[k % chains]
            for _ in range(thin):
                step(hands, f)
        k += 1
        yield hands[:]
