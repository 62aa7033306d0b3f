"""Reviewing games in plain lines: history, statistics, a game's replay and the rules, each
with ``--text``. The game reviewed is played in lines first, its answers read from a file
(a file is read one line per prompt, as a person types)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
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
    # The analysis in lines (a quick search: the figures are not what is read here).
    from nil_tui.analysis import analyse_game
    from nil_tui.analysis.estimate import Budget
    from nil_tui.lines.commands import analysis_lines

    found = analyse_game(game, 0, [1], jobs=1, budget=Budget(
        batch=20, min_layouts=20, max_layouts=40, max_playouts=400))
    assert found is not None
    analysis = analysis_lines(game, 0, found, you=True)
    assert analysis[0].startswith("Deal 1 of 1, dealt by ")
    mine = [p for p in game.deals[0].plays if p.seat == 0]
    per_card = [line for line in analysis if line.startswith("Trick ")]
    assert len(per_card) == len(mine)
    assert per_card[0].startswith(f"Trick 1: {mine[0].card.name}")
    assert analysis[-1].startswith("Cost of the plays in deal 1: ")
    assert plain("\n".join(analysis).encode()) == []


def test_nothing_to_review_yet(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    assert nil_tui(home, "history", "--text") == ["No game in history yet."]
    assert nil_tui(home, "stats", "--text") == ["No finished game yet."]


def test_a_finished_challenge_is_said_beside_the_experts_play(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison after a challenge: deal by deal, the totals and the verdict."""
    import asyncio

    from nil_tui.engine import Phase
    from nil_tui.game.daily_challenge import challenge_game
    from nil_tui.lines.cards import CardWords
    from nil_tui.lines.start import Lines

    monkeypatch.setenv("NIL_TUI_HOME", str(tmp_path))
    game = challenge_game("2026-11-25")
    while not game.is_over:
        if game.phase is Phase.DEAL_OVER:
            game.next_deal()
        else:
            game.play(game.deal.legal_moves()[0])
    mine = [deal.points[0] for deal in game.deals]
    assert game.challenge is not None
    game.challenge = game.challenge.with_reference([p + 1 for p in mine])
    said: list[str] = []

    typed, typing = os.pipe()

    async def main() -> None:
        lines = Lines(CardWords(), said.append, fd=typed)
        try:
            await lines.show_challenge(game)
        finally:
            lines.close()

    try:
        asyncio.run(main())
    finally:
        os.close(typing)
    assert said[0] == "The daily challenge of 2026-11-25:"
    assert said[1] == f"Deal 1: you {mine[0]}, the expert {mine[0] + 1}."
    four = len(game.deals)
    assert said[-1] == (f"Your total: {sum(mine)}; the expert's: {sum(mine) + four}. The "
                        f"expert scored {four} points more than you on the same cards.")


def test_a_new_game_over_a_saved_one_asks_first(tmp_path: Path) -> None:
    """A saved game is never replaced silently: asked, "new" keeps it in history."""
    home = tmp_path / "home"
    home.mkdir()
    quit_now = tmp_path / "quit.txt"
    quit_now.write_text("quit\n")
    first = nil_tui(home, "play", "--text", "--deals", "2", "--seed", "4", "--speed",
                    "instant", stdin=quit_now)
    assert first[-1] == "The game is saved: nil-tui resume --text goes on with it."
    answers = tmp_path / "answers.txt"
    answers.write_text("new\nquit\n")
    second = nil_tui(home, "play", "--text", "--deals", "3", "--seed", "5", "--speed",
                     "instant", stdin=answers)
    assert second[0].startswith("There is a game saved unfinished (deal 1 of 2, started ")
    assert second[0].endswith("Type resume to go on with it, new to keep it in history and "
                              "start this one, or cancel. [resume]")
    assert any(line.startswith("Deal 1 of 3: ") for line in second)
    history = nil_tui(home, "history", "--text")
    assert history[0] == "1 game in history, newest first:" and "unfinished" in history[1]


def test_every_command_with_a_form_in_lines_takes_text() -> None:
    from nil_tui.commands.cli import build_parser

    for words in (["play"], ["resume"], ["challenge"], ["history"], ["stats"], ["rules"],
                  ["replay", "x.json"], ["analyse", "x.json"], []):
        args = build_parser(only=words[0] if words else None).parse_args(
            [*words, "--text", "--cards", "codes"])
        assert args.text is True and args.cards == "codes", words
