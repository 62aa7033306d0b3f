"""The hard level: the rules of thumb plus card counting, void inference and Monte Carlo
search over layouts of the hidden cards drawn consistently with everything public."""

from __future__ import annotations

from ..engine import DECK, Card, PlayerView
from .easy import decision_rng
from .search import SearchConfig, Searcher

HARD = SearchConfig(worlds=30, playouts=1, inference=False, endgame=0, match=False,
                    margin=0.05)


class HardBot:
    name = "Hard"
    config = HARD

    def __init__(self, seed: int = 0, config: SearchConfig | None = None) -> None:
        self.seed = seed
        if config is not None:
            self.config = config
        self.searcher = Searcher(self.config)

    def choose(self, view: PlayerView) -> Card:
        if len(view.legal) == 1:
            return view.legal[0]
        best, _ = self.searcher.best(view, decision_rng(self.seed, view, "hard"))
        return DECK[best]
