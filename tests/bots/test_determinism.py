"""Same seed and view, same card, however busy the machine: the search levels' budgets count
work, never time. (The 30-position version with the full expert is
benchmarks/determinism_under_load.py.)"""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace

import pytest

from nil_tui.bots import make_bot
from nil_tui.bots.expert import EXPERT, ExpertBot
from nil_tui.bots.hard import HardBot
from nil_tui.engine import Deal, PlayerView

# the expert's search (inference, exact endgame, the match) on fewer layouts
CHEAP_EXPERT = replace(EXPERT, worlds=20, max_worlds=40)


def seeded_positions(count: int, seed: int) -> list[PlayerView]:
    """Views with more than one legal card from seeded games of normal bots: one mid-deal
    per deal, and the first one found of the last three tricks (the exact search), in the
    last deal of a game or the one before (the match, or the points)."""
    rng = random.Random(seed)
    driver = make_bot("normal", seed=0)
    middle: list[PlayerView] = []
    endgame: list[PlayerView] = []
    n = 0
    while len(middle) < count - 1 or not endgame:
        deal = Deal.new(n & 3, rng)
        deal.context = (8 - n % 2, 8, (n, 3, 5, 2))
        n += 1
        choices = []
        while deal.to_move is not None:
            view = deal.view(deal.to_move)
            if len(view.legal) > 1:
                choices.append(view)
            deal.play(driver.choose(view))
        middle.append(choices[len(choices) // 2])
        endgame += [v for v in choices if sum(v.hand_sizes) <= EXPERT.endgame]
    return middle[:count - 1] + endgame[:1]


def decisions(views: list[PlayerView]) -> list[str]:
    out = []
    for bot in (HardBot(41), ExpertBot(41, CHEAP_EXPERT)):
        for view in views:
            out.append(str(bot.choose(view)))
            assert not bot.cap_fired
    return out


def test_a_loaded_machine_plays_the_same_cards() -> None:
    views = seeded_positions(4, seed=77)
    assert any(sum(v.hand_sizes) <= EXPERT.endgame for v in views)
    quiet = decisions(views)
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        loaded = decisions(views)
    finally:
        for proc in burners:
            proc.kill()
            proc.wait()
    assert loaded == quiet


def test_no_clock_is_read_without_a_safety_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine slow enough to take a minute per layout still plays the same cards, unless
    the safety cap (a last resort) ends a search, which the bot then says."""
    views = seeded_positions(4, seed=78)
    quiet = decisions(views)
    clock = [0.0]

    def slow_clock() -> float:
        clock[0] += 60.0
        return clock[0]

    monkeypatch.setattr("time.perf_counter", slow_clock)
    cards = []
    for bot in (HardBot(41), ExpertBot(41, CHEAP_EXPERT)):
        bot.safety_cap = None
        cards += [str(bot.choose(v)) for v in views]
        assert not bot.cap_fired
    assert cards == quiet
    capped = HardBot(41)  # the default cap, 10 s: the first minute-long layout ends the search
    for view in views:
        capped.choose(view)
        assert capped.cap_fired and capped.searcher.worlds_used == 1
