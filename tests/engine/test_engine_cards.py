"""Cards: parsing, codes, ordering, the flyweights."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable

import pytest

from nil_tui.engine import DECK, Card, InvalidCard, Suit, cards_of, mask_of


def test_deck_has_52_distinct_cards_in_suit_then_rank_order() -> None:
    assert len(DECK) == 52
    assert len({str(c) for c in DECK}) == 52
    assert list(DECK) == sorted(DECK)
    assert [str(c) for c in DECK[:13]] == [r + "C" for r in "23456789TJQKA"]
    assert DECK[-1] == Card.parse("AS")


@pytest.mark.parametrize(("code", "expected"), [
    ("QS", "QS"), ("10S", "TS"), ("TD", "TD"), ("2c", "2C"), (" ah ", "AH"), ("10h", "TH"),
])
def test_parse_accepts_codes(code: str, expected: str) -> None:
    card = Card.parse(code)
    assert str(card) == expected
    assert Card.parse(str(card)) is card


def test_card_fields() -> None:
    card = Card.parse("QS")
    assert card.suit is Suit.SPADES and str(card.suit) == "S"
    assert card.rank == 12
    assert Card.parse("AC").rank == 14 and Card.parse("2D").rank == 2
    assert Card.parse("TH").rank == 10
    assert card.index == 3 * 13 + 10 and card.bit == 1 << card.index


@pytest.mark.parametrize("code", ["", "Q", "QX", "1S", "11S", "ZZ", "QSS", "10", "S Q", "0S",
                                  "XS"])
def test_parse_rejects_bad_codes_naming_the_code(code: str) -> None:
    with pytest.raises(ValueError) as info:
        Card.parse(code)
    assert isinstance(info.value, InvalidCard)
    assert repr(code) in str(info.value)
    assert "rank" in str(info.value) and "suit" in str(info.value)


@pytest.mark.parametrize("value", [None, 12, 3.5, ["QS"]])
def test_parse_rejects_non_strings(value: object) -> None:
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(value)  # type: ignore[arg-type]


def test_cards_are_immutable_hashable_and_interned() -> None:
    card = Card.parse("7H")
    with pytest.raises(AttributeError):
        card.rank = 9  # type: ignore[misc]
    assert Card(Suit.HEARTS, 7) is card
    assert copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert len({card, Card.parse("7h")}) == 1
    with pytest.raises(ValueError):
        Card(Suit.HEARTS, 15)


def test_cards_order_by_suit_then_rank() -> None:
    assert Card.parse("AC") < Card.parse("2D") < Card.parse("3D") < Card.parse("2S")
    assert sorted(Card.parse(c) for c in ["KS", "2H", "AC", "TD"]) == [
        Card.parse(c) for c in ["AC", "TD", "2H", "KS"]]


def test_masks_round_trip() -> None:
    codes = ["2C", "TD", "QS", "AH", "AS"]
    mask = mask_of(codes)
    assert [str(c) for c in cards_of(mask)] == ["2C", "TD", "AH", "QS", "AS"]
    assert cards_of((1 << 52) - 1) == list(DECK)
    assert cards_of(0) == []


@pytest.mark.parametrize("attack", [
    lambda c: object.__setattr__(c, "rank", 3),
    lambda c: object.__setattr__(c, "suit", Suit.CLUBS),
    lambda c: object.__setattr__(c, "bit", 1),
    lambda c: object.__setattr__(c, "index", 0),
    lambda c: object.__setattr__(c, "code", "2C"),
    lambda c: object.__setattr__(c, "__class__", int),
    lambda c: setattr(c, "rank", 3),
    lambda c: type(c).rank.__set__(c, 3),
    lambda c: type(c).suit.__set__(c, Suit.CLUBS),
    lambda c: object.__getattribute__(c, "__dict__").update(rank=3),
    lambda c: vars(c),
    lambda c: object.__delattr__(c, "rank"),
], ids=["rank", "suit", "bit", "index", "code", "class", "setattr", "rank-descriptor",
        "suit-descriptor", "dict", "vars", "delete"])
def test_nothing_changes_a_card(attack: Callable[[Card], object]) -> None:
    """A card has no storage but its value: no attribute, descriptor or dict writes to it."""
    card = Card.parse("QS")
    with pytest.raises((AttributeError, TypeError)):
        attack(card)
    assert (card.rank, card.suit, card.index, card.bit, str(card)) == (
        12, Suit.SPADES, 49, 1 << 49, "QS")
    assert type(card) is Card and Card.parse("QS") is card and repr(card) == "Card(QS)"
    assert [str(c) for c in DECK] == [r + s for s in "CDHS" for r in "23456789TJQKA"]


def test_cards_are_values_not_numbers() -> None:
    """A card is an int underneath (its index) but equals only the same card."""
    two = Card.parse("2C")
    assert bool(two) and two.index == 0  # the card with index 0 is still a card
    assert Card.parse("QS") != 49 and 49 not in DECK and Card.parse("QS") in DECK
    assert hash(Card.parse("QS")) == hash(DECK[49]) and {Card.parse("QS"): 1}[DECK[49]] == 1
    assert f"{Card.parse('TH')}|{Card.parse('TH'):>4}|" == "TH|  TH|"
    assert copy.copy(two) is two and pickle.loads(pickle.dumps([two], 2))[0] is two


def test_a_card_made_behind_the_flyweights_back_is_still_that_card() -> None:
    forged = int.__new__(Card, 49)
    assert forged is not Card.parse("QS")
    assert forged == Card.parse("QS") and Card.parse(forged) is Card.parse("QS")
    with pytest.raises(ValueError):
        Card.parse(int.__new__(Card, 60))
