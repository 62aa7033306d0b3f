"""What a seat can know about the hidden hands: card counting, shown voids, and layouts of the
unseen cards drawn consistently with everything public, optionally weighted by how likely each
opponent's past plays were under the normal level's rules of thumb."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine import DECK, Deal, PlayerView
from .heuristic import FULL, SEG, policy_index, voids_mask


class Knowledge:
    """The public facts of one view, as bitmasks, ready for drawing layouts."""

    __slots__ = (
        "allowed",
        "hand",
        "history",
        "played",
        "seat",
        "sizes",
        "unseen",
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
        self.voids = voids_mask(view.tricks, view.trick, view.leader)
        self.sizes = view.hand_sizes
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
        # every card played this deal, in order, with the seat that played it
        history: list[tuple[int, int]] = []
        for t in view.tricks:
            for k, c in enumerate(t.cards):
                history.append(((t.leader + k) & 3, c.index))
        for k, c in enumerate(view.trick):
            history.append(((view.leader + k) & 3, c.index))
        self.history = history

    def sample(self, rng: random.Random) -> list[int]:
        """Hands (bitmasks, by seat) with the unseen cards dealt at random to the other seats,
        respecting their hand sizes and shown voids."""
        seat = self.seat
        others = [s for s in range(4) if s != seat]
        cards = [c.index for c in DECK if self.unseen >> c.index & 1]
        allowed = self.allowed
        # the most constrained cards first, in random order among equals
        rng.shuffle(cards)
        cards.sort(key=lambda i: sum(1 for s in others if allowed[s] >> i & 1))
        for _attempt in range(30):
            need = list(self.sizes)
            hands = [0, 0, 0, 0]
            hands[seat] = self.hand
            ok = True
            for i in cards:
                cands = [s for s in others if need[s] and allowed[s] >> i & 1]
                if not cands:
                    ok = False
                    break
                if len(cands) == 1:
                    s = cands[0]
                else:
                    total = sum(need[s] for s in cands)
                    r = rng.random() * total
                    s = cands[-1]
                    for s2 in cands:
                        r -= need[s2]
                        if r < 0:
                            s = s2
                            break
                hands[s] |= 1 << i
                need[s] -= 1
            if ok:
                return hands
            rng.shuffle(cards)
            cards.sort(key=lambda i: sum(1 for s in others if allowed[s] >> i & 1))
        # Should not happen for a real position; deal ignoring voids rather than fail.
        need = list(self.sizes)
        hands = [0, 0, 0, 0]
        hands[seat] = self.hand
        rng.shuffle(cards)
        k = 0
        for s in others:
            for _ in range(need[s]):
                hands[s] |= 1 << cards[k]
                k += 1
        return hands

    def deal(self, hands: Sequence[int]) -> Deal:
        """The position of the view with these hands."""
        v = self.view
        return Deal.from_position(hands, v.dealer, v.tricks, v.trick, v.leader)

    def likelihood(self, hands: Sequence[int], eps: float = 0.25) -> float:
        """How likely the opponents' plays so far were, had they held these hands and played
        the rules of thumb (with probability ``1 - eps``; any other legal card otherwise)."""
        if not self.history:
            return 1.0
        start = list(hands)
        for s, i in self.history:
            start[s] |= 1 << i
        v = self.view
        d = Deal(start, v.dealer)
        me = self.seat
        weight = 1.0
        for s, i in self.history:
            if s != me:
                legal = d.legal_mask()
                if legal & (legal - 1):
                    guess = policy_index(s, d.hand_mask(s), legal, d.trick, d.leader, d.taken,
                                         d.played_mask)
                    if guess == i:
                        weight *= 1.0 - eps
                    else:
                        weight *= eps / (legal.bit_count() - 1)
            d.play(DECK[i])
        return weight
