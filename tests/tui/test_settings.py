"""Settings that do what they say: command-line flags apply to their game only while setup
remembers its own choices; checkboxes read without colour; the quit dialog and the command
palette; the game-over page; setup at 80x24 and its descriptions."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandPalette
from textual.containers import VerticalScroll
from textual.widgets import Checkbox, Select, Static
from tui_helpers import BlockingPlayer, blocking_opener, settle, table

from nil_tui.bots import LEVELS
from nil_tui.engine import Game, describe_result
from nil_tui.game.options import PlayOptions, PlayOverrides
from nil_tui.session.game_session import PAUSES
from nil_tui.store import Store
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.dialogs import ConfirmQuit, ReplaceSaved
from nil_tui.tui.screens.gameover import GameOverScreen
from nil_tui.tui.screens.setup import SetupScreen, speed_words, strength_words
from nil_tui.tui.words import SEAT_LABELS

# Where the measured strength of each level is published.
LEVELS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "bots" / "levels.md"
SOUTH_LEADS = 2  # with this seed East deals, so South leads the first trick


def text_of(widget: Any) -> str:
    return str(widget.render())


def saved_settings() -> dict[str, Any]:
    store = Store.open()
    try:
        return store.load_settings() or {}
    finally:
        store.close()


def keep_settings(settings: dict[str, Any]) -> None:
    store = Store.open()
    try:
        store.save_settings(settings)
    finally:
        store.close()


async def start_from_setup(app: NilApp, pilot: Any, **fields: str) -> None:
    """Fill in setup's inputs, tick ASCII, and start."""
    screen = app.screen
    assert isinstance(screen, SetupScreen), screen
    for name, value in fields.items():
        screen.query_one(f"#{name}").value = value  # type: ignore[attr-defined]
    screen.query_one("#ascii", Checkbox).value = True
    await pilot.press("ctrl+s")
    await settle(app, pilot)


# --- 9: flags apply to their game; setup keeps its own choices ------------------------------
async def test_setup_keeps_its_choices_and_flags_do_not_change_them() -> None:
    app = NilApp("setup")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await start_from_setup(app, pilot, deals="3", seed="5")
        assert table(app).options.ascii and table(app).game.deals_planned == 3
    kept = saved_settings()
    assert (kept["deals"], kept["ascii"], kept["seed"]) == (3, True, None)
    assert "from_setup" not in kept

    # nil-tui play --no-ascii --deals 2: this game only.
    app = NilApp("play", overrides=PlayOverrides(seed=1, ascii=False, deals=2, speed="instant"))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReplaceSaved)  # the game started in setup is kept
        await pilot.click("#answer-new")
        await settle(app, pilot)
        screen = table(app)
        assert not screen.options.ascii and screen.game.deals_planned == 2
        await pilot.press("q", "y")
    assert saved_settings() == kept

    # Setup still shows what was chosen in setup.
    app = NilApp("setup")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        assert screen.query_one("#ascii", Checkbox).value is True
        assert screen.query_one("#deals").value == "3"  # type: ignore[attr-defined]


async def test_plain_play_starts_from_the_setup_choices() -> None:
    keep_settings({"deals": 4, "ascii": True, "speed": "instant",
                   "bots": ["easy", "hard", "easy"]})
    app = NilApp("play", overrides=PlayOverrides(seed=3))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        assert screen.game.deals_planned == 4
        assert screen.options.ascii and screen.options.bots == ("easy", "hard", "easy")


async def test_a_command_line_game_keeps_no_settings() -> None:
    app = NilApp("play", overrides=PlayOverrides(seed=1, ascii=True, four_color=True,
                                             speed="instant", theme="nord"))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        assert table(app).options.ascii and app.theme == "nord"
    assert saved_settings() == {}


