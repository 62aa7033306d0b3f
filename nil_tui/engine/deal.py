"""One deal of Zero: hands, legal cards, play, tricks, the early end and the score.

This module is the only place that knows the rules of a deal. Hands are bitmasks of card bits
(see ``cards.py``) so that bots can run many playouts through it.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Iterable, NamedTuple, Sequence

from .cards import DECK, FULL_MASK, SUIT_MASKS, SUIT_SYMBOLS, Card, cards_of, mask_of

if TYPE_CHECKING:
    from .view import PlayerView

SEAT_NAMES = ("South", "West", "North", "East")
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


class IllegalPlay(ValueError):
    """A card that may not be played now. ``reason`` says why in words; the deal is unchanged."""

    def __init__(self, card: object, reason: str, seat: int | None = None,
                 led_suit: int | None = None) -> None:
        self.card = card
        self.reason = reason
        self.seat = seat
        self.led_suit = led_suit
        super().__init__(f"cannot play {card}: {reason}")


def trick_winner(leader: int, cards: Sequence[Card]) -> int:
    """Seat that wins a complete trick: the highest card of the led suit."""
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

    __slots__ = ("dealer", "dealt", "_hands", "_leader", "_trick", "_to_move", "_taken",
                 "_tricks", "_over", "_early", "_played", "context")

    def __init__(self, hands: Sequence[int], dealer: int) -> None:
        if dealer not in (0, 1, 2, 3):
            raise ValueError(f"dealer must be a seat 0..3, not {dealer!r}")
        self.dealer: int = dealer
        self.dealt: tuple[int, int, int, int] = tuple(hands)  # type: ignore[assignment]
        self._hands: list[int] = list(hands)
        self._leader: int = (dealer + 1) & 3
        self._trick: list[Card] = []
        self._to_move: int | None = self._leader
        self._taken: list[int] = [0, 0, 0, 0]
        self._tricks: list[Trick] = []
        self._over = False
        self._early = False
        self._played = 0
        # (deal_number, deals_planned, totals before this deal): set by Game for views.
        self.context: tuple[int, int, tuple[int, int, int, int]] = (1, 1, (0, 0, 0, 0))

    # --- construction -------------------------------------------------------------------
    @classmethod
    def new(cls, dealer: int = 0, rng: random.Random | None = None) -> "Deal":
        """Shuffle and deal 13 cards each, one at a time clockwise from the dealer's left."""
        order = list(range(52))
        (rng or random.Random()).shuffle(order)
        hands = [0, 0, 0, 0]
        for i, idx in enumerate(order):
            hands[(dealer + 1 + i) & 3] |= 1 << idx
        return cls(hands, dealer)

    @classmethod
    def from_hands(cls, hands: Sequence[Iterable[Card | str]], dealer: int = 0) -> "Deal":
        """A deal from four lists of 13 cards (Card or code), by seat."""
        if len(hands) != 4:
            raise ValueError(f"a deal needs 4 hands, got {len(hands)}")
        masks = []
        seen = 0
        for seat, hand in enumerate(hands):
            cards = [Card.parse(c) for c in hand]
            mask = mask_of(cards)
            if len(cards) != 13 or bin(mask).count("1") != 13:
                raise ValueError(f"hand of seat {seat} must hold 13 different cards")
            if mask & seen:
                dup = cards_of(mask & seen)[0]
                raise ValueError(f"{dup} is dealt twice (again to seat {seat})")
            seen |= mask
            masks.append(mask)
        return cls(masks, dealer)

    @classmethod
    def from_position(cls, hands: Sequence[int], dealer: int, tricks: Sequence[Trick],
                      trick: Sequence[Card], leader: int) -> "Deal":
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
        d._to_move = (leader + len(trick)) & 3
        d._check_end()
        return d

    def copy(self) -> "Deal":
        d = Deal.__new__(Deal)
        d.dealer = self.dealer
        d.dealt = self.dealt
        d._hands = self._hands[:]
        d._leader = self._leader
        d._trick = self._trick[:]
        d._to_move = self._to_move
        d._taken = self._taken[:]
        d._tricks = self._tricks[:]
        d._over = self._over
        d._early = self._early
        d._played = self._played
        d.context = self.context
        return d

    # --- state --------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        return self._to_move

    @property
    def leader(self) -> int:
        """Seat that leads (or led) the trick in progress."""
        return self._leader

    @property
    def is_over(self) -> bool:
        return self._over

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
        if not self._over:
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
        if self._to_move is None:
            return 0
        hand = self._hands[self._to_move]
        if self._trick:
            follow = hand & SUIT_MASKS[self._trick[0].suit]
            if follow:
                return follow
        return hand

    def legal_moves(self) -> list[Card]:
        """The cards the seat to move may play, sorted (empty once the deal is over)."""
        return cards_of(self.legal_mask())

    def is_legal(self, card: Card) -> bool:
        return bool(self.legal_mask() & card.bit)

    def why_illegal(self, card: Card | str) -> IllegalPlay | None:
        """The reason a card may not be played now, or None when it may."""
        try:
            c = Card.parse(card)
        except ValueError as exc:
            return IllegalPlay(card, str(exc))
        seat = self._to_move
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
            card = Card.parse(card)  # type: ignore[arg-type]
        seat = self._to_move
        bit = card.bit  # type: ignore[union-attr]
        trick = self._trick
        if seat is None or not self._hands[seat] & bit or (
            trick and card.suit != trick[0].suit  # type: ignore[union-attr]
            and self._hands[seat] & SUIT_MASKS[trick[0].suit]
        ):
            raise self.why_illegal(card) or IllegalPlay(card, "not allowed")  # pragma: no cover
        self._hands[seat] ^= bit
        self._played |= bit
        trick.append(card)  # type: ignore[arg-type]
        if len(trick) < 4:
            self._to_move = (seat + 1) & 3
            return None
        leader = self._leader
        winner = trick_winner(leader, trick)
        done = Trick(leader, tuple(trick), winner)
        self._tricks.append(done)
        self._taken[winner] += 1
        self._trick = []
        self._leader = winner
        self._to_move = winner
        self._check_end()
        return done

    def _check_end(self) -> None:
        t = self._taken
        if t[0] and t[1] and t[2] and t[3]:
            self._over, self._early = True, len(self._tricks) < TRICKS_PER_DEAL
        elif len(self._tricks) == TRICKS_PER_DEAL:
            self._over = True
        if self._over:
            self._to_move = None

    # --- views --------------------------------------------------------------------------
    def view(self, seat: int) -> "PlayerView":
        """What one seat may know now: its own cards and everything public, nothing more."""
        from .view import PlayerView

        number, planned, totals = self.context
        return PlayerView(
            seat=seat,
            hand=tuple(cards_of(self._hands[seat])),
            legal=tuple(self.legal_moves()) if self._to_move == seat else (),
            trick=tuple(self._trick),
            leader=self._leader,
            tricks=tuple(self._tricks),
            taken=self.taken,
            hand_sizes=tuple(bin(h).count("1") for h in self._hands),  # type: ignore[arg-type]
            dealer=self.dealer,
            deal_number=number,
            deals_planned=planned,
            totals=totals,
            to_move=self._to_move,
        )

    def __repr__(self) -> str:
        return (f"<Deal dealer={self.dealer} tricks={len(self._tricks)} trick={self._trick} "
                f"to_move={self._to_move} taken={self._taken}>")


assert len(DECK) == 52 and FULL_MASK == (1 << 52) - 1
