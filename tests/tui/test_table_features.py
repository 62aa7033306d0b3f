"""The table's features beyond playing a card: undo, the card tracker, auto-play of a forced
card, who led, the pause after a trick, the deal's end, the log on resume and as cards land,
and one effect per key on the last-trick view."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rich.text import Text
from tui_helpers import settle, table

from nil_tui.engine import Card
from nil_tui.game.options import PlayOptions
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.review import ReviewScreen
from nil_tui.tui.screens.summary import SummaryScreen
from nil_tui.tui.screens.table import TableScreen
from nil_tui.tui.widgets.gamelog import GameLog
from nil_tui.tui.widgets.hand import Hand
from nil_tui.tui.widgets.tracker import CardTracker
from nil_tui.tui.widgets.trick import TrickView
from nil_tui.tui.words import SEAT_LABELS

OPTIONS = PlayOptions(deals=2, bots=("easy", "easy", "easy"), seed=7, speed="instant",
                      auto_play=False)


def deal_plays(screen: TableScreen) -> list[tuple[int, Card]]:
    deal = screen.game.deal
    out = [(t.player_of(k), c) for t in deal.tricks for k, c in enumerate(t.cards)]
    return out + [((deal.leader + k) & 3, c) for k, c in enumerate(deal.trick)]


def log_lines(screen: TableScreen) -> list[str]:
    return screen.query_one(GameLog).history


async def pause_a_little(app: NilApp, pilot: Any, times: int = 6) -> None:
    for _ in range(times):
        await app.workers.wait_for_complete()
        await pilot.pause(0.05)


# --- 1. undo ---------------------------------------------------------------------------
async def test_undo_takes_back_your_card_and_the_bots_then_answer_the_same() -> None:
    app = NilApp("play", options=OPTIONS)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        assert screen.check_action("undo", ()) is False  # no card of yours yet: not offered
        before = deal_plays(screen)
        hand_before = screen.game.deal.hand(0)
        await pilot.press("enter")
        await settle(app, pilot)
        after = deal_plays(screen)
        assert len(after) > len(before)
        assert screen.check_action("undo", ()) is True
        await pilot.press("u")
        await settle(app, pilot)
        assert deal_plays(screen) == before
        assert screen.game.deal.hand(0) == hand_before
        assert screen.game.undone  # kept in the record: the store calls the game assisted
        lines = log_lines(screen)
        taken = [line for line in lines if line.startswith("Taken back: your ")]
        assert len(taken) == 1
        assert str(after[len(before)][1].pretty()) in taken[0]
        assert sum("counts as assisted" in line for line in lines) == 1
        # The same card again: the bots answer as they did.
        await pilot.press("enter")
        await settle(app, pilot)
        assert deal_plays(screen)[: len(after)] == after
        await pilot.press("u")
        await settle(app, pilot)
        assert sum("counts as assisted" in line for line in log_lines(screen)) == 1


async def test_undo_with_nothing_to_take_back_says_so_and_changes_nothing() -> None:
    app = NilApp("play", options=OPTIONS)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        before = deal_plays(screen)
        await pilot.press("u")
        await settle(app, pilot)
        assert deal_plays(screen) == before
        assert not screen.game.undone
        assert "no card of yours" in str(screen.query_one("#status").render())


# --- 2. card tracker -------------------------------------------------------------------
async def test_tracker_shows_the_unseen_cards_and_shown_voids_at_80x24() -> None:
    app = NilApp("play", options=OPTIONS)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        assert not screen.query(CardTracker)  # made when first asked for
        await pilot.press("c")
        await pilot.pause()
        tracker = screen.query_one(CardTracker)
        assert tracker.display and set(tracker.info.out) == set(screen.game.deal.view(0).unseen)
        assert "Out of:" in str(tracker.render())
        for _ in range(6):
            await pilot.press("enter")
            await settle(app, pilot)
        view = screen.game.deal.view(0)
        assert set(tracker.info.out) == set(view.unseen)
        assert not set(tracker.info.out) & set(screen.game.deal.hand(0))
        assert tracker.info.voids == tuple(frozenset(int(s) for s in v) for v in view.voids())
        # It fits: inside the screen, and the log is still there.
        region = tracker.region
        assert region.right <= 80 and region.bottom <= 24 and region.height >= 6
        assert screen.query_one(GameLog).region.height >= 3
        rendered = tracker.render()
        assert isinstance(rendered, Text) and "Out of:" in rendered.plain
        await pilot.press("c")
        await pilot.pause()
        assert not tracker.display
        await pilot.press("c")  # shown again, up to date
        await pilot.pause()
        assert tracker.display and set(tracker.info.out) == set(screen.game.deal.view(0).unseen)


# --- 3. auto-play ----------------------------------------------------------------------
async def find_forced_turn(app: NilApp, pilot: Any, screen: TableScreen) -> bool:
    """Play Enter until you hold exactly one legal card (True) or the deal ends."""
    for _ in range(14):
        await settle(app, pilot)
        if screen.game.deal.is_over or not isinstance(app.screen, TableScreen):
            return False
        if len(screen.game.deal.legal_moves()) == 1:
            return True
        await pilot.press("enter")
    return False


async def test_a_forced_card_is_played_for_you_and_the_log_says_forced() -> None:
    app = NilApp("play", options=replace(OPTIONS, auto_play=True, deals=1))
    async with app.run_test(size=(100, 32)) as pilot:
        screen = table(app)
        # Auto-play would play it by itself: find the turn with it off, then turn it on.
        screen.options = replace(screen.options, auto_play=False)
        assert await find_forced_turn(app, pilot, screen)
        card = screen.game.deal.legal_moves()[0]
        screen.options = replace(screen.options, auto_play=True)
        log = screen.query_one(GameLog)  # (read after the card: it may end the game and the table)
        screen.advance()
        assert "played for you" in str(screen.query_one("#status").render())
        played = len(deal_plays(screen))
        for _ in range(40):  # no key pressed
            await pilot.pause(0.05)
            if len(deal_plays(screen)) > played:
                break
        assert deal_plays(screen)[played] == (0, card)
        assert any(line == f"You play {card.pretty()} (forced)" for line in log.history)


async def test_your_only_card_is_marked_forced_also_when_you_play_it_and_after_a_resume(
        ) -> None:
    """"(forced)" says you had no other card: with auto-play off too, and in the log a
    resumed game tells again."""
    def told(screen: TableScreen) -> list[str]:
        return [x for x in log_lines(screen) if x.startswith(("You play", "West", "North",
                                                               "East"))]

    # a forced card that does not end the deal (seed 7 gives none, 8 does)
    for seed in range(8, 30):
        app = NilApp("play", options=replace(OPTIONS, auto_play=False, seed=seed))
        async with app.run_test(size=(100, 32)) as pilot:
            screen = table(app)
            found = await find_forced_turn(app, pilot, screen)
            if found:
                card = screen.game.deal.legal_moves()[0]
                await pilot.press("enter")
                await settle(app, pilot)
            if not found or screen.game.deal.is_over:
                app.store.clear_current()  # (the next seed starts afresh)
                continue
            assert f"You play {card.pretty()} (forced)" in log_lines(screen)
            yours = [x for x in log_lines(screen) if x.startswith("You play ")]
            assert len(yours) > 1 and sum(x.endswith("(forced)") for x in yours) == 1
            before = told(screen)
            app.store.close()
        again = NilApp("resume")
        async with again.run_test(size=(100, 32)) as pilot:
            await settle(again, pilot)
            assert told(table(again))[:len(before)] == before  # "(forced)" included
        return
    raise AssertionError("no seed gave a forced card before the deal's end")


async def test_undo_back_to_a_forced_card_leaves_it_to_you() -> None:
    # a forced card that does not end the deal (seed 7 gives none, 8 does)
    for seed in range(8, 30):
        app = NilApp("play", options=replace(OPTIONS, deals=1, seed=seed))
        async with app.run_test(size=(100, 32)) as pilot:
            screen = table(app)
            if not await find_forced_turn(app, pilot, screen):
                continue
            before = deal_plays(screen)
            await pilot.press("enter")  # you play it yourself
            await settle(app, pilot)
            if not isinstance(app.screen, TableScreen) or screen.game.deal.is_over:
                continue
            screen.options = replace(screen.options, auto_play=True)
            await pilot.press("u")
            await settle(app, pilot)
            assert deal_plays(screen) == before
            await pause_a_little(app, pilot, 12)
            assert deal_plays(screen) == before  # not played again for you: u can go further
            assert "Your turn" in str(screen.query_one("#status").render())
            return
    raise AssertionError("no forced card before the end of a deal")


async def test_without_auto_play_a_forced_card_waits_for_you() -> None:
    app = NilApp("play", options=replace(OPTIONS, deals=1))
    async with app.run_test(size=(100, 32)) as pilot:
        screen = table(app)
        assert await find_forced_turn(app, pilot, screen)
        played = len(deal_plays(screen))
        await pause_a_little(app, pilot, 12)
        assert len(deal_plays(screen)) == played


# --- 4. who led ------------------------------------------------------------------------
async def test_the_trick_view_says_who_led() -> None:
    app = NilApp("play", options=OPTIONS)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        for _ in range(8):
            deal = screen.game.deal
            caption = screen.query_one(TrickView).info.caption
            if deal.trick:
                assert caption == f"{SEAT_LABELS[deal.leader]} led"
            elif not deal.tricks:
                assert caption.startswith(SEAT_LABELS[deal.leader])  # "West leads"
            await pilot.press("enter")
            await settle(app, pilot)


# --- 5. the pause after a trick --------------------------------------------------------
async def test_waiting_for_a_key_after_a_trick_waits_and_the_key_only_goes_on() -> None:
    app = NilApp("play", options=replace(OPTIONS, trick_pause="key"))
    async with app.run_test(size=(100, 32)) as pilot:
        screen = table(app)
        for _ in range(6):
            await pause_a_little(app, pilot)
            if screen._holding is not None:
                break
            await pilot.press("enter")
        assert screen._holding is not None
        status = str(screen.query_one("#status").render())
        assert "Press any key to go on" in status
        tricks = len(screen.game.deal.tricks)
        plays = deal_plays(screen)
        await pause_a_little(app, pilot, 12)
        assert deal_plays(screen) == plays  # nothing goes on by itself
        assert screen.query_one(TrickView).info.winner == screen.game.deal.tricks[-1].winner
        hand = screen.query_one(Hand)
        hand.cursor = 0
        await pilot.press("right")
        await pause_a_little(app, pilot)
        assert screen._holding is None or len(screen.game.deal.tricks) > tricks
        # The key went on, nothing else: the cursor is where your turn puts it.
        legal = screen.game.deal.legal_moves()
        assert hand.cursor == (min(hand.cards.index(c) for c in legal)
                               if screen.driver.human_to_move() else 0)


async def test_undo_works_while_a_trick_waits_for_a_key() -> None:
    app = NilApp("play", options=replace(OPTIONS, trick_pause="key"))
    async with app.run_test(size=(100, 32)) as pilot:
        screen = table(app)
        for _ in range(6):
            await pause_a_little(app, pilot)
            if screen._holding is not None and screen.driver.plays_to_undo():
                break
            await pilot.press("enter")
        assert screen._holding is not None
        tricks = len(screen.game.deal.tricks)
        await pilot.press("u")
        await pause_a_little(app, pilot)
        assert screen.game.undone
        assert len(screen.game.deal.tricks) == tricks - 1  # your card of the trick on show
        assert screen._holding is None and screen.driver.human_to_move()


async def test_at_instant_the_trick_just_won_stays_until_the_next_card() -> None:
    for seed in range(3, 30):  # a game where you win a trick and so lead the next (3 does)
        app = NilApp("play", options=replace(OPTIONS, seed=seed, deals=1))
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(app, pilot)
            screen = table(app)
            for _ in range(13):
                deal = screen.game.deal
                if deal.tricks and not deal.trick or deal.is_over:
                    break
                await pilot.press("enter")
                await settle(app, pilot)
            deal = screen.game.deal
            if deal.is_over:
                continue
            info = screen.query_one(TrickView).info
            last = deal.tricks[-1]
            assert [c for _, c in info.cards] == list(last.cards)
            assert info.winner == last.winner == 0
            assert info.caption == "You won it and lead"
            await pilot.press("enter")
            await settle(app, pilot)
            assert screen.query_one(TrickView).info.winner is None  # the next trick is on
            return
    raise AssertionError("you never won a trick")


# --- 6. the end of a deal --------------------------------------------------------------
async def test_the_deal_summary_shows_the_last_trick_and_the_hands_as_dealt() -> None:
    app = NilApp("play", options=OPTIONS)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        for _ in range(20):
            if isinstance(app.screen, SummaryScreen):
                break
            await pilot.press("enter")
            await settle(app, pilot)
        summary = app.screen
        assert isinstance(summary, SummaryScreen)
        deal = summary.game.deals[0]
        shown = summary.query_one("#summary-trick", TrickView).info
        assert [c for _, c in shown.cards] == list(deal.tricks[-1].cards)
        assert shown.winner == deal.tricks[-1].winner
        await pilot.press("d")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        assert (review.deal_index, review.step) == (0, 0)
        assert str(deal.dealt_hand(1)[0].rank_label) in str(
            review.query_one("#hand-1").render())
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is summary
        await pilot.press("t")
        await pilot.pause()
        at_end = app.screen
        assert isinstance(at_end, ReviewScreen)
        assert at_end.step == len(deal.tricks)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is summary


# --- 12. resume ------------------------------------------------------------------------
async def test_resume_tells_the_deal_so_far_again() -> None:
    app = NilApp("play", options=OPTIONS)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        for _ in range(5):
            await pilot.press("enter")
            await settle(app, pilot)
        first = log_lines(table(app))
    app = NilApp("resume")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        again = log_lines(table(app))
    assert again[0].startswith("Game resumed")
    assert again[1:] == first  # the deal's start, every card, every trick won


# --- 15. the log keeps up --------------------------------------------------------------
async def test_a_log_line_is_in_view_as_soon_as_it_is_written() -> None:
    app = NilApp("play", options=OPTIONS)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        log = table(app).query_one(GameLog)
        for n in range(40):
            log.add(f"line {n}")
            # No refresh in between: the newest line is already at the bottom of the view.
            assert log.scroll_y == log.max_scroll_y
        assert log.max_scroll_y > 0


# --- 16. one key, one effect on the last-trick view -------------------------------------
async def test_a_key_on_the_last_trick_view_only_closes_it() -> None:
    app = NilApp("play", options=OPTIONS)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        for _ in range(6):
            await pilot.press("enter")
            await settle(app, pilot)
        assert screen.game.deal.tricks
        hand = screen.query_one(Hand)
        hand.cursor = 0
        plays = deal_plays(screen)
        for key in ("right", "enter", "left"):
            await pilot.press("t")
            await pilot.pause()
            assert screen._peeking
            await pilot.press(key)
            await settle(app, pilot)
            assert not screen._peeking
            assert hand.cursor == 0
            assert deal_plays(screen) == plays


# --- the settings: setup, saved settings, the command line -------------------------------
async def test_setup_offers_auto_play_and_waiting_after_a_trick() -> None:
    from textual.widgets import Checkbox

    from nil_tui.game.options import options_from_dict
    from nil_tui.tui.screens.setup import SetupScreen

    app = NilApp("setup", options=PlayOptions(speed="fast"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        assert screen.query_one("#auto-play", Checkbox).value is True  # on by default
        assert "1.3 s" not in str(screen.query_one("#speed-help").render())
        screen.query_one("#auto-play", Checkbox).value = False
        screen.query_one("#trick-key", Checkbox).value = True
        await pilot.pause()
        assert "until you press a key" in str(screen.query_one("#speed-help").render())
        options = screen.read_options()
    assert options is not None
    assert (options.auto_play, options.trick_pause) == (False, "key")
    again = options_from_dict({"auto_play": False, "trick_pause": "key"})
    assert (again.auto_play, again.trick_pause) == (False, "key")
    assert options_from_dict({"trick_pause": "forever"}).trick_pause == "brief"


def test_play_flags_for_auto_play_and_the_trick_pause(monkeypatch: Any) -> None:
    from nil_tui.commands import cli
    from nil_tui.tui import launch

    seen: dict[str, object] = {}
    monkeypatch.setattr(launch, "play_command", lambda overrides: seen.update(overrides.given()) or 0)
    assert cli.main(["play", "--no-auto-play", "--wait-after-trick"]) == 0
    assert seen == {"seed": None, "auto_play": False, "trick_pause": "key"}
    seen.clear()
    assert cli.main(["play", "--auto-play", "--no-wait-after-trick"]) == 0
    assert seen == {"seed": None, "auto_play": True, "trick_pause": "brief"}
