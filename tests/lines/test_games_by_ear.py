"""Whole games in plain lines, typed at a real terminal by a player who reads only lines:
classic and pool, a game resumed after its process was killed, the daily challenge. Every
record is valid, and what nil-tui wrote holds nothing but plain lines."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from lines_pty import PtyPlayer, first_card, plain

from nil_tui.engine import Game

FAST = ("--speed", "instant", "--difficulty", "easy")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


def record_of(lines: list[str]) -> Game:
    """The game in the record file the last lines name, read back strictly."""
    found = [m.group(1) for line in lines
             if (m := re.match(r"The record is kept in (.+)\.$", line))]
    assert found, lines[-5:]
    return Game.from_record(json.loads(Path(found[-1]).read_text(encoding="utf-8")))


@pytest.mark.parametrize(("scoring", "pause"), [("classic", "--wait-after-trick"),
                                               ("pool", "--no-wait-after-trick")])
def test_a_whole_game_typed_line_by_line(home: Path, scoring: str, pause: str) -> None:
    player = PtyPlayer(home, "play", "--text", "--deals", "2", "--seed", "5",
                       "--scoring", scoring, pause, *FAST)
    try:
        lines = player.play(first_card, limit=60)
        assert player.wait() == 0
    finally:
        player.close()
    over = next(k for k, line in enumerate(lines)
                if line.startswith("The game is over. Final scores:"))
    assert "under the table" in lines[over + 1], lines[over:]
    game = record_of(lines)
    assert game.is_over and game.scoring == scoring and game.deals
    # Each card said once as it was played (a card that follows the suit led by its rank),
    # each trick once, with its winner's first trick said so.
    rank = r"(\d+|jack|queen|king|ace)"
    plays = [line for line in lines
             if re.match(rf"(You|West|North|East) {rank}( of \w+)?( \(forced\))?$", line)]
    assert len(plays) == sum(len(deal.plays) for deal in game.deals)
    played = [(k, deal.plays) for deal in game.deals for k in range(len(deal.plays))]
    for line, (k, deal_plays) in zip(plays, played, strict=True):
        follows = k % 4 != 0 and deal_plays[k].card.suit == deal_plays[k - k % 4].card.suit
        assert (" of " not in line) == follows, (line, deal_plays[k])
    tricks = [line for line in lines if re.match(r"(You win|\w+ wins)(, no longer clean)?\.$",
                                                 line)]
    assert len(tricks) == sum(len(deal.tricks) for deal in game.deals)
    firsts = sum(len({t.winner for t in deal.tricks}) for deal in game.deals)
    assert sum(1 for t in tricks if t.endswith(", no longer clean.")) == firsts
    assert plain(player.transcript) == []
    assert "♥" not in player.transcript.decode()  # words by default, not symbols
    # Each deal's result, then the scores, in the order they happened; the game's end last.
    ends = [line for line in lines if re.match(r"(Deal \d+: |Scores after|The game is over)",
                                               line) and " of " not in line.split(":")[0]]
    assert ends[-1].startswith("The game is over.") and ends[-2].startswith("Deal "), ends


def test_a_game_killed_goes_on_where_it_stopped(home: Path) -> None:
    player = PtyPlayer(home, "play", "--text", "--deals", "1", "--seed", "9", *FAST)
    turns = 0

    def three_turns(line: str) -> str | None:
        nonlocal turns
        if line.startswith("Your turn"):
            turns += 1
            return "1" if turns <= 3 else None
        return None

    try:
        before = player.play(three_turns, limit=30, until=lambda _: turns > 3)
        assert turns > 3, before
        player.kill()  # kill -9: nothing is said or saved at the end
    finally:
        player.close()
    card = r"You \w+( of \w+)?( \(forced\))?$"
    mine = [line for line in before if re.match(card, line)]
    again = PtyPlayer(home, "resume", "--text")
    try:
        after = again.play(first_card, limit=60)
        assert again.wait() == 0
    finally:
        again.close()
    assert after[:2] == ["Type help for the commands.", "Game resumed: deal 1 of 1."]
    # The deal so far is told again: the cards played before the kill, yours among them.
    assert mine and [line for line in after if re.match(card, line)][:len(mine)] == mine
    # ... and each trick, with its winner's first trick said so as then.
    trick = r"(You win|\w+ wins)(, no longer clean)?\.$"
    won = [line for line in before if re.match(trick, line)]
    assert won and [line for line in after if re.match(trick, line)][:len(won)] == won
    game = record_of(after)
    assert game.is_over and game.seed == 9
    assert plain(again.transcript) == []


def test_the_daily_challenge_refuses_help_then_resumes(home: Path) -> None:
    player = PtyPlayer(home, "challenge", "--text", "--date", "2026-11-25", "--cards",
                       "codes")
    asked = iter(["hint", "undo", "meter", "quit"])
    said: list[str] = []

    def answer(line: str) -> str | None:
        if line.startswith("Your turn") and not said:
            said.append(line)
        if line.startswith(("Your turn", "Hints", "Undo", "The clean")):
            return next(asked, None)
        return None

    try:
        lines = player.play(answer, limit=60, until=lambda line: "game is saved" in line)
        assert player.wait() == 0
    finally:
        player.close()
    assert "The daily challenge of 2026-11-25: hints, undo and the meter are off." in lines
    for refusal in ("Hints are off in the daily challenge.",
                    "Undo is off in the daily challenge.",
                    "The clean-chance meter is off in the daily challenge."):
        assert refusal in lines, lines
    cut = next(line for line in lines if line.startswith("The cut"))
    assert re.search(r"you (?:10|[2-9JQKA])[CDHS], West ", cut), cut  # cards said as codes
    assert lines[-1] == "The game is saved: nil-tui resume --text goes on with it."
    again = PtyPlayer(home, "challenge", "--text", "--date", "2026-11-25")
    try:
        resumed = again.play(lambda line: "quit" if line.startswith("Your turn") else None,
                             limit=60, until=lambda line: "game is saved" in line)
        assert again.wait() == 0
    finally:
        again.close()
    # The challenge under way goes on (no question, nothing set aside in history).
    assert "The daily challenge of 2026-11-25: hints, undo and the meter are off." in resumed
    assert not [line for line in resumed if "saved unfinished" in line]
    from nil_tui.store import Store

    store = Store.open(home)
    try:
        assert store.history() == []
        saved = store.load_current()
    finally:
        store.close()
    assert saved is not None and Game.from_record(saved[0]).challenge is not None
    assert plain(player.transcript + again.transcript) == []
