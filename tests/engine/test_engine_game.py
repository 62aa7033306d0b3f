"""A game: the cut for the first dealer, dealer rotation, totals, losers, phases and events."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from nil_tui.engine import (
    DECK,
    Card,
    CardPlayed,
    Deal,
    DealEnded,
    DealStarted,
    Game,
    GameEnded,
    Phase,
    TrickWon,
    lowest,
)
from nil_tui.engine.game import cut_for_dealer


class ScriptedDraws(random.Random):
    """A generator whose shuffles put the given cards on top, one list per shuffle."""

    def __init__(self, draws: Sequence[Sequence[str]]) -> None:
        super().__init__(0)
        self.draws = [list(d) for d in draws]
        self.shuffles = 0

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        top = [Card.parse(c) for c in self.draws[self.shuffles]]
        self.shuffles += 1
        x[:] = top + [c for c in DECK if c not in top]


def test_cut_lowest_rank_deals() -> None:
    cut = cut_for_dealer(ScriptedDraws([["9H", "4C", "KS", "5D"]]))
    assert cut.dealer == 1
    assert [str(c) for c in cut.draws[0]] == ["9H", "4C", "KS", "5D"]
    assert len(cut.draws) == 1


def test_cut_ties_redraw_among_tied_players_only_until_one_is_lowest() -> None:
    rng = ScriptedDraws([
        ["9H", "4C", "4S", "KD"],   # West and North tie on 4 (suits do not break ties)
        ["JC", "7D"],               # they redraw: tie again? no: North draws 7D, West JC
    ])
    cut = cut_for_dealer(rng)
    assert cut.dealer == 2
    assert rng.shuffles == 2  # a fresh shuffle for the redraw
    assert [[None if c is None else str(c) for c in row] for row in cut.draws] == [
        ["9H", "4C", "4S", "KD"], [None, "JC", "7D", None]]


def test_cut_repeated_ties() -> None:
    rng = ScriptedDraws([
        ["2C", "2D", "2H", "9S"],   # three-way tie
        ["5C", "5D", "5H"],         # all three tie again
        ["KC", "3D", "3H"],         # South is out; West and North tie
        ["8C", "6D"],               # North is lowest
    ])
    cut = cut_for_dealer(rng)
    assert cut.dealer == 2
    assert [[None if c is None else str(c) for c in row] for row in cut.draws] == [
        ["2C", "2D", "2H", "9S"], ["5C", "5D", "5H", None], ["KC", "3D", "3H", None],
        [None, "8C", "6D", None]]


def test_seeded_cuts_with_ties_follow_the_rules() -> None:
    ties = 0
    for seed in range(200):
        game = Game(deals_planned=1, seed=seed)
        cut = game.cut
        assert cut is not None and game.first_dealer == cut.dealer
        drawing = [0, 1, 2, 3]
        for row in cut.draws:
            assert [s for s in range(4) if row[s] is not None] == drawing
            low = min(row[s].rank for s in drawing)  # type: ignore[union-attr]
            drawing = [s for s in drawing if row[s].rank == low]  # type: ignore[union-attr]
        assert drawing == [cut.dealer]
        ties += len(cut.draws) > 1
        assert Game(deals_planned=1, seed=seed).cut == cut  # the seed decides the cut
    assert ties > 0


def test_dealer_passes_clockwise_and_the_dealers_left_leads(
        random_game: Callable[..., Game]) -> None:
    game = random_game(seed=8, deals=9)
    first = game.first_dealer
    assert [d.dealer for d in game.deals] == [(first + k) % 4 for k in range(9)]
    for deal in game.deals:
        assert deal.tricks[0].leader == (deal.dealer + 1) % 4


@pytest.mark.parametrize(("totals", "losers"), [
    ((9, 7, 10, 5), (3,)),
    ((5, 3, 3, 7), (1, 2)),      # a tie for lowest: both lose
    ((3, 3, 5, 3), (0, 1, 3)),   # three share the lowest
    ((4, 4, 4, 4), ()),          # all level: a draw, nobody loses
    ((0, 0, 0, 1), (0, 1, 2)),
])
def test_losers(totals: tuple[int, int, int, int], losers: tuple[int, ...]) -> None:
    assert lowest(totals) == losers


def test_game_totals_and_losers_follow_the_deals(random_game: Callable[..., Game]) -> None:
    for seed in range(30):
        game = random_game(seed=seed, deals=4)
        assert game.is_over and game.phase is Phase.GAME_OVER
        totals = [sum(d.points[s] for d in game.deals) for s in range(4)]
        assert list(game.totals) == totals
        low = min(totals)
        expected = [s for s in range(4) if totals[s] == low]
        assert list(game.losers) == ([] if len(expected) == 4 else expected)


def test_state_machine_phases_and_events() -> None:
    rng = random.Random(2)
    game = Game(deals_planned=2, seed=2)
    assert game.phase is Phase.PLAYING and game.deal_number == 1
    with pytest.raises(ValueError):
        game.next_deal()
    events: list[object] = []
    while game.phase is Phase.PLAYING:
        seat = game.to_move
        card = rng.choice(game.deal.legal_moves())
        new = game.play(card)
        assert isinstance(new[0], CardPlayed) and new[0].seat == seat and new[0].card == card
        events += new
    assert game.phase is Phase.DEAL_OVER
    won = [e for e in events if isinstance(e, TrickWon)]
    assert [w.trick for w in won] == list(game.deal.tricks)
    assert [w.trick_number for w in won] == list(range(1, len(won) + 1))
    firsts = [w.winner for w in won if w.first_trick_for_winner]
    assert len(firsts) == len(set(firsts)) == sum(1 for t in game.deal.taken if t)
    ended = [e for e in events if isinstance(e, DealEnded)]
    assert len(ended) == 1 and ended[0].points == game.deal.points
    assert ended[0].early == game.deal.ended_early and ended[0].totals == game.totals
    assert isinstance(events[-1], DealEnded)
    started = game.next_deal()
    assert started == DealStarted(2, (game.first_dealer + 1) % 4)
    assert game.deal.context[2] == game.totals  # views see the totals before this deal
    last: list[object] = []
    while game.phase is Phase.PLAYING:
        last = game.play(rng.choice(game.deal.legal_moves()))
    assert game.phase is Phase.GAME_OVER and game.is_over
    assert last[-1] == GameEnded(game.totals, game.losers)
    with pytest.raises(ValueError):
        game.next_deal()
    with pytest.raises(ValueError):
        game.play(DECK[0])


def test_same_seed_same_game_and_different_seeds_differ() -> None:
    a, b, c = Game(seed=5), Game(seed=5), Game(seed=6)
    assert a.deal.dealt == b.deal.dealt and a.cut == b.cut
    assert a.deal.dealt != c.deal.dealt


@pytest.mark.parametrize("deals", [0, 100, -1, 2.5, True, "8"])
def test_deals_planned_must_be_1_to_99(deals: object) -> None:
    with pytest.raises(ValueError, match="1 to 99"):
        Game(deals_planned=deals)  # type: ignore[arg-type]


def test_a_game_is_rebuilt_from_its_parts(random_game: Callable[..., Game]) -> None:
    game = random_game(seed=61, deals=3, stop_after=70)
    copy = Game.from_parts(deals_planned=game.deals_planned, seed=game.seed,
                           players=game.players, cut=game.cut, first_dealer=game.first_dealer,
                           deals=[d.copy() for d in game.deals], incidents=game.incidents)
    assert (copy.phase, copy.totals, copy.to_move, copy.names) == (
        game.phase, game.totals, game.to_move, game.names)
    assert [d.context for d in copy.deals] == [d.context for d in game.deals]
    card = game.deal.legal_moves()[0]
    assert copy.play(card) == game.play(card)


@pytest.mark.parametrize(("change", "message"), [
    ({"deals_planned": 1}, "holds 1 to 1 deals"),
    ({"deals_planned": 0}, "deals_planned"),
    ({"first_dealer": 5}, "first_dealer"),
    ({"deals": []}, "holds 1 to 3 deals"),
    ({"players": [{"name": "A"}]}, "4 players"),
    ("swap", "must be dealt by seat"),
    ("unfinished", "is not over"),
])
def test_parts_that_do_not_fit_are_refused(random_game: Callable[..., Game],
                                           change: object, message: str) -> None:
    game = random_game(seed=62, deals=3, stop_after=200)
    assert len(game.deals) >= 2
    parts: dict[str, Any] = {"deals_planned": 3, "seed": game.seed, "players": game.players,
                             "cut": game.cut, "first_dealer": game.first_dealer,
                             "deals": list(game.deals)}
    if change == "swap":
        parts["deals"] = [game.deals[1], game.deals[0], *game.deals[2:]]
    elif change == "unfinished":
        parts["deals"] = [Deal.new(game.dealer_of(1)), game.deals[1]]
    else:
        parts.update(change)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match=message):
        Game.from_parts(**parts)
