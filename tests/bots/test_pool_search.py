"""The search plays and measures with the game's real scoring: under the pool a clean deal is
worth the pool (9 points here, not the classic 3), a tie-break to come half of it."""

from __future__ import annotations

import random

import pytest

from nil_tui.analysis.estimate import Budget, evaluate
from nil_tui.bots.hard import HardBot
from nil_tui.bots.search import match_utility, rollout
from nil_tui.engine import Card, Deal, PlayerView
from nil_tui.engine.scoring import CLASSIC_RULE, DealRule

QUICK = Budget(batch=20, min_layouts=20, max_layouts=40, max_playouts=400)
# The hand-made deal of tests/test_analysis.py: after 11 tricks South is the only clean seat;
# West leads 5H, North 6H, East 7H; South holds 3H (ducks: stays clean to the end) and AH
# (takes the trick: everyone has one, the deal ends at once).
TRICKS = [
    "5C 6C AC 2C", "7C 3C KC 8C", "9C QC TC 4C",
    "5D 6D 2D AD", "7D KD 8D 3D", "9D QD 4D TD",
    "5S 2S 6S AS", "7S KS 3S 8S", "9S 4S QS TS",
    "8H 9H KH 2H", "TH 4H QH JH",
]
HANDS = [
    "2C 3C 4C 2D 3D 4D 2S 3S 4S 2H 4H 3H AH",
    "5C KC 9C JC AD 7D TD 6S 8S QS 8H QH 5H",
    "6C 8C QC 5D KD 9D JD AS 7S TS 9H JH 6H",
    "AC 7C TC 6D 8D QD 5S KS 9S JS KH TH 7H",
]
POOL_9 = DealRule("pool", 9, (), False)


def south_to_play(rule: DealRule) -> PlayerView:
    deal = Deal.from_hands([hand.split() for hand in HANDS], dealer=0)
    deal.rule = rule
    for trick in TRICKS:
        for card in trick.split():
            deal.play(card)
    for card in ("5H", "6H", "7H"):
        deal.play(card)
    return deal.view(0)


@pytest.mark.parametrize(("rule", "duck", "take"), [
    (CLASSIC_RULE, 3.0, 1.0),  # classic: 3 for the clean deal, 1 each after an early end
    (POOL_9, 9.0, -1.0),       # pool: collect the 9, or pay a point for the trick taken
])
def test_the_analysis_counts_in_the_games_points(rule: DealRule, duck: float,
                                                 take: float) -> None:
    view = south_to_play(rule)
    assert view.rule == rule
    figures = evaluate(view, QUICK, played=Card.parse("AH").index)
    assert figures is not None
    assert figures.best == Card.parse("3H").index
    assert figures.cards[Card.parse("3H").index].points == duck
    assert figures.cards[Card.parse("AH").index].points == take
    assert figures.cost == duck - take


def test_a_playout_returns_what_the_deal_is_worth_under_its_rule() -> None:
    rng = random.Random(5)
    for seed in range(40):
        deal = Deal.new(seed & 3, random.Random(seed))
        deal.rule = DealRule("pool", 7, (), False)
        worth = rollout(deal, rng)
        assert worth == deal.rule.worth(deal.taken, deal.ended_early)
        assert sum(worth) <= 7


def test_a_tie_break_deal_ends_in_the_search_as_in_the_game() -> None:
    """The search's layouts are the view's deal: a tie-break ends the moment one of the two
    takes a trick, and the bot knows it."""
    rule = DealRule("pool", 11, (0, 2), False)
    deal = Deal.new(3, random.Random(8))
    deal.rule = rule
    view = deal.view(0)
    assert view.rule == rule
    rollout(deal)
    assert deal.is_over and (deal.taken[0] + deal.taken[2] == 1 or len(deal.tricks) == 13)
    card = HardBot(3).choose(view)
    assert card in view.legal


def test_the_last_deal_counts_the_pools_totals() -> None:
    """On the last deal the expert plays not to finish lowest, with the totals the pool gave:
    collecting a pool of 9 lifts South from -6 over everyone."""
    view = south_to_play(POOL_9)
    view = PlayerView(**{**{f: getattr(view, f) for f in view.__dataclass_fields__},
                         "deal_number": 4, "deals_planned": 4, "totals": (-6, -2, -1, -3)})
    u = match_utility(view)
    collect = u(POOL_9.worth((0, 4, 5, 4), False))
    pay = u(POOL_9.worth((1, 4, 4, 3), True))
    assert collect - pay > 8  # the 9 points, and no longer lowest


def test_a_sweep_hint_says_what_the_sweep_wins() -> None:
    from nil_tui.bots.advice import Sweep
    from nil_tui.bots.hint_words import words

    card = Card.parse("AS")
    assert words(Sweep(card), ascii=True).endswith("take every trick from here and score 3.")
    assert words(Sweep(card, 9), ascii=True).endswith("and collect the pool: 9 points.")
    assert words(Sweep(card, 0, True), ascii=True).endswith(
        "and win a perfect game: the other three crawl under the table.")
