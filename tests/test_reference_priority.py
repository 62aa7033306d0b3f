"""The daily challenge's reference is worked out in a real process of its own that takes only
what the player's table leaves of the CPU: the lowest niceness, and on Linux the idle
scheduling class, from its first instant (before it has imported the game). On a machine
whose cores are all busy it then waits (the challenge's page says how far it got)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from nil_tui.game.daily_challenge import ReferenceProcess

DATE = "2026-11-30"


def scheduling(pid: int) -> tuple[int, int]:
    """The niceness and the scheduling policy of ``pid``, as the kernel has them now."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2:].split()  # from the field after the name (the 3rd)
    return int(fields[16]), int(fields[38])  # fields 19 (nice) and 41 (policy)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_reference_runs_at_the_lowest_priority_from_its_start() -> None:
    process = ReferenceProcess(DATE)
    try:
        pid = process.pid
        assert pid is not None
        assert scheduling(pid) == (19, os.SCHED_IDLE)  # at once: before any import
    finally:
        process.stop()
