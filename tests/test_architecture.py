"""The engine, the bots and the simulator never load the screen libraries."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_engine_bots_and_sim_do_not_import_textual_or_rich() -> None:
    code = textwrap.dedent("""
        import sys
        import nil_tui.engine
        import nil_tui.bots
        import nil_tui.sim
        from nil_tui.bots import LEVELS, make_bot
        for spec in LEVELS:
            make_bot(spec, seed=1)
        nil_tui.sim.run_match(["easy", "easy", "easy", "easy"], 1, 1, 1)
        loaded = sorted(m for m in sys.modules
                        if m.split(".")[0] in ("textual", "rich"))
        print(",".join(loaded) or "none")
    """)
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True,
                          text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "none"


def test_the_check_would_see_textual() -> None:
    """The probe above can fail: importing the app's screens does load Textual."""
    code = "import sys, textual; print('textual' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True,
                          text=True,
                          timeout=120)
    assert done.stdout.strip() == "True"
