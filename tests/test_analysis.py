"""The analysis of a seat's plays: a position whose answer is known by hand, the words, the
JSON, determinism, stopping, and the chance to stay clean."""

from __future__ import annotations

import copy
import json
import multiprocessing
import random
from typing import Any

import pytest

from nil_tui.analysis import (
    ANALYSIS_VERSION,
    BadAnalysis,
    Budget,
    DealAnalysis,
    Decision,
    Option,
    analyse_deal,
    analyse_game,
    cache_key,
    clean_chance,
)
from nil_tui.analysis.estimate import choices
from nil_tui.bots.normal import NormalBot
from nil_tui.bots.search import rollout
from nil_tui.engine import Card, Deal, Game
from nil_tui.engine.deal import clean_at_end

QUICK = Budget(batch=20, min_layouts=20, max_layouts=40, max_playouts=400)

# A deal worked out by hand. South (seat 0) holds the lowest card of every suit it follows,
# so it never wins; West, North and East each take tricks. After 11 tricks South is the only
# clean seat, West leads 5♥, North plays 6♥, East 7♥, and South, last to play, holds 3♥ and
# A♥ with every other heart gone. 3♥ ducks: East leads the last trick with a club, a diamond
# or a spade, South throws A♥ away and ends alone clean, 3 points. A♥ takes the trick: every
# seat has taken one, the deal ends at once, 1 point each. Whatever the hidden cards, 3♥ is
# worth 3 points and A♥ 1: A♥ costs exactly 2.
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
PLAYERS: list[dict[str, Any]] = [{"name": "South", "kind": "human"}] + [
    {"name": name, "kind": "bot", "bot": "normal"} for name in ("West", "North", "East")]
BOTS_ONLY: list[dict[str, Any]] = [
    {"name": f"Normal {s + 1}", "kind": "bot", "bot": "normal"} for s in range(4)]


def known_game(*last: str, players: list[dict[str, Any]] | None = None) -> Game:
    """The hand-made deal after 11 tricks and West, North, East's cards to trick 12, then
    ``last`` (South's card to trick 12 and any after it)."""
    deal = Deal.from_hands([hand.split() for hand in HANDS], dealer=0)
    for trick in TRICKS:
        for card in trick.split():
            deal.play(card)
    for card in ("5H", "6H", "7H", *last):
        deal.play(card)
    return Game.from_parts(deals_planned=1, seed=None, players=players or PLAYERS, cut=None,
                           first_dealer=0, deals=[deal])


def full_deal_game(seed: int) -> Game:
    """A one-deal game of four normal bots that runs all 13 tricks."""
    while True:
        game = Game(1, seed=seed, players=BOTS_ONLY)
        bots = [NormalBot(seed * 4 + s) for s in range(4)]
        deal = game.deal
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            game.play(bots[seat].choose(deal.view(seat)))
        if len(deal.tricks) == 13:
            return game
        seed += 1000


def c(code: str) -> Card:
    return Card.parse(code)


# --- the answer known by hand -----------------------------------------------------------------
def test_a_card_that_takes_the_last_clean_deal_costs_exactly_two_points() -> None:
    game = known_game("AH")
    assert game.deal.is_over and game.deal.points == (1, 1, 1, 1)
    analysis = analyse_deal(game, 1, 0, jobs=0, budget=QUICK)
    assert analysis is not None
    last = analysis.decisions[-1]
    assert (last.trick, last.played, last.best) == (12, c("AH"), c("3H"))
    assert last.options == (Option(c("3H"), 3.0, 0.0, 1.0), Option(c("AH"), 1.0, 0.0, 0.0))
    assert (last.cost, last.cost_se, last.forced) == (2.0, 0.0, False)
    assert last.took_trick and last.was_clean
    assert analysis.costly() == [last]
    assert last.sentence() == ("Trick 12: A♥ instead of 3♥ cost about 2.0 points: you took the "
                               "trick and lost your clean deal; with 3♥ your chance to stay "
                               "clean was 100%.")
    assert last.sentence(ascii=True).startswith("Trick 12: AH instead of 3H cost about 2.0")


