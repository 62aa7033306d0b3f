"""App tests never touch a real store: NIL_TUI_HOME points at a fresh folder per test."""

from __future__ import annotations

from pathlib import Path

import pytest

from nil_tui.game.options import PlayOptions


@pytest.fixture(autouse=True)
def nil_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "nil-home"
    home.mkdir()
    monkeypatch.setenv("NIL_TUI_HOME", str(home))
    return home


@pytest.fixture
def quick_options() -> PlayOptions:
    """Two deals against easy bots at instant speed, from a fixed seed."""
    return PlayOptions(deals=2, bots=("easy", "easy", "easy"), seed=7, speed="instant")
