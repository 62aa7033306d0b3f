"""A deal finished many times over, fast: the position in plain numbers (card indices and
bit masks, as the deal keeps them), the cards chosen by a policy the caller gives (a bot's
rules of thumb). The rules applied as the cards fall are the deal's own (see :class:`Playout`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .cards import FULL_MASK as FULL
from .cards import SUIT_MASKS
from .deal import Deal, deal_end, trick_winner

Lead = Callable[[int, int, int, Sequence[int], int], int]
"""A policy's lead: (seat, hand, unseen cards, tricks taken, shown voids) -> a card's index."""
Follow = Callable[[int, int, int, int, int, int, int, Sequence[int], int], int]
"""A policy's card when following: (seat, legal cards, cards down, suit led, best card so
far, its seat, hand, tricks taken, unseen cards) -> a card's index."""


def nth_card(mask: int, k: int) -> int:
    """The index of the ``k``-th lowest card (from 0) of a mask (no list of them is made)."""
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


class Playout:
    """A deal's position read once into plain numbers, from which a policy finishes the deal
    for every seat as often as asked, each time from the same position, leaving the deal
    itself as it was.

    This is where a bot's search spends its time. Keeping the hands, the cards still held,
    the trick in progress (its suit, winning card and seat) and the shown voids in local
    variables as the cards fall costs a fraction of playing each card through ``Deal.play``
    and asking the deal for them again at the next card. The rules are the deal's: the same
    cards are legal (:func:`.deal.legal_mask_of`), the same card wins a trick
    (:func:`.deal.trick_winner`), the deal ends as :func:`.deal.deal_end` says and is worth
    what its rule says (``tests/bots/test_playout.py`` plays both side by side)."""

    __slots__ = ("deal", "done", "hands", "leader", "played", "taken", "trick", "voids")

    def __init__(self, d: Deal) -> None:
        self.deal = d
        self.hands = [d.hand_mask(0), d.hand_mask(1), d.hand_mask(2), d.hand_mask(3)]
        self.trick = d.trick
        self.leader = d.leader
        self.taken = d.taken
        self.played = d.played_mask
        self.voids = d.voids_mask
        self.done = d.trick_number - 1  # tricks completed

    def worth(self, lead: Lead, follow: Follow, rng: random.Random | None = None,
              eps: float = 0.0, first: int = -1, line: list[int] | None = None,
              hands: Sequence[int] | None = None) -> tuple[float, float, float, float]:
        """What the deal finished by the policy is worth to each seat (``Deal.worth``): the
        card ``lead(seat, hand, unseen, taken, voids)`` or ``follow(seat, legal, cards down,
        suit led, best card, its seat, hand, taken, unseen)`` names (a card's index), unless
        only one card is legal.
        With ``rng``, each card not forced is a random legal one with chance ``eps``.
        ``first``: the card index the seat to move plays first (a candidate of a search).
        ``line``: a list that gets the indices of the cards played, in order. ``hands``: the
        cards each seat holds, instead of the deal's (another layout of the same cards: the
        rest of the position, read once, serves every layout of a search)."""
        d = self.deal
        seat = d.to_move
        if seat is None:
            return d.worth
        hands = list(self.hands if hands is None else hands)
        taken = list(self.taken)
        left = FULL & ~self.played  # the cards still held
        voids = self.voids
        done = self.done
        rule = d.rule
        tiebreak = rule.tiebreak
        trick = self.trick
        # the trick in progress: cards down, suit led (and its cards, a mask), winning card
        # and seat
        n = len(trick)
        led = suit = best = winner = 0
        if n:
            winner = trick_winner(self.leader, trick)
            led, best = trick[0] // 13, trick[(winner - self.leader) & 3]
            suit = SUIT_MASKS[led]
        while True:
            hand = hands[seat]
            legal = (hand & suit or hand) if n else hand  # legal_mask_of, written out
            if first >= 0:
                i, first = first, -1
            elif legal & (legal - 1) == 0:
                i = legal.bit_length() - 1
            elif eps and rng is not None and rng.random() < eps:
                i = nth_card(legal, rng.randrange(legal.bit_count()))
            elif n:
                i = follow(seat, legal, n, led, best, winner, hand, taken, left & ~hand)
            else:
                i = lead(seat, hand, left & ~hand, taken, voids)
            if line is not None:
                line.append(i)
            bit = 1 << i
            hands[seat] = hand ^ bit
            left ^= bit
            if n == 0:
                led, best, winner = i // 13, i, seat
                suit = SUIT_MASKS[led]
            elif not bit & suit:
                voids |= 1 << (4 * seat + led)  # shown void: see voids_mask
            elif i > best:
                best, winner = i, seat
            n += 1
            if n < 4:
                seat = (seat + 1) & 3
                continue
            taken[winner] += 1
            done += 1
            over, early = deal_end(taken, done, tiebreak)
            if over:
                return rule.worth(taken, early)
            n = 0
            seat = winner


__all__ = ["Follow", "Lead", "Playout", "nth_card"]
