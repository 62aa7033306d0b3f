"""Worker processes started from inside the full-screen app (the analysis, the challenge's
reference): what they need that the app's terminal handling gets in the way of."""

from __future__ import annotations

import os
import sys


def start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (every "spawn" process needs it) with its
    output going nowhere, once (later calls return at once). Python starts it with
    ``sys.stderr``, which a full-screen app replaces with an object that has no file (the
    process would not start: "bad value(s) in fds_to_keep"); and nothing it says may reach
    the terminal the app draws on. It ends when the program does (its pipe closes)."""
    from multiprocessing import resource_tracker

    saved = sys.stderr
    try:
        with open(os.devnull, "w") as quiet:
            sys.stderr = quiet
            resource_tracker.ensure_running()
    finally:
        sys.stderr = saved
