"""The pool scoring from the command line: simulate plays and records whole pool games, play
takes the choice for its one game, and a scoring nil-tui does not know is one line, exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from nil_tui.commands.cli import build_parser, play_overrides
from nil_tui.engine.records import from_record
from nil_tui.game.options import PlayOptions, options_from_dict
from nil_tui.game.sim import run_match


def run(home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NIL_TUI_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "nil_tui", *argv], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, env=env, timeout=120,
                          check=False)


def test_simulate_plays_pool_games_whose_records_read_back(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    done = run(tmp_path, "simulate", "--bots", "easy,easy,easy,easy", "--games", "4",
               "--deals", "3", "--seed", "11", "--scoring", "pool", "--time-cap", "0",
               "--records", str(out), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scoring"] == "pool"
    lines = out.read_text().splitlines()
    assert len(lines) == 4
    for line in lines:
        record = json.loads(line)
        assert record["rules"]["scoring"] == "pool"
        game = from_record(record)
        assert game.scoring == "pool" and game.is_over
        assert sum(game.totals) + game.pool == 0


def test_the_same_seed_gives_the_same_pool_match() -> None:
    a = run_match(["easy"] * 4, 2, 3, 7, time_cap=None, scoring="pool")
    b = run_match(["easy"] * 4, 2, 3, 7, time_cap=None, scoring="pool")
    assert a.to_json() == b.to_json() and a.scoring == "pool"
    classic = run_match(["easy"] * 4, 2, 3, 7, time_cap=None)
    assert "scoring" not in classic.to_json() and classic.scoring == "classic"


def test_an_unknown_scoring_is_one_line_and_exit_2(tmp_path: Path) -> None:
    for command in (["simulate", "--games", "1"], ["play"]):
        done = run(tmp_path, *command, "--scoring", "bridge")
        assert done.returncode == 2
        assert "invalid choice: 'bridge'" in done.stderr
        assert "Traceback" not in done.stderr


def test_play_takes_the_scoring_for_its_game() -> None:
    args = build_parser().parse_args(["play", "--scoring", "pool", "--deals", "2"])
    assert play_overrides(args).scoring == "pool"
    assert play_overrides(build_parser().parse_args(["play"])).scoring is None
    assert PlayOptions().scoring == "classic"
    assert options_from_dict({"scoring": "pool"}).scoring == "pool"
    assert options_from_dict({"scoring": "bridge"}).scoring == "classic"


def test_host_takes_the_scoring_for_its_table() -> None:
    from nil_tui.session.table import TableConfig

    args = build_parser().parse_args(["host", "--scoring", "pool"])
    assert args.scoring == "pool"
    config = TableConfig(scoring="pool")
    assert TableConfig.from_json(config.to_json()).scoring == "pool"
    assert TableConfig.from_json({"deals": 2}).scoring == "classic"


def test_the_daily_challenge_stays_classic() -> None:
    from nil_tui.game.daily_challenge import challenge_game

    assert challenge_game("2026-11-30").scoring == "classic"
