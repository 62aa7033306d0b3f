"""Suits and cards: immutable, interned flyweights backed by a 0..51 index and a bit."""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import TYPE_CHECKING

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
        raise InvalidCard(f"{shown(code)} is not a suit (expected one of C, D, H, S)")


class InvalidCard(ValueError):
    """A card code that does not name a card."""


_type_name = type.__dict__["__name__"].__get__


def shown(value: object, limit: int = 24) -> str:
    """A short description of a value that should name a card or a suit, for messages. It runs
    none of the value's own code (a bot may hand in anything): a card is its code, text and
    small numbers their ``repr`` (text cut to about ``limit`` characters), anything else
    "a <type> object"."""
    kind = type(value)
    if kind is Card and isinstance(value, Card):
        return _CODE_OF[value] if 0 <= value < 52 else "a card that does not exist"
    if kind is str and isinstance(value, str):
        text = repr(value)
        return text if len(text) <= limit else text[:limit - 4] + "...'"
    if kind is int and isinstance(value, int):
        return repr(value) if value.bit_length() < 64 else "a number too large to show"
    if kind in (bool, float, type(None)):
        return repr(value)
    name = _type_name(kind)
    return f"{'an' if name[:1] in 'AEIOUaeiou' else 'a'} {name} object"


# Per card index 0..51: its suit, rank, bit and code. A card's fields are read from these tables
# by its index (the card's integer value), so a card holds no state that could be changed.
_SUIT_OF: tuple[Suit, ...] = tuple(Suit(i // 13) for i in range(52))
_RANK_OF: tuple[int, ...] = tuple(i % 13 + 2 for i in range(52))
_BIT_OF: tuple[int, ...] = tuple(1 << i for i in range(52))
_INDEX_OF: tuple[int, ...] = tuple(range(52))
_CODE_OF: tuple[str, ...] = tuple(RANK_CODES[i % 13] + SUIT_CODES[i // 13] for i in range(52))


class Card(int):
    """One card: an ``int`` subclass whose value is the card's index, with no other storage.

    ``index`` is ``suit * 13 + rank - 2`` (0..51) and ``bit`` is ``1 << index``: hands are
    bitmasks of these bits. There is exactly one object per card (``DECK[index]``); cards
    order by suit then rank, and a card equals only itself (never a plain number). Being an
    int with no attributes of its own, a card cannot be changed: ``suit``, ``rank``, ``bit`` and
    ``code`` are read-only properties computed from the value.
    """

    __slots__ = ()

    if TYPE_CHECKING:
        @property
        def suit(self) -> Suit: ...

        @property
        def rank(self) -> int:
            """2..14 (ace high)."""

        @property
        def bit(self) -> int: ...

        @property
        def index(self) -> int:
            """0..51, as a plain int."""

        @property
        def code(self) -> str:
            """Two characters: the rank (ten is "T") then the suit, e.g. "QS"."""
    else:
        # Properties whose getters are C functions (tuple lookups): read-only, and as fast as
        # properties get. ``__class__`` is read-only too, so that a card's type cannot be
        # swapped through ``object.__setattr__``.
        suit = property(_SUIT_OF.__getitem__)
        rank = property(_RANK_OF.__getitem__)
        bit = property(_BIT_OF.__getitem__)
        index = property(_INDEX_OF.__getitem__)
        code = property(_CODE_OF.__getitem__)
        __class__ = property(type)

    def __new__(cls, suit: Suit | int, rank: int) -> Card:  # noqa: PYI034 - a flyweight
        if not (isinstance(rank, int) and 2 <= rank <= 14) or suit not in range(4):
            raise InvalidCard(f"no card has suit {suit!r} and rank {rank!r}")
        return DECK[int(suit) * 13 + rank - 2]

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (card_at, (_INDEX_OF[self],))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @classmethod
    def parse(cls, code: str | Card) -> Card:
        """Parse ``"QS"``, ``"TD"``, ``"10D"`` (case and spaces ignored); ValueError otherwise."""
        if type(code) is Card:  # the flyweight, even for a card made by int.__new__
            if 0 <= code < 52:
                return DECK[code]
            raise InvalidCard(f"no card has the index {int(code)}")
        card = _BY_CODE.get(code.strip().upper()) if isinstance(code, str) else None
        if card is None:
            raise InvalidCard(
                f"{shown(code)} is not a card: expected a rank (2-9, T or 10, J, Q, K, A) "
                "followed by a suit (C, D, H, S), e.g. QS or 10H"
            )
        return card

    def __str__(self) -> str:
        return _CODE_OF[self]

    def __repr__(self) -> str:
        return f"Card({_CODE_OF[self]})"

    def __format__(self, spec: str) -> str:
        return format(_CODE_OF[self], spec)

    def __bool__(self) -> bool:
        return True  # every card is a card, the 2 of clubs (index 0) included

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is Card and int.__eq__(self, other))

    def __ne__(self, other: object) -> bool:
        return not (self is other or (type(other) is Card and int.__eq__(self, other)))

    __hash__ = int.__hash__

    @property
    def rank_label(self) -> str:
        """Rank as printed on a card face: 2..10, J, Q, K, A."""
        rank = _RANK_OF[self]
        return "10" if rank == 10 else RANK_CODES[rank - 2]

    def pretty(self, ascii: bool = False) -> str:
        """"Q♠" (or "QS" with ``ascii``), with the ten written as 10."""
        suit = _SUIT_OF[self]
        return self.rank_label + (SUIT_CODES[suit] if ascii else SUIT_SYMBOLS[suit])

    @property
    def name(self) -> str:
        rank = _RANK_OF[self]
        return f"{RANK_NAMES.get(rank, str(rank))} of {SUIT_NAMES[_SUIT_OF[self]]}"


DECK: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(52))
_BY_CODE: dict[str, Card] = {}
for _c in DECK:
    _BY_CODE[_c.code] = _c
    if _c.rank == 10:
        _BY_CODE["10" + SUIT_CODES[_c.suit]] = _c

FULL_MASK = (1 << 52) - 1
SUIT_MASKS: tuple[int, int, int, int] = tuple(0x1FFF << (13 * s) for s in range(4))  # type: ignore[assignment]

# Cards of a 13-bit suit segment, ascending: _SEGMENT[suit][bits] -> tuple of cards. The four
# tables (8192 entries each) take a while to build, so they start empty and are filled (each
# in one step) once cards_of has been called often enough to be worth it: a program that only
# shows a hand never waits for them, and a search builds them at its first decisions.
_SEGMENT: tuple[list[tuple[Card, ...]], ...] = ([], [], [], [])
_DIRECT_CALLS = [64]  # cards_of calls answered without the tables before they are built


def build_tables() -> None:
    """Fill the suit-segment tables (idempotent)."""
    if _SEGMENT[3]:
        return
    offsets: list[tuple[int, ...]] = [()] * 8192
    for m in range(1, 8192):
        low = m & -m
        offsets[m] = (low.bit_length() - 1,) + offsets[m ^ low]
    for suit, table in enumerate(_SEGMENT):
        get = DECK[13 * suit:13 * suit + 13].__getitem__
        built = [tuple(map(get, o)) for o in offsets]
        if not table:
            table.extend(built)  # one step: a reader sees the table empty or whole


def _cards_of_directly(mask: int) -> list[Card]:
    """cards_of while the tables are not built yet (and the call that builds them)."""
    _DIRECT_CALLS[0] -= 1
    if _DIRECT_CALLS[0] < 0:
        build_tables()
    return [card for card in DECK if mask >> _INDEX_OF[card] & 1]


del _c


def card_at(index: int) -> Card:
    """The card with this 0..51 index."""
    return DECK[index]


def cards_of(mask: int, _clubs: list[tuple[Card, ...]] = _SEGMENT[0],
             _diamonds: list[tuple[Card, ...]] = _SEGMENT[1],
             _hearts: list[tuple[Card, ...]] = _SEGMENT[2],
             _spades: list[tuple[Card, ...]] = _SEGMENT[3]) -> list[Card]:
    """The cards of a bitmask, sorted by suit then rank. (The suits' tables are bound as
    defaults, local to the function: this runs for every legal-moves list of a playout.)"""
    try:
        return [
            *_clubs[mask & 0x1FFF],
            *_diamonds[(mask >> 13) & 0x1FFF],
            *_hearts[(mask >> 26) & 0x1FFF],
            *_spades[(mask >> 39) & 0x1FFF],
        ]
    except IndexError:  # the tables are not built yet
        return _cards_of_directly(mask)


def mask_of(cards: Iterable[Card | str]) -> int:
    mask = 0
    for c in cards:
        mask |= Card.parse(c).bit
    return mask
