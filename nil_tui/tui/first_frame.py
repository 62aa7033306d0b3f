"""The quick start: until the app's first frame is drawn, nothing slows it that can wait
(set by the command line before the imports of a command that draws the app, and by the
launch before the app is made; ended by the app once that frame is drawn, or by the command
line when none was)."""

from __future__ import annotations

import gc
import sys

# While the app starts: Textual's output thread writes each frame while the app goes on
# building the next, and with Python's usual switch interval (5 ms) it waits that long for
# its turn. The interval before, to go back to once the first frame is drawn.
STARTUP_SWITCH_INTERVAL = 0.0005
_switch_before: float | None = None


def quick_start() -> None:
    """Until the first frame: no garbage collection (each pass walks every object made so
    far, again and again: about a sixth of the start), and a short switch interval, so the
    first frame reaches the terminal as soon as it is drawn."""
    global _switch_before
    gc.disable()
    if _switch_before is None:
        _switch_before = sys.getswitchinterval()
        sys.setswitchinterval(min(_switch_before, STARTUP_SWITCH_INTERVAL))


def quick_start_over() -> None:
    """The first frame is drawn: garbage is collected again, and the threads take turns as
    usual. What exists now lasts as long as the app, so it is left out of later
    collections."""
    global _switch_before
    if not gc.isenabled():
        gc.freeze()
        gc.enable()
    if _switch_before is not None:
        sys.setswitchinterval(_switch_before)
        _switch_before = None
