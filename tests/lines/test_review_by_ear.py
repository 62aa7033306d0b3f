"""Reviewing games in plain lines: history, statistics, a game's replay and the rules, each
with ``--text``. The game reviewed is played in lines first, its answers read from a file
(a file is read one line per prompt, as a person types)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from lines_pty import ROOT, plain

from nil_tui.engine import Game


def nil_tui(home: Path, *args: str, stdin: Path | None = None) -> list[str]:
    env = dict(os.environ, NIL_TUI_HOME=str(home), PYTHONPATH=str(ROOT))
    with open(stdin or os.devnull, "rb") as given:
        done = subprocess.run([sys.executable, "-m", "nil_tui", *args], stdin=given,
                              capture_output=True, env=env, timeout=60, cwd=str(ROOT),
                              check=False)
    assert done.returncode == 0, done.stderr
    assert plain(done.stdout) == [], done.stdout
    return done.stdout.decode("utf-8").splitlines()


def test_a_game_played_from_a_file_then_reviewed(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    answers = tmp_path / "answers.txt"
    answers.write_text("1\n" * 13)  # the first card each turn: one deal
    played = nil_tui(home, "play", "--text", "--deals", "1", "--seed", "21", "--speed",
                     "instant", "--difficulty", "easy", stdin=answers)
    kept = [m.group(1) for line in played if (m := re.match(r"The record is kept in (.+)\.$",
                                                              line))]
    assert kept, played[-5:]
    game = Game.from_record(__import__("json").loads(Path(kept[0]).read_text()))
    history = nil_tui(home, "history", "--text")
    assert history[0] == "1 game in history, newest first:"
    assert re.match(r"1\. \d{4}-\d\d-\d\dT\d\d:\d\d, easy, finished, 1 deal: .+; scores "
                    r"-?\d+, -?\d+, -?\d+, -?\d+\.$", history[1]), history
    stats = nil_tui(home, "stats", "--text")
    assert stats[0].startswith("All games: 1 game, ") and stats[1].startswith("Easy: 1 game")
    replay = nil_tui(home, "replay", kept[0], "--text", "--cards", "codes")
    assert replay[0].startswith("The cut for the first dealer: South ")
    plays = [line for line in replay if re.match(r"(South|West|North|East) plays ", line)]
    assert len(plays) == len(game.deals[0].plays)
    first = game.deals[0].plays[0]
    assert plays[0] == (f"{('South', 'West', 'North', 'East')[first.seat]} plays "
                        f"{first.card.pretty(ascii=True)}")
    assert replay[-1].startswith("Scores: South ") and replay[-1].endswith("The game is over.")
    rules = nil_tui(home, "rules", "--text")
    assert rules[0].startswith("ZERO")


def test_nothing_to_review_yet(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    assert nil_tui(home, "history", "--text") == ["No game in history yet."]
    assert nil_tui(home, "stats", "--text") == ["No finished game yet."]
