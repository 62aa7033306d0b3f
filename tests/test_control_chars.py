"""Nothing a terminal obeys reaches it from what a player typed, a plugin named or a record
holds: each command is run as a real process, and its output is read byte by byte."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from nil_tui.textsafe import UNSAFE


def run_cli(*argv: str, home: Path, timeout: float = 120,
            extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, NIL_TUI_HOME=str(home), **(extra_env or {}))
    return subprocess.run([sys.executable, "-m", "nil_tui", *argv], capture_output=True,
                          stdin=subprocess.DEVNULL, env=env, timeout=timeout, check=False)


def assert_terminal_safe(data: bytes) -> None:
    """No byte below 32 but a newline, no DEL, and decoded, no C1 control, no mark that turns
    the direction of text, no line separator (everything ``UNSAFE`` names but the newline)."""
    bad = sorted({b for b in data if (b < 32 and b != 10) or b == 0x7F})
    assert not bad, f"control bytes {bad} in {data[:600]!r}"
    text = data.decode("utf-8", "surrogateescape")
    found = sorted({ch for ch in text if ch != "\n" and UNSAFE.fullmatch(ch)})
    assert not found, f"unsafe characters {found!r} in {text[:600]!r}"


# --- item: argparse quotes what was typed -----------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["history", "5\n6"], ["rules", "a\rb"], ["stats", "x\x1b]0;TITLE\x07y"],
    ["play", "--sp\ny"], ["rules", "\u202eevil"], ["simulate", "--games", "1", "\x9b2J"],
    ["history", "\t\x7f"],
], ids=["newline", "cr", "osc", "option-newline", "bidi", "c1", "tab-del"])
def test_an_unknown_argument_is_quoted_on_one_safe_line(argv: list[str], tmp_path: Path) -> None:
    """argparse quotes an unknown argument as typed: a newline or a CR in it would start a
    new line (or write over the message), so it is written as its escape."""
    done = run_cli(*argv, home=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stdout == b""
    assert done.stderr.endswith(b"\n") and done.stderr.count(b"\n") == 1, done.stderr
    assert_terminal_safe(done.stderr)
    assert b"unrecognized arguments" in done.stderr or b"invalid" in done.stderr, done.stderr
