"""The rules of thumb of the normal level, on bitmasks.

One function, :func:`policy_index`, picks a card from plain integers (hands and played cards as
bitmasks), so that the normal bot, the search levels' playouts and the inference of hidden hands
all use the same cheap policy. Card indices are ``suit * 13 + rank - 2`` as in the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import Card, trick_winner

FULL = (1 << 52) - 1
SEG = 0x1FFF


def _top(seg: int) -> int:
    """Position (0..12) of the highest bit of a non-empty suit segment."""
    return seg.bit_length() - 1


def _low(seg: int) -> int:
    """Position (0..12) of the lowest bit of a non-empty suit segment."""
    return (seg & -seg).bit_length() - 1


def can_sweep(hand: int, unseen: int) -> bool:
    """True when every card of the hand beats every unseen card of its suit: leading from
    this hand wins every remaining trick."""
    for s in range(4):
        mine = (hand >> (13 * s)) & SEG
        if not mine:
            continue
        out = (unseen >> (13 * s)) & SEG
        if out and _top(out) > _low(mine):
            return False
    return True


def discard_index(hand: int, unseen: int) -> int:
    """The most dangerous card of a hand: highest rank, then the one fewest unseen cards
    can beat (so it is most likely to win a trick later)."""
    best = -1
    best_key: tuple[int, int] | None = None
    for s in range(4):
        mine = (hand >> (13 * s)) & SEG
        if not mine:
            continue
        pos = _top(mine)
        out = (unseen >> (13 * s)) & SEG
        higher = (out >> (pos + 1)).bit_count()
        lower = (out & ((1 << pos) - 1)).bit_count()
        # a card with nothing left above it is the most urgent; then by rank; then fewer
        # small cards out to duck under it
        key = (pos - 4 * higher + (2 if lower else 0), -mine.bit_count())
        if best_key is None or key > best_key:
            best_key, best = key, 13 * s + pos
    return best


def lead_index(seat: int, hand: int, unseen: int, taken: Sequence[int], voids: int = 0) -> int:
    """A lead: the lowest card of the suit where the fewest lower cards are still out (others
    cannot duck under it) and higher ones are (someone may have to win it)."""
    clean = taken[seat] == 0
    if not clean and taken[(seat + 1) & 3] == 0 and taken[(seat + 2) & 3] == 0 and \
            taken[(seat + 3) & 3] == 0 and can_sweep(hand, unseen):
        return discard_index(hand, unseen)  # a sweep: any boss card wins; lead from the top
    best = -1
    best_key: tuple[int, ...] | None = None
    for s in range(4):
        mine = (hand >> (13 * s)) & SEG
        if not mine:
            continue
        pos = _low(mine)
        out = (unseen >> (13 * s)) & SEG
        lower = (out & ((1 << pos) - 1)).bit_count()
        higher = (out >> (pos + 1)).bit_count()
        # players known void in the suit cannot be forced in it
        void_others = 0
        if voids:
            for k in (1, 2, 3):
                if voids >> (4 * ((seat + k) & 3) + s) & 1:
                    void_others += 1
        if higher == 0:
            key = (1, -lower, 0)  # this card would win the trick: last resort
        else:
            key = (0, lower * 3 + void_others * 2 - min(higher, 6), mine.bit_count())
        if best_key is None or key < best_key:
            best_key, best = key, 13 * s + pos
    return best


def policy_index(seat: int, hand: int, legal: int, trick: Sequence[Card], leader: int,
                 taken: Sequence[int], played: int, voids: int = 0) -> int:
    """The index of the card the rules of thumb play.

    ``hand``/``legal``/``played`` are bitmasks, ``trick`` the cards of the trick in progress,
    ``taken`` the tricks each seat has won, ``voids`` an optional 16-bit mask of shown voids
    (bit ``4 * seat + suit``).
    """
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    unseen = FULL & ~played & ~hand
    n = len(trick)
    if n == 0:
        return lead_index(seat, hand, unseen, taken, voids)
    led = trick[0].suit
    shift = 13 * led
    winner = trick_winner(leader, trick)
    best_rank = trick[(winner - leader) & 3].rank
    mine = (legal >> shift) & SEG
    clean = taken[seat] == 0
    if mine:
        under = (1 << (best_rank - 2)) - 1
        below = mine & under
        above = mine & ~under
        if not clean:
            others_clean = taken[(seat + 1) & 3] == 0 and taken[(seat + 2) & 3] == 0 and \
                taken[(seat + 3) & 3] == 0
            if others_clean and above and can_sweep(hand, unseen):
                return shift + _top(mine)  # take every remaining trick: 0 becomes 3
            if taken[winner] == 0:
                # a clean player is winning: stay under and shed the biggest card that does
                if below:
                    return shift + _top(below)
                return shift + _low(above)
            clean_after = False
            for k in range(1, 4 - n):
                if taken[(seat + k) & 3] == 0:
                    clean_after = True
            if clean_after:
                return shift + _low(mine)  # do not raise the bar for the clean ones after me
            if below:
                return shift + _top(below)
            return shift + _top(mine)
        if below:
            return shift + _top(below)  # the highest card that still loses
        if n == 3:
            return shift + _top(mine)  # the trick is mine anyway: shed the biggest
        low = _low(above)
        out_above = ((unseen >> shift) & SEG) >> (low + 1)
        if out_above:
            return shift + low  # someone after me may still have to beat it
        return shift + _top(mine)
    # void in the led suit: discard
    return discard_index(legal, unseen)


def edge(points: Sequence[float], seat: int) -> float:
    """A seat's edge in a deal: its points minus the mean of the other three seats' points."""
    return points[seat] - (points[0] + points[1] + points[2] + points[3] - points[seat]) / 3
