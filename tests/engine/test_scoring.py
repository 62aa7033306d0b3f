"""The two scorings (classic and pool): known answers worked by hand, properties over every
result a deal can have, whole pool games, and their records read back or refused."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nil_tui.engine import Deal, Game, Phase, describe_result
from nil_tui.engine.records import RecordError, from_record
from nil_tui.engine.scoring import (
    CLASSIC_RULE,
    PERFECT_WORTH,
    DealRule,
    classic_points,
    first_rule,
    losers,
)

POOL = DealRule("pool")


def pool(before: int, *, tiebreak: tuple[int, ...] = (), first: bool = False) -> DealRule:
    return DealRule("pool", before, tiebreak, first)


# --- known answers ------------------------------------------------------------------------
def test_no_nil_pays_a_point_per_trick_into_the_pool() -> None:
    settled = pool(5).settle((3, 2, 1, 1), True)
    assert settled.points == (-3, -2, -1, -1)
    assert settled.paid == (3, 2, 1, 1)
    assert settled.pool == 12
    # all 13 tricks played and nobody clean (the 13th trick gave the last one its first)
    assert pool(0).settle((4, 3, 5, 1), False).pool == 13


def test_one_nil_collects_the_pool_as_it_stood_before_the_deal() -> None:
    settled = pool(14).settle((0, 4, 5, 4), False)
    assert settled.points == (14, 0, 0, 0)
    assert (settled.pool, settled.collected, settled.share) == (0, (0,), 14)
    assert settled.perfect is None


def test_a_slam_collects_the_pool() -> None:
    settled = pool(5).settle((0, 0, 0, 13), False)
    assert settled.points == (0, 0, 0, 5) and settled.pool == 0


def test_two_nils_share_an_even_pool() -> None:
    settled = pool(6).settle((0, 6, 0, 7), False)
    assert settled.points == (3, 0, 3, 0) and settled.pool == 0
    assert settled.tiebreak == ()


def test_two_nils_with_an_odd_pool_call_for_a_tie_break() -> None:
    settled = pool(7).settle((0, 6, 0, 7), False)
    assert settled.points == (0, 0, 0, 0)
    assert settled.pool == 7 and settled.tiebreak == (0, 2)
    assert pool(7).after(settled) == DealRule("pool", 7, (0, 2), False)


def test_the_tie_break_goes_to_the_one_who_stays_clean() -> None:
    rule = pool(7, tiebreak=(0, 2))
    assert rule.settle((0, 0, 1, 0), True).points == (7, 0, 0, 0)
    assert rule.settle((1, 0, 0, 0), True).points == (0, 0, 7, 0)
    both = rule.settle((0, 6, 0, 7), False)  # both clean through 13 tricks
    assert both.points == (3, 0, 3, 0) and both.pool == 1


def test_a_nil_or_a_slam_in_the_first_deal_is_a_perfect_game() -> None:
    rule = first_rule("pool")
    assert rule.first and rule.pool == 0
    assert rule.settle((5, 0, 4, 4), False).perfect == 1
    assert rule.settle((0, 13, 0, 0), False).perfect == 1
    assert rule.settle((0, 6, 0, 7), False).perfect is None  # two nils: no perfect game
    assert rule.settle((3, 2, 1, 1), True).perfect is None
    assert losers((0, 0, 0, 0), 1) == (0, 2, 3)
    assert first_rule("classic") == CLASSIC_RULE


def test_the_worked_example_of_the_rules() -> None:
    """RULES.txt: two deals end early with (3,2,1,1) and (1,4,1,1); in the third only North
    stays clean and collects 14."""
    rule = first_rule("pool")
    totals = [0, 0, 0, 0]
    for taken, early in (((3, 2, 1, 1), True), ((1, 4, 1, 1), True), ((3, 5, 0, 5), False)):
        settled = rule.settle(taken, early)
        totals = [t + p for t, p in zip(totals, settled.points)]
        rule = rule.after(settled)
    assert totals == [-4, -6, 12, -2] and rule.pool == 0


def test_classic_is_unchanged() -> None:
    assert CLASSIC_RULE.points((0, 4, 5, 4), False) == (3, 0, 0, 0)
    assert CLASSIC_RULE.points((0, 6, 0, 7), False) == (1, 0, 1, 0)
    assert CLASSIC_RULE.points((0, 0, 0, 13), False) == (0, 0, 0, 3)
    assert CLASSIC_RULE.points((3, 2, 1, 1), True) == (1, 1, 1, 1)
    assert CLASSIC_RULE.settle((0, 4, 5, 4), False).pool == 0


def test_what_a_search_sees_in_a_result() -> None:
    assert pool(9).worth((0, 4, 5, 4), False) == (9.0, 0.0, 0.0, 0.0)
    assert pool(7).worth((0, 6, 0, 7), False) == (3.5, 0.0, 3.5, 0.0)  # a tie-break to come
    assert first_rule("pool").worth((5, 0, 4, 4), False)[1] == PERFECT_WORTH
    assert CLASSIC_RULE.worth((0, 4, 5, 4), False) == (3.0, 0.0, 0.0, 0.0)


def test_the_deal_summary_says_what_happened_to_the_pool() -> None:
    names = ("South", "West", "North", "East")
    assert describe_result((4, 5, 4, 0), (0, 0, 0, 7), names, pool(7)) == (
        "East stayed clean and collects the pool: 7 points.")
    assert "paid into the pool, which now holds 12" in describe_result(
        (3, 2, 1, 1), (-3, -2, -1, -1), names, pool(5))
    assert "tie-break" in describe_result((0, 6, 0, 7), (0, 0, 0, 0), names, pool(7))
    assert "perfect game" in describe_result((5, 0, 4, 4), (0, 0, 0, 0), names,
                                             first_rule("pool"))
    assert describe_result((0, 4, 5, 4), (3, 0, 0, 0), names) == "South stayed clean: 3 points."


# --- properties over every result -----------------------------------------------------------
@st.composite
def results(draw: st.DrawFn) -> tuple[tuple[int, int, int, int], bool]:
    """A result a deal can have: all 13 tricks with someone clean (or the last trick gave the
    last clean player its first), or an early end with every seat holding a trick."""
    if draw(st.booleans()):
        n = draw(st.integers(4, 12))
        cuts = sorted(draw(st.lists(st.integers(1, n - 1), min_size=3, max_size=3, unique=True)))
        parts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], n - cuts[2]]
        return (parts[0], parts[1], parts[2], parts[3]), n < 13
    clean = draw(st.sets(st.integers(0, 3), min_size=1, max_size=3))
    takers = [s for s in range(4) if s not in clean]
    cuts = sorted(draw(st.lists(st.integers(1, 12), min_size=len(takers) - 1,
                                max_size=len(takers) - 1, unique=True)))
    bounds = [0, *cuts, 13]
    taken = [0, 0, 0, 0]
    for k, s in enumerate(takers):
        taken[s] = bounds[k + 1] - bounds[k]
    return (taken[0], taken[1], taken[2], taken[3]), False


@given(results(), st.integers(0, 200), st.booleans())
@settings(max_examples=400, deadline=None)
def test_points_neither_appear_nor_vanish(result: tuple[tuple[int, int, int, int], bool],
                                          before: int, first: bool) -> None:
    """What the players gain is what the pool loses, and the reverse; the pool never goes
    below zero; a single winner takes the pool whole."""
    taken, early = result
    settled = pool(before, first=first).settle(taken, early)
    assert sum(settled.points) + settled.pool == before
    assert settled.pool >= 0
    assert all(p <= 0 for p in settled.points) or all(p >= 0 for p in settled.points)
    if settled.tiebreak:
        assert before % 2 == 1 and settled.points == (0, 0, 0, 0)
        assert [taken[s] for s in settled.tiebreak] == [0, 0]
    if len(settled.collected) == 1:
        assert settled.share == before and settled.pool == 0
    clean = [s for s in range(4) if not taken[s]]
    assert (settled.perfect is not None) == (first and len(clean) in (1, 3))
    assert CLASSIC_RULE.points(taken, early) == classic_points(taken, early)


@given(st.integers(1, 199).map(lambda n: 2 * n - 1), st.integers(0, 3), st.integers(1, 3),
       st.integers(0, 13))
@settings(max_examples=200, deadline=None)
def test_a_tie_break_hands_the_whole_pool_over(before: int, a: int, step: int,
                                               trick: int) -> None:
    b = (a + step) & 3
    rule = pool(before, tiebreak=(min(a, b), max(a, b)))
    taken = [0, 0, 0, 0]
    taken[a] = 1  # a took the first trick of the two: b collects
    settled = rule.settle(taken, True)
    assert settled.points[b] == before and settled.pool == 0 and settled.collected == (b,)


# --- whole games ----------------------------------------------------------------------------
def play_pool_game(seed: int, deals: int, duck: tuple[int, ...] = (0, 1)) -> Game:
    """A pool game where the seats of ``duck`` mostly play low (so nils, and their ties,
    happen) and the others high or at random."""
    rng = random.Random(seed)
    game = Game(deals_planned=deals, seed=seed, scoring="pool")
    while True:
        while not game.deal.is_over:
            legal = game.deal.legal_moves()
            if game.deal.to_move in duck and rng.random() < 0.9:
                card = min(legal, key=lambda c: c.rank)
            elif rng.random() < 0.5:
                card = max(legal, key=lambda c: c.rank)
            else:
                card = rng.choice(legal)
            game.play(card)
        if game.is_over:
            return game
        game.next_deal()


def check_pool_game(game: Game) -> None:
    before = 0
    for number, deal in enumerate(game.deals, 1):
        assert deal.rule.pool == before
        assert deal.rule.first == (number == 1)
        settled = deal.settle()
        before = settled.pool
        if number < len(game.deals):
            assert game.deals[number].rule.tiebreak == settled.tiebreak
    assert sum(game.totals) + game.pool == 0
    assert game.pool == before
    if game.perfect is not None:
        assert len(game.deals) == 1
        assert game.losers == tuple(s for s in range(4) if s != game.perfect)
    else:
        assert game.agreed_deals == game.deals_planned
        assert not game.deal.settle().tiebreak


@given(st.integers(0, 10_000), st.integers(1, 6))
@settings(max_examples=40, deadline=None)
def test_pool_games_keep_their_points_and_read_back(seed: int, deals: int) -> None:
    game = play_pool_game(seed, deals)
    assert game.is_over
    check_pool_game(game)
    record = json.loads(json.dumps(game.to_record()))
    assert record["rules"]["scoring"] == "pool"
    back = from_record(record)
    assert back.scoring == "pool"
    assert back.totals == game.totals and back.pool == game.pool
    assert back.losers == game.losers
    assert [d.rule for d in back.deals] == [d.rule for d in game.deals]


@pytest.mark.parametrize(("seed", "where"), [(318, 2), (386, 3)])
def test_a_tie_break_deal_follows_and_is_not_counted(seed: int, where: int) -> None:
    """Seed 318: a tie-break in the middle of a 4-deal game; seed 386: after the last agreed
    deal (the game goes on for it)."""
    game = play_pool_game(seed, 4)
    check_pool_game(game)
    assert len(game.deals) == 5 and game.agreed_deals == 4
    odd, tiebreak = game.deals[where], game.deals[where + 1]
    pair = odd.settle().tiebreak
    assert pair and tiebreak.rule.tiebreak == pair
    # it ended the moment one of the two took a trick, and the other collected the pool
    assert sum(tiebreak.taken[s] for s in pair) == 1
    assert tiebreak.settle().collected == tuple(s for s in pair if not tiebreak.taken[s])
    assert tiebreak.settle().share == odd.settle().pool
    assert tiebreak.dealer == (odd.dealer + 1) & 3  # dealt in turn like any deal
    back = from_record(json.loads(json.dumps(game.to_record())))
    assert back.totals == game.totals


def test_the_game_waits_for_the_tie_break_after_the_last_agreed_deal() -> None:
    game = play_pool_game(386, 4)
    parts: dict[str, Any] = {"deals_planned": 4, "seed": game.seed, "players": game.players,
                             "cut": game.cut, "first_dealer": game.first_dealer,
                             "scoring": "pool", "deals": game.deals[:4]}
    before = Game.from_parts(**parts)
    assert before.phase is Phase.DEAL_OVER and not before.is_over
    assert before.next_rule().tiebreak == game.deals[4].rule.tiebreak


def test_a_perfect_first_deal_ends_the_game() -> None:
    game = play_pool_game(0, 8)
    assert game.perfect is not None and len(game.deals) == 1 and game.is_over
    assert len(game.losers) == 3 and game.perfect not in game.losers
    record = game.to_record()
    assert record["finished"] and record["losers"] == list(game.losers)
    assert from_record(record).losers == game.losers


def test_classic_games_know_no_pool() -> None:
    game = Game(deals_planned=2, seed=4)
    assert game.scoring == "classic" and game.pool == 0
    rng = random.Random(4)
    while not game.is_over:
        while not game.deal.is_over:
            game.play(rng.choice(game.deal.legal_moves()))
        if not game.is_over:
            game.next_deal()
    record = game.to_record()
    assert record["rules"]["scoring"] == "classic"
    assert "pool" not in record["deals"][0] and "tiebreak" not in record["deals"][0]
    del record["rules"]["scoring"]  # records written before the pool read as classic
    assert from_record(record).scoring == "classic"


def test_a_bad_scoring_is_refused() -> None:
    with pytest.raises(ValueError, match="scoring must be one of classic, pool"):
        Game(deals_planned=2, seed=1, scoring="bridge")


def test_views_carry_the_rule() -> None:
    game = play_pool_game(318, 4)
    tiebreak = game.deals[3]
    deal = Deal.from_hands([tiebreak.dealt_hand(s) for s in range(4)], tiebreak.dealer)
    deal.rule = tiebreak.rule
    view = deal.view(deal.to_move or 0)
    assert view.rule == tiebreak.rule and view.pool == 13


# --- records refused ------------------------------------------------------------------------
def record_of(seed: int, deals: int) -> dict[str, Any]:
    return json.loads(json.dumps(play_pool_game(seed, deals).to_record()))  # type: ignore[no-any-return]


def refused(record: dict[str, Any], field: str) -> str:
    with pytest.raises(RecordError) as info:
        from_record(record)
    assert info.value.where == field, str(info.value)
    return str(info.value)


def test_points_that_break_the_pool_are_refused() -> None:
    record = record_of(318, 4)
    record["deals"][0]["points"] = [1, 1, 1, 1]  # the classic points, in a pool game
    refused(record, "deals[0].points")


def test_a_wrong_pool_is_refused() -> None:
    record = record_of(318, 4)
    record["deals"][1]["pool"] += 1
    assert "leaves 13 in the pool" in refused(record, "deals[1].pool")
    record = record_of(318, 4)
    del record["deals"][1]["pool"]
    refused(record, "deals[1].pool")


def test_a_classic_game_called_pool_is_refused() -> None:
    game = Game(deals_planned=1, seed=3)
    rng = random.Random(3)
    while not game.deal.is_over:
        game.play(rng.choice(game.deal.legal_moves()))
    record = json.loads(json.dumps(game.to_record()))
    record["rules"]["scoring"] = "pool"
    refused(record, "deals[0].points")


def test_a_tie_break_must_be_said_and_only_when_due() -> None:
    record = record_of(318, 4)
    bad = copy.deepcopy(record)
    del bad["deals"][3]["tiebreak"]
    refused(bad, "deals[3].tiebreak")
    bad = copy.deepcopy(record)
    bad["deals"][3]["tiebreak"] = [0, 2]
    refused(bad, "deals[3].tiebreak")
    bad = copy.deepcopy(record)
    bad["deals"][1]["tiebreak"] = [0, 1]
    refused(bad, "deals[1].tiebreak")


def test_deals_after_the_end_are_refused() -> None:
    record = record_of(0, 3)  # a perfect game: one deal
    extra = record_of(318, 4)["deals"][1]
    record["deals"].append(extra)
    refused(record, "deals[1]")


@pytest.mark.parametrize("scoring", ["bridge", 1, None, ["pool"]])
def test_an_unknown_scoring_is_refused(scoring: object) -> None:
    record = record_of(318, 4)
    record["rules"]["scoring"] = scoring
    refused(record, "rules.scoring")


def test_a_pool_game_in_progress_reads_back() -> None:
    game = play_pool_game(318, 4)
    record = json.loads(json.dumps(game.to_record()))
    # stop in the middle of the tie-break deal's first trick
    record["deals"][3]["tricks"] = [dict(record["deals"][3]["tricks"][0], winner=None,
                                         cards=record["deals"][3]["tricks"][0]["cards"][:2])]
    record["deals"][3]["points"] = record["deals"][3]["pool"] = None
    record["deals"][3]["taken"] = [0, 0, 0, 0]
    del record["deals"][4]
    record["finished"] = False
    del record["losers"], record["totals"]
    back = from_record(record)
    assert back.deal.rule.tiebreak == (1, 3) and back.pool == 13 and not back.deal.is_over
