"""The bots a command line seats: ``--difficulty`` and ``--bots`` read and checked (shared by
``nil-tui play`` and ``nil-tui host``). Every mistake is a ``UsageError``: one line, exit
status 2."""

from __future__ import annotations

import sys

from ..game.options import BOT_SEATS
from ..util import argtypes
from ..util.argtypes import UsageError

__all__ = ["parse_bots"]


def parse_bots(difficulty: str | None, bots: str | None,
               default: tuple[str, str, str]) -> tuple[str, str, str]:
    """Bot specs for West, North, East from ``--difficulty`` and ``--bots``."""
    if difficulty is None and bots is None:
        # The saved (or default) levels: the app asks the player about a bot that is gone,
        # so nothing is imported here before the first frame.
        return default
    # Seats this command line leaves out keep the default level; the bots it names must
    # exist, --difficulty's too when --bots names every seat.
    chosen = list(default)
    if difficulty is not None:
        chosen = [difficulty.strip()] * 3
        _check_play_spec("--difficulty", difficulty.strip())
    if bots is not None:
        given: set[str] = set()
        for part in bots.split(","):
            seat, eq, spec = part.partition("=")
            seat = seat.strip().upper()
            if not eq or seat not in BOT_SEATS or not spec.strip():
                raise UsageError(f"--bots: expected W=SPEC,N=SPEC,E=SPEC, got "
                                 f"{argtypes.shown(part)}")
            if seat in given:
                raise UsageError(f"--bots: seat {seat} is given twice")
            given.add(seat)
            chosen[BOT_SEATS[seat] - 1] = spec.strip()
    for spec in dict.fromkeys(chosen):
        _check_play_spec("--bots" if spec != (difficulty or "").strip() else "--difficulty",
                         spec)
    return (chosen[0], chosen[1], chosen[2])


def _check_play_spec(flag: str, spec: str) -> None:
    """UsageError unless ``spec`` names a bot that may sit at a game: an installed level or
    plugin, and not one that sees every hand (``oracle``: ``simulate`` only)."""
    from ..bots import HIDDEN, LEVELS, BotSpecError, check_spec

    if spec in HIDDEN:
        raise UsageError(f"{flag}: {spec} sees every hand, so it plays only in nil-tui "
                         "simulate (levels: easy, normal, hard, expert)")
    plugin = spec.strip() not in LEVELS
    if plugin:  # it loads in its own process first (up to 10 s): say so
        from ..bots.players import set_start_notice

        set_start_notice(lambda text: print(f"nil-tui play: {text}", file=sys.stderr,
                                            flush=True))
    try:
        check_spec(spec)
    except BotSpecError as exc:
        raise UsageError(f"{flag}: {exc}") from None
    finally:
        if plugin:
            set_start_notice(None)
