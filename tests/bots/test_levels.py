"""Every level returns a legal card, the same card for the same seed and view, and the search
levels stay consistent with what is public."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from nil_tui.bots import HIDDEN, LEVELS, make_bot
from nil_tui.bots.expert import EXPERT, ExpertBot, OracleBot
from nil_tui.bots.hard import HARD, HardBot
from nil_tui.bots.heuristic import FULL, edge, policy_index
from nil_tui.bots.knowledge import Evidence, Knowledge, posterior_layouts
from nil_tui.bots.search import DEFAULT_SAFETY_CAP, SearchConfig, Searcher, distinct_moves
from nil_tui.engine import Card, Deal, PlayerView

SMALL = SearchConfig(worlds=3, max_worlds=6, endgame=8, match=True, inference=True)


def random_views(count: int, seed: int) -> list[tuple[PlayerView, Deal]]:
    """Views of the seat to move at random points of deals played with random cards, in
    varied game contexts."""
    rng = random.Random(seed)
    out: list[tuple[PlayerView, Deal]] = []
    while len(out) < count:
        deal = Deal.new(rng.randrange(4), rng)
        planned = rng.randint(1, 10)
        number = rng.randint(1, planned)
        a, b, c, d = (rng.randint(0, 9) for _ in range(4))
        deal.context = (number, planned, (a, b, c, d))
        stop = rng.randrange(52)
        while deal.to_move is not None and len(out) < count:
            if stop <= 0 or rng.random() < 0.15:
                out.append((deal.view(deal.to_move), deal.copy()))
            deal.play(rng.choice(deal.legal_moves()))
            stop -= 1
    return out


def small_bot(spec: str, seed: int) -> object:
    if spec == "hard":
        return HardBot(seed, SMALL)
    if spec == "expert":
        return ExpertBot(seed, SMALL)
    if spec == "oracle":
        return OracleBot(seed, SearchConfig(worlds=2, endgame=8, rollout_eps=0.2, match=True))
    return make_bot(spec, seed=seed)


@pytest.mark.parametrize(("spec", "count", "seed"), [("easy", 3000, 101), ("normal", 3000, 102),
                                                     ("hard", 150, 103), ("expert", 150, 104)])
def test_every_level_plays_a_legal_card(spec: str, count: int, seed: int) -> None:
    bot = small_bot(spec, 11)
    for view, _ in random_views(count, seed=seed):
        card = bot.choose(view)  # type: ignore[attr-defined]
        assert isinstance(card, Card)
        assert card in view.legal, (spec, view, card)


def test_oracle_plays_a_legal_card_with_the_true_deal() -> None:
    bot = small_bot("oracle", 3)
    for view, deal in random_views(300, seed=5):
        assert bot.choose_perfect(view, deal.copy()) in view.legal  # type: ignore[attr-defined]


@pytest.mark.parametrize("spec", ["easy", "normal", "hard", "expert", "oracle"])
def test_same_seed_and_view_give_the_same_card(spec: str) -> None:
    views = random_views(60, seed=21)
    first = small_bot(spec, 99)
    cards = [first.choose(v) for v, _ in views]  # type: ignore[attr-defined]
    again = [first.choose(v) for v, _ in reversed(views)][::-1]  # type: ignore[attr-defined]
    fresh = small_bot(spec, 99)
    assert cards == again
    assert cards == [fresh.choose(v) for v, _ in views]  # type: ignore[attr-defined]


def test_the_default_budgets_are_reproducible_too() -> None:
    # the default work budgets, with no wall-clock cap at all: the budgets alone end a search
    # (two positions: a third, of nine legal cards, cost the expert seconds a run)
    views = [v for v, _ in random_views(6, seed=8) if len(v.legal) > 1][:2]
    for cls, config in ((HardBot, HARD), (ExpertBot, EXPERT)):
        cards = []
        for _ in range(2):
            bot = cls(5, config)
            bot.safety_cap = None
            cards.append([bot.choose(v) for v in views])
            assert not bot.cap_fired
        assert cards[0] == cards[1]


def test_the_search_bots_have_a_safety_cap_that_says_when_it_fired() -> None:
    views = [v for v, _ in random_views(40, seed=18) if len(v.legal) > 2]
    bot = HardBot(3)
    assert bot.safety_cap == DEFAULT_SAFETY_CAP == 10.0
    bot.safety_cap = 0.0  # already past: the search stops after its first layout
    fired = []
    for view in views:
        assert bot.choose(view) in view.legal
        fired.append(bot.cap_fired)
        assert bot.searcher.worlds_used <= 1
    assert any(fired)
    bot.safety_cap = None
    for view in views[:6]:  # whole searches at the default budgets: a few are enough
        bot.choose(view)
        assert not bot.cap_fired
    single = next(v for v, _ in random_views(200, seed=18) if len(v.legal) == 1)
    bot.cap_fired = True
    assert bot.choose(single) == single.legal[0] and not bot.cap_fired


def test_work_budgets_end_the_search() -> None:
    views = [v for v, _ in random_views(40, seed=19) if len(v.legal) > 2]
    playouts = Searcher(SearchConfig(worlds=1000, max_rollouts=25))
    exact = SearchConfig(worlds=1000, endgame=52, max_nodes=30, endgame_nodes=20)
    for view in views:
        playouts.best(view, random.Random(1))
        moves = len(playouts.evaluate(view, random.Random(1)))
        if moves > 1:
            # the layout that reaches the cap is the last one
            assert 25 <= playouts.rollouts < 25 + moves
            assert playouts.worlds_used == -(-25 // moves)
        searcher = Searcher(exact)
        searcher.best(view, random.Random(1))
        if moves > 1:
            assert searcher.rollouts == 0 and searcher.nodes >= 30
            if searcher.worlds_used > 1:  # one layout fewer stays under the cap
                fewer = Searcher(replace(exact, worlds=searcher.worlds_used - 1))
                fewer.best(view, random.Random(1))
                assert fewer.nodes < 30


def test_the_edge_is_points_minus_the_others_mean() -> None:
    assert edge((3, 0, 0, 0), 0) == 3.0
    assert edge((3, 0, 0, 0), 1) == -1.0
    assert edge((1, 1, 1, 1), 2) == 0.0
    assert edge((0, 1, 1, 0), 0) == pytest.approx(-2 / 3)


def test_different_seeds_can_choose_differently() -> None:
    views = [v for v, _ in random_views(300, seed=4) if len(v.legal) > 3]
    a = [make_bot("easy", seed=1).choose(v) for v in views]
    b = [make_bot("easy", seed=2).choose(v) for v in views]
    assert a != b


def test_sampled_hands_agree_with_everything_public() -> None:
    rng = random.Random(2)
    for view, _ in random_views(300, seed=9):
        know = Knowledge(view)
        voids = view.voids()
        for _ in range(5):
            hands = know.sample(rng)
            assert hands[view.seat] == view.hand_mask
            seen = 0
            for s in range(4):
                assert hands[s].bit_count() == view.hand_sizes[s]
                assert not hands[s] & seen
                seen |= hands[s]
                for suit in voids[s]:
                    assert not hands[s] & (0x1FFF << (13 * suit)), (s, suit)
            assert seen == FULL & ~view.played_mask
            # the sampled layout is a playable position of the same deal
            d = know.deal(hands)
            assert d.legal_mask() & view.hand_mask == sum(c.bit for c in view.legal)


def test_the_true_layout_is_never_impossible() -> None:
    for view, deal in random_views(200, seed=12):
        know = Knowledge(view)
        true = [deal.hand_mask(s) for s in range(4)]
        # random players deviate from the rules of thumb, yet the layout keeps some weight
        assert know.likelihood(true, 0.25) > 0


def replayed_likelihood(view: PlayerView, hands: list[int], eps: float) -> float:
    """The likelihood of a layout the long way: replay the whole deal from the hands each
    seat started with and ask the rules of thumb at every opponent's play."""
    start = list(hands)
    history = [(t.leader, t.cards) for t in view.tricks] + [(view.leader, view.trick)]
    for leader, cards in history:
        for k, c in enumerate(cards):
            start[(leader + k) & 3] |= c.bit
    deal = Deal(start, view.dealer)
    weight = 1.0
    for leader, cards in history:
        for k, c in enumerate(cards):
            seat = (leader + k) & 3
            legal = deal.legal_mask()
            if seat != view.seat and legal & (legal - 1):
                voids = 0 if deal.trick else deal.voids_mask
                guess = policy_index(seat, deal.hand_mask(seat), legal, deal.trick,
                                     deal.leader, deal.taken, deal.played_mask, voids)
                weight *= 1 - eps if guess == c.index else eps / (legal.bit_count() - 1)
            deal.play(c)
    return weight


