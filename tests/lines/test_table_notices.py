"""The notices of a shared table's seats are said in one place, for the lobby screen and a
seat played in plain lines alike."""

from __future__ import annotations

from nil_tui.lines.table import START, lobby_lines
from nil_tui.session.words import table_notice
from nil_tui.tui.screens.lobby import notice_text

NAMES = ["Ann", "Bob", "West", "Cy"]


def test_each_notice_in_words() -> None:
    said = {kind: table_notice({"kind": kind, "seat": 1, "wait": 60, "bot": "normal",
                                "name": "Bob", **extra}, NAMES)
            for kind, extra in [("away", {}), ("back", {}), ("joined", {}), ("left", {}),
                                ("owner", {}), ("started", {})]}
    assert said == {"away": "Bob has left the table; it waits 60 s for them",
                    "back": "Bob is back", "joined": "Bob sits down at West",
                    "left": "West is free again", "owner": "Bob may start the game now",
                    "started": "The game starts"}
    away = table_notice({"kind": "stand_in", "seat": 3, "bot": "normal", "why": "away"}, NAMES)
    silent = table_notice({"kind": "stand_in", "seat": 3, "bot": "normal", "why": "silent"},
                          NAMES)
    assert away == "A normal bot plays for Cy until they are back"
    assert silent == ("Cy has not played for a while: a normal bot plays for them until they "
                      "play again")
    assert table_notice({"kind": "away", "seat": 7}, NAMES) is None
    assert table_notice({"kind": "owner", "seat": None}, NAMES) is None


def test_the_lobby_screen_and_the_lines_say_the_same() -> None:
    message = {"type": "lobby", "events": [{"kind": "joined", "seat": 1, "name": "Bob"}],
               "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"},
                         {"kind": "bot"}, {"kind": "bot"}]}
    event = message["events"][0]  # type: ignore[index]
    screen = notice_text(event, message)  # type: ignore[arg-type]
    lines = lobby_lines(message, owner=True)
    assert screen == "Bob sits down at West" and lines[0] == f"{screen}."
    assert lines[1:] == ["South: Ann.", "West: Bob.", "North: empty: a bot will play.",
                         "East: empty: a bot will play.", START]
