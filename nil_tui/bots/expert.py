"""The expert level: determinized search over many layouts of the hidden cards, weighted by how
likely each opponent's past plays were under the rules of thumb; exact search of the last
tricks with every seat playing for itself; late in a game it plays for the match.

``OracleBot`` is the same search given the true deal (benchmarks and ``simulate`` only).
"""

from __future__ import annotations

from ..engine import DECK, Card, Deal, PlayerView
from .easy import decision_rng
from .search import SearchBot, SearchConfig

# 400 layouts: enough that a 0.05 margin over the rules-of-thumb card is no longer mostly noise
# (with 150 layouts and a 0.1 margin the search left the rules of thumb too rarely to gain)
EXPERT = SearchConfig(worlds=400, playouts=1, inference=True, candidates=15, eps=0.1,
                      strict=0.5, endgame=12, match=True, margin=0.05)
# The same search on the one true layout: a single deterministic playout per card says all.
ORACLE = SearchConfig(worlds=1, playouts=1, inference=False, endgame=12, match=True,
                      margin=0.1)


class ExpertBot(SearchBot):
    name = "Expert"
    config = EXPERT
    salt = "expert"


class OracleBot(ExpertBot):
    """The expert's search with every hand visible: a ceiling for benchmarks."""

    name = "Oracle"
    config = ORACLE

    def choose_perfect(self, view: PlayerView, deal: Deal) -> Card:
        if len(view.legal) == 1:
            return view.legal[0]
        best, _ = self.searcher.best(view, decision_rng(self.seed, view, "oracle"), deal)
        return DECK[best]
