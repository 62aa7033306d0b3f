"""Cards in plain lines: how a card is said (words, codes or symbols) and what a player may
type for one: a code (``QH``, ``10h``, ``TH``), words (``queen of hearts``, ``10 of hearts``,
``ten hearts``), a face with its symbol (``Q♥``), or its number in the list of the cards they
may play. One parser for all of them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from ..engine.cards import RANK_NAMES, SUIT_NAMES, Card, InvalidCard

CARD_STYLES = ("words", "codes", "symbols")
"""How cards are said: ``queen of hearts`` (the default: some screen readers say a suit's
symbol as "black heart suit"), ``QH``, or ``Q♥``."""

_RANK_WORDS: dict[str, int] = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "t": 10, "j": 11, "q": 12, "k": 13, "a": 14,
    **{str(n): n for n in range(2, 11)}, **{name: rank for rank, name in RANK_NAMES.items()},
}
_SUIT_WORDS: dict[str, int] = {
    **{name: n for n, name in enumerate(SUIT_NAMES)},
    **{name.removesuffix("s"): n for n, name in enumerate(SUIT_NAMES)},
    "c": 0, "d": 1, "h": 2, "s": 3,
}
_SYMBOLS = str.maketrans({"♣": "c", "♧": "c", "♦": "d", "♢": "d", "♥": "h", "♡": "h",
                          "♠": "s", "♤": "s"})
_FILLER = {"of", "the"}
_CODES = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b")


class CardWords(NamedTuple):
    """How cards and suits are said."""

    style: str = "words"

    def card(self, card: Card) -> str:
        if self.style == "codes":
            return card.pretty(ascii=True)
        if self.style == "symbols":
            return card.pretty()
        return card.name

    def suit(self, suit: int) -> str:
        return SUIT_NAMES[suit]

    def rank(self, card: Card) -> str:
        """The card's rank alone, for a list by suit: "queen", "10" ("Q" as codes)."""
        if self.style == "words":
            return card.name.split(" of ")[0]
        return card.rank_label

    def in_text(self, text: str) -> str:
        """``text`` with each card written as a code ("QS", "10H") said this way."""
        return _CODES.sub(lambda found: self.card(Card.parse(found.group(0))), text)

    def cards(self, cards: Sequence[Card]) -> str:
        """Cards in a list: "queen of hearts, 2 of clubs"."""
        return ", ".join(self.card(c) for c in cards)

    def by_suit(self, cards: Sequence[Card], *, empty: str = "none") -> str:
        """Cards grouped by suit, low to high, clubs first (the order a card's number counts
        in): "clubs: 2, 10; diamonds: none; ..."."""
        parts = []
        for suit in (0, 1, 2, 3):
            ranks = [self.rank(c) for c in sorted(cards, key=lambda c: c.rank)
                     if c.suit == suit]
            parts.append(f"{SUIT_NAMES[suit]}: {', '.join(ranks) if ranks else empty}")
        return "; ".join(parts)


def parse_card(text: str) -> Card | None:
    """The card ``text`` names as a code, a face with a symbol, or words; None when it names
    none."""
    plain = text.strip().lower().translate(_SYMBOLS)
    words = [w for w in plain.replace(",", " ").split() if w not in _FILLER]
    if not words:
        return None
    if len(words) == 1:
        try:
            return Card.parse(words[0])
        except InvalidCard:
            return None
    if len(words) != 2:
        return None
    first, second = words
    for rank_word, suit_word in ((first, second), (second, first)):
        rank, suit = _RANK_WORDS.get(rank_word), _SUIT_WORDS.get(suit_word)
        if rank is not None and suit is not None:
            return Card(suit, rank)
    return None


class Chosen(NamedTuple):
    """What a typed card came to: the card, or why there is none (one line)."""

    card: Card | None
    problem: str = ""


def choose(text: str, hand: Sequence[Card], legal: Sequence[Card],
           words: CardWords | None = None) -> Chosen | None:
    """The card a line chooses: its number in ``legal`` (from 1), or a card named any way;
    None when the line is not a card at all (a command, say)."""
    words = words or CardWords()
    plain = text.strip()
    if plain.isdigit():
        n = int(plain)
        if not legal:
            return Chosen(None, "It is not your turn to play.")
        if 1 <= n <= len(legal):
            return Chosen(legal[n - 1])
        return Chosen(None, f"There is no card {n}: you may play 1 to {len(legal)}.")
    card = parse_card(plain)
    if card is None:
        return None
    if card not in hand:
        return Chosen(None, f"The {words.card(card)} is not in your hand.")
    return Chosen(card)


__all__ = ["CARD_STYLES", "CardWords", "Chosen", "choose", "parse_card"]
