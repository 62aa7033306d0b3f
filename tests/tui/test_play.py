"""A whole game through the app, and what only the interface shows: illegal cards, keys while
a bot thinks, bursts of arrow keys, resizing."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual import events
from tui_helpers import BlockingPlayer, settle, table, wait_for_table

from nil_tui.game.options import PlayOptions
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.dialogs import TooSmall
from nil_tui.tui.screens.gameover import GameOverScreen
from nil_tui.tui.screens.summary import SummaryScreen
from nil_tui.tui.widgets.hand import Hand
from nil_tui.tui.widgets.scoreboard import Scoreboard


def plays_by_seat(game: Any) -> list[int]:
    """The seat of every card played so far in the current deal, in order."""
    deal = game.deal
    seats = [(trick.leader + k) & 3 for trick in deal.tricks for k in range(len(trick.cards))]
    return seats + [(deal.leader + k) & 3 for k in range(len(deal.trick))]


async def test_whole_two_deal_game_with_enter_only(quick_options: PlayOptions) -> None:
    app = NilApp("play", options=quick_options)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        game = screen.game
        summaries = 0
        for _ in range(400):
            current = app.screen
            if isinstance(current, GameOverScreen):
                break
            if isinstance(current, SummaryScreen):
                summaries += 1
                # The summary's numbers are the engine's.
                board_totals = game.totals
                await pilot.press("enter")
            else:
                assert game.to_move == 0
                hand = current.query_one(Hand)
                # The cursor starts on the leftmost legal card.
                assert hand.current == game.deal.legal_moves()[0]
                board = current.query_one(Scoreboard).info
                assert board.totals == game.totals
                assert board.taken == game.deal.taken
                assert (board.deal_number, board.deals_planned) == (game.deal_number, 2)
                await pilot.press("enter")
            await settle(app, pilot)
        else:
            raise AssertionError("the game never ended")
        assert game.is_over
        assert summaries == 1
        assert board_totals == game.deals[0].points
        over = app.screen
        assert isinstance(over, GameOverScreen)
        assert over.game is game
        assert over.path is not None and over.path.exists()
        # The finished game left the saved slot.
        assert app.store.load_current() is None


async def test_illegal_card_says_why_and_changes_nothing() -> None:
    # Find a seed where, on your first turn, you must follow and hold another suit too.
    for seed in range(200):
        app = NilApp("play", options=PlayOptions(deals=1, bots=("easy",) * 3, seed=seed,
                                                 speed="instant"))
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(app, pilot)
            screen = table(app)
            deal = screen.game.deal
            led = deal.led_suit
            hand = screen.query_one(Hand)
            illegal = [i for i, c in enumerate(hand.cards) if led is not None and c.suit != led]
            if led is None or not illegal or len(illegal) == len(hand.cards):
                continue
            before = screen.game.to_record()
            hand.cursor = illegal[0]
            await pilot.press("enter")
            status = str(screen.query_one("#status").render())
            assert "You must follow" in status
            assert "♣♦♥♠"[led] in status
            after = screen.game.to_record()
            before.pop("created"), after.pop("created")
            assert before == after
            assert screen.game.to_move == 0
            return
    raise AssertionError("no seed gave an illegal card to try")


async def test_keys_while_a_bot_thinks_never_play_and_are_not_lost(
        quick_options: PlayOptions) -> None:
    players: list[BlockingPlayer] = []

    def opener(spec: str, seed: int) -> BlockingPlayer:
        players.append(BlockingPlayer(spec, seed))
        return players[-1]

    app = NilApp("play", options=quick_options, opener=opener)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        game = screen.game
        assert game.to_move == 0 and not game.deal.is_over
        for player in players:
            player.armed.set()
        hand = screen.query_one(Hand)
        await pilot.press("enter")  # your (legal) card; then a bot thinks and blocks
        await pilot.pause()
        assert any(p.asked.wait(5) for p in players), "no bot was asked"
        cards_before = game.deal.hand(0)
        played_before = plays_by_seat(game)
        hand.cursor = 0
        await pilot.press("right", "right", "right", "enter", "space")
        # Nothing was played for you, and the arrows all moved the cursor.
        assert game.deal.hand(0) == cards_before
        assert game.to_move != 0
        assert hand.cursor == 3
        assert plays_by_seat(game) == played_before
        for player in players:
            player.armed.clear()
            player.go.set()
        await settle(app, pilot)
        # The bots played until it was your turn again, and only they played: Enter and
        # Space pressed while they thought played nothing for you. (Early in the deal:
        # it cannot have ended, since that takes every player winning a trick.)
        played = plays_by_seat(game)
        assert played[:len(played_before)] == played_before
        assert len(played) > len(played_before)
        assert 0 not in played[len(played_before):]
        assert not game.deal.is_over
        assert game.to_move == 0
        assert game.deal.hand(0) == cards_before


async def test_a_plugin_past_its_time_cap_has_its_lowest_card_played(
        quick_options: PlayOptions, monkeypatch: Any) -> None:
    """A real plugin in its own process that never answers: stopped at the cap, its lowest
    legal card played, and the log and the record say so."""
    from pathlib import Path

    from nil_tui.tui.widgets.gamelog import GameLog

    plugins = Path(__file__).resolve().parent.parent / "plugins"
    monkeypatch.setenv("PYTHONPATH", str(plugins))
    monkeypatch.syspath_prepend(str(plugins))
    monkeypatch.setenv("NIL_TUI_BOT_TIME_CAP", "0.5")
    options = replace(quick_options, bots=("nil_hostile:Hanger", "easy", "easy"), seed=11)
    app = NilApp("play", options=options)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_table(app, pilot)
        for _ in range(40):
            await settle(app, pilot)
            screen = table(app)
            game = screen.game
            if game.incidents:
                break
            await pilot.press("enter")
        assert game.incidents, "no card was played for the stalled bot"
        first = game.incidents[0]
        assert first["seat"] == 1 and "took longer than" in first["reason"]
        record = game.to_record()
        assert record["incidents"][0]["card"] == first["card"]
        log_text = " ".join(screen.query_one(GameLog).history)
        assert "took longer than" in log_text


async def test_a_burst_of_arrow_keys_moves_the_full_count(quick_options: PlayOptions) -> None:
    app = NilApp("play", options=quick_options)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        hand = table(app).query_one(Hand)
        stops = hand.stops()  # the cards you may play: the cursor stops only there
        hand.cursor = stops[0]
        await pilot.press(*["right"] * 7)
        assert hand.cursor == stops[7 % len(stops)]
        await pilot.press("left", "left", "a", "d")
        assert hand.cursor == stops[5 % len(stops)]
        await pilot.press(*["right"] * 20)
        assert hand.cursor == stops[25 % len(stops)]
        # Keys that arrive together, before the app has drawn anything, all count.
        hand.cursor = stops[0]
        for _ in range(9):
            app.post_message(events.Key("right", None))
        await pilot.pause()
        await pilot.pause()
        assert hand.cursor == stops[9 % len(stops)]


async def test_too_small_then_back_keeps_the_game(quick_options: PlayOptions) -> None:
    app = NilApp("play", options=quick_options)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        before = screen.game.to_record()
        hand = screen.query_one(Hand)
        hand.cursor = 2
        await pilot.resize_terminal(70, 20)
        await pilot.pause()
        too_small = app.screen
        assert isinstance(too_small, TooSmall)
        text = str(too_small.query_one("#too-small").render())
        assert "enlarge" in text and "80x24" in text
        await pilot.press("enter")  # nothing reaches the game underneath
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert app.screen is screen
        after = screen.game.to_record()
        before.pop("created"), after.pop("created")
        assert before == after
        assert hand.cursor == 2


async def test_quit_asks_during_a_game_and_the_game_stays_saved(
        quick_options: PlayOptions) -> None:
    app = NilApp("play", options=quick_options)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        record = table(app).game.to_record()
        await pilot.press("q")
        await pilot.pause()
        from nil_tui.tui.screens.dialogs import ConfirmQuit

        assert isinstance(app.screen, ConfirmQuit)
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is not None and not isinstance(app.screen, ConfirmQuit)
        saved = app.store.load_current()
        assert saved is not None
        assert saved[0]["deals"] == record["deals"]
        await pilot.press("ctrl+q")
        await pilot.press("y")
        await pilot.pause()
    assert app.return_value == 0


async def test_resume_continues_exactly_where_it_stopped(quick_options: PlayOptions) -> None:
    app = NilApp("play", options=quick_options)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        for _ in range(3):
            await pilot.press("enter")
            await settle(app, pilot)
        record = table(app).game.to_record()
        app.store.close()
    again = NilApp("resume")
    async with again.run_test(size=(100, 32)) as pilot:
        await settle(again, pilot)
        game = table(again).game
        resumed = game.to_record()
        for r in (record, resumed):
            r.pop("created")
        # Every card, the trick in progress, the seed and the players: all as they were.
        assert resumed == record
        assert game.to_move == 0
        assert table(again).options.bots == ("easy", "easy", "easy")


async def test_setup_offers_resume_and_starts_with_its_options(
        quick_options: PlayOptions, nil_home: Any) -> None:
    app = NilApp("setup")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not app.screen.query("#resume")
        deals = app.screen.query_one("#deals")
        deals.value = "3"  # type: ignore[attr-defined]
        app.screen.query_one("#seed").value = "11"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        screen = table(app)
        assert screen.game.deals_planned == 3
        assert screen.game.seed == 11
        assert app.store.load_settings()["deals"] == 3
    app = NilApp("setup")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        # The saved game is offered first, and the settings are prefilled.
        assert app.screen.focused is not None and app.screen.focused.id == "resume"
        assert app.screen.query_one("#deals").value == "3"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await settle(app, pilot)
        assert table(app).game.deals_planned == 3


async def test_a_game_from_the_command_line_leaves_the_settings_alone(nil_home: Any) -> None:
    options = PlayOptions(deals=5, bots=("easy", "easy", "easy"), seed=42, speed="instant")
    app = NilApp("play", options=options)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert table(app).game.seed == 42
    app = NilApp("setup")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        # Flags apply to their game only: setup shows its own choices (here the defaults).
        assert app.screen.query_one("#deals").value == "8"  # type: ignore[attr-defined]
        # A seed belongs to one game: the next one is dealt afresh unless a seed is typed.
        assert app.screen.query_one("#seed").value == ""  # type: ignore[attr-defined]


async def test_t_shows_the_last_trick_until_a_key(quick_options: PlayOptions) -> None:
    from nil_tui.tui.widgets.trick import TrickView

    app = NilApp("play", options=quick_options)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        while not screen.game.deal.tricks:
            await pilot.press("enter")
            await settle(app, pilot)
        last = screen.game.deal.tricks[-1]
        await pilot.press("t")
        info = screen.query_one(TrickView).info
        assert info.caption.startswith("Last trick")
        assert tuple(card for _, card in info.cards) == last.cards
        assert info.winner == last.winner
        before = screen.game.to_record()["deals"]
        await pilot.press("right")  # any key goes back; nothing is played
        assert not screen.query_one(TrickView).info.caption.startswith("Last trick")
        assert screen.game.to_record()["deals"] == before


async def test_a_spying_plugin_in_the_full_screen_game_finds_nothing(
        quick_options: PlayOptions, monkeypatch: Any, tmp_path: Any) -> None:
    """The plugin that walks gc, frames and globals for the deal, the game or a hidden card
    finds nothing while the app plays: it runs in a process of its own."""
    import json
    import os
    from pathlib import Path

    plugins = Path(__file__).resolve().parent.parent / "plugins"
    out = tmp_path / "spy.jsonl"
    monkeypatch.setenv("PYTHONPATH", str(plugins))
    monkeypatch.syspath_prepend(str(plugins))
    monkeypatch.setenv("NIL_TUI_SPY_OUT", str(out))
    options = replace(quick_options, deals=1, bots=("nil_spy:Spy", "easy", "nil_spy:Spy"))
    app = NilApp("play", options=options)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_table(app, pilot)
        for _ in range(6):
            await pilot.press("enter")
            await settle(app, pilot)
    looks = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(looks) >= 6 and {d["seat"] for d in looks} == {1, 3}
    assert [d["findings"] for d in looks if d["findings"]] == []
    assert os.getpid() not in {d["pid"] for d in looks}
