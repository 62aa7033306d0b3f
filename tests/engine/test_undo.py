"""Deal.undo: play then undo leaves a deal equal in every observable way, at any point."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nil_tui.engine import DECK, Card, Deal, IllegalPlay, NothingToUndo, Trick

# Deterministic (the same examples on every run) and without a database in the working tree.
CHECKS = settings(derandomize=True, database=None, deadline=None, max_examples=150)


def observed(deal: Deal) -> tuple[object, ...]:
    """Everything a caller can see of a deal."""
    return (
        deal.hands, deal.trick, deal.tricks, deal.leader, deal.taken, deal.clean,
        deal.to_move, deal.is_over, deal.ended_early, deal.legal_moves(), deal.legal_mask(),
        deal.played_mask, deal.led_suit, deal.trick_number, deal.voids_mask, deal.dealt,
        deal.dealer, deal.context, [deal.hand_mask(s) for s in range(4)],
        deal.points if deal.is_over else None,
        [deal.view(s) for s in range(4)],
    )


def legal_everywhere(deal: Deal) -> list[bool]:
    """Which of the 52 cards may be played now, asked one by one."""
    return [deal.why_illegal(c) is None for c in DECK]


@CHECKS
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 3),
       steps=st.lists(st.integers(0, 15), min_size=10, max_size=150))
def test_play_then_undo_restores_everything(seed: int, dealer: int, steps: list[int]) -> None:
    """A random walk of plays, undos (a step of 12 to 14) and copies (15): each undo returns
    exactly the state before the play it takes back, across trick ends and the deal's end."""
    deal = Deal.new(dealer, random.Random(seed))
    history: list[tuple[tuple[object, ...], list[bool], Card]] = []
    for step in steps:
        if step == 15:  # go on with a copy: it undoes the plays made before it was taken
            deal = deal.copy()
        elif step >= 12 and history:
            before, legal, card = history.pop()
            assert deal.undo() is card
            assert observed(deal) == before and legal_everywhere(deal) == legal
        elif not deal.is_over:
            moves = deal.legal_moves()
            card = moves[step % len(moves)]
            history.append((observed(deal), legal_everywhere(deal), card))
            deal.play(card)
    while history:  # back to the deal as dealt
        before, legal, card = history.pop()
        assert deal.undo() is card
        assert observed(deal) == before and legal_everywhere(deal) == legal
    assert observed(deal) == observed(Deal.new(dealer, random.Random(seed)))
    with pytest.raises(NothingToUndo):
        deal.undo()


@CHECKS
@given(seed=st.integers(0, 2**32), stop=st.integers(0, 51))
def test_undo_and_replay_give_the_same_deal(seed: int, stop: int) -> None:
    """Undo everything from any point and play the same cards again: the same deal, the same
    tricks, the same end; and a copy taken before is not touched by either."""
    rng = random.Random(seed)
    deal = Deal.new(seed & 3, rng)
    played: list[Card] = []
    while not deal.is_over and len(played) < stop:
        played.append(rng.choice(deal.legal_moves()))
        deal.play(played[-1])
    snapshot = deal.copy()
    after = observed(deal)
    for card in reversed(played):
        assert deal.undo() is card
    assert observed(snapshot) == after
    for card in played:
        deal.play(card)
    assert observed(deal) == after


def test_undo_on_a_fresh_deal_says_there_is_nothing_to_undo() -> None:
    deal = Deal.new(1, random.Random(4))
    before = observed(deal)
    with pytest.raises(NothingToUndo, match="no card has been played") as info:
        deal.undo()
    assert isinstance(info.value, ValueError)
    assert observed(deal) == before


def early_end() -> tuple[Deal, list[Card]]:
    """A deal of random legal plays that ended early (every seat took a trick)."""
    for seed in range(100):
        rng = random.Random(seed)
        deal = Deal.new(seed & 3, rng)
        played = []
        while not deal.is_over:
            played.append(rng.choice(deal.legal_moves()))
            deal.play(played[-1])
        if deal.ended_early:
            return deal, played
    raise AssertionError("no random deal ended early")


def test_undo_after_the_early_end_reopens_the_deal() -> None:
    deal, played = early_end()
    assert deal.is_over and deal.ended_early and deal.to_move is None
    points = deal.points
    last = played[-1]
    assert deal.undo() is last
    assert not deal.is_over and not deal.ended_early and deal.to_move is not None
    assert len(deal.trick) == 3 and deal.legal_moves()
    with pytest.raises(ValueError, match="not over"):
        _ = deal.points
    deal.play(last)
    assert deal.is_over and deal.points == points


def test_undo_across_a_trick_boundary() -> None:
    deal = Deal.new(0, random.Random(9))
    for _ in range(4):
        done = deal.play(deal.legal_moves()[0])
    assert isinstance(done, Trick) and deal.trick == () and deal.to_move == done.winner
    card = deal.undo()
    assert card is done.cards[3]
    assert deal.tricks == () and deal.trick == done.cards[:3] and deal.taken == (0, 0, 0, 0)
    assert deal.leader == done.leader and deal.to_move == (done.leader + 3) % 4
    assert card in deal.legal_moves()


def test_undo_reaches_into_the_history_a_position_was_built_from() -> None:
    rng = random.Random(13)
    deal = Deal.new(2, rng)
    for _ in range(9):
        deal.play(rng.choice(deal.legal_moves()))
    rebuilt = Deal.from_position([deal.hand_mask(s) for s in range(4)], deal.dealer,
                                 deal.tricks, deal.trick, deal.leader)
    for _ in range(9):
        assert rebuilt.undo() is deal.undo()
        assert observed(rebuilt) == observed(deal)


def test_an_illegal_play_after_an_undo_changes_nothing() -> None:
    deal = Deal.new(0, random.Random(2))
    deal.play(deal.legal_moves()[0])
    deal.undo()
    before = observed(deal)
    with pytest.raises(IllegalPlay):
        deal.play("XX")
    assert observed(deal) == before
