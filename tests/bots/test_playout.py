"""The search's playouts on plain numbers play the same cards as the rules of thumb played
card by card through the engine, a layout drawn again is worth what it was the first time,
and the policy's packed keys choose as the plain tuples they stand for."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from nil_tui.bots.expert import EXPERT
from nil_tui.bots.heuristic import (
    SEG,
    can_sweep,
    discard_index,
    follow_index,
    lead_index,
    policy_index,
)
from nil_tui.bots.knowledge import Knowledge
from nil_tui.bots.search import Searcher, distinct_moves, rollout
from nil_tui.engine import DECK, Deal
from nil_tui.engine.playout import Playout, nth_card
from nil_tui.engine.scoring import CLASSIC_RULE, DealRule

RULES = [CLASSIC_RULE, DealRule("pool", 5, (), False), DealRule("pool", 3, (1, 3), False),
         DealRule("pool", 0, (), True)]


def played_out(d: Deal, rng: random.Random | None = None, eps: float = 0.0
               ) -> tuple[list[int], tuple[float, float, float, float]]:
    """The plain way: every card through ``Deal.play``, the rules of thumb asked with the
    deal's own facts (the shown voids when leading), a random legal card with chance
    ``eps``. Returns the cards played and the deal's worth."""
    line = []
    while d.to_move is not None:
        seat = d.to_move
        legal = d.legal_mask()
        if legal & (legal - 1) == 0:
            i = legal.bit_length() - 1
        elif rng is not None and eps and rng.random() < eps:
            i = nth_card(legal, rng.randrange(legal.bit_count()))
        else:
            i = policy_index(seat, d.hand_mask(seat), legal, d.trick, d.leader, d.taken,
                             d.played_mask, 0 if d.trick else d.voids_mask)
        line.append(i)
        d.play(DECK[i])
    return line, d.worth


