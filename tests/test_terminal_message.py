"""Refused for want of a terminal, the game says which of its standard streams is not one:
in a real terminal (a pty) with only standard error sent to a file, it names standard error,
on which the screen is drawn."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_a_redirected_standard_error_is_named(tmp_path: Path) -> None:
    master, slave = os.openpty()
    err = tmp_path / "err.txt"
    env = dict(os.environ, NIL_TUI_HOME=str(tmp_path / "home"))
    env.pop("TEXTUAL", None)
    try:
        with err.open("w") as errors:
            result = subprocess.run([sys.executable, "-m", "nil_tui"], stdin=slave,
                                    stdout=slave, stderr=errors, env=env, timeout=60,
                                    check=False)
    finally:
        os.close(slave)
        os.close(master)
    assert result.returncode == 2
    said = err.read_text(encoding="utf-8").strip()
    assert said == ("nil-tui needs a terminal: its standard error is not one (the screen is "
                    "drawn there); for games without one, see nil-tui simulate"), said
