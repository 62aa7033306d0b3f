"""The hard level: the rules of thumb plus card counting, void inference and Monte Carlo
search over layouts of the hidden cards drawn consistently with everything public."""

from __future__ import annotations

from .search import SearchBot, SearchConfig

HARD = SearchConfig(worlds=50, max_worlds=300, playouts=1, inference=False, endgame=0,
                    match=False, margin=0.02, z=1.0, z_stop=2.5)


class HardBot(SearchBot):
    name = "Hard"
    config = HARD
    salt = "hard"