def test_the_duck_is_the_best_card_and_costs_nothing() -> None:
    game = known_game("3H", "JS", "AH", "JC", "JD")  # East leads J♠ to the last trick
    assert game.deal.points == (3, 0, 0, 0)
    analysis = analyse_deal(game, 1, 0, jobs=0, budget=QUICK)
    assert analysis is not None and analysis.finished
    duck, last = analysis.decisions[-2:]
    assert (duck.trick, duck.played, duck.best, duck.cost) == (12, c("3H"), c("3H"), 0.0)
    assert not duck.took_trick
    assert duck.sentence() == "Trick 12: 3♥ was the best card."
    assert (last.trick, last.forced, last.legal) == (13, True, (c("AH"),))
    assert analysis.total_cost == 0.0 and analysis.costly() == []


def test_runs_of_cards_share_their_figures_and_forced_plays_are_not_searched() -> None:
    analysis = analyse_deal(known_game("AH"), 1, 0, jobs=0, budget=QUICK)
    assert analysis is not None
    decisions = analysis.decisions
    assert [d.trick for d in decisions] == list(range(1, 13))
    # tricks 1-9: South's cards of the led suit are 2, 3, 4 with nothing out between them
    assert all(d.forced and d.options == () and d.cost == 0.0 for d in decisions[:9])
    assert decisions[0].legal == (c("2C"), c("3C"), c("4C"))
    assert decisions[0].sentence() == ("Trick 1: 2♣ (every card you could play came to the "
                                       "same).")
    assert decisions[2].sentence() == "Trick 3: 4♣ was your only card to play."
    tenth = decisions[9]  # 2♥ 3♥ 4♥ are one run; A♥ would take the trick
    assert not tenth.forced and [o.card for o in tenth.options] == list(tenth.legal)
    low = {(o.points, o.se, o.clean) for o in tenth.options if o.card != c("AH")}
    assert len(low) == 1
    assert tenth.option(c("AH")) == Option(c("AH"), 1.0, 0.0, 0.0)  # all took: 1 each


def test_cards_on_the_table_separate_runs() -> None:
    """3♥ and A♥ with 7♥ winning the trick are two choices, though no heart is out."""
    view = known_game().deal.view(0)
    assert [str(card) for card in view.legal] == ["3H", "AH"]
    assert len(choices(view)) == 2


def test_the_cleanness_at_the_end_is_read_from_the_points() -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(300):
        deal = Deal.new(rng.randrange(4), rng)
        for _ in range(rng.randrange(4, 40)):  # at least one trick done
            if deal.is_over:
                break
            deal.play(rng.choice(deal.legal_moves()))
        if deal.is_over:
            continue
        taken = deal.taken
        rollout(deal, rng, 0.3)
        for seat in range(4):
            if taken[seat] == 0:
                assert clean_at_end(deal.points, seat, taken) == (deal.taken[seat] == 0)
                checked += 1
    assert checked > 300


# --- words ------------------------------------------------------------------------------------
def decision(**fields: Any) -> Decision:
    base: dict[str, Any] = {
        "deal": 1, "trick": 3, "seat": 0, "played": c("9S"), "best": c("4S"), "cost": 0.4123,
        "cost_se": 0.03, "forced": False, "took_trick": True, "was_clean": True,
        "legal": (c("4S"), c("9S")),
        "options": (Option(c("4S"), 1.8, 0.04, 0.6), Option(c("9S"), 1.39, 0.04, 0.0)),
        "layouts": 200,
    }
    base.update(fields)
    return Decision(**base)


