"""Help at the table and what it costs: a hint or the clean-chance meter makes the game
assisted (kept with the game, said once); the meter shows its estimate on your seat line and
drops estimates for a position that is gone; a daily challenge refuses all help."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from tui_helpers import BlockingPlayer, blocking_opener, settle, table

from nil_tui.engine import Game, PlayerView
from nil_tui.game.options import PlayOptions
from nil_tui.session.game_session import meter_seed
from nil_tui.store.summaries import summarize
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens import table_work as table_module
from nil_tui.tui.screens.table import TableScreen
from nil_tui.tui.screens.table_work import MeterReady
from nil_tui.tui.widgets.gamelog import GameLog

OPTIONS = PlayOptions(deals=2, bots=("easy", "easy", "easy"), seed=7, speed="instant",
                      auto_play=False)


class FakeChance:
    """Stands in for the estimate: a fixed figure, and the views it was asked about."""

    def __init__(self, chance: float = 0.62) -> None:
        self.chance = chance
        self.asked: list[tuple[PlayerView, int]] = []

    def __call__(self, view: PlayerView, seed: int) -> float:
        self.asked.append((view, seed))
        return self.chance


@pytest.fixture
def fake_chance(monkeypatch: pytest.MonkeyPatch) -> FakeChance:
    fake = FakeChance()
    monkeypatch.setattr(table_module, "meter_chance", fake)
    return fake


def south(screen: TableScreen) -> str:
    return str(screen.query_one("#south").render())


def status(screen: TableScreen) -> str:
    return str(screen.query_one("#status").render())


def assisted_lines(screen: TableScreen) -> int:
    return sum("counts as assisted" in line for line in screen.query_one(GameLog).history)


async def until_meter(app: NilApp, pilot: Any) -> None:
    for _ in range(5):
        await app.workers.wait_for_complete()
        await pilot.pause()


async def test_the_meter_is_off_by_default_and_m_turns_it_on_for_an_assisted_game(
        fake_chance: FakeChance) -> None:
    app = NilApp("play", options=OPTIONS)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        assert "meter" not in south(screen)
        assert not fake_chance.asked and not screen.game.assisted
        await pilot.press("m", "y")  # (y: the question before a game's first help)
        await until_meter(app, pilot)
        assert screen.game.assists == ["meter"]
        assert assisted_lines(screen) == 1
        assert "meter: clean 62%" in south(screen)
        (view, seed), = fake_chance.asked
        assert view.seat == 0 and view.hand == screen.game.deal.hand(0)  # your view only
        assert seed == meter_seed(screen.game, 1, len(view.tricks))
        # After a trick the estimate is made again, for the new position.
        tricks = len(screen.game.deal.tricks)
        while len(screen.game.deal.tricks) == tricks and screen.game.deal.taken[0] == 0:
            await pilot.press("enter")
            await settle(app, pilot)
        await until_meter(app, pilot)
        if screen.game.deal.taken[0] == 0:
            assert len(fake_chance.asked) == 2
            assert fake_chance.asked[-1][0].tricks == screen.game.deal.view(0).tricks
            assert "meter: clean 62%" in south(screen)
        else:
            assert len(fake_chance.asked) == 1  # no estimate once you have taken a trick
            assert "meter: not clean" in south(screen)
        # Off again: gone from the seat line, and the game stays assisted.
        await pilot.press("m")
        await pilot.pause()
        assert "meter" not in south(screen)
        assert screen.game.assists == ["meter"] and assisted_lines(screen) == 1
        saved = app.store.load_current()
        assert saved is not None and saved[0].get("assists") == ["meter"]


async def test_an_estimate_for_a_position_that_is_gone_is_dropped(
        fake_chance: FakeChance) -> None:
    app = NilApp("play", options=replace(OPTIONS, meter=True))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        await until_meter(app, pilot)
        screen = table(app)
        assert screen.game.assists == ["meter"]  # on from the start: assisted from the start
        assert "meter: clean 62%" in south(screen)
        key = screen.session.meter_key
        assert key is not None
        screen.post_message(MeterReady((key[0], key[1] - 1, key[2]), 0.11))  # an older trick
        screen.post_message(MeterReady((key[0] + 1, 0, key[2]), 0.12))  # not this deal
        await pilot.pause()
        assert "meter: clean 62%" in south(screen)
        screen.post_message(MeterReady(key, 0.25))
        await pilot.pause()
        assert "meter: clean 25%" in south(screen)
        screen.post_message(MeterReady(key, 0.0))  # an estimate of nothing, not a certainty
        await pilot.pause()
        assert "meter: clean <1%" in south(screen)  # written as any estimate near 0 is
        screen.post_message(MeterReady(key, 0.003))
        await pilot.pause()
        assert "meter: clean <1%" in south(screen)
        screen.post_message(MeterReady(key, 1.0))
        await pilot.pause()
        assert "meter: clean >99%" in south(screen)


async def test_once_you_have_taken_a_trick_the_meter_says_so_without_estimating(
        fake_chance: FakeChance) -> None:
    app = NilApp("play", options=replace(OPTIONS, meter=True, deals=3))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        for _ in range(60):
            if screen.game.deal.taken[0] or screen.game.deal.is_over:
                break
            await pilot.press("enter")
            await settle(app, pilot)
        await until_meter(app, pilot)
        assert screen.game.deal.taken[0], "the cards of seed 7 give you a trick"
        asked = len(fake_chance.asked)
        assert "meter: not clean" in south(screen)
        screen.refresh_view()
        await until_meter(app, pilot)
        assert len(fake_chance.asked) == asked


async def test_a_hint_makes_the_game_assisted_once(quick_options: PlayOptions) -> None:
    app = NilApp("play", options=quick_options)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        assert not screen.game.assisted
        for answer in ("y", None):  # (the question is asked before the first hint only)
            await pilot.press("h", *([answer] if answer else []))
            await app.workers.wait_for_complete()
            await pilot.pause()
        assert "Hint:" in status(screen)
        assert screen.game.assists == ["hint"]
        assert assisted_lines(screen) == 1
        saved = app.store.load_current()
        assert saved is not None and saved[0].get("assists") == ["hint"]


async def test_a_hint_too_long_for_the_status_line_is_whole_in_the_log(
        quick_options: PlayOptions) -> None:
    from nil_tui.tui.messages import HintReady

    app = NilApp("play", options=quick_options)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        card = screen.game.deal.legal_moves()[0]
        reason = "a reason long enough that no status line of eighty columns can hold it all"
        screen.post_message(HintReady(screen.driver.turn, card, reason))
        await pilot.pause()
        assert status(screen).rstrip().endswith("(why: in the log)")
        assert any(reason in line for line in screen.query_one(GameLog).history)


def test_history_and_statistics_mark_a_game_with_assists_as_assisted() -> None:
    game = Game(1, 3)
    assert not summarize(game.to_record(), {}).assisted
    game.add_assist("meter")
    assert summarize(game.to_record(), {}).assisted
    assert "(assisted)" in summarize(game.to_record(), {}).opponents


async def test_a_daily_challenge_refuses_hints_undo_and_the_meter(
        fake_chance: FakeChance, monkeypatch: pytest.MonkeyPatch) -> None:
    # Quick bots in the experts' seats, and no expert's reference worked out meanwhile.
    monkeypatch.setattr(NilApp, "want_reference", lambda self, game: None, raising=False)
    players: list[BlockingPlayer] = []
    options = replace(OPTIONS, meter=True, challenge="2026-11-30")
    app = NilApp("play", options=options, opener=blocking_opener(players))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        assert screen.challenge == "2026-11-30"
        await pilot.press("enter")  # a card of yours: undo would have something to take back
        await settle(app, pilot)
        for action in ("hint", "undo", "meter"):
            assert screen.check_action(action, ()) is False  # not offered in the footer
        for key, said in (("h", "Hints are off in the daily challenge."),
                          ("u", "Undo is off in the daily challenge."),
                          ("m", "The clean-chance meter is off in the daily challenge.")):
            await pilot.press(key)
            await pilot.pause()
            assert status(screen) == said
        await until_meter(app, pilot)
        assert "meter" not in south(screen)
        assert not fake_chance.asked
        assert not screen.game.assisted and not screen.game.undone


def test_chances_as_shown() -> None:
    from nil_tui.tui.words import percent

    assert [percent(x) for x in (0.0, 0.003, 0.62, 0.996, 1.0)] == [
        "0%", "<1%", "62%", ">99%", "100%"]


async def test_a_resumed_assisted_game_says_what_help_was_used_and_keeps_the_meter(
        fake_chance: FakeChance) -> None:
    app = NilApp("play", options=OPTIONS)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        await pilot.press("h", "y")  # (y: the question before a game's first help)
        await app.workers.wait_for_complete()
        await pilot.press("m")
        await pilot.press("enter")
        await settle(app, pilot)
    app = NilApp("resume")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        await until_meter(app, pilot)
        screen = table(app)
        first = screen.query_one(GameLog).history[0]
        assert first.startswith("Game resumed") and first.endswith(
            "Used so far: hints and the meter; the game counts as assisted.")
        assert assisted_lines(screen) == 1  # said once, not again
        assert "meter: " in south(screen)  # the meter stays on for this game


async def test_the_meter_pressed_in_one_game_stays_with_that_game(
        fake_chance: FakeChance) -> None:
    app = NilApp("play", options=OPTIONS)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        await pilot.press("m", "y")  # (y: the question before a game's first help)
        await until_meter(app, pilot)
        assert screen.game.assists == ["meter"]
        saved = app.store.load_current()
        assert saved is not None and saved[1].get("meter") is True  # resumed with its meter
        assert not app.options.meter  # not the player's choice for later games
        app.start_game(replace(app.options, seed=8), replace_saved=True)
        await settle(app, pilot)
        later = table(app)
        assert later is not screen and not later.session.meter_on
        assert not later.game.assisted and "meter" not in south(later)
