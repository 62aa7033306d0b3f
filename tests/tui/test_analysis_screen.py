"""The analysis screen: progress while the work runs in the background, then the costly plays
and every decision; a deal kept in the store is not computed again; Escape stops the work.
Opened from the deal summary, history and the review screen."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.screen import Screen
from textual.widgets import DataTable, ProgressBar, Static

from nil_tui import analysis
from nil_tui.analysis import DealAnalysis, Decision, Option
from nil_tui.engine import Card, Game
from nil_tui.engine.game import Phase
from nil_tui.store import Store
from nil_tui.tui import app as app_module
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.analysis import AnalysisScreen, analysis_of
from nil_tui.tui.screens.history import HistoryScreen
from nil_tui.tui.screens.review import ReviewScreen

SIZE = (80, 24)


def played_game(seed: int = 3, deals: int = 2, bots_only: bool = False) -> Game:
    rng = random.Random(seed)
    players = None
    if bots_only:
        players = [{"name": n, "kind": "bot", "bot": "easy"}
                   for n in ("South", "West", "North", "East")]
    game = Game(deals, seed=seed, players=players) if players else Game(deals, seed=seed)
    while not game.is_over:
        if game.phase is Phase.DEAL_OVER:
            game.next_deal()
        game.play(rng.choice(list(game.deal.legal_moves())))
    return game


def known_analysis(deal: int, seat: int = 0) -> DealAnalysis:
    """Two decisions: trick 2 cost 0.42 points; trick 5 was forced."""
    c = Card.parse
    costly = Decision(deal=deal, trick=2, seat=seat, played=c("9S"), best=c("4S"), cost=0.42,
                      cost_se=0.05, forced=False, took_trick=True, was_clean=True,
                      options=(Option(c("4S"), 1.80, 0.03, 0.61),
                               Option(c("9S"), 1.38, 0.04, 0.22),
                               Option(c("KH"), 1.20, 0.04, 0.15)),
                      legal=(c("4S"), c("9S"), c("KH")), layouts=300)
    forced = Decision(deal=deal, trick=5, seat=seat, played=c("2D"), best=c("2D"), cost=0.0,
                      cost_se=0.0, forced=True, took_trick=False, was_clean=False,
                      options=(), legal=(c("2D"),))
    return DealAnalysis(deal=deal, seat=seat, decisions=(costly, forced))


class FakeAnalyse:
    """Stands in for ``analyse_deal``: reports progress, waits at a gate, then answers."""

    def __init__(self, gate: bool = False) -> None:
        self.calls: list[tuple[int, int]] = []
        self.gate = threading.Event()
        if not gate:
            self.gate.set()
        self.waiting = threading.Event()
        self.stopped = threading.Event()

    def __call__(self, game: Game, deal: int, seat: int, *, jobs: int | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 should_stop: Callable[[], bool] | None = None) -> DealAnalysis | None:
        self.calls.append((deal, seat))
        if progress is not None:
            progress(1, 2)
        self.waiting.set()
        while not self.gate.wait(0.01):
            if should_stop is not None and should_stop():
                self.stopped.set()
                return None
        if progress is not None:
            progress(2, 2)
        return known_analysis(deal, seat)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeAnalyse:
    fake = FakeAnalyse(gate=True)
    monkeypatch.setattr(analysis, "analyse_deal", fake)
    return fake


@pytest.fixture
def store(tmp_path: Path):
    s = Store.open(tmp_path / "store")
    yield s
    s.close()


class Below(Screen[None]):
    pass


class Host(NilApp):
    """The app with one screen pushed over a plain one (as the table or history would be)."""

    CSS_PATH = str(Path(app_module.__file__).parent / "app.tcss")

    def __init__(self, make: Callable[[], Screen[Any]], store: Store) -> None:
        super().__init__("history", store=store)
        self.make = make

    def _begin(self) -> None:
        self.push_screen(Below(id="below"))
        self.push_screen(self.make())


def text(screen: Screen[Any], selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def until(pilot: Any, app: App[Any], check: Callable[[], bool]) -> None:
    for _ in range(100):
        await pilot.pause(0.02)
        if check():
            return
    raise AssertionError("the screen never got there")


async def test_progress_then_the_costly_plays_and_every_decision(
        fake: FakeAnalyse, store: Store) -> None:
    game = played_game()
    app = Host(lambda: AnalysisScreen(game, 1, 0, ascii=True), store)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        await until(pilot, app, lambda: "1 of 2 plays" in text(screen, "#analysis-progress-label"))
        assert screen.query_one("#analysis-progress").display
        assert screen.query_one(ProgressBar).progress == 1
        assert "being analysed" in text(screen, "#analysis-costly")
        fake.gate.set()
        await app.workers.wait_for_complete()
        await until(pilot, app, lambda: screen.finished)
        assert not screen.query_one("#analysis-progress").display
        costly = text(screen, "#analysis-costly")
        assert "about 0.4 points in all" in costly
        assert known_analysis(1).decisions[0].sentence(ascii=True) in costly
        table = screen.query_one(DataTable)
        assert table.row_count == 2
        first = [str(c) for c in table.get_row_at(0)]
        assert first[:5] == ["2", "9S", "4S", "0.42", "0.05"]
        assert [str(c) for c in table.get_row_at(1)][3:] == ["-", "", "only card"]
        detail = text(screen, "#analysis-detail")
        assert "4S 1.80  9S 1.38  KH 1.20" in detail
        assert "Chance to stay clean: 9S 22%, 4S 61%" in detail
        assert "from what you could see" in text(screen, "#analysis-head")
        # Kept in the store: the deal is computed once.
        assert store.computed(analysis.cache_key(game, 1, 0)) == known_analysis(1).to_json()
        assert fake.calls == [(1, 0)]


async def test_a_deal_kept_in_the_store_is_not_computed_again(
        fake: FakeAnalyse, store: Store) -> None:
    game = played_game()
    # Kept under the deal's content: numbered as here whatever game it came from.
    assert store.remember(analysis.cache_key(game, 1, 0), known_analysis(7).to_json())
    app = Host(lambda: AnalysisScreen(game, None, 0, ascii=True), store)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        assert screen.deals == [1, 2]
        await until(pilot, app, fake.waiting.is_set)
        await pilot.pause()
        # Deal 1 is shown from the store at once, while deal 2 is computed.
        assert screen.cached == {1}
        assert "deal 1 of 2" in text(screen, "#analysis-head")
        assert "Trick 2: 9S instead of 4S" in text(screen, "#analysis-costly")
        assert screen.query_one(DataTable).row_count == 2
        assert screen.results[1].deal == 1
        fake.gate.set()
        await app.workers.wait_for_complete()
        await until(pilot, app, lambda: screen.finished)
        assert fake.calls == [(2, 0)]  # deal 1 came from the store
        await pilot.press("n")
        await pilot.pause()
        assert screen.deal == 2
        assert "deal 2 of 2" in text(screen, "#analysis-head")
        assert screen.query_one(DataTable).row_count == 2


async def test_escape_closes_the_screen_and_stops_the_work(
        fake: FakeAnalyse, store: Store) -> None:
    game = played_game()
    app = Host(lambda: AnalysisScreen(game, None, 0, ascii=False), store)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, app, fake.waiting.is_set)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.id == "below"
        assert fake.stopped.wait(5)
        await app.workers.wait_for_complete()
        assert fake.calls == [(1, 0)]  # deal 2 never started
        assert store.computed(analysis.cache_key(game, 1, 0)) is None


async def test_a_failing_analysis_is_said_in_one_line(
        monkeypatch: pytest.MonkeyPatch, store: Store) -> None:
    def broken(*args: Any, **kwargs: Any) -> DealAnalysis:
        raise RuntimeError("no worker process could start")

    monkeypatch.setattr(analysis, "analyse_deal", broken)
    app = Host(lambda: AnalysisScreen(played_game(), 1, 0, ascii=False), store)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        await app.workers.wait_for_complete()
        await until(pilot, app, lambda: screen.finished)
        said = text(screen, "#analysis-costly")
        assert said == ("Deal 1 could not be analysed: RuntimeError: no worker process "
                        "could start")


def test_a_game_of_bots_only_analyses_south_and_says_so() -> None:
    screen = analysis_of(played_game(bots_only=True), None, ascii=False)
    assert screen.seat == 0 and screen.note is not None and "South" in screen.note
    screen = analysis_of(played_game(), None, ascii=False)
    assert screen.seat == 0 and screen.note is None


async def test_history_opens_the_analysis_of_every_deal_of_a_game(
        fake: FakeAnalyse, store: Store) -> None:
    store.finish_game(played_game(deals=3).to_record(), {"deals": 3, "bots": ["easy"] * 3})
    app = Host(lambda: HistoryScreen(store), store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        assert screen.deals == [1, 2, 3]
        fake.gate.set()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)


async def test_the_review_opens_the_deal_on_show_or_every_deal(
        fake: FakeAnalyse, store: Store) -> None:
    fake.gate.set()
    app = Host(lambda: ReviewScreen(played_game(deals=3)), store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.press("e")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AnalysisScreen) and screen.deals == [2]
        await pilot.press("escape")
        await pilot.press("E")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        assert screen.deals == [1, 2, 3] and screen.deal == 2
        await pilot.press("escape")
        await app.workers.wait_for_complete()


async def test_the_deal_summary_opens_the_analysis_of_the_deal_just_finished(
        fake: FakeAnalyse, store: Store) -> None:
    from nil_tui.tui.screens.summary import ScoresScreen, SummaryScreen

    fake.gate.set()
    game = played_game(deals=2)
    app = Host(lambda: SummaryScreen(game, between_deals=True), store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AnalysisScreen) and screen.deals == [2]
        assert screen.game is not game  # a copy: the game in progress may go on
        await app.workers.wait_for_complete()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        assert not ScoresScreen(game).check_action("analyse", ())  # not in the middle of a deal


async def test_the_real_analysis_of_a_short_deal_through_the_screen(store: Store) -> None:
    """Seed 4's random deal ends after four tricks: the expert's figures in about a second."""
    game = played_game(seed=4, deals=1)
    assert len(game.deals[0].tricks) == 4
    app = Host(lambda: AnalysisScreen(game, 1, 0, ascii=True), store)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        for _ in range(600):
            await pilot.pause(0.05)
            if screen.finished:
                break
        assert screen.finished and not screen.problems
        result = screen.results[1]
        assert screen.query_one(DataTable).row_count == len(result.decisions) == 4
        assert store.computed(analysis.cache_key(game, 1, 0)) == result.to_json()


async def test_game_over_opens_the_analysis_of_the_last_deal(
        fake: FakeAnalyse, store: Store) -> None:
    from nil_tui.game.options import PlayOptions
    from nil_tui.tui.screens.gameover import GameOverScreen

    fake.gate.set()
    game = played_game(deals=3)
    app = Host(lambda: GameOverScreen(game, PlayOptions(), Path("game.json")), store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AnalysisScreen) and screen.deals == [3]
        await app.workers.wait_for_complete()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)


def test_no_analysis_on_the_summary_while_a_daily_challenge_is_under_way() -> None:
    from nil_tui.tui.screens.summary import SummaryScreen

    game = played_game(deals=3)
    game.deals.pop()  # the game as it stood after deal 2 of 3
    game.challenge = {"date": "2026-11-30", "reference": None}
    assert not game.is_over
    assert game.challenge_under_way
    assert SummaryScreen(game, between_deals=True).check_action("analyse", ()) is False
    game.challenge = None
    assert not game.challenge_under_way
    over = played_game(deals=3)
    over.challenge = {"date": "2026-11-30", "reference": None}
    assert not over.challenge_under_way  # the challenge is over


async def test_the_review_refuses_the_analysis_while_a_daily_challenge_is_under_way(
        fake: FakeAnalyse, store: Store) -> None:
    from nil_tui.tui.screens.review import ANALYSIS_WAITS

    fake.gate.set()
    game = played_game(deals=3)
    game.deals.pop()  # the game as it stood after deal 2 of 3
    game.challenge = {"date": "2026-11-30", "reference": None}
    assert game.challenge_under_way
    app = Host(lambda: ReviewScreen(game), store)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        assert screen.check_action("analyse", (0,)) is False  # not offered in the footer
        await pilot.press("e")
        await pilot.press("E")
        await pilot.pause()
        assert app.screen is screen and not fake.calls
        said = [n.message for n in app._notifications]
        assert said == [ANALYSIS_WAITS, ANALYSIS_WAITS]
    over = played_game(deals=3)
    over.challenge = {"date": "2026-11-30", "reference": None}
    assert not over.challenge_under_way
    assert not played_game(deals=2).challenge_under_way
