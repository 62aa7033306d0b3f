"""A game the store could not write when the app ends is kept in a file, and the program's
last line says where (the store's close returns that file)."""

from __future__ import annotations

from pathlib import Path

import pytest

from nil_tui.store import Store
from nil_tui.tui import app as app_module
from nil_tui.tui import lifecycle
from nil_tui.tui.app import NilApp


class ClosesAtOnce(NilApp):
    CSS_PATH = Path(app_module.__file__).parent / "app.tcss"

    def on_mount(self) -> None:
        self.store  # noqa: B018 - opened, as a game would have
        self.set_timer(0.05, self.exit)


def test_the_last_line_names_the_file_that_keeps_an_unwritten_game(
        nil_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    kept = tmp_path / "set-aside-unsaved-1.json"
    real = Store.close
    monkeypatch.setattr(Store, "close", lambda self: (real(self), kept)[1])
    assert lifecycle.run(ClosesAtOnce("setup"), "nil-tui", headless=True) == 0
    err = capsys.readouterr().err
    assert f"it is kept in {kept}" in err, err


def test_nothing_is_said_when_everything_was_written(
        nil_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert lifecycle.run(ClosesAtOnce("setup"), "nil-tui", headless=True) == 0
    assert "kept in" not in capsys.readouterr().err
