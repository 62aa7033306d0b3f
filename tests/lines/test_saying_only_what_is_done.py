"""A game in plain lines says it is saved only when it is: with a data folder that cannot
be written (``NIL_TUI_HOME`` names a file), an interrupted game and a finished one say they
are not saved and why, in a real terminal."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from lines_pty import PtyPlayer, first_card


@pytest.fixture
def home(tmp_path: Path) -> Path:
    place = tmp_path / "home"
    place.write_text("someone's file\n", encoding="utf-8")  # not a folder: nothing is saved
    return place


def test_an_interrupted_game_that_could_not_be_saved_says_so(home: Path) -> None:
    player = PtyPlayer(home, "play", "--text", "--deals", "1", "--seed", "3", "--speed",
                       "instant", "--difficulty", "easy")
    try:
        player.play(lambda _: None, limit=20, until=lambda line: line.startswith("Your turn"))
        os.kill(player.proc.pid, signal.SIGTERM)
        rest = player.play(lambda _: None, limit=20)
        assert player.wait() == 128 + signal.SIGTERM
    finally:
        player.close()
    assert len(rest) == 1 and rest[0].startswith("Interrupted. The game is not saved: "), rest
    assert "is saved" not in rest[0]


def test_a_finished_game_that_could_not_be_kept_says_so(home: Path) -> None:
    player = PtyPlayer(home, "play", "--text", "--deals", "1", "--seed", "3", "--speed",
                       "instant", "--difficulty", "easy")
    try:
        said = player.play(first_card, limit=60)  # to the end
        assert player.wait() == 0
    finally:
        player.close()
    end = said[said.index(next(s for s in said if s.startswith("The game is over."))):]
    assert not any(line.startswith("The record is kept") for line in end), end
    assert any(line.startswith("This game is not saved: ") for line in end), end