def test_sentences_say_true_reasons() -> None:
    assert decision().sentence() == ("Trick 3: 9♠ instead of 4♠ cost about 0.4 points: you "
                                     "took the trick and lost your clean deal; with 4♠ your "
                                     "chance to stay clean was 60%.")
    stayed = decision(took_trick=False, options=(Option(c("4S"), 1.8, 0.04, 0.6),
                                                 Option(c("9S"), 1.39, 0.04, 0.35)))
    assert stayed.sentence(ascii=True) == ("Trick 3: 9S instead of 4S cost about 0.4 points: "
                                           "your chance to stay clean fell from 60% to 35%.")
    # no reason that is not a fact: already not clean, or the chances barely differ
    assert decision(was_clean=False).sentence() == ("Trick 3: 9♠ instead of 4♠ cost about "
                                                    "0.4 points.")
    close = decision(took_trick=False, options=(Option(c("4S"), 1.8, 0.04, 0.6),
                                                Option(c("9S"), 1.39, 0.04, 0.58)))
    assert close.sentence() == "Trick 3: 9♠ instead of 4♠ cost about 0.4 points."
    # the trick was taken, but 4♠ would not have kept the seat clean either: not a reason
    never = decision(options=(Option(c("4S"), 1.8, 0.04, 0.03), Option(c("9S"), 1.39, 0.04,
                                                                       0.0)))
    assert never.sentence() == "Trick 3: 9♠ instead of 4♠ cost about 0.4 points."


def test_sentences_in_the_third_person() -> None:
    assert decision().sentence(subject="West") == (
        "Trick 3: 9♠ instead of 4♠ cost about 0.4 points: West took the trick and lost their "
        "clean deal; with 4♠ West's chance to stay clean was 60%.")
    stayed = decision(took_trick=False, options=(Option(c("4S"), 1.8, 0.04, 0.6),
                                                 Option(c("9S"), 1.39, 0.04, 0.35)))
    assert stayed.sentence(subject="North").endswith(
        "North's chance to stay clean fell from 60% to 35%.")
    forced = decision(forced=True, options=(), best=c("9S"), cost=0.0, cost_se=0.0,
                      legal=(c("9S"),), layouts=0)
    assert forced.sentence(subject="East") == "Trick 3: 9♠ was East's only card to play."


def test_small_costs_and_best_cards() -> None:
    assert decision(cost=0.04).sentence() == "Trick 3: 9♠ cost next to nothing against 4♠."
    assert decision(cost=0.05).sentence().startswith("Trick 3: 9♠ instead of 4♠ cost about 0.1")
    assert decision(best=c("9S"), cost=0.0).sentence() == "Trick 3: 9♠ was the best card."
    analysis = DealAnalysis(1, 0, (decision(trick=1, cost=0.0951), decision(trick=2, cost=0.5),
                                   decision(trick=3, cost=0.094)))
    assert [d.trick for d in analysis.costly()] == [2, 1]  # 0.0951 shows as 0.10
    assert analysis.total_cost == 0.6891


# --- JSON -------------------------------------------------------------------------------------
def test_json_round_trip() -> None:
    analysis = analyse_deal(known_game("AH"), 1, 0, jobs=0, budget=QUICK)
    assert analysis is not None
    data = json.loads(json.dumps(analysis.to_json()))
    assert data["format"] == "nil-tui-analysis" and data["version"] == ANALYSIS_VERSION
    assert DealAnalysis.from_json(data) == analysis
    assert analysis.with_deal(4).to_json()["decisions"][0]["deal"] == 4
    assert DealAnalysis.from_json(analysis.with_deal(4).to_json()).deal == 4


