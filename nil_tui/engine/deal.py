"""One deal of Zero: hands, legal cards, play, tricks, the early end and the score.

This module is the only place that knows the rules of a deal. Hands are bitmasks of card bits
(see ``cards.py``) so that bots can run many playouts through it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from .cards import (
    _SEGMENT,
    DECK,
    FULL_MASK,
    SUIT_MASKS,
    SUIT_SYMBOLS,
    Card,
    Suit,
    cards_of,
    mask_of,
    shown,
)
from .scoring import CLASSIC_RULE, DealRule, Settlement, classic_points

if TYPE_CHECKING:
    from .view import PlayerView

SEAT_NAMES = ("South", "West", "North", "East")
_BITS = [c.bit for c in DECK]  # (a list: mapping a list's lookup over a deck is the quicker)
_INDEX = tuple(range(52))  # a card's index as a plain int (cards are ints)
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


class Play(NamedTuple):
    """One card of a deal as everyone saw it: the seat, the card, and whether it was that
    seat's only legal card (``forced``). :attr:`Deal.plays` lists them in play order, as
    python-chess keeps a board's ``move_stack``."""

    seat: int
    card: Card
    forced: bool = False


_new_tuple = tuple.__new__


class IllegalPlay(ValueError):
    """A card that may not be played now. ``reason`` says why in words; the deal is unchanged."""

    def __init__(self, card: object, reason: str, seat: int | None = None,
                 led_suit: int | None = None) -> None:
        self.card = card
        self.reason = reason
        self.seat = seat
        self.led_suit = led_suit
        name = card[:40] if type(card) is str else shown(card)
        super().__init__(f"cannot play {name}: {reason}")


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


def trick_winner(leader: int, cards: Sequence[int]) -> int:
    """Seat that wins the trick (or is winning it so far): the highest card of the led suit."""
    # A card's index is suit * 13 + rank - 2: the led suit's cards are the indexes from the
    # suit's 2 up to (not including) ``end``, and a higher rank is a higher index. Written out
    # for the (at most) four cards of a trick: every completed trick of a playout comes here.
    top = _INDEX[cards[0]]
    end = top - top % 13 + 13
    best = 0
    n = len(cards)
    if n > 1:
        i = _INDEX[cards[1]]
        if top < i < end:
            best, top = 1, i
        if n > 2:
            i = _INDEX[cards[2]]
            if top < i < end:
                best, top = 2, i
            if n > 3 and top < _INDEX[cards[3]] < end:
                best = 3
    return (leader + best) & 3


def voids_mask(tricks: Iterable[Trick], trick: Sequence[Card], leader: int) -> int:
    """The suits each seat has shown it no longer holds (it did not follow the led suit), from
    the public history: a 16-bit mask with bit ``4 * seat + suit``. ``tricks`` are the
    completed tricks, ``trick`` the cards of the trick in progress, led by ``leader``."""
    mask = 0
    for done in tricks:
        cards = done.cards
        led = cards[0] // 13
        first = done.leader
        for k in (1, 2, 3):
            if cards[k] // 13 != led:
                mask |= 1 << (4 * ((first + k) & 3) + led)
    if trick:
        led = trick[0] // 13
        for k in range(1, len(trick)):
            if trick[k] // 13 != led:
                mask |= 1 << (4 * ((leader + k) & 3) + led)
    return mask


def voids_of(mask: int) -> tuple[frozenset[Suit], ...]:
    """Per seat, the suits of a :func:`voids_mask`."""
    return tuple(frozenset(Suit(suit) for suit in range(4) if mask >> (4 * seat + suit) & 1)
                 for seat in range(4))


# Points of a finished deal under the classic scoring (the scoring module holds the rules).
score = classic_points


def clean_at_end(points: Sequence[int], seat: int, taken: Sequence[int]) -> bool:
    """Whether a seat that was clean when ``taken`` (tricks per seat) was counted, with at
    least one trick done by then, ended the deal clean, read from the deal's points alone
    (``score`` read backwards: a search that carries only the points can tell cleanness).

    Three points: the seat was the only clean one (it cannot have taken every trick: another
    seat took one already). One point, not everyone's: one of two clean seats. No points: clean
    only if another seat took every trick, which that seat (holding the three points) can
    have done only if it had already taken a trick."""
    p = points[seat]
    if p == 3:
        return True
    if p == 1:
        return not (points[0] == points[1] == points[2] == points[3] == 1)
    for s in range(4):
        if points[s] == 3:
            return taken[s] > 0
    return False


