"""Game over says only what is done, and names every file a finished game's record went to:
with the data folder a file (nothing is ever saved, nothing tried again) and on a real full
disk (the record in the temporary folder until there is room, then in ``records/``, where
history points)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from tui_helpers import settle

from nil_tui.game.options import PlayOptions
from nil_tui.store import Store
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.gameover import GameOverScreen


@pytest.fixture
def temporary_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The temporary folder where records go when the data folder cannot take them."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MB tmpfs of its own, mounted for the test."""
    mount = tmp_path / "small"
    mount.mkdir()
    if sys.platform != "linux" or os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a small tmpfs needs Linux, root and mount")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"mounting a small tmpfs is not permitted here ({done.stderr.strip()})")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False, capture_output=True)


def fill(mount: Path) -> Path:
    """Take the disk's last free byte; the file that holds them."""
    filler = mount / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        for size in (65536, 4096, 512, 1):
            try:
                while os.write(fd, b"\0" * size):
                    pass
            except OSError:
                continue
    finally:
        os.close(fd)
    assert os.statvfs(mount).f_bavail == 0
    return filler


async def to_game_over(app: NilApp, pilot: object) -> GameOverScreen:
    for _ in range(60):
        await settle(app, pilot)
        if isinstance(app.screen, GameOverScreen):
            break
        await pilot.press("enter")  # type: ignore[attr-defined]
    over = app.screen
    assert isinstance(over, GameOverScreen)
    return over


def said(over: GameOverScreen) -> str:
    return " ".join(str(over.query_one("#gameover-path").render()).split())


async def test_a_data_folder_that_is_a_file_names_the_record_and_promises_nothing(
        tmp_path: Path, temporary_folder: Path, monkeypatch: pytest.MonkeyPatch,
        quick_options: PlayOptions) -> None:
    home = tmp_path / "not-a-folder"
    home.write_text("someone's file")
    monkeypatch.setenv("NIL_TUI_HOME", str(home))
    app = NilApp("play", options=replace(quick_options, deals=1))
    async with app.run_test(size=(100, 32)) as pilot:
        over = await to_game_over(app, pilot)
        path = over.path
        assert path is not None and path.exists()
        assert path.parent == temporary_folder / "nil-tui-records"
        text = said(over)
        assert text.startswith("⚠ This game is not saved: ") and f"written as {path}." in text
        assert "keeps trying" not in text and "tried again" not in text
        assert "will not be saved" in text  # the reason: the data folder cannot be made
        assert app.home.keeper.unkept == []  # nothing waits to be tried again
    assert home.read_text() == "someone's file"


async def test_a_record_written_aside_on_a_full_disk_is_named_then_moved_home(
        small_disk: Path, temporary_folder: Path, monkeypatch: pytest.MonkeyPatch,
        quick_options: PlayOptions) -> None:
    home = small_disk / "data"
    with Store.open(home) as s:  # a data folder in use before the disk filled
        assert s.save_settings({"speed": "instant"})
    monkeypatch.setenv("NIL_TUI_HOME", str(home))
    filler = fill(small_disk)
    app = NilApp("play", options=replace(quick_options, deals=1))
    async with app.run_test(size=(100, 32)) as pilot:
        over = await to_game_over(app, pilot)
        aside = over.path
        assert aside is not None and aside.parent == temporary_folder / "nil-tui-records"
        text = said(over)
        assert text.startswith("⚠ This game is not saved: The disk that holds")
        assert "not saved until there is room" in text and f"written as {aside}." in text
        filler.unlink()
        for _ in range(100):  # the app tries again every second
            await pilot.pause(0.1)
            if over.problem is None:
                break
        kept = over.path
        assert kept is not None and kept.parent == home / "records" and kept.exists()
        assert said(over) == f"Record saved: {kept}"
        assert not aside.exists()  # moved, not copied: one record file, the one named
        assert app.save_problem is None
    with Store.open(home) as s:
        (row,) = s.history()
        assert row["path"] == kept