def _broken(data: dict[str, Any]) -> list[Any]:
    """Copies of ``data`` with one thing wrong each."""
    out: list[Any] = [None, [], "analysis"]

    def changed(change: Any) -> None:
        copy_ = copy.deepcopy(data)
        change(copy_)
        out.append(copy_)

    last = len(data["decisions"]) - 1
    changed(lambda d: d.update(version=ANALYSIS_VERSION + 1))
    changed(lambda d: d.update(version=True))
    changed(lambda d: d.update(format="nil-tui-record"))
    changed(lambda d: d.update(deal=0))
    changed(lambda d: d.update(seat=4))
    changed(lambda d: d.update(seat="0"))
    changed(lambda d: d.update(finished=1))
    changed(lambda d: d.update(total_cost=9.0))
    changed(lambda d: d.update(decisions={}))
    changed(lambda d: d["decisions"].append(d["decisions"][0]))
    changed(lambda d: d["decisions"].reverse())
    changed(lambda d: d["decisions"][last].pop("cost"))
    changed(lambda d: d["decisions"][last].update(extra=1))
    changed(lambda d: d["decisions"][last].update(cost=-0.5))
    changed(lambda d: d["decisions"][last].update(cost=float("nan")))
    changed(lambda d: d["decisions"][last].update(cost=1e400))
    changed(lambda d: d["decisions"][last].update(cost="2.0"))
    changed(lambda d: d["decisions"][last].update(cost=0.123456))
    changed(lambda d: d["decisions"][last].update(played="ZZ"))
    changed(lambda d: d["decisions"][last].update(played="2C"))
    changed(lambda d: d["decisions"][last].update(best="KS"))
    changed(lambda d: d["decisions"][last].update(seat=1))
    changed(lambda d: d["decisions"][last].update(deal=2))
    changed(lambda d: d["decisions"][last].update(trick=14))
    changed(lambda d: d["decisions"][last].update(legal=[]))
    changed(lambda d: d["decisions"][last].update(options=[]))
    changed(lambda d: d["decisions"][last]["options"].reverse())
    changed(lambda d: d["decisions"][last]["options"][0].update(clean=1.5))
    changed(lambda d: d["decisions"][last]["options"][0].update(points=4))
    changed(lambda d: d["decisions"][last]["options"][0].pop("se"))
    changed(lambda d: d["decisions"][0].update(cost=0.5))  # a forced play with a cost
    changed(lambda d: d["decisions"][0].update(options=d["decisions"][last]["options"]))
    return out


def test_from_json_rejects_malformed_data() -> None:
    analysis = analyse_deal(known_game("AH"), 1, 0, jobs=0, budget=QUICK)
    assert analysis is not None
    data = analysis.to_json()
    assert data["decisions"][0]["forced"]
    for bad in _broken(data):
        with pytest.raises(ValueError):
            DealAnalysis.from_json(bad)
    with pytest.raises(BadAnalysis, match=r"decisions\[11\]\.cost"):
        broken = copy.deepcopy(data)
        broken["decisions"][11]["cost"] = -1
        DealAnalysis.from_json(broken)


# --- the same figures everywhere --------------------------------------------------------------
def test_cache_key_is_the_deal_content() -> None:
    one, two = known_game("AH"), known_game("AH", players=BOTS_ONLY)
    assert cache_key(one, 1, 0) == cache_key(two, 1, 0)
    assert cache_key(one, 1, 0) != cache_key(one, 1, 1)
    assert cache_key(one, 1, 0) != cache_key(known_game("3H"), 1, 0)
    assert cache_key(one, 1, 0).startswith("analysis:")
    with pytest.raises(ValueError):
        cache_key(one, 2, 0)
    with pytest.raises(ValueError):
        cache_key(one, 1, 4)


def test_the_same_deal_gives_the_same_figures_with_any_number_of_workers() -> None:
    game = full_deal_game(11)
    seat = 2
    here = analyse_deal(game, 1, seat, jobs=0, budget=QUICK)  # in this process
    one = analyse_deal(game, 1, seat, jobs=1, budget=QUICK)  # in fresh processes
    two = analyse_deal(game, 1, seat, jobs=2, budget=QUICK)
    assert here is not None and len(here.decisions) == 13
    assert here == one == two
    assert any(not d.forced for d in here.decisions)
    assert not multiprocessing.active_children()


