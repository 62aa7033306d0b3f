"""Nothing lost, and nothing said that is not true: a new game never silently replaces a saved
one, a save that fails is shown, a bot that cannot start is replaced by the player's choice."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import settle, table

from nil_tui.engine import Card, Deal, PlayerView
from nil_tui.game.options import PlayOptions
from nil_tui.store import Store
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.dialogs import ChooseSubstitute, ConfirmQuit, ReplaceSaved
from nil_tui.tui.screens.history import HistoryScreen
from nil_tui.tui.screens.setup import SetupScreen
from nil_tui.tui.widgets.gamelog import GameLog


async def play_a_few_cards(options: PlayOptions, cards: int = 2) -> dict[str, object]:
    """Start a game, play some cards, quit: the game is saved. Returns its record."""
    app = NilApp("play", options=options)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        for _ in range(cards):
            await pilot.press("enter")
            await settle(app, pilot)
        record = table(app).game.to_record()
    return plays(record)


def saved_record(home: Path) -> dict[str, object] | None:
    with Store.open(home) as store:
        saved = store.load_current()
    return None if saved is None else plays(saved[0])


ANOTHER_GAME = PlayOptions(deals=1, bots=("easy",) * 3, seed=99, speed="instant")


async def asked_to_replace(app: NilApp, pilot: Any) -> None:
    """The app asks before a new game replaces the saved one."""
    for _ in range(20):
        await pilot.pause()
        if isinstance(app.screen, ReplaceSaved):
            return
    raise AssertionError(f"no question, the screen is {app.screen!r}")


def plays(record: dict[str, object]) -> dict[str, object]:
    """A record without its time stamp."""
    return {k: v for k, v in record.items() if k != "created"}


async def test_starting_a_new_game_asks_before_replacing_the_saved_one(
        nil_home: Path, quick_options: PlayOptions) -> None:
    first = await play_a_few_cards(quick_options)
    app = NilApp("play", options=ANOTHER_GAME)
    async with app.run_test(size=(100, 32)) as pilot:
        await asked_to_replace(app, pilot)
        await pilot.press("escape")  # cancel: the saved game is untouched
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
    assert saved_record(nil_home) == first


async def test_start_new_keeps_the_unfinished_game_in_history_and_it_can_be_resumed(
        nil_home: Path, quick_options: PlayOptions) -> None:
    first = await play_a_few_cards(quick_options)
    app = NilApp("play", options=ANOTHER_GAME)
    async with app.run_test(size=(100, 32)) as pilot:
        await asked_to_replace(app, pilot)
        await pilot.click("#answer-new")
        await settle(app, pilot)
        assert table(app).game.seed == 99
    with Store.open(nil_home) as store:
        rows = store.history()
        unfinished = [r for r in rows if not r["finished"]]
        assert len(unfinished) == 1
        kept = store.load_record(int(unfinished[0]["id"]))
        assert kept is not None and plays(kept) == first
        assert store.stats()["overall"]["games"] == 0  # an unfinished game is not played
    # From history, r resumes it exactly where it stopped.
    app = NilApp("history")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        rows = app.screen.rows
        index = next(i for i, r in enumerate(rows) if not r["finished"])
        app.screen.query_one("DataTable").move_cursor(row=index)
        await pilot.press("r")
        await settle(app, pilot)
        game = table(app).game
        assert game.seed == quick_options.seed
        assert game.to_record()["deals"] == first["deals"]


async def test_resume_offered_by_the_question_continues_the_saved_game(
        quick_options: PlayOptions) -> None:
    first = await play_a_few_cards(quick_options)
    app = NilApp("play", options=ANOTHER_GAME)
    async with app.run_test(size=(100, 32)) as pilot:
        await asked_to_replace(app, pilot)
        await pilot.click("#answer-resume")
        await settle(app, pilot)
        assert table(app).game.to_record()["deals"] == first["deals"]


async def test_a_saved_game_that_cannot_be_resumed_is_kept_and_the_player_told_where(
        nil_home: Path, quick_options: PlayOptions) -> None:
    record = await play_a_few_cards(quick_options)
    broken = dict(record, deals_planned=0)  # the engine refuses it
    with Store.open(nil_home) as store:
        assert store.save_current(broken, {"speed": "instant"})
    app = NilApp("resume")
    async with app.run_test(size=(100, 32), notifications=True) as pilot:
        await pilot.pause()
        messages = " ".join(str(n.message) for n in app._notifications)
        assert "cannot be resumed" in messages and "kept as" in messages
    kept = [p for p in nil_home.rglob("*") if p.is_file() and "deals_planned" in
            p.read_text(errors="replace") and p.suffix != ".db"]
    assert kept, "the saved game was not kept anywhere"
    assert saved_record(nil_home) is None


async def test_the_not_saved_mark_is_not_covered_by_the_notification(
        nil_home: Path, quick_options: PlayOptions, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 80x24, while the "Not saved" notification is up, the mark on your seat's line is
    still on the screen (the notification used to sit on top of it)."""
    monkeypatch.setattr(Store, "save_current", lambda self, record, options: False)
    monkeypatch.setattr(Store, "problem", property(lambda self: "the disk is full."))
    monkeypatch.setattr(Store, "retry_pending", lambda self: False)
    app = NilApp("play", options=quick_options)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        app.notify("Another notice, as at a start with a warning.", timeout=8)
        app.notify("And a third one, so that the notices stack up the screen.", timeout=8)
        await settle(app, pilot)
        assert len(app._notifications) >= 3, "the notifications are shown"
        lines = [strip.text for strip in app.screen._compositor.render_strips()]
        row = next((y for y, line in enumerate(lines) if "You (South)" in line), None)
        assert row is not None, "\n".join(lines)
        assert "⚠ not saved" in lines[row], "\n".join(lines)
        x = lines[row].index("⚠ not saved")
        from textual.widgets._toast import Toast
        toasts = [toast.region for toast in app.screen.query(Toast)]
        assert toasts
        for region in toasts:  # left of every notice, whichever rows the notices take
            assert x + len("⚠ not saved") <= region.x, (region, row, x, "\n".join(lines))


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only files anyway")
async def test_a_save_that_fails_is_shown_and_the_quit_dialog_tells_the_truth(
        nil_home: Path, quick_options: PlayOptions) -> None:
    await _save_fails(nil_home, quick_options)


