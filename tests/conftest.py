"""Shared fixtures: finished games and deals played with random legal cards."""

from __future__ import annotations

import os
import random
import signal
from collections.abc import Callable

import pytest

from nil_tui.engine import Deal, Game

# The files whose tests take longest (seconds each: real browsers, terminals, plugin processes,
# whole games through the app), longest first. They run first, so that the last tests of a
# run are short ones and no worker is left with a long test while the other has finished
# (``--dist worksteal`` shares out what is left, but not the test a worker is in).
SLOW_FIRST = (
    "tests/browser/",
    "tests/tui/test_keymash.py",
    "tests/tui/test_table_features.py",
    "tests/tui/test_settings.py",
    "tests/bots/test_plugins_processes.py",
    "tests/tui/test_play.py",
    "tests/tui/test_saving.py",
    "tests/tui/test_looks.py",
    "tests/net/",
    "tests/bots/test_levels.py",
    "tests/tui/test_ascii.py",
    "tests/tui/test_snapshots.py",
    "tests/tui/test_challenge_app.py",
)


# A run started in the background (``pytest &`` from a script: a shell without job control)
# inherits Ctrl-C ignored, and so would every program the tests start, which then never hears
# the Ctrl-C a test sends it. The tests' programs start as a terminal's foreground programs do.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers a core. Half of a test's time is spent waiting on a terminal,
    a browser or another process; a second worker a core uses that time (on 2 cores, the
    suite took 8 minutes with 2 workers and 5.4 with 4)."""
    return 2 * max(1, len(os.sched_getaffinity(0)))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        path = item.nodeid
        return next((k for k, prefix in enumerate(SLOW_FIRST) if path.startswith(prefix)),
                    len(SLOW_FIRST))

    items.sort(key=rank)  # stable: within a file, the file's own order


def _random_game(seed: int, deals: int = 2, stop_after: int | None = None) -> Game:
    """A game played with random legal cards; ``stop_after`` cards ends it early (in progress)."""
    rng = random.Random(seed)
    game = Game(deals_planned=deals, seed=seed)
    played = 0
    while True:
        while not game.deal.is_over:
            if stop_after is not None and played >= stop_after:
                return game
            game.play(rng.choice(game.deal.legal_moves()))
            played += 1
        if game.is_over:
            return game
        game.next_deal()


def _random_deal(seed: int, dealer: int = 0) -> Deal:
    rng = random.Random(seed)
    deal = Deal.new(dealer, rng)
    while not deal.is_over:
        deal.play(rng.choice(deal.legal_moves()))
    return deal


@pytest.fixture
def random_game() -> Callable[..., Game]:
    """``random_game(seed, deals=2, stop_after=None)``: a game of random legal plays."""
    return _random_game


@pytest.fixture
def random_deal() -> Callable[..., Deal]:
    """``random_deal(seed, dealer=0)``: a finished deal of random legal plays."""
    return _random_deal
