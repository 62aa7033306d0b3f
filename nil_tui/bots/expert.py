"""The expert level: determinized search over many layouts of the hidden cards, drawn by a
Markov chain in proportion to how likely each opponent's past plays were under the rules of
thumb; as many layouts as the choice needs; exact search of the last tricks with every seat
playing for itself; late in a game it plays for the match.

``OracleBot`` is the same search given the true deal (benchmarks and ``simulate`` only).
"""

from __future__ import annotations

from ..engine import Card, Deal, PlayerView
from .search import SearchBot, SearchConfig

# Layouts in batches of 200, up to 2000 while the choice is close; another card replaces the
# rules-of-thumb card when its mean gain over the same layouts is half a standard error clear
# of zero. (A 0.02 margin plus one standard error left about +0.025 points per deal unused.)
# At most 20,000 playouts or 600,000 exact-search nodes per decision: about 0.9 s on a quiet
# 2-core machine, the worst case of benchmarks/bot_timing.py (the budget is 2.5 s).
EXPERT = SearchConfig(worlds=200, max_worlds=2000, playouts=1, inference=True, eps=0.1,
                      endgame=12, match=True, margin=0.0, z=0.5, z_stop=2.5, tol=0.01,
                      max_rollouts=20_000, max_nodes=600_000)
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
        return self._decide(view, "oracle", deal)
