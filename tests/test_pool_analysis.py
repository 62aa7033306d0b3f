"""The analysis of a pool game speaks in the pool's points: its figures are the pool's, its
sentences say what the pool held, it reads back from JSON, and it is not mistaken for the
analysis of the same cards played under the classic scoring."""

from __future__ import annotations

import json
import random

from nil_tui.analysis import analyse_deal, cache_key
from nil_tui.analysis.estimate import Budget
from nil_tui.analysis.model import DealAnalysis, Decision, point_bounds
from nil_tui.engine import Card, Deal, Game

QUICK = Budget(batch=20, min_layouts=20, max_layouts=40, max_playouts=400)


def played(game: Game, seed: int) -> Game:
    rng = random.Random(seed)
    while not game.is_over:
        while not game.deal.is_over:
            game.play(rng.choice(game.deal.legal_moves()))
        if not game.is_over:
            game.next_deal()
    return game


def first_pool_game_with_a_pool(seed: int = 1) -> Game:
    """A 2-deal pool game whose first deal filled the pool (no perfect game)."""
    while True:
        game = played(Game(2, seed=seed, scoring="pool"), seed)
        if len(game.deals) == 2 and game.deals[1].rule.pool > 0:
            return game
        seed += 1


def test_a_pool_deal_is_analysed_in_the_pools_points_and_reads_back() -> None:
    game = first_pool_game_with_a_pool()
    pool = game.deals[1].rule.pool
    analysis = analyse_deal(game, 2, 0, jobs=0, budget=QUICK)
    assert analysis is not None and analysis.pool == pool
    assert all(d.pool == pool for d in analysis.decisions)
    back = DealAnalysis.from_json(json.loads(json.dumps(analysis.to_json())))
    assert back == analysis
    low, high = point_bounds(pool)
    for d in analysis.decisions:
        for option in d.options:
            assert low <= option.points <= high


def test_the_cache_tells_the_scorings_apart() -> None:
    game = first_pool_game_with_a_pool()
    pooled = game.deals[1]
    replay = Deal(list(pooled.dealt), pooled.dealer)  # the same cards and plays, classic
    for play in pooled.plays:
        replay.play(play.card)
    classic = Game.from_parts(deals_planned=1, seed=None, players=game.players, cut=None,
                              first_dealer=pooled.dealer, deals=[replay])
    assert cache_key(classic, 1, 0) != cache_key(game, 2, 0)


def test_a_sentence_says_what_the_pool_held() -> None:
    c = Card.parse
    decision = Decision(2, 6, 0, c("2H"), c("KH"), 1.4123, 0.02, (), False, False, False,
                        (c("2H"), c("KH")), 200, 9)
    assert decision.sentence(ascii=True) == (
        "Trick 6: 2H instead of KH cost about 1.4 points (the pool is 9).")