def test_the_likelihood_is_a_product_of_one_factor_per_opponent() -> None:
    rng = random.Random(6)
    for view, _ in random_views(150, seed=14):
        know = Knowledge(view)
        evidence = Evidence(know, 0.1)
        for _ in range(3):
            hands = know.sample(rng)
            product = 1.0
            for s in range(4):
                if s != view.seat:
                    product *= evidence.factor(s, hands[s])
            assert product == pytest.approx(replayed_likelihood(view, hands, 0.1), rel=1e-9)


def test_posterior_layouts_agree_with_everything_public() -> None:
    rng = random.Random(3)
    for view, _ in random_views(60, seed=15):
        know = Knowledge(view)
        voids = view.voids()
        layouts = posterior_layouts(know, rng, 0.1)
        for _ in range(12):
            hands = next(layouts)
            assert hands[view.seat] == view.hand_mask
            seen = 0
            for s in range(4):
                assert hands[s].bit_count() == view.hand_sizes[s]
                assert not hands[s] & seen
                seen |= hands[s]
                for suit in voids[s]:
                    assert not hands[s] & (0x1FFF << (13 * suit)), (s, suit)
            assert seen == FULL & ~view.played_mask


def test_inference_places_hidden_cards_better_than_chance() -> None:
    """Against players of the rules of thumb, layouts weighted by their plays put more
    hidden cards in the right hands than layouts that only respect voids."""
    rng = random.Random(4)
    driver = make_bot("normal", seed=0)
    right = {"plain": 0, "posterior": 0}
    for n in range(6):
        deal = Deal.new(n & 3, rng)
        while deal.to_move is not None:
            view = deal.view(deal.to_move)
            if len(view.tricks) >= 3:
                know = Knowledge(view)
                layouts = posterior_layouts(know, rng, 0.1)
                for _ in range(20):
                    for name, hands in (("plain", know.sample(rng)),
                                        ("posterior", next(layouts))):
                        right[name] += sum((hands[s] & deal.hand_mask(s)).bit_count()
                                           for s in range(4) if s != view.seat)
            deal.play(driver.choose(view))
    assert right["posterior"] > 1.1 * right["plain"], right


