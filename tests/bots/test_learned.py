"""The learned judge of positions (nil_tui/bots/learned.py): the shipped model loads, judges
from the position alone, beats a trivial judge on held-out positions of the hard level's
deals, and the expert that uses it plays legal cards reproducibly. The search levels do not
use it (their configs leave ``SearchConfig.leaf`` unset)."""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace
from pathlib import Path

import pytest

from nil_tui.bots import learned, make_bot
from nil_tui.bots.expert import EXPERT
from nil_tui.bots.hard import HARD
from nil_tui.bots.search import judged
from nil_tui.engine import Deal, PlayerView

# Positions of self-play deals of the hard level that the shipped model was not fitted to
# (training/train.py holds out the deals whose number ends in 4 or 9), with each deal's worth.
HELD_OUT = Path(__file__).parent / "data" / "leaf_heldout.jsonl"


def positions(count: int, seed: int) -> list[Deal]:
    """Deals at the end of a trick (not over), from seeded deals of normal bots."""
    rng = random.Random(seed)
    bot = make_bot("normal", seed=0)
    out: list[Deal] = []
    n = 0
    while len(out) < count:
        d = Deal.new(n & 3, rng)
        n += 1
        while not d.is_over:
            done = d.play(bot.choose(d.view(d.to_move or 0)))
            if done is not None and not d.is_over and len(d.tricks) == 1 + n % 4:
                out.append(d.copy())
    return out


def test_the_model_loads_and_judges_in_points() -> None:
    model = learned.model()
    assert model["features"] == list(learned.FEATURES)
    assert len(model["weights"]) == len(learned.FEATURES)
    for d in positions(20, seed=3):
        worth = learned.predict(d)
        assert len(worth) == 4 and all(math.isfinite(w) and 0.0 <= w <= 3.0 for w in worth)
        # a seat that has taken a trick never ends clean: it scores 3 only by a sweep
        for s in range(4):
            if d.taken[s]:
                assert learned.clean_chances(model["weights"], [d.hand_mask(k) for k in range(4)],
                                             d.taken, d.leader)[s] == 0.0


def test_the_judge_reads_the_position_and_nothing_else() -> None:
    """The same hands, tricks taken and leader give the same figures, whatever the history,
    the game around the deal or its scoring; judging leaves the deal as it was."""
    for d in positions(10, seed=5):
        before = (d.hands, d.taken, d.leader, d.played_mask, len(d.tricks))
        worth = learned.predict(d)
        assert (d.hands, d.taken, d.leader, d.played_mask, len(d.tricks)) == before
        other = d.copy()
        other.context = (7, 8, (3, 9, 1, 4), 1)
        assert learned.predict(other) == worth
        assert learned.predict_position([d.hand_mask(s) for s in range(4)], d.taken,
                                        d.leader) == worth


def test_the_model_beats_the_mean_on_held_out_positions() -> None:
    rows = [json.loads(line) for line in HELD_OUT.read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 100 and all(r["deal"] % 5 == 4 for r in rows)
    mean = learned.model()["data"]["mean_worth"]
    model_sq = mean_sq = 0.0
    for r in rows:
        guess = learned.predict_position(r["hands"], r["taken"], r["leader"])
        for s in range(4):
            model_sq += (guess[s] - r["worth"][s]) ** 2
            mean_sq += (mean - r["worth"][s]) ** 2
    assert model_sq < 0.6 * mean_sq, (model_sq, mean_sq)


def test_a_playout_is_judged_at_the_end_of_the_trick_in_progress() -> None:
    def leaf(d: Deal) -> tuple[float, float, float, float]:
        return (0.0, 1.0, 2.0, 3.0)

    for d in positions(6, seed=9):
        done = len(d.tricks)
        d.play(d.legal_moves()[0])  # a trick in progress
        for after in (0, 1):
            end = d.copy()
            if judged(end, leaf, after) == (0.0, 1.0, 2.0, 3.0):
                assert (len(end.tricks), end.trick) == (done + 1 + after, ())
            else:  # the deal ended first: judged by its worth
                assert end.is_over and len(end.tricks) <= done + 1 + after


def test_the_levels_do_not_use_it() -> None:
    assert HARD.leaf is None and EXPERT.leaf is None
    assert learned.LEARNED_EXPERT == replace(EXPERT, leaf=learned.leaf, leaf_after=0)
    assert learned.BLENDED_EXPERT == replace(EXPERT, leaf=learned.blended_leaf, leaf_after=0)
    assert 0.0 <= learned.model()["blend"] <= 1.0


def views(count: int, seed: int) -> list[PlayerView]:
    rng = random.Random(seed)
    bot = make_bot("normal", seed=0)
    out: list[PlayerView] = []
    n = 0
    while len(out) < count:
        d = Deal.new(n & 3, rng)
        d.context = (1, 99, (0, 0, 0, 0))
        n += 1
        choices = []
        while not d.is_over:
            view = d.view(d.to_move or 0)
            if len(view.legal) > 1 and sum(view.hand_sizes) > EXPERT.endgame:
                choices.append(view)
            d.play(bot.choose(view))
        if choices:
            out.append(choices[len(choices) // 2])
    return out


def test_the_learned_experts_play_legal_cards_reproducibly() -> None:
    for config in (learned.LEARNED_EXPERT, learned.BLENDED_EXPERT):
        config = replace(config, worlds=20, max_worlds=40)
        for view in views(3, seed=11):
            card = learned.LearnedExpertBot(seed=4, config=config).choose(view)
            assert card in view.legal
            assert learned.LearnedExpertBot(seed=4, config=config).choose(view) == card
    bot = make_bot("nil_tui.bots.learned:LearnedExpertBot", seed=1)
    assert bot.choose(views(1, seed=12)[0]) in views(1, seed=12)[0].legal


def test_a_seats_features_are_what_it_may_know() -> None:
    """A seat's features read from its own view are those of the full position, and do not
    change when the cards the others hold are dealt among them another way."""
    rng = random.Random(11)
    for d in positions(30, seed=7):
        hands = [d.hand_mask(s) for s in range(4)]
        full = learned.features(hands, d.taken, d.leader)
        for seat in range(4):
            assert learned.view_features(d.view(seat)) == full[seat]
            # the others' cards shuffled among them, each keeping its count
            others = [s for s in range(4) if s != seat]
            out = [c for s in others for c in range(52) if hands[s] >> c & 1]
            rng.shuffle(out)
            moved = list(hands)
            k = 0
            for s in others:
                n = hands[s].bit_count()
                moved[s] = sum(1 << c for c in out[k:k + n])
                k += n
            assert learned.features(moved, d.taken, d.leader)[seat] == full[seat]
    d = positions(1, seed=9)[0]
    d.play(d.view(d.to_move or 0).legal[0])  # a card on the table: not between two tricks
    with pytest.raises(ValueError, match="between two tricks"):
        learned.view_features(d.view(d.leader))
