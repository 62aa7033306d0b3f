"""Argument types shared by the command line's commands: one clear message per bad value.

Every type refuses what it cannot use with one line (argparse turns it into exit status 2):
whole numbers are plain ASCII digits, checked for length before they are converted (Python
refuses to convert numbers of more than 4,300 digits), and each has a stated range.

Imports nothing heavy: the command line parses before the app's first frame.
"""

from __future__ import annotations

import argparse
import math
import re

MAX_DEALS = 99  # the engine's limit too (nil_tui.engine.game.MAX_DEALS; a test keeps them equal)
MAX_SEED = 2**64 - 1  # seeds are 0 to 2**64 - 1: up to 20 digits, stored as text beyond 2**63
MAX_GAMES = 100_000  # the simulator lists every game up front
MAX_JOBS = 64
MAX_TIME_CAP = 3600.0  # an hour per decision; beyond that the cap means nothing



class UsageError(Exception):
    """A bad argument or input file: printed as one line, exit status 2."""


_WHOLE = re.compile(r"[+-]?[0-9]+")
_SHOWN = 24  # characters of a bad value quoted in a message


def shown(text: str) -> str:
    """``text`` quoted for a one-line message, cut short when it is long."""
    if len(text) > _SHOWN:
        return repr(text[:_SHOWN]) + f"... ({len(text)} characters)"
    return repr(text)


def _whole(text: str, what: str, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high`` written in ASCII digits, or a clear refusal;
    ``what`` says the range, with ``{low}`` and ``{high}`` in it."""
    what = what.format(low=low, high=high)
    stripped = text.strip()
    if not _WHOLE.fullmatch(stripped):
        raise argparse.ArgumentTypeError(f"expected a whole number, got {shown(text)}")
    digits = stripped.lstrip("+-").lstrip("0") or "0"
    if len(digits) > len(str(high)) + 1:  # too long to be in range: never converted
        raise argparse.ArgumentTypeError(f"{what}, got a number of {len(digits)} digits")
    value = int(stripped)
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"{what}, got {value}")
    return value


def games(text: str) -> int:
    """Games in a simulated match: 1 to MAX_GAMES."""
    return _whole(text, "a match has {low} to {high} games", 1, MAX_GAMES)


def jobs(text: str) -> int:
    """Processes for the simulator: 1 to MAX_JOBS."""
    return _whole(text, "expected {low} to {high} processes", 1, MAX_JOBS)


def deals(text: str) -> int:
    """Deals in a game: 1 to MAX_DEALS."""
    return _whole(text, "a game has {low} to {high} deals", 1, MAX_DEALS)


def seed(text: str) -> int:
    """A seed: a whole number from 0 to MAX_SEED (2**64 - 1, 20 digits)."""
    return _whole(text, "a seed is a whole number from {low} to {high}", 0, MAX_SEED)


def seconds(text: str) -> float:
    """A duration of 0 to MAX_TIME_CAP seconds."""
    try:
        value = float(text) if len(text) <= 40 else math.nan
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds, got {shown(text)}") from None
    if not math.isfinite(value) or not 0 <= value <= MAX_TIME_CAP:
        raise argparse.ArgumentTypeError(
            f"expected 0 to {MAX_TIME_CAP:g} seconds, got {shown(text)}")
    return value


def game_number(text: str) -> int:
    """Which record of a .jsonl file: 1 to MAX_GAMES."""
    return _whole(text, "expected a game number from {low} to {high}", 1, MAX_GAMES)


SEAT_LETTERS = "SWNE"  # seat 0 is South, then clockwise


def seat(text: str) -> int:
    """A seat: 0 to 3, or its letter S, W, N, E (either case)."""
    letter = text.strip().upper()
    if len(letter) == 1 and letter in SEAT_LETTERS:
        return SEAT_LETTERS.index(letter)
    return _whole(text, "a seat is {low} to {high} (or S, W, N, E)", 0, 3)


FIRST_DATE = "2000-01-01"
LAST_DATE = "2999-12-31"


def date(text: str) -> str:
    """A calendar date written YYYY-MM-DD, from FIRST_DATE to LAST_DATE."""
    import datetime

    stripped = text.strip()
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", stripped):
        raise argparse.ArgumentTypeError(f"expected a date written YYYY-MM-DD, got "
                                         f"{shown(text)}")
    try:
        day = datetime.date.fromisoformat(stripped)
    except ValueError:
        raise argparse.ArgumentTypeError(f"no such date: {shown(text)}") from None
    if not FIRST_DATE <= day.isoformat() <= LAST_DATE:
        raise argparse.ArgumentTypeError(f"expected a date from {FIRST_DATE} to {LAST_DATE}, "
                                         f"got {shown(text)}")
    return day.isoformat()