@pytest.mark.parametrize("config", [
    SearchConfig(worlds=20, max_worlds=400, margin=0.02, z=1.0),
    SearchConfig(worlds=20, max_worlds=400, z=0.5, tol=0.01)])
def test_the_search_stops_early_when_the_choice_is_settled(config: SearchConfig) -> None:
    used = []
    for view, _ in random_views(12, seed=16):  # up to 400 layouts each: a dozen suffice
        if len(view.legal) < 2:
            continue
        searcher = Searcher(config)
        searcher.best(view, random.Random(1))
        if searcher.worlds_used == 0:  # one distinct card: nothing to search
            continue
        assert searcher.worlds_used % 20 == 0 and searcher.worlds_used <= 400
        used.append(searcher.worlds_used)
    assert min(used) < 400  # some choices settle early...
    assert max(used) > 20  # ...and some need more layouts


def test_equivalent_cards_are_searched_once() -> None:
    hand = Card.parse("2C").bit | Card.parse("3C").bit | Card.parse("5C").bit
    unseen = Card.parse("4C").bit
    assert distinct_moves(hand, unseen) == [Card.parse("2C").index, Card.parse("5C").index]
    assert distinct_moves(hand, 0) == [Card.parse("2C").index]


def test_a_card_on_the_table_keeps_two_cards_apart() -> None:
    # South holds 3H and AH, every other heart is gone but 7H, which is on the table: 3H
    # ducks and AH wins, so they are two choices, in the expert's candidates and in its
    # exact search alike (it once took them for one, and never tried the duck).
    hands = [
        "2C 3C 4C 2D 3D 4D 2S 3S 4S 2H 4H 3H AH",
        "5C KC 9C JC AD 7D TD 6S 8S QS 8H QH 5H",
        "6C 8C QC 5D KD 9D JD AS 7S TS 9H JH 6H",
        "AC 7C TC 6D 8D QD 5S KS 9S JS KH TH 7H",
    ]
    tricks = ["5C 6C AC 2C", "7C 3C KC 8C", "9C QC TC 4C", "5D 6D 2D AD", "7D KD 8D 3D",
              "9D QD 4D TD", "5S 2S 6S AS", "7S KS 3S 8S", "9S 4S QS TS", "8H 9H KH 2H",
              "TH 4H QH JH", "5H 6H 7H"]
    deal = Deal.from_hands([h.split() for h in hands], dealer=0)
    for trick in tricks:
        for card in trick.split():
            deal.play(card)
    assert deal.to_move == 0
    three, ace = Card.parse("3H"), Card.parse("AH")
    seven = Card.parse("7H")
    assert distinct_moves(three.bit | ace.bit, seven.bit) == [three.index, ace.index]
    view = deal.view(0)
    searcher = Searcher(EXPERT)
    assert sorted(searcher._candidates(view, Knowledge(view))) == [three.index, ace.index]
    assert ExpertBot(seed=3).choose(view) == three  # the duck: alone clean, 3 points


def test_normal_ducks_with_its_highest_losing_card() -> None:
    hands = [["2S", "9S", "JS", "KS", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH"],
             ["QS", "3S", "4S", "5S", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC"],
             ["6S", "7S", "8S", "TS", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD"],
             ["AS", "JH", "QH", "KH", "AH", "JC", "QC", "KC", "AC", "JD", "QD", "KD", "AD"]]
    deal = Deal.from_hands(hands, dealer=0)  # West leads
    deal.play("QS")
    deal.play("TS")
    deal.play("AS")
    # South, clean, must follow spades: the king is the highest card under the ace
    assert make_bot("normal", seed=0).choose(deal.view(0)) == Card.parse("KS")


def test_registry_lists_four_levels_with_figures_and_hides_the_oracle() -> None:
    assert list(LEVELS) == ["easy", "normal", "hard", "expert"]
    for level in LEVELS.values():
        assert level.description and level.measured
    assert "oracle" not in LEVELS and "oracle" in HIDDEN
    assert make_bot("oracle", seed=1).name == "Oracle"
