"""Shared fixtures: finished games and deals played with random legal cards."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from nil_tui.engine import Deal, Game


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
