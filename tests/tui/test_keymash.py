"""Seeded random keys and clicks across games: no exception, the engine's invariants hold
afterwards, the saved game is the game on the table, and Enter alone still finishes the game.
Then seeded keys on every screen the app starts on (setup, a game, a replay, history,
statistics, the daily challenge, a resumed game), the command palette and the quit keys
among them: nothing raises, whichever screen the keys lead to. Keys come in bursts with no
pause between them, as a terminal delivers what is typed quickly (``q`` then ``i``, Ctrl+P
then PageDown): the app handles none of a burst before all of it has arrived.

A short mash per seed here; ``benchmarks/keymash.py`` runs the same mashes for thousands of
keys.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from textual import events
from tui_helpers import settle, wait_for_workers

from nil_tui.engine import DECK, Game, score
from nil_tui.game.options import PlayOptions
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.table import TableScreen
from nil_tui.tui.widgets.hand import Hand

KEYS = [
    ("left", None), ("right", None), ("a", "a"), ("d", "d"), ("enter", "\r"), ("space", " "),
    ("enter", "\r"), ("enter", "\r"), ("s", "s"), ("t", "t"), ("h", "h"),
    ("question_mark", "?"), ("f1", None), ("escape", "\x1b"), ("n", "n"), ("up", None),
    ("down", None), ("tab", "\t"), ("x", "x"), ("1", "1"),
]
SIZE = (100, 32)


def check_invariants(game: Game) -> None:
    totals = [0, 0, 0, 0]
    for deal in game.deals:
        seen = 0
        for seat in range(4):
            for card in deal.hand(seat):
                assert not seen & card.bit
                seen |= card.bit
        for trick in deal.tricks:
            assert len(trick.cards) == 4
            for card in trick.cards:
                assert not seen & card.bit
                seen |= card.bit
        for card in deal.trick:
            assert not seen & card.bit
            seen |= card.bit
        assert seen == (1 << len(DECK)) - 1
        assert sum(deal.taken) == len(deal.tricks)
        if deal.is_over:
            assert deal.points == score(deal.taken, deal.ended_early)
            totals = [t + p for t, p in zip(totals, deal.points)]
    assert list(game.totals) == totals
    again = Game.from_record(game.to_record()).to_record()
    record = game.to_record()
    again.pop("created"), record.pop("created")
    assert again == record


async def mash(app: NilApp, pilot: object, seed: int, keys: int) -> list[Game]:
    """Send ``keys`` seeded random keys (a click every 40th), and return the games seen on
    the table along the way, in order."""
    from typing import Any

    drive: Any = pilot
    rng = random.Random(seed)
    games: list[Game] = []
    for step in range(keys):
        if step % 40 == 39:
            await wait_for_workers(app)
            await drive.pause()
            await drive.click(offset=(rng.randrange(SIZE[0]), rng.randrange(SIZE[1])))
        else:
            key, char = rng.choice(KEYS)
            app.post_message(events.Key(key, char))
        if step % 20 == 19:
            await wait_for_workers(app)
            await drive.pause()
            screen = app.screen
            if isinstance(screen, TableScreen) and (not games or games[-1] is not screen.game):
                games.append(screen.game)
    await wait_for_workers(app)
    await drive.pause()
    return games


def mash_app(seed: int, deals: int) -> NilApp:
    return NilApp("play", options=PlayOptions(deals=deals, bots=("easy",) * 3, seed=seed,
                                              speed="instant"))


@pytest.mark.parametrize("seed", [2026, 7, 31])
async def test_a_short_key_mash_keeps_the_game_sound(seed: int) -> None:
    app = mash_app(seed, deals=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        games = await mash(app, pilot, seed, keys=100)
        assert app.is_running
        assert games, "the mash never reached the table"
        for game in games:
            check_invariants(game)
        # The saved game is the game on the table.
        screen = app.screen
        if isinstance(screen, TableScreen) and not screen.game.is_over:
            saved = app.store.load_current()
            assert saved is not None
            assert saved[0]["deals"] == screen.game.to_record()["deals"]
        # With a game unfinished on the table (under whatever the mash left open), closing
        # what is open and playing a legal card at each turn (arrows, then Enter) finishes it.
        tables = [s for s in app.screen_stack if isinstance(s, TableScreen)]
        if tables and not tables[-1].game.is_over:
            table = tables[-1]
            for _ in range(8):
                # The bots' cards land once the table is in front again: they may end it.
                if app.screen is table or table.game.is_over:
                    break
                await pilot.press("escape")
                await settle(app, pilot)
            assert app.screen is table or table.game.is_over, \
                f"stuck on {app.screen!r} above the table"
            hand = table.query_one(Hand)
            # Each step reads the table afresh: a key may only put away a trick on show, and
            # the bots' cards (even a new deal) may come in between.
            for _ in range(3000):
                game = table.game
                if game.is_over:
                    break
                if app.screen is not table:  # the deal summary: close it
                    await pilot.press("escape")
                    await settle(app, pilot)
                    continue
                legal = game.deal.legal_moves() if game.to_move == 0 else []
                shown = [c for c in legal if c in hand.cards]
                if not shown:  # the bots' turn, or the hand not yet drawn with their card
                    await settle(app, pilot)
                    await pilot.pause(0.01)
                    continue
                if hand.current in legal:
                    await pilot.press("enter")
                    await settle(app, pilot)
                    continue
                target = hand.cards.index(shown[0])
                await pilot.press("right" if hand.cursor < target else "left")
            assert table.game.is_over, (
                f"the game did not finish after the mash: to move {table.game.to_move}, "
                f"screens {[type(s).__name__ for s in app.screen_stack]}")
            check_invariants(table.game)


# --- waiting for the app's workers -----------------------------------------------------------
async def test_waiting_for_workers_survives_an_exclusive_worker_cancelled() -> None:
    """The mash waits for the app's workers after its keys. A second hint cancels the first
    (the hint's worker is exclusive): Textual's wait_for_complete then raises WorkerCancelled
    (the mash failed about 2 runs in 10); the helper waits for the rest and goes on."""
    import asyncio

    from textual.app import App
    from textual.worker import WorkerCancelled

    class Hints(App[None]):
        async def think(self, forever: bool) -> None:
            if forever:  # until a newer hint cancels it, however slow the machine
                await asyncio.Event().wait()

        def hint(self, forever: bool) -> None:
            self.run_worker(self.think(forever), group="hint", exclusive=True)

    app = Hints()
    async with app.run_test() as pilot:
        app.hint(True)
        await pilot.pause()
        app.hint(False)  # cancels the first
        with pytest.raises(WorkerCancelled):
            await app.workers.wait_for_complete()
        app.hint(True)
        await pilot.pause()
        app.hint(False)
        await wait_for_workers(app)
        assert not any(w.is_running for w in app.workers)


# --- the command palette and the quit keys ---------------------------------------------------
@pytest.mark.parametrize("quit_key", ["ctrl+c", "ctrl+q"])
async def test_the_palette_again_above_the_quit_question_is_not_a_second_palette(
        quit_key: str) -> None:
    """Ctrl+P, then Ctrl+C (the quit question opens above the palette), then Ctrl+P: the
    palette is not opened twice (it used to end the app: DuplicateIds '--command-palette')."""
    from textual.command import CommandPalette

    from nil_tui.tui.screens.dialogs import ConfirmQuit

    app = mash_app(5, deals=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        for key in ("ctrl+p", quit_key, "ctrl+p", "ctrl+p"):
            await pilot.press(key)
            await pilot.pause()
        assert app.is_running
        kinds = [type(s) for s in app.screen_stack]
        assert kinds.count(CommandPalette) == 1, kinds
        assert isinstance(app.screen, ConfirmQuit)
        await pilot.press("n")  # stay: the game goes on
        await pilot.pause()
        assert app.is_running


# --- a screen closed before it is drawn ------------------------------------------------------
@pytest.mark.parametrize("key", ["d", "t"])
async def test_a_review_closed_before_it_is_drawn_raises_nothing(key: str) -> None:
    """The deal summary's review (d, t) closed by a key that comes before the next frame:
    the review's drawing at its place, asked for after that frame, is not done on a screen
    that is gone (the long mash ended the app with NoMatches '#hand-0')."""
    from textual.app import App

    from nil_tui.tui.screens.summary import SummaryScreen

    game = Game.from_record(finished_record(8))

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(SummaryScreen(game, between_deals=True))

    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.post_message(events.Key(key, key))
        app.post_message(events.Key("escape", "\x1b"))
        for _ in range(5):
            await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)


# --- seeded keys on every screen -------------------------------------------------------------
# Every key some screen binds, the palette's and the quit keys, typing, and keys bound nowhere.
SCREEN_KEYS = [
    "ctrl+p", "ctrl+c", "ctrl+q", "escape", "escape", "enter", "enter", "space", "tab",
    "shift+tab", "up", "down", "left", "right", "home", "end", "pageup", "pagedown", "q", "y",
    "n", "a", "d", "s", "t", "h", "c", "m", "u", "r", "g", "e", "E", "i", "p", "k", "j", "x",
    "question_mark", "f1", "f2", "ctrl+s", "1", "2", "3", "backspace", "delete",
]
STARTS = ["setup", "play", "replay", "history", "stats", "challenge", "resume"]
CHALLENGE_DATE = "2026-11-30"


def finished_record(seed: int, deals: int = 2) -> dict[str, object]:
    rng = random.Random(seed)
    game = Game(deals, seed=seed)
    while not game.is_over:
        if game.deal.is_over:
            game.next_deal()
        game.play(rng.choice(list(game.deal.legal_moves())))
    return game.to_record()


def fill_store() -> None:
    """Two finished games in the test's store, so that history, statistics and the review
    have something to show."""
    from nil_tui.store import Store

    store = Store.open()
    try:
        for seed in (1, 2):
            store.finish_game(finished_record(seed), {
                "deals": 2, "bots": ["easy"] * 3, "seed": None, "speed": "instant",
                "ascii": False, "four_color": False, "theme": None, "extra": {}})
    finally:
        store.close()


async def prepare(start: str) -> None:
    """The store as the start needs it: finished games, and for ``resume`` a game left."""
    fill_store()
    if start == "resume":
        app = mash_app(3, deals=2)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await pilot.press("enter")
            await settle(app, pilot)


def easy_opener(spec: str, seed: int) -> object:
    """Every seat's bot is easy (the challenge's experts think for long)."""
    from nil_tui.bots import open_player

    return open_player("easy", seed)


def screen_app(start: str, seed: int) -> NilApp:
    options = PlayOptions(deals=1, bots=("easy",) * 3, seed=seed, speed="instant")
    if start == "replay":
        return NilApp("replay", options=options,
                      game=Game.from_record(finished_record(seed)))
    return NilApp(start, options=options, opener=easy_opener,  # type: ignore[arg-type]
                  challenge_date=CHALLENGE_DATE if start == "challenge" else None)


BURST = 6
"""The most keys in a burst (each burst 1 to BURST keys long)."""
CHARACTERS = {"enter": "\r", "space": " ", "tab": "\t", "escape": "\x1b",
              "question_mark": "?", "backspace": "\x7f"}


def key_event(name: str) -> events.Key:
    """The key event a terminal's ``name`` key makes."""
    return events.Key(name, name if len(name) == 1 else CHARACTERS.get(name))


