"""A game's challenge is a typed, immutable record, written to the record file exactly as
before (docs/RECORDS.md) and still readable as the record's object."""

from __future__ import annotations

import dataclasses
import json

import pytest

from nil_tui.engine import Challenge, Game


def test_a_challenge_is_written_and_read_back_as_the_records_object() -> None:
    game = Game(4, 3)
    game.challenge = Challenge("2026-11-30", (1, 0, 2, 3))
    record = game.to_record()
    assert json.dumps(record["challenge"]) == '{"date": "2026-11-30", "reference": [1, 0, 2, 3]}'
    again = Game.from_record(json.loads(json.dumps(record)))
    assert again.challenge == Challenge("2026-11-30", (1, 0, 2, 3))
    assert isinstance(again.challenge, Challenge)
    assert again.challenge.reference == (1, 0, 2, 3)
    game.challenge = Challenge("2026-11-30")
    assert game.to_record()["challenge"] == {"date": "2026-11-30", "reference": None}


def test_it_reads_like_the_records_object_and_never_changes_in_place() -> None:
    c = Challenge("2026-11-30")
    assert c["date"] == "2026-11-30" and c.get("reference") is None
    assert c == {"date": "2026-11-30", "reference": None}
    assert c.with_reference([2, 2, 0, 1])["reference"] == [2, 2, 0, 1]
    assert c.reference is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.date = "2026-12-01"  # type: ignore[misc]
    with pytest.raises(TypeError):
        c["reference"] = [1]  # type: ignore[index]


def test_a_game_takes_the_records_object_too() -> None:
    game = Game(4, 3)
    game.challenge = {"date": "2026-12-01", "reference": [0, 0, 1, 1]}
    assert game.challenge == Challenge("2026-12-01", (0, 0, 1, 1))
    game.challenge = None
    assert game.challenge is None and "challenge" not in game.to_record()