async def test_a_save_that_fails_is_shown_even_as_root(
        nil_home: Path, quick_options: PlayOptions, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same, with the store's write failing the way a full disk fails."""
    real = Store.save_current

    def full(self: Store, record: dict[str, object], options: dict[str, object]) -> bool:
        self.fail_writes_for_test = True  # type: ignore[attr-defined]
        return False

    monkeypatch.setattr(Store, "save_current", full)
    monkeypatch.setattr(Store, "problem", property(
        lambda self: "the disk is full." if getattr(self, "fail_writes_for_test", False)
        else None))
    monkeypatch.setattr(Store, "retry_pending", lambda self: False)
    app = NilApp("play", options=quick_options)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.save_problem == "the disk is full."
        south = str(table(app).query_one("#south").render())
        assert "not saved" in south
        await pilot.press("q")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmQuit)
        text = " ".join(str(w.render()) for w in dialog.query("Static"))
        assert "NOT saved" in text and "the disk is full" in text
        assert "Your game is saved" not in text
        await pilot.press("enter")  # Enter keeps playing
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmQuit)
        monkeypatch.setattr(Store, "save_current", real)


async def _save_fails(home: Path, options: PlayOptions) -> None:
    app = NilApp("play", options=options)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        db = next(home.glob("*.db"))
        db.chmod(stat.S_IRUSR)
        try:
            await pilot.press("enter")
            await settle(app, pilot)
            assert app.save_problem
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmQuit)
            assert app.screen.problem
        finally:
            db.chmod(stat.S_IRUSR | stat.S_IWUSR)


@dataclass(frozen=True)
class Answer:
    card: Card
    incident: str | None = None


class LowPlayer:
    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.name = spec

    def decide(self, view: PlayerView, perfect: Callable[[], Deal] | None = None) -> Answer:
        return Answer(view.legal[0])

    def close(self) -> None:
        pass


def opener_missing(missing: str) -> Callable[[str, int], LowPlayer]:
    def opener(spec: str, seed: int) -> LowPlayer:
        if spec == missing:
            from nil_tui.bots import BotSpecError

            raise BotSpecError(f"bot spec {spec!r}: cannot import module 'gone'")
        return LowPlayer(spec)

    return opener


async def test_a_plugin_that_is_gone_is_replaced_by_the_level_the_player_picks() -> None:
    options = PlayOptions(deals=1, bots=("easy", "gone:Bot", "easy"), seed=3, speed="instant")
    app = NilApp("play", options=options, opener=opener_missing("gone:Bot"))
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(20):
            await pilot.pause()
            if isinstance(app.screen, ChooseSubstitute):
                break
        dialog = app.screen
        assert isinstance(dialog, ChooseSubstitute)
        text = " ".join(str(w.render()) for w in dialog.query("Static"))
        assert "gone:Bot" in text and "cannot import" in text
        await pilot.click("#answer-hard")
        await settle(app, pilot)
        game = table(app).game
        assert game.players[2]["bot"] == "hard"
        assert game.players[2]["replaced"][0]["bot"] == "gone:Bot"
        log = " ".join(table(app).query_one(GameLog).history)
        assert "North: gone:Bot could not start" in log and "hard plays for it" in log


async def test_a_theme_name_is_shown_as_text_not_markup(quick_options: PlayOptions) -> None:
    from dataclasses import replace

    app = NilApp("play", options=replace(quick_options, theme="[/]"))
    async with app.run_test(size=(100, 32), notifications=True) as pilot:
        await settle(app, pilot)
        messages = " ".join(str(n.message) for n in app._notifications)
        assert "No theme called" in messages and "[/]" in messages


async def test_a_finished_game_that_could_not_be_kept_is_kept_once_the_store_can_be_written(
        quick_options: PlayOptions, monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from nil_tui.store import Finished
    from nil_tui.tui.screens.gameover import GameOverScreen

    real_keep = Store.keep_finished
    broken = {"on": True}

    def keep(self: Store, record: dict[str, object], options: dict[str, object]) -> Finished:
        if broken["on"]:
            return Finished(False, None, "the disk is full.")
        return real_keep(self, record, options)

    monkeypatch.setattr(Store, "keep_finished", keep)
    monkeypatch.setattr(Store, "problem", property(
        lambda self: "the disk is full." if broken["on"] else None))
    monkeypatch.setattr(Store, "retry_pending", lambda self: not broken["on"])
    app = NilApp("play", options=replace(quick_options, deals=1))
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(40):
            await settle(app, pilot)
            if isinstance(app.screen, GameOverScreen):
                break
            await pilot.press("enter")
        over = app.screen
        assert isinstance(over, GameOverScreen)
        assert over.path is None
        assert "is not saved: the disk is full." in str(over.query_one("#gameover-path").render())
        broken["on"] = False
        for _ in range(100):  # the app retries every second
            await pilot.pause(0.1)
            if over.path is not None:
                break
        assert over.path is not None and over.path.exists()
        assert "Record saved" in str(over.query_one("#gameover-path").render())
        assert app.save_problem is None