@pytest.mark.parametrize("from_setup", [False, True])
async def test_a_new_game_from_game_over_keeps_where_its_settings_came_from(
        quick_options: PlayOptions, from_setup: bool) -> None:
    """Enter at game over repeats the game's settings: kept when they came from setup, not
    when they came from the command line."""
    game = played_game(seed=3, deals=1)
    options = replace(quick_options, deals=1, from_setup=from_setup, ascii=True)
    app = NilApp("setup", options=options)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        app.push_screen(GameOverScreen(game, options, None))
        await pilot.pause()
        await pilot.press("enter")
        await settle(app, pilot)
        assert table(app).options.ascii
    assert saved_settings().get("ascii") is (True if from_setup else None)


# --- 10: checkboxes without colour ---------------------------------------------------------
async def test_checkboxes_read_without_colour() -> None:
    app = NilApp("setup")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        box = app.screen.query_one("#ascii", Checkbox)
        assert box.value is False
        off = text_of(box)
        box.focus()
        await pilot.press("space")
        assert box.value is True
        on = text_of(box)
        assert "X" not in off and "X" in on
        assert off.replace(" ", "") != on.replace(" ", "")


# --- 11: the quit dialog, the command palette, the game waits under both -------------------
async def test_enter_in_the_quit_dialog_keeps_playing(quick_options: PlayOptions) -> None:
    app = NilApp("play", options=quick_options)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmQuit)
        # The table shows through: the dialog's screen is not opaque.
        assert app.screen.styles.background.a < 1
        await pilot.press("enter")
        await pilot.pause()
        assert app.is_running and table(app).in_progress


async def open_palette_and_run(app: NilApp, pilot: Any, command: str) -> None:
    await pilot.press("ctrl+p")
    await pilot.pause()
    assert isinstance(app.screen, CommandPalette)
    await pilot.press(*command)
    for _ in range(20):
        await pilot.pause(0.05)
        if app.screen.query("CommandList Option"):
            break
    await pilot.press("enter")
    await pilot.pause()


async def test_quit_from_the_command_palette_asks_during_a_game(
        quick_options: PlayOptions) -> None:
    app = NilApp("play", options=quick_options)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await open_palette_and_run(app, pilot, "quit")
        assert isinstance(app.screen, ConfirmQuit), app.screen
        await pilot.press("n")
        await pilot.pause()
        assert app.is_running and table(app).in_progress
        await open_palette_and_run(app, pilot, "quit")
        assert isinstance(app.screen, ConfirmQuit)
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running
    assert app.return_code == 0


async def test_quit_from_the_command_palette_in_setup_quits() -> None:
    app = NilApp("setup")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await open_palette_and_run(app, pilot, "quit")
        await pilot.pause()
        assert not app.is_running


