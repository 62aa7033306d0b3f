"""What a start opens, decided without a screen (``nil_tui/session/home.py``): resuming the
saved game, replacing it, a day's challenge. The app only carries out these values."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from nil_tui.engine import Game
from nil_tui.game.daily_challenge import challenge_game
from nil_tui.game.options import PlayOptions
from nil_tui.session.home import Home, Play, Refused, ShowChallenge, StartNew
from nil_tui.session.saving import Keeper, options_dict
from nil_tui.store import Store

DATE = "2026-11-30"


@pytest.fixture
def store(tmp_path: Path) -> Any:
    opened = Store.open(tmp_path / "home")
    yield opened
    opened.close()


def home_of(store: Store) -> Home:
    told: list[tuple[str | None, str | None]] = []
    return Home(Keeper(lambda: store, lambda p, w: told.append((p, w))), PlayOptions())


def play_out(game: Game) -> Game:
    from nil_tui.game.driver import GameDriver

    for seat, player in enumerate(game.players):  # quick bots: what is kept is the point
        game.players[seat] = {"name": player["name"], "kind": "bot", "bot": "easy"}
    with GameDriver(game) as driver:
        driver.run()
    return game


def test_nothing_saved_opens_nothing_and_says_nothing(store: Store) -> None:
    assert home_of(store).resume() == Refused()


def test_a_saved_game_is_resumed_in_the_players_look_with_its_own_deals(store: Store) -> None:
    game = Game(5, 3)
    store.save_current(game.to_record(), options_dict(PlayOptions(deals=5, speed="slow")))
    home = home_of(store)
    step = home.resume(PlayOptions(speed="instant"))
    assert isinstance(step, Play) and step.game.deals_planned == 5
    assert home.options.speed == "instant" and home.options.deals == 5


def test_a_saved_game_the_engine_refuses_is_set_aside_and_said_so(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    store.save_current(Game(2, 3).to_record(), {})

    def refuse(cls: type[Game], record: Any) -> Game:
        raise ValueError("deal 1 does not add up")

    monkeypatch.setattr(Game, "from_record", classmethod(refuse))
    step = home_of(store).resume()
    assert isinstance(step, Refused) and not step.back
    [notice] = step.notices
    assert notice.severity == "error"
    assert notice.text.startswith("The saved game cannot be resumed: deal 1 does not add up.")
    assert "It was kept as" in notice.text
    assert store.load_current() is None


def test_replacing_the_saved_game_keeps_it_in_history_first(store: Store) -> None:
    store.save_current(Game(2, 3).to_record(), {})
    step = home_of(store).replace_saved(PlayOptions(deals=3))
    assert isinstance(step, StartNew) and step.replace_saved and step.options.deals == 3
    assert "kept in History" in step.notices[0].text
    assert store.load_current() is None and len(store.history()) == 1


def test_a_challenge_of_a_day_to_come_is_refused_back_to_setup(store: Store) -> None:
    step = home_of(store).challenge("2999-01-01")
    assert isinstance(step, Refused) and step.back
    assert step.notices[0].text == "The challenge of 2999-01-01 opens on that day."


def test_a_new_challenge_is_dealt_with_its_own_options_in_the_players_look(store: Store) -> None:
    step = home_of(store).challenge(DATE, PlayOptions(speed="fast", meter=True))
    assert isinstance(step, StartNew) and not step.replace_saved
    o = step.options
    assert (o.challenge, o.speed, o.meter, o.from_setup) == (DATE, "fast", False, False)


def test_a_finished_challenge_still_saved_is_kept_and_shown(store: Store) -> None:
    game = play_out(challenge_game(DATE))
    store.save_current(game.to_record(), {})
    home = home_of(store)
    step = home.challenge(DATE)
    assert isinstance(step, ShowChallenge) and step.played
    assert step.game.challenge is not None and step.game.challenge.date == DATE
    assert store.load_current() is None and home.options.challenge == DATE
