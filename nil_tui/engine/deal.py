"""One deal of Zero: hands, legal cards, play, tricks, the early end and the score.

This module is the only place that knows the rules of a deal. Hands are bitmasks of card bits
(see ``cards.py``) so that bots can run many playouts through it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from .cards import _SEGMENT, DECK, FULL_MASK, SUIT_MASKS, SUIT_SYMBOLS, Card, cards_of, mask_of

if TYPE_CHECKING:
    from .view import PlayerView

SEAT_NAMES = ("South", "West", "North", "East")
_BITS = tuple(c.bit for c in DECK)
_SHIFTS = (0, 13, 26, 39)  # bit offset of each suit's 13 cards in a hand
TRICKS_PER_DEAL = 13


class Trick(NamedTuple):
    """A completed trick: who led, the four cards in play order, who won it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    def player_of(self, k: int) -> int:
        """Seat that played the k-th card of this trick."""
        return (self.leader + k) & 3

    def card_of(self, seat: int) -> Card:
        return self.cards[(seat - self.leader) & 3]


_new_tuple = tuple.__new__


class IllegalPlay(ValueError):
    """A card that may not be played now. ``reason`` says why in words; the deal is unchanged."""

    def __init__(self, card: object, reason: str, seat: int | None = None,
                 led_suit: int | None = None) -> None:
        self.card = card
        self.reason = reason
        self.seat = seat
        self.led_suit = led_suit
        super().__init__(f"cannot play {card}: {reason}")


_DECK_ORDER = list(range(52))
# (i, bit length of i + 1) for the Fisher-Yates steps of random.Random.shuffle, last to first.
_SHUFFLE_STEPS = tuple((i, (i + 1).bit_length()) for i in range(51, 0, -1))


def shuffled_deck(rng: random.Random) -> list[int]:
    """Card indexes 0..51 in the order ``rng.shuffle(list(range(52)))`` gives.

    For a plain ``random.Random`` this runs the same Fisher-Yates steps with the same draws
    from ``getrandbits`` as ``Random.shuffle`` (so seeds deal the same cards), inlined because
    shuffling is a large part of a bot's random playout. Other generators use ``shuffle``.
    """
    order = _DECK_ORDER[:]
    if type(rng) is not random.Random:
        rng.shuffle(order)
        return order
    getrandbits = rng.getrandbits
    for i, k in _SHUFFLE_STEPS:
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        order[i], order[j] = order[j], order[i]
    return order


def legal_mask_of(hand: int, led: int | None) -> int:
    """The cards (bitmask) a hand may play: those of the led suit if it holds any, else any
    card; any card when leading (``led`` is None)."""
    if led is not None:
        follow = hand & SUIT_MASKS[led]
        if follow:
            return follow
    return hand


def trick_winner(leader: int, cards: Sequence[Card]) -> int:
    """Seat that wins the trick (or is winning it so far): the highest card of the led suit."""
    suit = cards[0].suit
    best = 0
    best_rank = cards[0].rank
    for k in range(1, len(cards)):
        c = cards[k]
        if c.suit == suit and c.rank > best_rank:
            best, best_rank = k, c.rank
    return (leader + best) & 3


def score(taken: Sequence[int], early: bool) -> tuple[int, int, int, int]:
    """Points of a finished deal from the tricks each seat took (RULES.md, scoring)."""
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


