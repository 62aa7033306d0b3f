"""The history and statistics screens at 80x24: what they list, Enter, Escape."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.screen import Screen
from textual.widgets import DataTable, Sparkline, Static

from nil_tui.engine import Game
from nil_tui.engine.game import Phase
from nil_tui.store import HistoryRow, Store
from nil_tui.tui.screens.history import HistoryScreen
from nil_tui.tui.screens.review import ReviewScreen
from nil_tui.tui.screens.stats import StatsScreen

SIZE = (80, 24)


def finished(seed: int, deals: int = 2) -> dict[str, Any]:
    rng = random.Random(seed)
    game = Game(deals, seed=seed)
    while not game.is_over:
        if game.phase is Phase.DEAL_OVER:
            game.next_deal()
        game.play(rng.choice(list(game.deal.legal_moves())))
    return game.to_record()


def options(level: str) -> dict[str, Any]:
    return {"deals": 2, "bots": [level] * 3, "seed": None, "speed": "instant",
            "ascii": False, "four_color": False, "theme": None, "extra": {}}


@pytest.fixture
def store(tmp_path: Path):
    s = Store.open(tmp_path)
    yield s
    s.close()


class Below(Screen[None]):
    """Stands for the setup screen."""


class Host(App[None]):
    """Opens one screen on top of a plain screen below it (as the setup screen would be)."""

    def __init__(self, make: Any, under: bool = True) -> None:
        super().__init__()
        self.make = make
        self.under = under

    def on_mount(self) -> None:
        if self.under:
            self.push_screen(Below(id="below"))
        self.push_screen(self.make())


def text_of(widget: Static) -> str:
    return str(widget.render())


async def test_history_lists_games_newest_first_and_reviews_one(store: Store) -> None:
    records = [finished(1), finished(2, deals=3), finished(3)]
    store.finish_game(records[0], options("easy"))
    store.finish_game(records[1], options("hard"))
    store.finish_game(records[2], options("easy"))
    app = Host(lambda: HistoryScreen(store))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        assert table.row_count == 3
        first = [str(c) for c in table.get_row_at(0)]
        second = [str(c) for c in table.get_row_at(1)]
        assert second[1] == "3" and second[3] == "hard x3"  # deals, opponents
        assert first[4] == (f"{records[2]['totals'][0]} | {records[2]['totals'][1]} "
                            f"{records[2]['totals'][2]} {records[2]['totals'][3]}")
        expected = "Under" if 0 in records[2]["losers"] else (
            "Draw" if not records[2]["losers"] else "Safe")
        assert first[2].startswith(expected)
        await pilot.press("down")
        await pilot.press("enter")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        assert review.game.seed == 2 and len(review.game.deals) == 3
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.id == "below"


async def test_history_when_empty_says_so(store: Store) -> None:
    app = Host(lambda: HistoryScreen(store))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not app.screen.query_one(DataTable).display
        empty = app.screen.query_one("#history-empty", Static)
        assert empty.display and "No games yet" in text_of(empty)
        await pilot.press("enter")  # nothing to open, nothing breaks
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)


async def test_history_alone_quits_on_escape(store: Store) -> None:
    store.finish_game(finished(4), options("easy"))
    app = Host(lambda: HistoryScreen(store), under=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert not app.is_running


async def test_history_reports_an_unreadable_record(store: Store) -> None:
    store.finish_game(finished(5), options("easy"))
    store._conn.execute("UPDATE games SET record = '{\"format\": \"other\"}'")
    app = Host(lambda: HistoryScreen(store))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        assert any("cannot be read" in n.message and "format" in n.message
                   for n in app._notifications)


async def test_stats_by_difficulty_and_chart(store: Store) -> None:
    games = [(finished(s), "easy") for s in (10, 11, 12)] + [(finished(13), "hard")]
    for record, level in games:
        store.finish_game(record, options(level))
    app = Host(lambda: StatsScreen(store))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        rows = {str(table.get_row_at(i)[0]): [str(c) for c in table.get_row_at(i)]
                for i in range(table.row_count)}
        assert set(rows) == {"easy", "hard", "all"}
        easy = [r for r, level in games if level == "easy"]
        deals = [d for r in easy for d in r["deals"]]
        lost = sum(0 in r["losers"] for r in easy)
        clean = sum(d["taken"][0] == 0 for d in deals)
        points = sum(d["points"][0] for d in deals)
        assert rows["easy"][1] == "3"
        assert rows["easy"][2].startswith(f"{lost} (")
        assert rows["easy"][3] == str(len(deals))
        assert rows["easy"][4].startswith(f"{clean} (")
        assert rows["easy"][5] == f"{points / len(deals):.2f}"
        assert rows["all"][1] == "4"
        spark = app.screen.query_one(Sparkline)
        assert list(spark.data or []) == [r["totals"][0] / len(r["deals"]) for r, _ in games]
        assert spark.region.width > 0 and spark.region.height > 0  # visible at 80x24
        assert spark.region.bottom <= 23
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.id == "below"


async def test_stats_when_empty_says_so(store: Store) -> None:
    app = Host(lambda: StatsScreen(store))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not app.screen.query_one(DataTable).display
        assert "No finished games yet" in text_of(app.screen.query_one("#stats-empty", Static))


async def test_review_draws_cards_as_the_player_chose(store: Store) -> None:
    store.save_settings({"ascii": True, "four_color": True})
    store.finish_game(finished(6), options("easy"))
    app = Host(lambda: HistoryScreen(store))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        assert app.screen.look.ascii and app.screen.look.four_color


async def test_screens_work_without_a_saving_store() -> None:
    from nil_tui.store import Store

    memory = Store.in_memory("testing")
    for make in (lambda: HistoryScreen(memory), lambda: StatsScreen(memory)):
        app = Host(make)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "games yet" in text_of(
                app.screen.query_one("#history-empty, #stats-empty", Static))
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen.id == "below"


# --- pictures --------------------------------------------------------------------------------
@pytest.fixture
def fixed_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Eight finished games on fixed dates, shown in UTC."""
    import time

    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    s = Store.open(tmp_path / "pictures")
    levels = ["easy", "normal", "easy", "hard", "easy", "normal", "hard", "easy"]
    for n, level in enumerate(levels):
        s.finish_game(finished(20 + n, deals=2 + n % 3), options(level))
    s._conn.execute("UPDATE games SET finished_at = printf('2026-11-%02dT18:%02d:00Z', "
                    "id + 10, id * 7)")
    yield s
    s.close()
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_history_picture(fixed_store: Store, snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(Host(lambda: HistoryScreen(fixed_store)), terminal_size=size)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_stats_picture(fixed_store: Store, snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(Host(lambda: StatsScreen(fixed_store)), terminal_size=size)


async def test_the_review_opened_from_history_shows_the_hands_at_once(store: Store) -> None:
    record = finished(7)
    store.finish_game(record, options("easy"))
    game = Game.from_record(record)
    app = Host(lambda: HistoryScreen(store))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        south = text_of(review.query_one("#hand-0", Static))
        spades = " ".join(c.rank_label for c in sorted(game.deals[0].dealt_hand(0), reverse=True)
                          if c.suit == 3) or "—"
        assert south.startswith("South") and spades in south
        assert "deal 1 of 2, trick 0 of" in text_of(review.query_one("#review-head", Static))


async def test_the_review_from_the_deal_summary_opens_at_the_last_trick() -> None:
    from nil_tui.tui.screens.summary import SummaryScreen

    game = Game.from_record(finished(8))
    app = Host(lambda: SummaryScreen(game, between_deals=True))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("t")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        tricks = len(game.deals[-1].tricks)
        assert review.deal_index == 1 and review.step == tricks
        assert f"deal 2 of 2, trick {tricks} of {tricks}" in text_of(
            review.query_one("#review-head", Static))


async def test_history_rows_fit_80_columns_and_mark_challenges(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The widest rows (shared loss, mixed assisted opponents, two-digit points, an
    unfinished game, a daily challenge) fit without scrolling; a challenge is named."""
    base = {"finished_at": "2026-11-29T18:00:00Z", "deals": 10, "lost": True,
            "losers": [0, 1], "finished": True, "challenge": None, "challenge_diff": None}
    rows = [
        {**base, "id": 1, "result": "under the table (shared)",
         "opponents": "normal, normal, expert (assisted)", "totals": [10, 10, 30, 29]},
        {**base, "id": 2, "result": "safe", "opponents": "expert x3 (assisted)",
         "totals": [21, 20, 22, 23], "challenge": "2026-11-30", "challenge_diff": 2},
        {**base, "id": 3, "result": "unfinished", "finished": False,
         "opponents": "easy, hard, normal", "totals": [12, 13, 14, 15]},
    ] * 8
    fill = {"path": None, "difficulty": "", "seed": None, "clean_deals": 0, "points": 0}
    monkeypatch.setattr(store, "history",
                        lambda: [HistoryRow(**{**fill, **r, "id": n}) for n, r in enumerate(rows)])
    app = Host(lambda: HistoryScreen(store))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        assert table.virtual_size.width <= table.scrollable_content_region.width
        cells = [[str(c) for c in table.get_row_at(n)] for n in range(3)]
        assert cells[0][2:] == ["Under (shared)", "norm/norm/exp*", "10 | 10 30 29"]
        assert cells[1][2:] == ["Safe", "challenge 11-30*", "21 | 20 22 23"]
        assert cells[2][2:] == ["Unfinished", "easy/hard/norm", "12 | 13 14 15"]
        assert "* assisted" in text_of(app.screen.query_one("#history-head", Static))


async def test_the_review_in_the_first_deal_of_two_counts_the_deals_planned() -> None:
    """``d`` on deal 1's summary of a two-deal game: "deal 1 of 2", not "deal 1 of 1"."""
    from nil_tui.tui.screens.summary import SummaryScreen

    rng = random.Random(4)
    game = Game(2, seed=4)
    while not game.deal.is_over:
        game.play(rng.choice(list(game.deal.legal_moves())))
    app = Host(lambda: SummaryScreen(game, between_deals=True))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        head = text_of(review.query_one("#review-head", Static))
        tricks = len(game.deals[0].tricks)
        assert f"deal 1 of 2 (1 dealt so far), trick 0 of {tricks}" in head, head


async def test_a_long_review_title_does_not_wrap_at_80_columns() -> None:
    game = Game.from_record(finished(8))
    title = "Replay of /a/rather/long/folder/name/that/goes/on/and/on/game-2026-12-01-1234.json"
    app = Host(lambda: ReviewScreen(game, title=title))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        title = app.screen.query_one("#review-title", Static)
        assert title.size.height == 1 and title.region.right <= 80
        assert app.screen.query_one("#review-head", Static).region.y == 1
