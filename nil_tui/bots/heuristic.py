"""The rules of thumb of the normal level, on bitmasks.

One function, :func:`policy_index`, picks a card from plain integers (hands and played cards as
bitmasks), so that the normal bot, the search levels' playouts and the inference of hidden hands
all use the same cheap policy. Card indices are ``suit * 13 + rank - 2`` as in the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import trick_winner

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


# The policy compares suits by keys packed into one int each (a tuple per suit and card would
# be made millions of times a decision): a pair (a, b) whose b stays within 0..15 (or within
# -15..0) is a * 16 + b, which orders as the pair does. Every such key lies within _FAR of 0.
_FAR = 1 << 20


def discard_index(hand: int, unseen: int) -> int:
    """The most dangerous card of a hand: highest rank, then the one fewest unseen cards
    can beat (so it is most likely to win a trick later)."""
    best = -1
    best_key = -_FAR
    for shift in (0, 13, 26, 39):
        mine = (hand >> shift) & SEG
        if not mine:
            continue
        pos = _top(mine)
        out = (unseen >> shift) & SEG
        higher = (out >> (pos + 1)).bit_count()
        lower = out & ((1 << pos) - 1)
        # a card with nothing left above it is the most urgent; then by rank; then fewer
        # small cards out to duck under it. The highest key wins (the first suit among
        # equals): the pair (urgency, -cards of the suit).
        key = (pos - 4 * higher + (2 if lower else 0)) * 16 - mine.bit_count()
        if key > best_key:
            best_key, best = key, shift + pos
    return best


_LAST_RESORT = _FAR  # lead_index's key for a card that would win its trick: above the others
_AT_MOST_6 = (0, 1, 2, 3, 4, 5, 6, 6, 6, 6, 6, 6, 6, 6)  # min(n, 6), looked up (no call)


def lead_index(seat: int, hand: int, unseen: int, taken: Sequence[int], voids: int = 0) -> int:
    """A lead: the lowest card of the suit where the fewest lower cards are still out (others
    cannot duck under it) and higher ones are (someone may have to win it)."""
    if taken[seat] and not (taken[(seat + 1) & 3] or taken[(seat + 2) & 3]
                            or taken[(seat + 3) & 3]) and can_sweep(hand, unseen):
        return discard_index(hand, unseen)  # a sweep: any boss card wins; lead from the top
    # the other seats' shown voids (bit 4 * seat + suit: a suit's seats are bits 0x1111 << suit)
    others_void = voids & ~(0xF << (4 * seat))
    best = -1
    best_key = 2 * _FAR
    for shift in (0, 13, 26, 39):
        mine = (hand >> shift) & SEG
        if not mine:
            continue
        low = mine & -mine  # the suit's lowest card, as a bit
        out = (unseen >> shift) & SEG
        lower = out & (low - 1)  # the cards out under it (a mask), and how many over it
        higher = (out >> low.bit_length()).bit_count()
        # The lowest key wins (the first suit among equals): the pair (score, cards of the
        # suit), a card that would win the trick last.
        if higher:
            key = (3 * lower.bit_count() - _AT_MOST_6[higher]) * 16 + mine.bit_count()
            if others_void:  # players known void in the suit cannot be forced in it
                key += ((others_void >> (shift // 13)) & 0x1111).bit_count() * 2 * 16
        else:
            key = _LAST_RESORT - lower.bit_count() * 16  # this card would win the trick
        if key < best_key:
            best_key, best = key, shift + low.bit_length() - 1
    return best


def policy_index(seat: int, hand: int, legal: int, trick: Sequence[int], leader: int,
                 taken: Sequence[int], played: int, voids: int = 0) -> int:
    """The index of the card the rules of thumb play.

    ``hand``/``legal``/``played`` are bitmasks, ``trick`` the cards (or card indices) of the
    trick in progress, ``taken`` the tricks each seat has won, ``voids`` an optional 16-bit
    mask of shown voids (bit ``4 * seat + suit``).
    """
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    unseen = FULL & ~played & ~hand
    if not trick:
        return lead_index(seat, hand, unseen, taken, voids)
    winner = trick_winner(leader, trick)
    return follow_index(seat, legal, len(trick), trick[0] // 13,
                        trick[(winner - leader) & 3], winner, hand, taken, unseen)


def follow_index(seat: int, legal: int, n: int, led: int, best: int, winner: int, hand: int,
                 taken: Sequence[int], unseen: int) -> int:
    """The rules of thumb's card when ``n`` cards of a trick are down, ``led`` its suit and
    ``best`` the index of the card winning it, played by ``winner`` (the rest as for
    :func:`policy_index`, whose trick this is worked out of; a playout that keeps these
    as it goes calls this directly)."""
    shift = 13 * led
    mine = (legal >> shift) & SEG
    if not mine:  # void in the led suit: discard
        return discard_index(legal, unseen)
    under = (1 << (best - shift)) - 1  # the led suit's cards below the winning one
    below = mine & under
    above = mine & ~under
    if taken[seat]:  # not clean
        others_clean = taken[(seat + 1) & 3] == 0 and taken[(seat + 2) & 3] == 0 and \
            taken[(seat + 3) & 3] == 0
        if others_clean and above and can_sweep(hand, unseen):
            return shift + _top(mine)  # take every remaining trick: 0 becomes 3
        if taken[winner] == 0:
            # a clean player is winning: stay under and shed the biggest card that does
            if below:
                return shift + _top(below)
            return shift + _low(above)
        for k in range(1, 4 - n):
            if taken[(seat + k) & 3] == 0:
                return shift + _low(mine)  # do not raise the bar for the clean ones after me
        if below:
            return shift + _top(below)
        return shift + _top(mine)
    if below:
        return shift + _top(below)  # the highest card that still loses
    if n == 3:
        return shift + _top(mine)  # the trick is mine anyway: shed the biggest
    low = _low(above)
    if ((unseen >> shift) & SEG) >> (low + 1):
        return shift + low  # someone after me may still have to beat it
    return shift + _top(mine)


def edge(points: Sequence[float], seat: int) -> float:
    """A seat's edge in a deal: its points minus the mean of the other three seats' points."""
    return points[seat] - (points[0] + points[1] + points[2] + points[3] - points[seat]) / 3
