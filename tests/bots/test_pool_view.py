"""What a seat may know of the game's scoring: the scoring's name, the pool before the deal, the
seats of a tie-break, whether it is the first deal, and the agreed deals still to come (a
tie-break deal is not one of them). Built-in bots read it from the view; a plugin receives the
same through its own process."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from nil_tui.bots import open_player, plugin_wire, seat_seed
from nil_tui.bots.normal import NormalBot
from nil_tui.bots.search import edge_utility, match_utility
from nil_tui.engine import Deal, Game, PlayerView

PLUGINS = Path(__file__).resolve().parents[1] / "plugins"


def pool_game(seed: int, deals: int) -> tuple[Game, list[list[PlayerView]]]:
    """A pool game between normal bots; the views of its deals' first decisions."""
    game = Game(deals_planned=deals, seed=seed, scoring="pool")
    bots = [NormalBot(seed * 4 + k) for k in range(4)]
    views: list[list[PlayerView]] = []
    while True:
        deal = game.deal
        views.append([])
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            view = deal.view(seat)
            views[-1].append(view)
            game.play(bots[seat].choose(view))
        if game.is_over:
            return game, views
        game.next_deal()


def test_a_tie_break_in_the_middle_of_a_game_is_not_an_agreed_deal() -> None:
    # seed 21, 4 deals: after the second deal two players stayed clean with an odd pool, so a
    # tie-break deal comes third; two agreed deals follow it
    game, views = pool_game(21, 4)
    assert [bool(d.rule.tiebreak) for d in game.deals] == [False, False, True, False, False]
    assert [v[0].deal_number for v in views] == [1, 2, 3, 4, 5]
    assert [v[0].deals_left for v in views] == [3, 2, 2, 1, 0]
    assert views[2][0].tiebreak == game.deals[2].rule.tiebreak and views[2][0].pool % 2 == 1
    # the fourth deal is not the last one: the search values its points, not the match...
    fourth, last = views[3][0], views[4][0]
    assert fourth.deals_planned - fourth.deal_number == 0  # (what the numbers alone say)
    points = (-3.0, 5.0, -1.0, -1.0)
    assert match_utility(fourth)(points) == edge_utility(fourth.seat)(points)
    # ... and in the game's real last deal, the match (not finishing lowest) counts
    assert match_utility(last)(points) != edge_utility(last.seat)(points)


def test_a_tie_break_after_the_last_agreed_deal_has_none_after_it() -> None:
    game, views = pool_game(21, 2)
    assert [bool(d.rule.tiebreak) for d in game.deals] == [False, False, True]
    assert [v[0].deals_left for v in views] == [1, 0, 0]
    assert game.is_over


def test_a_view_built_by_hand_reckons_the_deals_left_from_its_numbers() -> None:
    deal = Deal.new(0)
    deal.context = (3, 8, (0, 0, 0, 0))  # (a game's old three facts)
    assert deal.view(1).deals_left == 5
    assert PlayerView(seat=0, hand=(), legal=(), trick=(), leader=0, tricks=(),
                      taken=(0, 0, 0, 0), hand_sizes=(0, 0, 0, 0), dealer=0, deal_number=8,
                      deals_planned=8).deals_left == 0


def test_the_scoring_reaches_a_plugin_by_value() -> None:
    _, views = pool_game(21, 4)
    sent = [v for deal in views for v in deal]
    assert {v.scoring for v in sent} == {"pool"} and any(v.pool for v in sent)
    assert any(v.tiebreak for v in sent) and any(v.rule.first for v in sent)
    encoder, decoder = plugin_wire.Encoder(), plugin_wire.Decoder()
    for n, view in enumerate(sent):
        got = decoder.decide(encoder.decide(n, view)[4:])[1]
        assert got == view
        assert (got.scoring, got.pool, got.tiebreak, got.deals_left, got.rule) == (
            view.scoring, view.pool, view.tiebreak, view.deals_left, view.rule)


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    monkeypatch.syspath_prepend(str(PLUGINS))
    monkeypatch.setenv("NIL_TUI_HOME", str(tmp_path / "home"))
    out = tmp_path / "scores.jsonl"
    monkeypatch.setenv("NIL_TUI_SCORE_OUT", str(out))
    yield out


def test_a_plugin_in_its_own_process_is_told_the_scoring_the_pool_and_the_deals_left(
        plugins: Path) -> None:
    seed = 21
    game = Game(deals_planned=4, seed=seed, scoring="pool")
    players = [open_player("nil_scorekeeper:Scorekeeper" if k == 2 else "normal",
                           seat_seed(seed, k), time_cap=20.0) for k in range(4)]
    expected = []
    try:
        while True:
            deal = game.deal
            while not deal.is_over:
                seat = deal.to_move
                assert seat is not None
                view = deal.view(seat)
                if seat == 2:
                    expected.append({
                        "seat": 2, "deal_number": view.deal_number,
                        "deals_planned": 4, "deals_left": view.deals_left,
                        "totals": list(view.totals), "scoring": "pool", "pool": view.pool,
                        "tiebreak": list(view.tiebreak), "first": view.rule.first,
                        "tricks": len(view.tricks), "trick": len(view.trick)})
                game.play(players[seat].decide(view, None).card)
            if game.is_over:
                break
            game.next_deal()
    finally:
        for p in players:
            p.close()
    got = [json.loads(line) for line in plugins.read_text().splitlines()]
    assert got == expected
    assert any(line["pool"] for line in got)  # the pool grew and the plugin saw it
    assert got[0]["first"] and got[0]["deals_left"] == 3
