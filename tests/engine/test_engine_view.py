"""A seat's view: its own cards and public play, no other seat's unplayed card, no live deal."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from nil_tui.engine import DECK, Card, Deal, Game, IllegalPlay, PlayerView, voids_mask


def reachable(obj: Any, seen: set[int] | None = None) -> list[Any]:
    """Every object reachable from ``obj`` through containers and attributes."""
    seen = set() if seen is None else seen
    out: list[Any] = []
    stack = [obj]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        out.append(item)
        if isinstance(item, (str, bytes, int, float, bool, type(None), Card)):
            continue
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
            continue
        if isinstance(item, (tuple, list, set, frozenset)):
            stack.extend(item)
            continue
        if dataclasses.is_dataclass(item):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
        for name in getattr(type(item), "__slots__", ()):
            if hasattr(item, name):
                stack.append(getattr(item, name))
        stack.extend(getattr(item, "__dict__", {}).values())
    return out


def test_walker_finds_a_deal_and_its_cards() -> None:
    """The checks below can fail: the walker reaches a Deal, its hands (bitmasks) and the
    cards of its trick in progress."""
    deal = Deal.new(0, random.Random(1))
    deal.play(deal.legal_moves()[0])
    found = reachable({"x": [deal]})
    assert any(isinstance(o, Deal) for o in found)
    assert deal.hand_mask(3) in found
    assert deal.trick[0] in found


@pytest.mark.parametrize("seed", range(4))
def test_views_hold_only_own_and_played_cards_and_no_live_state(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(deals_planned=2, seed=seed)
    checks = 0
    while not game.is_over:
        deal = game.deal
        while not deal.is_over:
            for seat in range(4):
                view = deal.view(seat)
                assert isinstance(view, PlayerView) and view.seat == seat
                objects = reachable(view)
                assert not any(isinstance(o, (Deal, Game, list, dict, set)) for o in objects)
                # hands are bitmasks inside the engine: no big integer may appear
                assert all(o < 1000 for o in objects if isinstance(o, int))
                cards = {o for o in objects if isinstance(o, Card)}
                visible = set(deal.hands[seat]) | {c for t in deal.tricks for c in t.cards} \
                    | set(deal.trick)
                assert cards <= visible
                assert set(view.hand) == set(deal.hands[seat])
                assert view.legal == (tuple(deal.legal_moves()) if seat == deal.to_move else ())
                assert view.hand_sizes == tuple(len(h) for h in deal.hands)
                assert view.unseen == tuple(sorted(
                    c for s in range(4) if s != seat for c in deal.hands[s]))
                checks += 1
            seat = deal.to_move
            before = deal.view(seat)  # type: ignore[arg-type]
            game.play(rng.choice(deal.legal_moves()))
            assert before == deal.view(seat).__class__(**{  # the old view did not change
                f.name: getattr(before, f.name) for f in dataclasses.fields(before)})
            assert len(before.hand) == len(deal.hands[seat]) + 1  # type: ignore[index]
        if not game.is_over:
            game.next_deal()
    assert checks > 100


def test_view_is_frozen_and_carries_game_context() -> None:
    game = Game(deals_planned=3, seed=4)
    view = game.deal.view(0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.seat = 1  # type: ignore[misc]
    assert (view.deal_number, view.deals_planned, view.totals) == (1, 3, (0, 0, 0, 0))
    assert view.dealer == game.deal.dealer


@pytest.mark.parametrize("seat", [-1, 4, None])
def test_view_of_a_seat_that_does_not_exist(seat: object) -> None:
    with pytest.raises(ValueError, match="seat"):
        Deal.new(0, random.Random(1)).view(seat)  # type: ignore[arg-type]


def test_a_view_changed_by_force_changes_nothing_the_deal_checks() -> None:
    """A frozen view can still be written with object.__setattr__: the deal never reads a view
    back, keeps none, and checks a play against its own state."""
    deal = Deal.new(0, random.Random(6))
    seat = deal.to_move
    assert seat is not None
    view = deal.view(seat)
    stolen = next(c for c in DECK if c not in view.hand)  # another seat's card
    object.__setattr__(view, "legal", (stolen,))
    object.__setattr__(view, "hand", (stolen,))
    assert view.legal == (stolen,)
    fresh = deal.view(seat)
    assert stolen not in fresh.legal and list(fresh.legal) == deal.legal_moves()
    before = (deal.hands, deal.trick, deal.legal_moves(), deal.to_move)
    with pytest.raises(IllegalPlay, match="not in the hand"):
        deal.play(stolen)
    assert (deal.hands, deal.trick, deal.legal_moves(), deal.to_move) == before
    assert not any(isinstance(o, PlayerView) for o in reachable(deal))


def naive_voids(deal: Deal) -> list[set[int]]:
    out: list[set[int]] = [set(), set(), set(), set()]
    plays = [(t.leader, t.cards) for t in deal.tricks] + [(deal.leader, deal.trick)]
    for leader, cards in plays:
        for k, card in enumerate(cards):
            if cards and card.suit != cards[0].suit:
                out[(leader + k) % 4].add(int(cards[0].suit))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_shown_voids_are_the_suits_a_seat_did_not_follow(seed: int) -> None:
    rng = random.Random(seed)
    deal = Deal.new(seed % 4, rng)
    while not deal.is_over:
        expected = naive_voids(deal)
        for s in range(4):
            view = deal.view(s)
            assert [set(v) for v in view.voids()] == expected
            assert view.voids_mask == deal.voids_mask == voids_mask(deal.tricks, deal.trick,
                                                                    deal.leader)
            for suit in expected[s]:  # a shown void is true
                assert not any(c.suit == suit for c in deal.hands[s])
        deal.play(rng.choice(deal.legal_moves()))


def test_suit_cards_are_this_seats_cards_of_one_suit() -> None:
    deal = Deal.new(0, random.Random(8))
    view = deal.view(2)
    for suit in range(4):
        assert view.suit_cards(suit) == tuple(c for c in deal.hand(2) if c.suit == suit)
    assert sum(len(view.suit_cards(s)) for s in range(4)) == 13
