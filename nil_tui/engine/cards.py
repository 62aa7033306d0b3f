"""Suits and cards: immutable, interned flyweights backed by a 0..51 index and a bit."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

RANK_CODES = "23456789TJQKA"
SUIT_CODES = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = {11: "jack", 12: "queen", 13: "king", 14: "ace"}


class Suit(IntEnum):
    """The four suits, in the order cards sort: clubs, diamonds, hearts, spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    def __str__(self) -> str:
        return SUIT_CODES[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]

    @property
    def label(self) -> str:
        """The suit's name in words ("hearts")."""
        return SUIT_NAMES[self]

    @classmethod
    def parse(cls, code: str) -> Suit:
        text = code.strip().upper() if isinstance(code, str) else ""
        if len(text) == 1 and text in SUIT_CODES:
            return cls(SUIT_CODES.index(text))
        if len(text) == 1 and text in SUIT_SYMBOLS:
            return cls(SUIT_SYMBOLS.index(text))
        raise InvalidCard(f"{code!r} is not a suit (expected one of C, D, H, S)")


class InvalidCard(ValueError):
    """A card code that does not name a card."""


_FROZEN = False


class Card:
    """One card. There is exactly one object per card, so identity equals equality.

    ``index`` is ``suit * 13 + rank - 2`` (0..51) and ``bit`` is ``1 << index``: hands are
    bitmasks of these bits.
    """

    __slots__ = ("_code", "bit", "index", "rank", "suit")

    index: int
    suit: Suit
    rank: int
    bit: int
    _code: str

    def __new__(cls, suit: Suit | int, rank: int) -> Card:  # noqa: PYI034 - a flyweight
        if _FROZEN:
            if not (isinstance(rank, int) and 2 <= rank <= 14) or suit not in range(4):
                raise InvalidCard(f"no card has suit {suit!r} and rank {rank!r}")
            return DECK[int(suit) * 13 + rank - 2]
        card = object.__new__(cls)
        object.__setattr__(card, "index", int(suit) * 13 + rank - 2)
        object.__setattr__(card, "suit", Suit(suit))
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "bit", 1 << card.index)
        object.__setattr__(card, "_code", RANK_CODES[rank - 2] + SUIT_CODES[suit])
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (card_at, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @classmethod
    def parse(cls, code: str | Card) -> Card:
        """Parse ``"QS"``, ``"TD"``, ``"10D"`` (case and spaces ignored); ValueError otherwise."""
        if isinstance(code, Card):
            return code
        card = _BY_CODE.get(code.strip().upper()) if isinstance(code, str) else None
        if card is None:
            raise InvalidCard(
                f"{code!r} is not a card: expected a rank (2-9, T or 10, J, Q, K, A) "
                "followed by a suit (C, D, H, S), e.g. QS or 10H"
            )
        return card

    def __str__(self) -> str:
        return self._code

    def __repr__(self) -> str:
        return f"Card({self._code})"

    @property
    def code(self) -> str:
        return self._code

    @property
    def rank_label(self) -> str:
        """Rank as printed on a card face: 2..10, J, Q, K, A."""
        return "10" if self.rank == 10 else RANK_CODES[self.rank - 2]

    def pretty(self, ascii: bool = False) -> str:
        """"Q♠" (or "QS" with ``ascii``), with the ten written as 10."""
        return self.rank_label + (SUIT_CODES[self.suit] if ascii else SUIT_SYMBOLS[self.suit])

    @property
    def name(self) -> str:
        rank = RANK_NAMES.get(self.rank, str(self.rank))
        return f"{rank} of {SUIT_NAMES[self.suit]}"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Card) and other.index == self.index)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index


DECK: tuple[Card, ...] = tuple(Card(s, r) for s in range(4) for r in range(2, 15))
_FROZEN = True
_BY_CODE: dict[str, Card] = {}
for _c in DECK:
    _BY_CODE[_c.code] = _c
    if _c.rank == 10:
        _BY_CODE["10" + SUIT_CODES[_c.suit]] = _c

FULL_MASK = (1 << 52) - 1
SUIT_MASKS: tuple[int, int, int, int] = tuple(0x1FFF << (13 * s) for s in range(4))  # type: ignore[assignment]

# Cards of a 13-bit suit segment, ascending: _SEGMENT[suit][bits] -> tuple of cards. Built from
# one table of rank offsets so that the four suits cost little at import.
_OFFSETS: list[tuple[int, ...]] = [()] * 8192
for _m in range(1, 8192):
    _low = _m & -_m
    _OFFSETS[_m] = (_low.bit_length() - 1,) + _OFFSETS[_m ^ _low]
_SEGMENT: list[list[tuple[Card, ...]]] = []
for _s in range(4):
    _get = DECK[13 * _s:13 * _s + 13].__getitem__
    _SEGMENT.append([tuple(map(_get, _o)) for _o in _OFFSETS])
del _s, _m, _low, _get, _c, _OFFSETS


def card_at(index: int) -> Card:
    """The card with this 0..51 index."""
    return DECK[index]


def cards_of(mask: int) -> list[Card]:
    """The cards of a bitmask, sorted by suit then rank."""
    seg = _SEGMENT
    return [
        *seg[0][mask & 0x1FFF],
        *seg[1][(mask >> 13) & 0x1FFF],
        *seg[2][(mask >> 26) & 0x1FFF],
        *seg[3][(mask >> 39) & 0x1FFF],
    ]


def suit_cards(mask: int, suit: int) -> tuple[Card, ...]:
    """The cards of one suit in a bitmask, ascending."""
    return _SEGMENT[suit][(mask >> (13 * suit)) & 0x1FFF]


def mask_of(cards: Iterable[Card | str]) -> int:
    mask = 0
    for c in cards:
        mask |= Card.parse(c).bit
    return mask


def iter_bits(mask: int) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield DECK[low.bit_length() - 1]
        mask ^= low
