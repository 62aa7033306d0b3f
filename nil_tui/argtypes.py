"""Argument types shared by the command line's commands: one clear message per bad value.

Imports nothing heavy: the command line parses before the app's first frame.
"""

from __future__ import annotations

import argparse
import math

MAX_DEALS = 99  # the engine's limit too (nil_tui.engine.game.MAX_DEALS; a test keeps them equal)


def count(text: str) -> int:
    """A whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def deals(text: str) -> int:
    """Deals in a game: 1 to MAX_DEALS."""
    value = count(text)
    if value > MAX_DEALS:
        raise argparse.ArgumentTypeError(f"a game has 1 to {MAX_DEALS} deals, got {value}")
    return value


def seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def seconds(text: str) -> float:
    """A duration of 0 or more seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more seconds, got {text!r}")
    return value