async def keys_on_screens(start: str, seed: int, keys: int) -> tuple[set[str], int]:
    """Press ``keys`` seeded keys in bursts on an app started at ``start``; an app the keys
    end (a quit key) is started again for the keys left. Returns the screens seen and the
    number of starts. An exception in the app fails the run (Textual raises it from run_test)."""
    rng = random.Random(f"{start} {seed}")
    seen: set[str] = set()
    starts = 0
    left = keys
    while left > 0:
        starts += 1
        app = screen_app(start, seed + starts)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            while left > 0 and app.is_running:
                size = min(left, rng.randint(1, BURST))
                burst = [rng.choice(SCREEN_KEYS) for _ in range(size)]
                left -= len(burst)
                for name in burst:  # all on their way before the app handles the first
                    app.post_message(key_event(name))
                await wait_for_workers(app)
                await pilot.pause()
                if app.is_running and app.screen_stack:
                    seen.add(type(app.screen).__name__)
            for screen in app.screen_stack if app.is_running else ():
                if isinstance(screen, TableScreen):
                    check_invariants(screen.game)
    return seen, starts


class QuickReference:
    """The expert's points on a challenge's deals, known at once (the real one plays the
    deals in a process of its own, for minutes)."""

    def __init__(self, date: str) -> None:
        self.date = date

    def news(self, should_stop: object = None, poll: float = 0.25) -> Iterator[object]:
        from nil_tui.game.daily_challenge import CHALLENGE_DEALS, Finished

        yield Finished([1] * CHALLENGE_DEALS)

    def stop(self) -> None:
        pass


def quick_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    """The analysis screen's search on a small budget, in its thread, and the challenge's
    reference known at once (the keys wait for both)."""
    from nil_tui import analysis
    from nil_tui.analysis import Budget

    quick = Budget(batch=20, min_layouts=20, max_layouts=40, max_playouts=400)
    full = analysis.analyse_deal

    def analyse_deal(*args: object, **kwargs: object) -> object:
        kwargs.update(budget=quick, jobs=0)  # in the worker thread: no processes to start
        return full(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(analysis, "analyse_deal", analyse_deal)
    from nil_tui.game import daily_challenge as challenge

    monkeypatch.setattr(challenge, "ReferenceProcess", QuickReference)


@pytest.mark.parametrize("start", STARTS)
async def test_seeded_keys_on_every_screen_raise_nothing(
        start: str, tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(str(tmp_path))  # a screenshot from the palette lands here
    quick_analysis(monkeypatch)
    await prepare(start)
    seen, _ = await keys_on_screens(start, 2026, keys=30)
    assert seen, "no screen was ever shown"