class Deal:
    """The live state of one deal. Mutated only through :meth:`play`."""

    # ``to_move`` and ``is_over`` are plain attributes (read them, never set them): bots'
    # playouts read them after every card.
    __slots__ = ("_early", "_hands", "_leader", "_played", "_taken", "_trick", "_tricks",
                 "context", "dealer", "dealt", "is_over", "to_move")

    def __init__(self, hands: Sequence[int], dealer: int) -> None:
        if dealer not in (0, 1, 2, 3):
            raise ValueError(f"dealer must be a seat 0..3, not {dealer!r}")
        self.dealer: int = dealer
        self.dealt: tuple[int, int, int, int] = tuple(hands)  # type: ignore[assignment]
        self._hands: list[int] = list(hands)
        self._leader: int = (dealer + 1) & 3
        self._trick: list[Card] = []
        self.to_move: int | None = self._leader
        self._taken: list[int] = [0, 0, 0, 0]
        self._tricks: list[Trick] = []
        self.is_over = False
        self._early = False
        self._played = 0
        # (deal_number, deals_planned, totals before this deal): set by Game for views.
        self.context: tuple[int, int, tuple[int, int, int, int]] = (1, 1, (0, 0, 0, 0))

    # --- construction -------------------------------------------------------------------
    @classmethod
    def new(cls, dealer: int = 0, rng: random.Random | None = None) -> Deal:
        """Shuffle and deal 13 cards each, one at a time clockwise from the dealer's left."""
        if dealer not in (0, 1, 2, 3):
            raise ValueError(f"dealer must be a seat 0..3, not {dealer!r}")
        order = shuffled_deck(rng or random.Random())
        first = dealer + 1
        hands = [0, 0, 0, 0]
        bit = _BITS.__getitem__
        for j in range(4):
            # The j-th card of the shuffled deck, and every fourth after it, go to one seat.
            hands[(first + j) & 3] = sum(map(bit, order[j::4]))
        d = cls.__new__(cls)
        d.dealer = dealer
        d.dealt = (hands[0], hands[1], hands[2], hands[3])
        d._hands = hands
        d._leader = first & 3
        d._trick = []
        d.to_move = first & 3
        d._taken = [0, 0, 0, 0]
        d._tricks = []
        d.is_over = False
        d._early = False
        d._played = 0
        d.context = (1, 1, (0, 0, 0, 0))
        return d

    @classmethod
    def from_hands(cls, hands: Sequence[Iterable[Card | str]], dealer: int = 0) -> Deal:
        """A deal from four lists of 13 cards (Card or code), by seat."""
        if len(hands) != 4:
            raise ValueError(f"a deal needs 4 hands, got {len(hands)}")
        masks = []
        seen = 0
        for seat, hand in enumerate(hands):
            cards = [Card.parse(c) for c in hand]
            mask = mask_of(cards)
            if len(cards) != 13 or mask.bit_count() != 13:
                raise ValueError(f"hand of seat {seat} must hold 13 different cards")
            if mask & seen:
                dup = cards_of(mask & seen)[0]
                raise ValueError(f"{dup} is dealt twice (again to seat {seat})")
            seen |= mask
            masks.append(mask)
        return cls(masks, dealer)

    @classmethod
    def from_position(cls, hands: Sequence[int], dealer: int, tricks: Sequence[Trick],
                      trick: Sequence[Card], leader: int) -> Deal:
        """A deal in mid-play, from the cards each seat still holds (bitmasks) and the public
        history. Used by bots to play out a guessed layout of the hidden cards."""
        played = 0
        for t in tricks:
            for c in t.cards:
                played |= c.bit
        for c in trick:
            played |= c.bit
        dealt = list(hands)
        for t in tricks:
            for k, c in enumerate(t.cards):
                dealt[(t.leader + k) & 3] |= c.bit
        for k, c in enumerate(trick):
            dealt[(leader + k) & 3] |= c.bit
        d = cls(dealt, dealer)
        d._hands = list(hands)
        d._tricks = list(tricks)
        d._trick = list(trick)
        d._leader = leader
        d._played = played
        for t in tricks:
            d._taken[t.winner] += 1
        d.to_move = (leader + len(trick)) & 3
        d._check_end()
        return d

    def copy(self) -> Deal:
        d = Deal.__new__(Deal)
        d.dealer = self.dealer
        d.dealt = self.dealt
        d._hands = self._hands[:]
        d._leader = self._leader
        d._trick = self._trick[:]
        d.to_move = self.to_move
        d._taken = self._taken[:]
        d._tricks = self._tricks[:]
        d.is_over = self.is_over
        d._early = self._early
        d._played = self._played
        d.context = self.context
        return d

    # --- state --------------------------------------------------------------------------
    @property
    def leader(self) -> int:
        """Seat that leads (or led) the trick in progress."""
        return self._leader

    @property
    def ended_early(self) -> bool:
        """True when the deal stopped because every seat had taken a trick."""
        return self._early

    @property
    def taken(self) -> tuple[int, int, int, int]:
        t = self._taken
        return (t[0], t[1], t[2], t[3])

    @property
    def clean(self) -> tuple[bool, bool, bool, bool]:
        """Per seat, whether it has taken no trick yet."""
        t = self._taken
        return (t[0] == 0, t[1] == 0, t[2] == 0, t[3] == 0)

    @property
    def points(self) -> tuple[int, int, int, int]:
        if not self.is_over:
            raise ValueError("the deal is not over: no points yet")
        return score(self._taken, self._early)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return tuple(self._tricks)

    @property
    def trick(self) -> tuple[Card, ...]:
        """Cards of the trick in progress, in play order."""
        return tuple(self._trick)

    @property
    def led_suit(self) -> int | None:
        return self._trick[0].suit if self._trick else None

    @property
    def played_mask(self) -> int:
        return self._played

    def hand(self, seat: int) -> tuple[Card, ...]:
        """Cards a seat still holds, sorted."""
        return tuple(cards_of(self._hands[seat]))

    def hand_mask(self, seat: int) -> int:
        return self._hands[seat]

    def dealt_hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(cards_of(self.dealt[seat]))

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(cards_of(h)) for h in self._hands)

    def legal_mask(self) -> int:
        """Bitmask of the cards the seat to move may play (0 once the deal is over)."""
        if self.to_move is None:
            return 0
        trick = self._trick
        return legal_mask_of(self._hands[self.to_move], trick[0].suit if trick else None)

    def legal_moves(self) -> list[Card]:
        """The cards the seat to move may play, sorted (empty once the deal is over)."""
        seat = self.to_move
        if seat is None:
            return []
        hand = self._hands[seat]
        trick = self._trick
        if trick:
            suit = trick[0].suit
            follow = (hand >> _SHIFTS[suit]) & 0x1FFF
            if follow:
                return list(_SEGMENT[suit][follow])
        seg = _SEGMENT
        return [
            *seg[0][hand & 0x1FFF],
            *seg[1][(hand >> 13) & 0x1FFF],
            *seg[2][(hand >> 26) & 0x1FFF],
            *seg[3][(hand >> 39) & 0x1FFF],
        ]

    def is_legal(self, card: Card) -> bool:
        return bool(self.legal_mask() & card.bit)

    def why_illegal(self, card: Card | str) -> IllegalPlay | None:
        """The reason a card may not be played now, or None when it may."""
        try:
            c = Card.parse(card)
        except ValueError as exc:
            return IllegalPlay(card, str(exc))
        seat = self.to_move
        if seat is None:
            return IllegalPlay(c, "the deal is over")
        hand = self._hands[seat]
        if not hand & c.bit:
            if self._played & c.bit:
                return IllegalPlay(c, "it has already been played", seat)
            return IllegalPlay(c, f"it is not in the hand of {SEAT_NAMES[seat]} (seat {seat})",
                               seat)
        if self._trick:
            led = self._trick[0].suit
            if c.suit != led and hand & SUIT_MASKS[led]:
                return IllegalPlay(c, f"must follow {SUIT_SYMBOLS[led]} ({led.label})", seat,
                                   led)
        return None

    # --- play ---------------------------------------------------------------------------
    def play(self, card: Card | str) -> Trick | None:
        """Play a card for the seat to move. Returns the trick if this card completed one.

        Raises IllegalPlay (a ValueError) and changes nothing when the card may not be played.
        """
        if card.__class__ is not Card:
            try:
                card = Card.parse(card)
            except ValueError as exc:
                raise IllegalPlay(card, str(exc), self.to_move) from None
        seat = self.to_move
        trick = self._trick
        if seat is None:
            raise IllegalPlay(card, "the deal is over")
        hands = self._hands
        hand = hands[seat]
        bit = card.bit  # type: ignore[union-attr]
        if not hand & bit or (trick and card.suit is not trick[0].suit  # type: ignore[union-attr]
                              and hand & SUIT_MASKS[trick[0].suit]):
            raise self.why_illegal(card) or IllegalPlay(card, "not allowed")  # pragma: no cover
        hands[seat] = hand ^ bit
        self._played |= bit
        trick.append(card)  # type: ignore[arg-type]
        if len(trick) < 4:
            self.to_move = (seat + 1) & 3
            return None
        # The trick is complete: the highest card of the led suit wins (inlined trick_winner).
        c = trick[0]
        suit = c.suit
        best = 0
        rank = c.rank
        c = trick[1]
        if c.suit is suit and c.rank > rank:
            best, rank = 1, c.rank
        c = trick[2]
        if c.suit is suit and c.rank > rank:
            best, rank = 2, c.rank
        c = trick[3]
        if c.suit is suit and c.rank > rank:
            best = 3
        leader = self._leader
        winner = (leader + best) & 3
        done = _new_tuple(Trick, (leader, tuple(trick), winner))
        tricks = self._tricks
        tricks.append(done)
        taken = self._taken
        taken[winner] += 1
        self._trick = []
        self._leader = winner
        if taken[0] and taken[1] and taken[2] and taken[3]:
            self.is_over = True
            self._early = len(tricks) < TRICKS_PER_DEAL
            self.to_move = None
        elif len(tricks) == TRICKS_PER_DEAL:
            self.is_over = True
            self.to_move = None
        else:
            self.to_move = winner
        return done

    def _check_end(self) -> None:
        t = self._taken
        if t[0] and t[1] and t[2] and t[3]:
            self.is_over, self._early = True, len(self._tricks) < TRICKS_PER_DEAL
        elif len(self._tricks) == TRICKS_PER_DEAL:
            self.is_over = True
        if self.is_over:
            self.to_move = None

    # --- views --------------------------------------------------------------------------
    def view(self, seat: int) -> PlayerView:
        """What one seat may know now: its own cards and everything public, nothing more."""
        from .view import PlayerView

        if seat not in (0, 1, 2, 3):
            raise ValueError(f"a seat is 0..3, not {seat!r}")
        number, planned, totals = self.context
        h = self._hands
        t = self._taken
        return PlayerView(
            seat=seat,
            hand=tuple(cards_of(h[seat])),
            legal=tuple(self.legal_moves()) if self.to_move == seat else (),
            trick=tuple(self._trick),
            leader=self._leader,
            tricks=tuple(self._tricks),
            taken=(t[0], t[1], t[2], t[3]),
            hand_sizes=(h[0].bit_count(), h[1].bit_count(), h[2].bit_count(), h[3].bit_count()),
            dealer=self.dealer,
            deal_number=number,
            deals_planned=planned,
            totals=totals,
            to_move=self.to_move,
        )

    def __repr__(self) -> str:
        return (f"<Deal dealer={self.dealer} tricks={len(self._tricks)} trick={self._trick} "
                f"to_move={self.to_move} taken={self._taken}>")


assert len(DECK) == 52 and FULL_MASK == (1 << 52) - 1
