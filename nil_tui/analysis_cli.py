"""``nil-tui analyse``: the analysis of one seat's plays in a game record, printed."""

from __future__ import annotations

import argparse


def run(args: argparse.Namespace) -> int:
    raise NotImplementedError  # filled in with the analysis
