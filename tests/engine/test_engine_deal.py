"""One deal: legal cards, follow-suit, illegal plays, tricks, the early end and scoring."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from nil_tui.engine import (
    DECK,
    Card,
    Deal,
    IllegalPlay,
    Suit,
    Trick,
    legal_mask_of,
    mask_of,
    score,
    trick_winner,
)
from nil_tui.engine.deal import shuffled_deck


def fill_hands(fixed: Sequence[Sequence[str]], voids: Sequence[str] = ("", "", "", "")
               ) -> list[list[str]]:
    """Four 13-card hands holding the given cards; the rest of the deck is shared out in
    order, keeping each seat void in the suits ``voids[seat]`` names."""
    hands = [list(h) for h in fixed]
    used = {c for h in hands for c in h}
    rest = [str(c) for c in DECK if str(c) not in used]
    for seat, hand in enumerate(hands):
        for code in [c for c in rest if c[1] not in voids[seat]][: 13 - len(hand)]:
            hand.append(code)
            rest.remove(code)
    assert all(len(h) == 13 for h in hands)
    return hands


def by_suit_hands() -> list[list[str]]:
    """South all clubs, West all diamonds, North all hearts, East all spades."""
    return [[r + s for r in "23456789TJQKA"] for s in "CDHS"]


def state(deal: Deal) -> tuple[object, ...]:
    """Everything observable about a deal, to compare before and after."""
    return (deal.hands, deal.trick, deal.tricks, deal.taken, deal.to_move, deal.leader,
            deal.played_mask, deal.is_over, deal.legal_moves(), deal.ended_early)


# --- scoring: every case of RULES.md ---------------------------------------------------------
@pytest.mark.parametrize(("taken", "early", "points"), [
    ((1, 1, 1, 1), True, (1, 1, 1, 1)),      # early end
    ((3, 2, 2, 6), False, (1, 1, 1, 1)),     # everyone took one, at the 13th trick
    ((0, 4, 5, 4), False, (3, 0, 0, 0)),     # exactly one clean
    ((4, 0, 5, 4), False, (0, 3, 0, 0)),
    ((6, 7, 0, 0), False, (0, 0, 1, 1)),     # exactly two clean
    ((0, 6, 0, 7), False, (1, 0, 1, 0)),
    ((0, 0, 0, 13), False, (0, 0, 0, 3)),    # one player took every trick
    ((13, 0, 0, 0), False, (3, 0, 0, 0)),
    ((0, 13, 0, 0), False, (0, 3, 0, 0)),
])
def test_score_table(taken: tuple[int, int, int, int], early: bool,
                     points: tuple[int, int, int, int]) -> None:
    assert score(taken, early) == points


def test_sweep_scores_three_for_the_sweeper() -> None:
    deal = Deal.from_hands(by_suit_hands(), dealer=0)
    assert deal.to_move == 1  # the dealer's left leads
    while not deal.is_over:
        assert deal.leader == 1 and deal.to_move == 1 and not deal.trick
        for _ in range(4):
            deal.play(deal.legal_moves()[0])
    assert len(deal.tricks) == 13 and not deal.ended_early
    assert deal.taken == (0, 13, 0, 0)
    assert deal.points == (0, 3, 0, 0)


def _outcome_kind(taken: Sequence[int], early: bool) -> str:
    clean = sum(1 for t in taken if t == 0)
    return "early" if early else {0: "all13", 1: "one", 2: "two", 3: "sweep"}[clean]


def test_every_scoring_case_happens_in_played_deals(random_deal: Callable[..., Deal]) -> None:
    """Random deals reach each case of the table, and the engine scores each by the rules."""
    seen: dict[str, Deal] = {}
    for seed in range(4000):
        deal = random_deal(seed, seed & 3)
        seen.setdefault(_outcome_kind(deal.taken, deal.ended_early), deal)
        if {"early", "one", "two"} <= seen.keys():
            break
    assert {"early", "one", "two"} <= seen.keys()
    early, one, two = seen["early"], seen["one"], seen["two"]
    assert early.points == (1, 1, 1, 1) and len(early.tricks) < 13
    assert len(one.tricks) == 13 and sorted(one.points) == [0, 0, 0, 3]
    assert one.points[one.taken.index(0)] == 3
    assert len(two.tricks) == 13 and sorted(two.points) == [0, 0, 1, 1]
    assert all(two.points[s] == (1 if two.taken[s] == 0 else 0) for s in range(4))


def test_points_before_the_end_raise() -> None:
    deal = Deal.new(0, random.Random(1))
    with pytest.raises(ValueError, match="not over"):
        _ = deal.points


# --- the early end ---------------------------------------------------------------------------
EARLY_TRICKS = [  # dealer 3, so South leads; each seat takes its first trick in turn
    ["AC", "2C", "3C", "4C"],   # South wins
    ["2D", "AD", "3D", "4D"],   # South leads, West wins
    ["2H", "AH", "3H", "4H"],   # West leads, North wins
    ["2S", "AS", "3S", "4S"],   # North leads, East wins: everyone has a trick
]


def early_deal() -> Deal:
    fixed: list[list[str]] = [[], [], [], []]
    leader = 0
    for n, cards in enumerate(EARLY_TRICKS):
        for k, code in enumerate(cards):
            fixed[(leader + k) & 3].append(code)
        leader = n  # trick n is won by seat n, who leads the next
    return Deal.from_hands(fill_hands(fixed), dealer=3)


def test_deal_ends_exactly_when_the_last_clean_player_takes_a_trick() -> None:
    deal = early_deal()
    for n, cards in enumerate(EARLY_TRICKS):
        assert not deal.is_over
        for code in cards:
            deal.play(code)
        assert deal.tricks[-1].winner == n
        assert deal.is_over == (n == 3)
    assert deal.ended_early
    assert deal.taken == (1, 1, 1, 1)
    assert deal.points == (1, 1, 1, 1)
    assert deal.to_move is None and deal.legal_moves() == []
    assert len(deal.hands[0]) == 9  # the remaining cards are not played
    with pytest.raises(IllegalPlay, match="over"):
        deal.play(deal.hands[0][0])


# --- legal cards and follow-suit -------------------------------------------------------------
def test_leader_may_lead_anything_and_followers_must_follow() -> None:
    deal = early_deal()
    assert deal.legal_moves() == sorted(deal.hands[0])
    deal.play("AC")
    west = deal.hands[1]
    assert deal.legal_moves() == [c for c in west if c.suit is Suit.CLUBS]
    assert all(c.suit is Suit.CLUBS for c in deal.legal_moves())


def test_a_void_player_may_play_any_card() -> None:
    deal = Deal.from_hands(by_suit_hands(), dealer=0)
    deal.play("2D")  # West leads diamonds; North holds only hearts
    assert deal.legal_moves() == list(deal.hands[2])
    deal.play("KH")
    assert deal.trick == (Card.parse("2D"), Card.parse("KH"))


def test_failure_to_follow_raises_names_card_and_reason_and_changes_nothing() -> None:
    deal = early_deal()
    deal.play("AC")
    before = state(deal)
    off_suit = next(c for c in deal.hands[1] if c.suit is not Suit.CLUBS)
    with pytest.raises(IllegalPlay) as info:
        deal.play(off_suit)
    assert isinstance(info.value, ValueError)
    assert str(off_suit) in str(info.value)
    assert "follow" in info.value.reason and "clubs" in info.value.reason
    assert state(deal) == before
    deal.play("2C")  # the deal goes on normally
    assert deal.to_move == 2


@pytest.mark.parametrize(("card", "reason"), [
    ("AD", "not in the hand"),       # held by West, South is to play
    ("QX", "not a card"),
    ("", "not a card"),
])
def test_illegal_cards_raise_with_card_and_reason(card: str, reason: str) -> None:
    deal = early_deal()
    before = state(deal)
    with pytest.raises(IllegalPlay) as info:
        deal.play(card)
    assert reason in str(info.value)
    assert repr(card) in str(info.value) or card in str(info.value)
    assert state(deal) == before


def test_a_played_card_cannot_be_played_again() -> None:
    deal = early_deal()
    for code in EARLY_TRICKS[0]:
        deal.play(code)
    before = state(deal)
    with pytest.raises(IllegalPlay, match="already been played"):
        deal.play("AC")
    assert state(deal) == before


# --- tricks ----------------------------------------------------------------------------------
def test_highest_card_of_the_led_suit_wins_and_leads_next() -> None:
    hands = fill_hands([["5D", "9C"], ["KD", "2C"], ["AS", "3C"], ["7D", "4C"]],
                       voids=("", "", "D", ""))
    deal = Deal.from_hands(hands, dealer=3)
    for code in ["5D", "KD", "AS", "7D"]:  # the ace of spades does not follow: it cannot win
        done = deal.play(code)
    assert done == Trick(0, tuple(Card.parse(c) for c in ["5D", "KD", "AS", "7D"]), 1)
    assert done.player_of(2) == 2 and done.card_of(3) == Card.parse("7D")
    assert deal.leader == 1 and deal.to_move == 1
    assert deal.taken == (0, 1, 0, 0)


def test_copy_is_independent() -> None:
    deal = Deal.new(2, random.Random(5))
    deal.play(deal.legal_moves()[0])
    twin = deal.copy()
    before = state(deal)
    while not twin.is_over:
        twin.play(twin.legal_moves()[-1])
    assert state(deal) == before
    assert twin.dealt == deal.dealt


def test_from_position_continues_a_deal() -> None:
    rng = random.Random(11)
    deal = Deal.new(1, rng)
    for _ in range(18):
        deal.play(rng.choice(deal.legal_moves()))
    rebuilt = Deal.from_position([deal.hand_mask(s) for s in range(4)], deal.dealer,
                                 deal.tricks, deal.trick, deal.leader)
    assert state(rebuilt) == state(deal)
    assert rebuilt.dealt == deal.dealt


def test_new_deals_thirteen_cards_each_from_the_dealers_left() -> None:
    rng = random.Random(3)
    order = list(range(52))
    random.Random(3).shuffle(order)
    deal = Deal.new(2, rng)
    for i, idx in enumerate(order):
        assert DECK[idx] in deal.hands[(2 + 1 + i) % 4]
    assert all(len(h) == 13 for h in deal.hands)


def test_fast_shuffle_matches_random_shuffle() -> None:
    """Deals depend only on the seed: the inlined shuffle draws exactly as Random.shuffle."""
    for seed in range(300):
        expected = list(range(52))
        random.Random(seed).shuffle(expected)
        assert shuffled_deck(random.Random(seed)) == expected

    class Scripted(random.Random):
        pass

    expected = list(range(52))
    random.Random(4).shuffle(expected)
    assert shuffled_deck(Scripted(4)) == expected


@pytest.mark.parametrize("hands", [
    [["2C"] * 13] * 4,
    by_suit_hands()[:3],
    [by_suit_hands()[0]] * 4,
])
def test_from_hands_rejects_bad_deals(hands: list[list[str]]) -> None:
    with pytest.raises(ValueError):
        Deal.from_hands(hands)


def naive_winner(leader: int, cards: Sequence[Card]) -> int:
    led = cards[0].suit
    best = max(range(len(cards)), key=lambda k: cards[k].rank if cards[k].suit == led else 0)
    return (leader + best) % 4


@pytest.mark.parametrize("seed", range(20))
def test_trick_winner_is_the_highest_card_of_the_led_suit(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(50):
        cards = rng.sample(DECK, rng.randint(1, 4))
        leader = rng.randrange(4)
        assert trick_winner(leader, cards) == naive_winner(leader, cards)
    deal = Deal.new(seed % 4, rng)
    while not deal.is_over:
        done = deal.play(rng.choice(deal.legal_moves()))
        if deal.trick:
            assert deal.view(0).trick == deal.trick
        if done is not None:
            assert done.winner == naive_winner(done.leader, done.cards)


def test_legal_moves_are_the_cards_of_legal_mask_of() -> None:
    rng = random.Random(21)
    for _ in range(20):
        deal = Deal.new(rng.randrange(4), rng)
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            led = deal.trick[0].suit if deal.trick else None
            mask = legal_mask_of(deal.hand_mask(seat), led)
            assert deal.legal_mask() == mask and mask_of(deal.legal_moves()) == mask
            assert deal.legal_moves() == sorted(deal.legal_moves())
            assert [c for c in DECK if deal.why_illegal(c) is None] == deal.legal_moves()
            deal.play(rng.choice(deal.legal_moves()))
        assert deal.legal_moves() == [] and deal.legal_mask() == 0


class Hostile:
    """An object whose text cannot be had."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    __str__ = __repr__


@pytest.mark.parametrize("thing", [Hostile(), 10**5000, "Q" * 100_000, None, 3.5, ["QS"],
                                   int.__new__(Card, 77)],
                         ids=["hostile", "huge", "long", "none", "float", "list", "forged"])
def test_anything_played_that_is_not_a_card_is_refused_with_a_short_message(
        thing: object) -> None:
    deal = Deal.new(0, random.Random(3))
    before = state(deal)
    with pytest.raises(IllegalPlay) as info:
        deal.play(thing)  # type: ignore[arg-type]
    assert str(info.value).startswith("cannot play ") and len(str(info.value)) < 200
    assert state(deal) == before
