"""The command line around the app: bad input is one line and exit status 2, never a
traceback; rules and version print; replay reads records."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from nil_tui.commands import cli
from nil_tui.engine import Game
from nil_tui.game.options import PlayOverrides


def run(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NIL_TUI_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "nil_tui", *args], capture_output=True, check=False,
                          text=True, env=env, timeout=60, stdin=subprocess.DEVNULL)


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("NIL_TUI_HOME", str(folder))
    return folder


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_replay_of_a_missing_file(home: Path) -> None:
    line = one_line_error(run("replay", str(home / "nope.json"), home=home))
    assert "nope.json" in line and "no such file" in line


def test_replay_of_a_fifo_does_not_wait(home: Path) -> None:
    import os

    os.mkfifo(home / "fifo.json")
    line = one_line_error(run("replay", str(home / "fifo.json"), home=home))
    assert "not a regular file" in line


def test_rules_and_version(home: Path) -> None:
    rules = run("rules", home=home)
    assert rules.returncode == 0 and "crawls under the table" in rules.stdout
    version = run("--version", home=home)
    assert version.returncode == 0 and version.stdout.startswith("nil-tui ")


def test_resume_without_a_saved_game(home: Path) -> None:
    result = run("resume", home=home)
    assert result.returncode == 1
    assert "no saved game" in result.stderr and "Traceback" not in result.stderr


def test_resume_says_what_the_store_found_and_where_the_file_went(home: Path) -> None:
    (home / "nil-tui.db").write_bytes(b"not a database at all, but not empty either" * 100)
    result = run("resume", home=home)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    kept = [p.name for p in home.iterdir() if "damaged" in p.name]
    assert kept, "the damaged store was not kept"
    lines = result.stderr.strip().splitlines()
    assert lines[-1] == "nil-tui resume: there is no saved game (start one with nil-tui play)"
    assert any(kept[0] in line for line in lines[:-1]), result.stderr
    assert any(str(home) in line for line in lines[:-1]), result.stderr
    # Said once: the next resume finds a sound, empty store and says only that.
    again = run("resume", home=home)
    assert again.returncode == 1
    assert again.stderr.strip().splitlines() == [lines[-1]]


def test_resume_of_a_saved_game_that_does_not_load_says_where_it_was_kept(home: Path) -> None:
    import sqlite3

    from nil_tui.store import Store

    game = Game(2, seed=3)
    for _ in range(5):
        game.play(game.deal.legal_moves()[0])
    store = Store.open()
    store.save_current(game.to_record(), {"deals": 2})
    store.close()
    damaged = json.dumps({"format": "nil-tui-record", "version": 1, "deals": "x"})
    with sqlite3.connect(home / "nil-tui.db") as db:
        db.execute("UPDATE current SET record = ?", (damaged,))
    db.close()
    result = run("resume", home=home)
    assert result.returncode == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    kept = [p for p in home.iterdir() if p.suffix == ".json"]
    assert len(kept) == 1, list(home.iterdir())
    assert json.loads(damaged) in json.loads(kept[0].read_text(encoding="utf-8")).values()
    assert any(str(kept[0]) in line or kept[0].name in line for line in lines[:-1]), lines
    assert lines[-1] == "nil-tui resume: there is no saved game (start one with nil-tui play)"


def test_replay_opens_the_review_screen(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(1, seed=5)
    while not game.is_over:
        game.play(game.deal.legal_moves()[0])
    path = home / "game.json"
    path.write_text(json.dumps(game.to_record()), encoding="utf-8")
    seen: dict[str, Any] = {}

    def fake_replay(replayed: Game, source: str) -> int:
        seen["record"] = replayed.to_record()
        seen["source"] = source
        return 0

    from nil_tui.tui import launch

    monkeypatch.setattr(launch, "replay", fake_replay)
    assert cli.main(["replay", str(path)]) == 0
    assert seen["source"] == str(path)
    assert seen["record"]["deals"] == game.to_record()["deals"]


def test_play_passes_only_what_the_command_line_says(monkeypatch: pytest.MonkeyPatch) -> None:
    from nil_tui.tui import launch

    seen = {}
    monkeypatch.setattr(launch, "play_command", lambda overrides: seen.update(overrides.given()) or 0)
    assert cli.main(["play", "--deals", "3", "--difficulty", "easy", "--ascii"]) == 0
    assert seen == {"seed": None, "deals": 3, "bots": ("easy", "easy", "easy"), "ascii": True}


def test_every_on_off_flag_of_play_has_a_no_form(monkeypatch: pytest.MonkeyPatch) -> None:
    from nil_tui.tui import launch

    seen: dict[str, object] = {}
    monkeypatch.setattr(launch, "play_command", lambda overrides: seen.update(overrides.given()) or 0)
    assert cli.main(["play", "--no-ascii", "--no-four-color"]) == 0
    assert seen == {"seed": None, "ascii": False, "four_color": False}
    seen.clear()
    assert cli.main(["play", "--ascii", "--four-color"]) == 0
    assert seen == {"seed": None, "ascii": True, "four_color": True}
    # No flag that only turns something on: each has its --no- form, and leaving both out
    # passes nothing (the game starts from the settings chosen in setup).
    import argparse

    parser = cli.build_parser(False)
    play = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)
                ).choices["play"]
    for action in play._actions:
        assert not isinstance(action, (argparse._StoreTrueAction,
                                       argparse._StoreFalseAction)), action.option_strings
        if isinstance(action, argparse.BooleanOptionalAction):
            assert action.default is None


def test_play_help_gives_the_defaults_that_apply(capsys: pytest.CaptureFixture[str]) -> None:
    from nil_tui.game.options import PlayOptions

    assert cli.main(["play", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    built_in = PlayOptions()
    for flag, default in (("--deals N", built_in.deals), ("--speed", built_in.speed),
                          ("--difficulty LEVEL", built_in.bots[0])):
        start = text.index(flag, text.index("options:"))
        assert f"(default: as last chosen in setup, else {default})" in text[start:], flag
    assert "--ascii, --no-ascii" in text and "--four-color, --no-four-color" in text
    assert "apply to this game only" in text
    assert "(default 8)" not in text


def test_play_takes_any_textual_theme_and_the_largest_seed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.theme import BUILTIN_THEMES

    from nil_tui.tui import launch
    from nil_tui.util.argtypes import MAX_SEED

    seen: dict[str, object] = {}
    monkeypatch.setattr(launch, "play_command", lambda overrides: seen.update(overrides.given()) or 0)
    for name in BUILTIN_THEMES:
        assert cli.main(["play", "--theme", name, "--seed", str(MAX_SEED)]) == 0
        assert seen == {"seed": MAX_SEED, "theme": name}


def test_the_theme_list_is_read_only_for_the_theme_flag() -> None:
    """Parsing the other flags does not import Textual (the app's first frame comes sooner)."""
    code = ("import sys; from nil_tui.commands.cli import build_parser; "
            "build_parser(False).parse_args(['play', '--deals', '3', '--seed', '4']); "
            "print('textual' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.stdout.strip() == "False", done.stderr


async def test_play_asks_who_plays_for_a_saved_level_that_is_missing() -> None:
    """Saved settings may name a level that is not installed: play still starts, once the
    player has said which level plays for that seat (Esc: the default)."""
    from nil_tui.store import Store
    from nil_tui.tui.app import NilApp
    from nil_tui.tui.screens.dialogs import ChooseSubstitute
    from nil_tui.tui.screens.table import TableScreen

    store = Store.open()
    store.save_settings({"bots": ["gone", "easy", "easy"], "deals": 4})
    store.close()
    app = NilApp("play", overrides=PlayOverrides(seed=1, speed="instant"))
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(100):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if isinstance(app.screen, (ChooseSubstitute, TableScreen)):
                break
        assert isinstance(app.screen, ChooseSubstitute), app.screen
        await pilot.press("escape")
        for _ in range(100):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if isinstance(app.screen, TableScreen):
                break
        screen = app.screen
        assert isinstance(screen, TableScreen), screen
        assert screen.options.bots == ("normal", "easy", "easy")
        assert screen.game.deals_planned == 4
        assert screen.game.seed == 1


def test_the_quick_start_ends_with_the_first_frame() -> None:
    """Until the first frame: no garbage collection and a short switch interval (the output
    thread draws the frame at once); once it is drawn, both are as before, and a second end
    changes nothing."""
    import gc

    from nil_tui.tui import first_frame

    before = sys.getswitchinterval()
    try:
        first_frame.quick_start()
        assert not gc.isenabled()
        assert sys.getswitchinterval() == pytest.approx(
            min(before, first_frame.STARTUP_SWITCH_INTERVAL))
        first_frame.quick_start_over()
        assert gc.isenabled() and sys.getswitchinterval() == pytest.approx(before)
        sys.setswitchinterval(0.01)  # the app's own later choice is left alone
        first_frame.quick_start_over()
        assert sys.getswitchinterval() == pytest.approx(0.01)
    finally:
        gc.enable()
        gc.unfreeze()
        sys.setswitchinterval(before)


def test_the_quick_start_covers_the_imports_of_a_command_that_draws_the_app(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """nil-tui starts with garbage collection off: a command that draws the app keeps it off
    until the app's first frame (here the app is not run: it comes back on as the command
    ends); one that does not draw it (``rules``, or ``--text``) runs with it on."""
    import gc

    from nil_tui import commands
    from nil_tui.tui import launch

    seen: list[bool] = []

    def note(*_: object) -> int:
        seen.append(gc.isenabled())
        return 0

    monkeypatch.setattr(launch, "play_command", note)
    monkeypatch.setattr(cli, "write_out", note)
    monkeypatch.setattr(cli, "_run_lines", note)
    try:
        assert commands.main(["play", "--seed", "1"]) == 0
        assert gc.isenabled()
        assert commands.main(["rules"]) == 0
        assert commands.main(["play", "--text"]) == 0
        assert gc.isenabled()
        assert seen == [False, True, True]
    finally:
        gc.enable()
        gc.unfreeze()