def positions(count: int, seed: int) -> list[Deal]:
    """Deals stopped at random points of random play, under every kind of scoring."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        deal = Deal(list(Deal.new(n & 3, rng).dealt), n & 3, RULES[n % len(RULES)])
        for _ in range(rng.randrange(40)):
            if deal.to_move is None:
                break
            deal.play(rng.choice(deal.legal_moves()))
        out.append(deal)
    return out


def late_positions(count: int, seed: int) -> list[Deal]:
    """Deals played by the rules of thumb into their last three tricks (a seat still clean),
    under every kind of scoring."""
    rng = random.Random(seed)
    out: list[Deal] = []
    n = 0
    while len(out) < count:
        deal = Deal(list(Deal.new(n & 3, rng).dealt), n & 3, RULES[n % len(RULES)])
        n += 1
        while deal.to_move is not None and len(deal.plays) < 52 - EXPERT.endgame:
            seat = deal.to_move
            legal = deal.legal_mask()
            deal.play(DECK[policy_index(seat, deal.hand_mask(seat), legal, deal.trick,
                                        deal.leader, deal.taken, deal.played_mask)])
        if deal.to_move is not None and len(deal.legal_moves()) > 1:
            out.append(deal)
    return out


@pytest.mark.parametrize("eps", [0.0, 0.3])
def test_a_playout_plays_the_cards_the_engine_plays(eps: float) -> None:
    for k, deal in enumerate(positions(300, seed=8)):
        before = deal.copy()
        start = Playout(deal)
        for first in [-1, *(c.index for c in deal.legal_moves())]:
            line: list[int] = []
            worth = start.worth(lead_index, follow_index, random.Random(k), eps, first=first,
                                line=line)
            plain = deal.copy()
            if first >= 0:
                plain.play(DECK[first])
            want_line, want = played_out(plain, random.Random(k), eps)
            assert line == ([first] if first >= 0 else []) + want_line
            assert worth == want
        assert repr(deal) == repr(before) and deal.plays == before.plays  # left as it was


def test_one_playout_start_serves_every_layout_of_the_hidden_cards() -> None:
    rng = random.Random(10)
    for deal in positions(150, seed=16):
        if deal.to_move is None:
            continue
        view = deal.view(deal.to_move)
        know = Knowledge(view)
        start = Playout(know.deal(know.sample(rng)))
        for _ in range(3):
            hands = know.sample(rng)
            alone = Playout(know.deal(hands))
            for c in view.legal:
                assert start.worth(lead_index, follow_index, first=c.index, hands=hands) == \
                    alone.worth(lead_index, follow_index, first=c.index)


def test_a_layout_drawn_again_is_searched_once_and_counted_every_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[int, ...]] = []
    valued: dict[tuple[int, ...], tuple[list[float], int]] = {}
    worlds, on_layout = Searcher._worlds, Searcher._on_layout

    def spy_worlds(self: Searcher, *args: Any) -> Iterator[list[int]]:
        for hands in worlds(self, *args):
            drawn.append(tuple(hands))
            yield hands

    def spy_layout(self: Searcher, hands: list[int], *args: Any) -> list[float]:
        assert tuple(hands) not in valued  # searched once
        nodes = self.nodes
        values = on_layout(self, hands, *args)
        valued[tuple(hands)] = (values, self.nodes - nodes)
        return values

    monkeypatch.setattr(Searcher, "_worlds", spy_worlds)
    monkeypatch.setattr(Searcher, "_on_layout", spy_layout)
    repeats = 0
    for deal in late_positions(8, seed=17):
        drawn.clear()
        valued.clear()
        view = deal.view(deal.to_move)  # type: ignore[arg-type]
        searcher = Searcher(EXPERT)
        scores = searcher.evaluate(view, random.Random(3))
        if len(scores) == 1:
            continue
        repeats += len(drawn) - len(valued)
        assert searcher.worlds_used == len(drawn)
        assert searcher.nodes == sum(valued[h][1] for h in drawn)  # the budget saw them all
        for k, i in enumerate(scores):
            assert scores[i] == [valued[h][0][k] for h in drawn]
    assert repeats > 0


def test_a_rollout_finishes_the_deal_it_is_given() -> None:
    for deal in positions(100, seed=9):
        plain = deal.copy()
        _, want = played_out(plain)
        assert rollout(deal) == want
        assert deal.is_over and deal.plays == plain.plays and deal.taken == plain.taken


def lead_by_tuples(seat: int, hand: int, unseen: int, taken: Sequence[int],
                   voids: int = 0) -> int:
    """lead_index with its keys as the tuples they stand for (the lowest wins)."""
    if taken[seat] and not any(taken[(seat + k) & 3] for k in (1, 2, 3)) and \
            can_sweep(hand, unseen):
        return discard_by_tuples(hand, unseen)
    best, best_key = -1, None
    for s in range(4):
        mine = (hand >> (13 * s)) & SEG
        if not mine:
            continue
        pos = (mine & -mine).bit_length() - 1
        out = (unseen >> (13 * s)) & SEG
        lower = (out & ((1 << pos) - 1)).bit_count()
        higher = (out >> (pos + 1)).bit_count()
        void_others = sum(1 for k in (1, 2, 3) if voids >> (4 * ((seat + k) & 3) + s) & 1)
        key = (1, -lower, 0) if higher == 0 else \
            (0, lower * 3 + void_others * 2 - min(higher, 6), mine.bit_count())
        if best_key is None or key < best_key:
            best, best_key = 13 * s + pos, key
    return best


def discard_by_tuples(hand: int, unseen: int) -> int:
    """discard_index with its keys as tuples (the highest wins)."""
    best, best_key = -1, None
    for s in range(4):
        mine = (hand >> (13 * s)) & SEG
        if not mine:
            continue
        pos = mine.bit_length() - 1
        out = (unseen >> (13 * s)) & SEG
        higher = (out >> (pos + 1)).bit_count()
        lower = (out & ((1 << pos) - 1)).bit_count()
        key = (pos - 4 * higher + (2 if lower else 0), -mine.bit_count())
        if best_key is None or key > best_key:
            best, best_key = 13 * s + pos, key
    return best


def test_the_packed_keys_choose_as_the_tuples_do() -> None:
    rng = random.Random(12)
    for _ in range(20_000):
        cards = list(range(52))
        rng.shuffle(cards)
        n = rng.randint(1, 13)
        hand = sum(1 << i for i in cards[:n])
        unseen = sum(1 << i for i in cards[n:n + rng.randint(0, 39)])
        taken = [rng.choice((0, 0, 1, 2)) for _ in range(4)]
        seat = rng.randrange(4)
        voids = rng.getrandbits(16) if rng.random() < 0.5 else 0
        assert discard_index(hand, unseen) == discard_by_tuples(hand, unseen)
        assert lead_index(seat, hand, unseen, taken, voids) == \
            lead_by_tuples(seat, hand, unseen, taken, voids)


def test_nth_card_counts_from_the_lowest() -> None:
    mask = (1 << 3) | (1 << 17) | (1 << 51)
    assert [nth_card(mask, k) for k in range(3)] == [3, 17, 51]


def runs_by_positions(legal: int, unseen: int) -> list[int]:
    """distinct_moves suit by suit, position by position."""
    out: list[int] = []
    for s in range(4):
        prev = -1
        for pos in range(13):
            if legal >> (13 * s + pos) & 1:
                between = sum(unseen >> (13 * s + k) & 1 for k in range(prev + 1, pos))
                if prev < 0 or between:
                    out.append(13 * s + pos)
                prev = pos
    return out


def test_distinct_moves_keep_one_card_of_each_run() -> None:
    rng = random.Random(13)
    assert distinct_moves(0b1011, 0b0100) == [0, 3]  # 2 and 3 are one run, 5 stands alone
    assert distinct_moves(1 << 12 | 1 << 13, 0) == [12, 13]  # the ace and the next 2: suits
    for _ in range(5_000):
        legal = rng.getrandbits(52)
        unseen = rng.getrandbits(52) & ~legal
        assert distinct_moves(legal, unseen) == runs_by_positions(legal, unseen)