class NothingToUndo(ValueError):
    """:meth:`Deal.undo` on a deal where no card has been played yet."""


# what a Game tells its deals for the views: deal number, deals planned, the totals before the
# deal and (when known) the agreed deals still to come after it
Context = (tuple[int, int, tuple[int, int, int, int]]
           | tuple[int, int, tuple[int, int, int, int], int])
_DEFAULT_CONTEXT: Context = (1, 1, (0, 0, 0, 0))
_UNKNOWN = -1  # the legal cards of a deal not worked out yet (see Deal.legal_mask)
_new_deal = object.__new__


class Deal:
    """The live state of one deal. Changed only through :meth:`play` and :meth:`undo`."""

    # ``to_move`` and ``is_over`` are plain attributes (read them, never set them): bots'
    # playouts read them after every card. Every field is set in one place, ``_assign``.
    __slots__ = ("_early", "_forced", "_hands", "_leader", "_legal", "_played", "_taken",
                 "_trick", "_tricks", "context", "dealer", "dealt", "is_over", "rule",
                 "to_move")

    def __init__(self, hands: Sequence[int], dealer: int,
                 rule: DealRule = CLASSIC_RULE) -> None:
        if dealer not in (0, 1, 2, 3):
            raise ValueError(f"dealer must be a seat 0..3, not {dealer!r}")
        first = (dealer + 1) & 3
        self._assign(dealer, (hands[0], hands[1], hands[2], hands[3]), list(hands), first, [],
                     [], [0, 0, 0, 0], 0, first, _UNKNOWN, False,
                     False, _DEFAULT_CONTEXT, 0, rule)

    def _assign(self, dealer: int, dealt: tuple[int, int, int, int], hands: list[int],
                leader: int, trick: list[Card], tricks: list[Trick], taken: list[int],
                played: int, to_move: int | None, legal: int, is_over: bool, early: bool,
                context: Context, forced: int = 0,
                rule: DealRule = CLASSIC_RULE) -> Deal:
        """Set every field (the lists are owned by this deal from now on). ``legal`` is the
        mask of the cards ``to_move`` may play once :meth:`legal_mask` has worked it out, and
        ``_UNKNOWN`` until then (a play or an undo forgets it). ``forced``: the cards (a
        mask) that were their seat's only legal card when played. ``rule``: the game's scoring
        and what it needs of the game (the pool, a tie-break's seats), see ``scoring.py``."""
        self.dealer: int = dealer
        self.dealt: tuple[int, int, int, int] = dealt
        self._hands: list[int] = hands
        self._leader: int = leader
        self._trick: list[Card] = trick
        self._tricks: list[Trick] = tricks
        self._taken: list[int] = taken
        self._played: int = played
        self.to_move: int | None = to_move
        self._legal: int = legal
        self.is_over: bool = is_over
        self._early: bool = early
        # (deal_number, deals_planned, totals before this deal[, agreed deals after it]): set
        # by Game for views.
        self.context: Context = context
        self._forced: int = forced
        self.rule: DealRule = rule
        return self

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
        return cls(hands, dealer)

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
                      trick: Sequence[Card], leader: int,
                      rule: DealRule = CLASSIC_RULE) -> Deal:
        """A deal in mid-play, from the cards each seat still holds (bitmasks) and the public
        history. Used by bots to play out a guessed layout of the hidden cards."""
        if dealer not in (0, 1, 2, 3):
            raise ValueError(f"dealer must be a seat 0..3, not {dealer!r}")
        dealt = list(hands)
        played = 0
        taken = [0, 0, 0, 0]
        for t in tricks:
            taken[t.winner] += 1
            for k, c in enumerate(t.cards):
                dealt[(t.leader + k) & 3] |= _BITS[c]
                played |= _BITS[c]
        for k, c in enumerate(trick):
            dealt[(leader + k) & 3] |= _BITS[c]
            played |= _BITS[c]
        done = list(tricks)
        is_over, early = deal_end(taken, len(done), rule.tiebreak)
        to_move = None if is_over else (leader + len(trick)) & 3
        return _new_deal(cls)._assign(
            dealer, (dealt[0], dealt[1], dealt[2], dealt[3]), list(hands), leader, list(trick),
            done, taken, played, to_move, _UNKNOWN, is_over, early, _DEFAULT_CONTEXT, 0, rule)

    def copy(self) -> Deal:
        """An independent copy (the context, a tuple, is shared)."""
        return _new_deal(Deal)._assign(
            self.dealer, self.dealt, self._hands[:], self._leader, self._trick[:],
            self._tricks[:], self._taken[:], self._played, self.to_move, self._legal,
            self.is_over, self._early, self.context, self._forced, self.rule)

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
        """What the deal changes each seat's total by, under the game's scoring (``rule``)."""
        if not self.is_over:
            raise ValueError("the deal is not over: no points yet")
        return self.rule.points(self._taken, self._early)

    @property
    def worth(self) -> tuple[float, float, float, float]:
        """What the finished deal is worth to each seat, for a search (``DealRule.worth``):
        its points, and under the pool what a tie-break to come or a perfect game adds."""
        return self.rule.worth(self._taken, self._early)

    def settle(self) -> Settlement:
        """The finished deal's full result under the game's scoring (pool, who collected)."""
        if not self.is_over:
            raise ValueError("the deal is not over: no points yet")
        return self.rule.settle(self._taken, self._early)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return tuple(self._tricks)

    @property
    def plays(self) -> tuple[Play, ...]:
        """Every card played in this deal, in order: who played it, and whether it was their
        only legal card (a deal rebuilt by :meth:`from_position` knows no forced cards)."""
        forced = self._forced
        out: list[Play] = []
        for done in self._tricks:
            first = done.leader
            for k, c in enumerate(done.cards):
                out.append(Play((first + k) & 3, c, bool(forced & _BITS[c])))
        first = self._leader
        for k, c in enumerate(self._trick):
            out.append(Play((first + k) & 3, c, bool(forced & _BITS[c])))
        return tuple(out)

    @property
    def trick_number(self) -> int:
        """The number (1-based) of the trick in progress: completed tricks + 1."""
        return len(self._tricks) + 1

    @property
    def trick(self) -> tuple[Card, ...]:
        """Cards of the trick in progress, in play order."""
        return tuple(self._trick)

    @property
    def led_suit(self) -> Suit | None:
        return self._trick[0].suit if self._trick else None

    @property
    def played_mask(self) -> int:
        return self._played

    @property
    def voids_mask(self) -> int:
        """The suits each seat has shown it lacks: see :func:`voids_mask`."""
        return voids_mask(self._tricks, self._trick, self._leader)

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
        """Bitmask of the cards the seat to move may play (0 once the deal is over): see
        :func:`legal_mask_of`."""
        legal = self._legal
        if legal == _UNKNOWN:
            seat = self.to_move
            trick = self._trick
            legal = self._legal = 0 if seat is None else legal_mask_of(
                self._hands[seat], trick[0] // 13 if trick else None)
        return legal

    def legal_moves(self) -> list[Card]:
        """The cards the seat to move may play, sorted (empty once the deal is over)."""
        legal = self._legal
        if legal == _UNKNOWN:  # legal_mask(), inlined: playouts ask this for every card
            seat = self.to_move
            if seat is None:
                return []
            trick = self._trick
            legal = self._legal = legal_mask_of(self._hands[seat],
                                                trick[0] // 13 if trick else None)
        seg = _SEGMENT  # cards_of(legal), written out
        try:
            return [*seg[0][legal & 0x1FFF], *seg[1][(legal >> 13) & 0x1FFF],
                    *seg[2][(legal >> 26) & 0x1FFF], *seg[3][(legal >> 39) & 0x1FFF]]
        except IndexError:  # the card tables are not built yet
            return cards_of(legal)

    def why_illegal(self, card: Card | str) -> IllegalPlay | None:
        """The reason a card may not be played now, or None when it may."""
        try:
            c = Card.parse(card)
        except ValueError as exc:
            return IllegalPlay(card, str(exc), self.to_move)
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
        c = _CANON.get(card) if type(card) is Card else _parsed(card)
        bit = 0 if c is None else _BITS[c]
        legal = self._legal
        if legal == _UNKNOWN:
            legal = self.legal_mask()
        if not legal & bit:
            raise self.why_illegal(card) or IllegalPlay(card, "not allowed")
        seat: int = self.to_move  # type: ignore[assignment]  # a legal card: the deal is on
        if legal == bit:
            self._forced |= bit
        hands = self._hands
        hands[seat] ^= bit
        self._played |= bit
        trick = self._trick
        trick.append(c)  # type: ignore[arg-type]  # not None: its bit was legal
        if len(trick) < 4:
            seat = (seat + 1) & 3
            self.to_move = seat
            self._legal = _UNKNOWN
            return None
        leader = self._leader
        winner = trick_winner(leader, trick)
        done = _new_tuple(Trick, (leader, tuple(trick), winner))
        tricks = self._tricks
        tricks.append(done)
        taken = self._taken
        taken[winner] += 1
        trick.clear()  # (the trick's cards are in ``done``: the list serves the next trick)
        self._leader = winner
        self._legal = _UNKNOWN
        over, self._early = deal_end(taken, len(tricks), self.rule.tiebreak)
        self.is_over = over
        self.to_move = None if over else winner
        return done

    def undo(self) -> Card:
        """Take back the last card played (also across a trick's end and the deal's end) and
        return it: the deal is then exactly as it was before that card.

        Raises NothingToUndo (a ValueError) when no card has been played in this deal.
        """
        trick = self._trick
        if trick:
            card = trick.pop()
            seat = (self._leader + len(trick)) & 3
        else:
            if not self._tricks:
                raise NothingToUndo("no card has been played in this deal: nothing to undo")
            done = self._tricks.pop()
            self._taken[done.winner] -= 1
            cards = done.cards
            card = cards[3]
            self._trick = [cards[0], cards[1], cards[2]]
            self._leader = done.leader
            seat = (done.leader + 3) & 3
            self.is_over = self._early = False
        bit = _BITS[card]
        self._hands[seat] |= bit
        self._played ^= bit
        self._forced &= ~bit
        self.to_move = seat
        self._legal = _UNKNOWN
        return card

    # --- views --------------------------------------------------------------------------
    def view(self, seat: int) -> PlayerView:
        """What one seat may know now: its own cards and everything public, nothing more."""
        from .view import PlayerView

        if seat not in (0, 1, 2, 3):
            raise ValueError(f"a seat is 0..3, not {seat!r}")
        context = self.context
        number, planned, totals = context[0], context[1], context[2]
        left = context[3] if len(context) == 4 else -1
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
            rule=self.rule,
            deals_left=left,
        )

    def own_view(self, seat: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """What ``view(seat)`` holds that is that seat's own: (its hand, its legal cards, none
        unless it is to move). For whoever writes several seats' views of one position (a
        shared table): the rest of a view is public, the same for every seat."""
        if seat not in (0, 1, 2, 3):
            raise ValueError(f"a seat is 0..3, not {seat!r}")
        return (tuple(cards_of(self._hands[seat])),
                tuple(self.legal_moves()) if self.to_move == seat else ())

    def __repr__(self) -> str:
        return (f"<Deal dealer={self.dealer} tricks={len(self._tricks)} trick={self._trick} "
                f"to_move={self.to_move} taken={self._taken}>")


def deal_end(taken: Sequence[int], tricks: int,
             tiebreak: tuple[int, ...] = ()) -> tuple[bool, bool]:
    """(is the deal over, did it end early) after ``tricks`` complete tricks with ``taken``:
    over when every seat has taken a trick (early, before the 13th) or after 13 tricks; a
    tie-break deal (``tiebreak``: its two seats) also the moment one of the two takes one.
    A deal asks this after every trick, and so do bots' playouts that keep a position in
    plain numbers."""
    if (taken[0] and taken[1] and taken[2] and taken[3]) or (
            tiebreak and (taken[tiebreak[0]] or taken[tiebreak[1]])):
        return True, tricks < TRICKS_PER_DEAL
    return tricks == TRICKS_PER_DEAL, False


_CANON: dict[Card, Card] = {c: c for c in DECK}  # the flyweight of a (possibly forged) Card


def _parsed(code: object) -> Card | None:
    """The card a code names, or None."""
    try:
        return Card.parse(code)  # type: ignore[arg-type]
    except ValueError:
        return None


assert len(DECK) == 52 and FULL_MASK == (1 << 52) - 1
