"""Versions of the expert that were measured against it and not kept, as bot specs for
``paired.py`` (docs/developers/expert.md, "How the expert got there"), run from the
repository root:

    nice -n 19 python benchmarks/paired.py expert_variants:LearnedAfterOne expert --field hard --deals 80
    nice -n 19 python benchmarks/paired.py expert_variants:LooseRule expert --field hard --deals 60

Each differs from the expert by one setting of its search (``SearchConfig``).
"""

from __future__ import annotations

from dataclasses import replace

from nil_tui.bots.expert import EXPERT, ExpertBot
from nil_tui.bots.learned import blended_leaf, leaf
from nil_tui.bots.search import SearchConfig


class LearnedAfterOne(ExpertBot):
    """Each playout judged by the learned model one trick after the trick in progress."""

    name = "Learned after one"
    config: SearchConfig = replace(EXPERT, leaf=leaf, leaf_after=1)


class BlendedAfterOne(ExpertBot):
    """The blend of the model and a playout, the model judging one trick later."""

    name = "Blended after one"
    config: SearchConfig = replace(EXPERT, leaf=blended_leaf, leaf_after=1)


class LooseRule(ExpertBot):
    """Another card than the rules of thumb's whenever its mean gain is above zero."""

    name = "Loose rule"
    config: SearchConfig = replace(EXPERT, z=0.0)


class DeeperEndgame(ExpertBot):
    """Exact search of the last four tricks, not three."""

    name = "Deeper endgame"
    config: SearchConfig = replace(EXPERT, endgame=16, endgame_nodes=20_000)
