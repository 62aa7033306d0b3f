"""Random full deals checked against the rules, recomputed here independently of the engine."""

from __future__ import annotations

import random

from nil_tui.engine import DECK, Card, Deal

DEALS = 3000


def rules_points(taken: list[int], tricks_played: int) -> tuple[int, ...]:
    """RULES.md's scoring, written out again from the rules text."""
    clean = [s for s in range(4) if taken[s] == 0]
    if not clean:
        return (1, 1, 1, 1)
    assert tricks_played == 13
    if len(clean) == 1:
        return tuple(3 if s in clean else 0 for s in range(4))
    if len(clean) == 2:
        return tuple(1 if s in clean else 0 for s in range(4))
    return tuple(0 if s in clean else 3 for s in range(4))


def test_random_deals_keep_every_invariant() -> None:
    rng = random.Random(20261129)
    outcomes: set[int] = set()
    for n in range(DEALS):
        dealer = n % 4
        deal = Deal.new(dealer, rng)
        dealt = [set(deal.hands[s]) for s in range(4)]
        # the hands partition the deck, 13 each
        assert all(len(h) == 13 for h in dealt)
        assert set().union(*dealt) == set(DECK)
        held = [set(h) for h in dealt]
        played: list[Card] = []
        taken = [0, 0, 0, 0]
        leader = (dealer + 1) % 4
        trick: list[Card] = []
        while not deal.is_over:
            seat = (leader + len(trick)) % 4
            assert deal.to_move == seat
            legal = deal.legal_moves()
            follow = [c for c in held[seat] if trick and c.suit == trick[0].suit]
            assert set(legal) == set(follow or held[seat])
            assert legal == sorted(legal)
            card = rng.choice(legal)
            done = deal.play(card)
            held[seat].remove(card)
            played.append(card)
            trick.append(card)
            if len(trick) < 4:
                assert done is None
                continue
            led = trick[0].suit
            best = max(range(4), key=lambda k: trick[k].rank if trick[k].suit == led else 0)
            winner = (leader + best) % 4
            assert done is not None and done.winner == winner and done.leader == leader
            assert list(done.cards) == trick
            taken[winner] += 1
            leader, trick = winner, []
            # the deal ends exactly when everyone has a trick, or after 13 tricks
            assert deal.is_over == (all(taken) or len(deal.tricks) == 13)
        # each card played once, by a seat that held it; the rest are still held
        assert len(played) == len(set(played)) == 4 * len(deal.tricks)
        for t in deal.tricks:
            for k, c in enumerate(t.cards):
                assert c in dealt[t.player_of(k)]
        assert [set(deal.hands[s]) for s in range(4)] == held
        # tricks add up
        assert list(deal.taken) == taken
        assert sum(taken) == len(deal.tricks)
        assert [sum(1 for t in deal.tricks if t.winner == s) for s in range(4)] == taken
        assert deal.ended_early == (all(taken) and len(deal.tricks) < 13)
        # points follow the rules
        assert deal.points == rules_points(taken, len(deal.tricks))
        outcomes.add(sum(1 for t in taken if t == 0))
    assert {0, 1, 2} <= outcomes