def test_progress_counts_every_decision() -> None:
    game = known_game("AH")
    seen: list[tuple[int, int]] = []
    analyse_deal(game, 1, 0, jobs=0, budget=QUICK, progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (9, 12) and seen[-1] == (12, 12)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_should_stop_stops_and_leaves_no_worker() -> None:
    game = full_deal_game(11)
    assert analyse_deal(game, 1, 0, jobs=2, should_stop=lambda: True) is None
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 3

    # the default budget would take seconds: stopped after a few looks
    assert analyse_deal(game, 1, 0, jobs=2, should_stop=stop) is None
    assert not multiprocessing.active_children()
    assert analyse_deal(game, 1, 0, jobs=0, should_stop=stop) is None


def test_bad_arguments() -> None:
    game = known_game("AH")
    for deal, seat in ((0, 0), (2, 0), (1, -1), (1, 4), (True, 0)):
        with pytest.raises(ValueError):
            analyse_deal(game, deal, seat, jobs=0)
    with pytest.raises(ValueError):
        analyse_deal(game, 1, 0, jobs=-1)
    with pytest.raises(ValueError):
        Budget(min_layouts=50, max_layouts=10)


def test_an_unfinished_deal_is_analysed_up_to_its_last_card() -> None:
    game = known_game()  # South to play to trick 12
    found = analyse_game(game, 0, jobs=0, budget=QUICK)
    assert found is not None
    (analysis,) = found
    assert not analysis.finished
    assert [d.trick for d in analysis.decisions] == list(range(1, 12))
    assert not analysis.decisions[-1].took_trick  # South's 4♥ to trick 11


# --- the chance to stay clean -----------------------------------------------------------------
def test_clean_chance_in_obvious_positions() -> None:
    game = known_game("3H")  # East won trick 12 and leads; South holds A♥, no heart is out
    deal = game.deal
    assert deal.hand(0) == (c("AH"),) and deal.to_move == 3
    assert clean_chance(deal.view(0)) == 1.0
    assert clean_chance(deal.view(1)) == 0.0  # West has taken tricks
    deal.play(deal.legal_moves()[0])
    assert clean_chance(deal.view(0), layouts=10) == 1.0
    done = known_game("AH").deal
    assert clean_chance(done.view(0)) == 0.0


def test_clean_chance_is_deterministic_and_between_zero_and_one() -> None:
    game = full_deal_game(3)
    deal = game.deal
    replay = Deal(list(deal.dealt), deal.dealer)
    for card in [card for t in deal.tricks[:3] for card in t.cards]:
        replay.play(card)
    view = replay.view(0)
    first = clean_chance(view, seed=4, layouts=50)
    assert first == clean_chance(view, seed=4, layouts=50)
    assert 0.0 <= first <= 1.0
    with pytest.raises(ValueError):
        clean_chance(view, layouts=0)


def test_a_decision_without_choice_says_why() -> None:
    c = Card.parse
    one = Decision(deal=1, trick=13, seat=0, played=c("6H"), best=c("6H"), cost=0.0,
                   cost_se=0.0, options=(), forced=True, took_trick=False, was_clean=False,
                   legal=(c("6H"),))
    same = Decision(deal=1, trick=7, seat=0, played=c("6H"), best=c("6H"), cost=0.0,
                    cost_se=0.0, options=(), forced=True, took_trick=False, was_clean=False,
                    legal=(c("6H"), c("7H")))
    real = Decision(deal=1, trick=2, seat=0, played=c("9S"), best=c("4S"), cost=0.4,
                    cost_se=0.05, options=(Option(c("4S"), 1.8, 0.03, 0.6),
                                           Option(c("9S"), 1.4, 0.04, 0.2)),
                    forced=False, took_trick=True, was_clean=True, legal=(c("4S"), c("9S")))
    assert (one.no_choice, same.no_choice, real.no_choice) == ("only card", "all the same", None)