@pytest.mark.parametrize("key", ["ctrl+p", "q"])
async def test_bots_wait_while_the_palette_or_a_dialog_is_open(
        quick_options: PlayOptions, key: str) -> None:
    players: list[BlockingPlayer] = []
    options = replace(quick_options, seed=SOUTH_LEADS)
    app = NilApp("play", options=options, opener=blocking_opener(players, armed=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        deal = screen.game.deal
        assert not deal.trick and not deal.tricks, "South should lead the first trick"
        await pilot.press("enter")  # your card: West is asked and holds its answer
        for _ in range(200):
            await pilot.pause(0.02)
            if any(p.asked.is_set() for p in players):
                break
        else:
            raise AssertionError("West was not asked")
        await pilot.press(key)  # look elsewhere while West thinks
        assert not isinstance(app.screen, type(screen))
        for player in players:  # West answers while the other screen is in front
            player.armed.clear()
            player.go.set()
        await app.workers.wait_for_complete()
        for _ in range(5):
            await pilot.pause()
        assert len(deal.trick) == 1, "a bot played while the table was covered"
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.screen is screen
        assert len(deal.trick) + 4 * len(deal.tricks) > 1  # the bots went on


# --- 13: the game-over page ----------------------------------------------------------------
PLAYERS = [{"name": "South", "kind": "human"}] + [
    {"name": n, "kind": "bot", "bot": "easy"} for n in ("West", "North", "East")]


def played_game(seed: int, deals: int) -> Game:
    rng = random.Random(seed)
    game = Game(deals, seed=seed, players=PLAYERS)
    while True:
        while not game.deal.is_over:
            game.play(rng.choice(game.deal.legal_moves()))
        if game.is_over:
            return game
        game.next_deal()


@pytest.mark.parametrize("seed", [3, 4, 8])
async def test_game_over_says_how_the_last_deal_was_scored_and_the_headline_once(
        quick_options: PlayOptions, seed: int) -> None:
    game = played_game(seed, deals=2)
    last = game.deals[-1]
    app = NilApp("setup", options=quick_options)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(GameOverScreen(game, quick_options, None))
        await pilot.pause()
        words = "\n".join(text_of(w) for w in app.screen.query(Static))
        said = describe_result(last.taken, last.points, SEAT_LABELS)
        assert f"Deal 2 of 2: {said}" in words
        assert words.count("under the table") == 1, words
        losers = [SEAT_LABELS[s] for s in game.losers]
        headline = text_of(app.screen.query_one("#gameover-title"))
        for name in losers:
            assert (name if name != "You" else "you") in headline


# --- 14: setup fits 80x24; the levels and speeds in words ----------------------------------
async def test_setup_fits_80x24_with_resume_and_three_levels_described() -> None:
    store = Store.open()
    game = Game(8, seed=1)
    game.play(game.deal.legal_moves()[0])
    store.save_current(game.to_record(), {"deals": 8})
    store.save_settings({"bots": ["easy", "hard", "expert"]})
    store.close()
    app = NilApp("setup")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        assert screen.query("#resume")
        described = text_of(screen.query_one("#descriptions"))
        for title in ("Easy", "Hard", "Expert"):
            assert f"{title}: " in described
        scroll = screen.query_one("#setup", VerticalScroll)
        assert scroll.max_scroll_y == 0 and scroll.scroll_y == 0
        assert screen.query_one("#setup-title").region.y == 0
        assert screen.query_one("#start").region.bottom <= 23  # above the footer
        for line in described.splitlines():
            assert len(line) <= 76, line  # one line each at 80 columns


def test_each_level_says_its_measured_strength_in_words() -> None:
    titles = {spec: level.title for spec, level in LEVELS.items()}
    readme = LEVELS_PAGE.read_text(encoding="utf-8")
    for level in LEVELS.values():
        words = strength_words(level.measured, titles)
        assert words is not None, level.measured
        edge = float(level.measured.split()[0])
        assert level.measured.split()[0] in readme  # the figure is the one measured
        every = re.search(r"every (\d+) deals", words[0])
        assert every is not None and abs(int(every[1]) - 1 / abs(edge)) <= 0.5
        assert ("ahead" in words[0]) == (edge > 0)
        assert "edge" not in words[0] and "pts" not in words[0]
    assert strength_words("+0.330 points a deal against 3 easy (200 games of 8 deals)",
                          titles) == ("About 1 point ahead of Easy bots every 3 deals",
                                      "+0.330 a deal, 200 games")
    assert strength_words("-0.202 points a deal against 3 normal", titles) == (
        "About 1 point behind Normal bots every 5 deals", "-0.202 a deal")
    assert strength_words("+0.010 points a deal against 3 normal", titles) == (
        "About as strong as Normal bots", "+0.010 a deal")
    assert strength_words("", titles) is None


def test_speeds_are_explained_by_the_pauses_the_table_makes() -> None:
    assert "no pauses" in speed_words("instant")
    for speed in ("fast", "normal", "slow"):
        bot, trick = PAUSES[speed]
        text = speed_words(speed)
        assert f"{bot:g} s" in text and f"{trick:g} s" in text


async def test_setup_explains_the_chosen_speed() -> None:
    app = NilApp("setup")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert text_of(screen.query_one("#speed-help")) == speed_words("normal")
        screen.query_one("#speed", Select).value = "slow"
        await pilot.pause()
        assert text_of(screen.query_one("#speed-help")) == speed_words("slow")


# --- Resume names the deal play goes on with -----------------------------------------------
async def test_resume_after_a_finished_deal_names_the_next_deal() -> None:
    """Quitting on deal 1's summary saves a game whose deal 1 is over: setup offers "deal 2
    of 4" (play goes on with deal 2), and so does the question before a new game."""
    from textual.widgets import Button

    from nil_tui.tui.app import describe_saved

    rng = random.Random(3)
    game = Game(4, seed=3)
    while not game.deal.is_over:
        game.play(rng.choice(game.deal.legal_moves()))
    store = Store.open()
    store.save_current(game.to_record(), {"deals": 4})
    store.close()
    assert describe_saved(game.to_record()).startswith("deal 2 of 4")
    app = NilApp("setup")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        label = str(app.screen.query_one("#resume", Button).label)
        assert label == "Resume the saved game (deal 2 of 4)", label
    game.next_deal()
    game.play(game.deal.legal_moves()[0])
    assert describe_saved(game.to_record()).startswith("deal 2 of 4")


# --- setup: the first field typed in has the focus, and the focus shows without colour -----
async def test_typing_a_number_of_deals_needs_no_tab_and_letters_stay_keys() -> None:
    keep_settings({"speed": "instant", "bots": ["easy", "easy", "easy"]})
    app = NilApp("setup")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("3")
        assert app.screen.query_one("#deals").value == "3"  # type: ignore[attr-defined]
        await pilot.press("h")  # a letter is still the screen's key: history opens
        await pilot.pause()
        assert not isinstance(app.screen, SetupScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("enter")
        await settle(app, pilot)
        assert table(app).game.deals_planned == 3


def colourless(app: NilApp, region: Any) -> list[tuple[str, bool, bool, bool, bool]]:
    """The cells of a region as a monochrome terminal shows them: the character and the
    bold / reverse / underline / italic attributes, no colour."""
    cells = []
    for y, strip in enumerate(app.screen._compositor.render_strips()):
        if not region.y <= y < region.bottom:
            continue
        x = 0
        for seg in strip:
            style = seg.style
            for ch in seg.text:
                if region.x <= x < region.right:
                    cells.append((ch, bool(style and style.bold), bool(style and style.reverse),
                                  bool(style and style.underline),
                                  bool(style and style.italic)))
                x += 1
    return cells


@pytest.mark.slow
async def test_where_the_focus_is_shows_without_colour() -> None:
    """Each field, list, checkbox and button of setup looks different, in characters or in
    bold / reverse / underline, when it has the focus (an input's cursor aside)."""
    from textual.widgets import Input

    app = NilApp("setup")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.focused is screen.query_one("#deals")
        for widget in screen.focus_chain:
            if isinstance(widget, Input):
                widget.cursor_blink = False
        for widget in list(screen.focus_chain):
            area = widget.parent.region if widget.parent and "field" in widget.parent.classes \
                else widget.region
            screen.set_focus(None)
            await pilot.pause()
            before = colourless(app, area)
            screen.set_focus(widget)
            await pilot.pause()
            after = colourless(app, area)
            if isinstance(widget, Input):  # the cursor is not the mark: hide it
                widget.cursor_position = 0
            assert before != after, f"the focus on #{widget.id} shows only by colour"


async def test_the_meter_is_a_setup_choice_kept_in_the_settings() -> None:
    keep_settings({"speed": "instant", "bots": ["easy", "easy", "easy"]})
    app = NilApp("setup")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        assert screen.query_one("#meter", Checkbox).value is False
        screen.query_one("#meter", Checkbox).value = True
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert table(app).options.meter
    assert saved_settings()["meter"] is True
    app = NilApp("setup")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#meter", Checkbox).value is True
