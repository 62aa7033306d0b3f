"""Charts: the widgets at 80x24 with and without ASCII (ASCII mode draws ASCII characters
only), marks that tell the lines apart without colour, empty states; the game over's running
totals (beside the table when there is room, on g in its place when there is not); the
statistics' charts fed by a store filled with games and challenges."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widget import Widget

from nil_tui.engine import Game
from nil_tui.engine.game import Phase
from nil_tui.game.options import PlayOptions
from nil_tui.store import Store
from nil_tui.tui.screens.gameover import GameOverScreen, UnderTable, running_totals
from nil_tui.tui.screens.stats import NO_CHALLENGE, StatsScreen
from nil_tui.tui.widgets.charts import (
    BarChart,
    Chart,
    LineChart,
    RunningTotals,
    Series,
    ascii_only,
    marks_for,
    whole_ticks,
)

NAMES = ("You", "West", "North", "East")
TOTALS = [[0, 1, 1, 1], [1, 1, 4, 2], [2, 2, 5, 3], [2, 3, 6, 6], [3, 6, 7, 7], [4, 7, 7, 8]]


def play(game: Game, rng_seed: int = 0) -> Game:
    rng = random.Random(rng_seed)
    while not game.is_over:
        if game.phase is Phase.DEAL_OVER:
            game.next_deal()
        game.play(rng.choice(list(game.deal.legal_moves())))
    return game


def screen_lines(app: App[Any]) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def lines_of(app: App[Any], widget: Widget) -> list[str]:
    """The text drawn in the visible part of ``widget``'s region."""
    region = widget.region
    lines = screen_lines(app)
    return [line[region.x:region.right] for line in lines[region.y:region.bottom]]


def non_ascii(lines: list[str]) -> set[str]:
    return {c for line in lines for c in line if ord(c) > 127}


class Host(App[None]):
    def __init__(self, chart: Chart) -> None:
        super().__init__()
        self.chart = chart

    def compose(self) -> ComposeResult:
        yield self.chart


class Bare(App[None]):
    """An app with the options a screen may read, lighter to start than the whole app."""

    def __init__(self, options: PlayOptions) -> None:
        super().__init__()
        self.options = options


def charts(ascii: bool) -> list[Chart]:
    return [
        RunningTotals(NAMES, TOTALS, ascii=ascii),
        LineChart([Series("points per deal", "o", (0.5, 1.25, 2.0, 0.75)),
                   Series("average", "a", (0.5, 0.9, 1.25, 1.1))], [7, 8, 9, 10],
                  ascii=ascii),
        BarChart(["11-27", "11-28", "11-29"], [2, -3, 0], signed=True, ascii=ascii),
        BarChart(["easy", "normal", "hard (assisted)"], [40.0, 12.5, 0.0], unit="%",
                 horizontal=True, ascii=ascii),
    ]


# --- the widgets -----------------------------------------------------------------------------
@pytest.mark.parametrize("ascii", [False, True], ids=["glyphs", "ascii"])
@pytest.mark.parametrize("which", range(4), ids=["totals", "lines", "bars", "hbars"])
async def test_a_chart_at_80x24(which: int, ascii: bool) -> None:
    chart = charts(ascii)[which]
    chart.styles.height = 22
    app = Host(chart)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lines = lines_of(app, chart)
        drawn = "\n".join(lines)
        assert chart.plot.display and chart.plot.region.height > 5
        if ascii:
            assert non_ascii(lines) == set(), drawn
            assert "+---" in drawn and "|" in drawn  # the frame, in ASCII
        else:
            assert non_ascii(lines) & set("─│┌┐└┘"), drawn  # the frame in box glyphs
        if which == 0:  # every seat's letter on its line, and the key under the chart
            for mark in "YWNE":
                assert mark in drawn.split("\n", 1)[1], drawn
            assert "Y You 4   W West 7   N North 7   E East 8" in drawn
            assert "deal" in drawn
        elif which == 2:
            assert "11-27 +2" in drawn and "11-28 -3" in drawn and "11-29 +0" in drawn
        elif which == 3:
            first = next(n for n, line in enumerate(lines) if "easy 40%" in line)
            second = next(n for n, line in enumerate(lines) if "normal 12%" in line)
            assert first < second  # the first bar on top


async def test_lines_read_without_colour() -> None:
    """Each line has a mark of its own, so no colour is needed to tell them apart."""
    chart = RunningTotals(NAMES, [[1, 0, 0, 0], [1, 3, 0, 0], [1, 3, 6, 0], [1, 3, 6, 9]],
                          ascii=True)
    chart.styles.height = 22
    app = Host(chart)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lines = lines_of(app, chart)
        last_marks = [line.rstrip(" |")[-1:] for line in lines if line.rstrip(" |")[-1:]]
        for mark in "YWNE":  # each seat ends at its own height, marked by its letter
            assert mark in last_marks


async def test_empty_charts_say_why() -> None:
    chart = LineChart([], [], empty="No finished games yet.", ascii=True)
    app = Host(chart)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not chart.plot.display
        assert "No finished games yet." in "\n".join(lines_of(app, chart))
        chart.update([Series("x", "x", (1.0, 2.0))], [1, 2])
        await pilot.pause()
        assert chart.plot.display
        assert "No finished games yet." not in "\n".join(lines_of(app, chart))


def test_helpers() -> None:
    assert marks_for(["You", "West", "Wanda", "East"]) == ["Y", "W", "A", "E"]
    assert marks_for(["", "?"]) == ["1", "2"]
    assert whole_ticks(0, 8, 10) == list(range(9))
    assert whole_ticks(0, 40, 5) == [0, 10, 20, 30, 40]
    assert whole_ticks(-3, 2, 6) == [-3, -2, -1, 0, 1, 2]
    assert ascii_only("┌─┐│x│└┴┘⣀") == "+-+|x|+++?"


def test_the_app_starts_without_the_plotting_library() -> None:
    code = ("import sys, nil_tui.tui.app, nil_tui.tui.screens.stats, "
            "nil_tui.tui.screens.gameover; "
            "print(any(m.split('.')[0] in ('plotext', 'textual_plotext') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60)
    assert out.stdout.strip() == "False"


# --- game over -------------------------------------------------------------------------------
PLAYERS = [{"name": "South", "kind": "human"}] + [
    {"name": n, "kind": "bot", "bot": "easy"} for n in ("West", "North", "East")]


def finished_game(deals: int = 6, seed: int = 3) -> Game:
    return play(Game(deals, seed=seed, players=PLAYERS), rng_seed=seed)


def keys_line(screen: Any) -> str:
    return str(screen.query_one("#gameover-keys").render())


def test_running_totals_end_at_the_game_totals() -> None:
    game = finished_game()
    rows = running_totals(game)
    assert len(rows) == 6 and tuple(rows[-1]) == game.totals
    assert rows[0] == list(game.deals[0].points)


@pytest.mark.parametrize("ascii", [False, True], ids=["glyphs", "ascii"])
async def test_game_over_at_80x24_swaps_the_picture_and_the_chart(ascii: bool) -> None:
    game = finished_game()
    options = PlayOptions(deals=6, bots=("easy",) * 3, speed="instant", ascii=ascii)
    app = Bare(options)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(GameOverScreen(game, options, Path("game.json")))
        await pilot.pause()
        screen = app.screen
        chart = screen.query_one("#gameover-chart", RunningTotals)
        art = screen.query_one(UnderTable)
        assert not chart.display and art.display
        assert "g: the totals deal by deal" in keys_line(screen)
        await pilot.press("g")
        await pilot.pause()
        assert chart.display and not art.display
        lines = lines_of(app, chart)
        assert chart.region.right <= 80 and chart.region.bottom <= 23  # all of it on screen
        drawn = "\n".join(lines)
        totals = game.totals
        assert f"Y You {totals[0]}" in drawn and f"E East {totals[3]}" in drawn
        if ascii:
            assert non_ascii(lines) == set(), drawn
        standings = screen.query_one("#gameover-standings")
        assert standings.region.y >= chart.region.bottom  # below it, not over it
        assert "g: the table again" in keys_line(screen)
        await pilot.press("g")
        await pilot.pause()
        assert not chart.display and art.display


async def test_game_over_when_wide_shows_the_chart_beside_the_table() -> None:
    game = finished_game()
    options = PlayOptions(deals=6, bots=("easy",) * 3, speed="instant")
    app = Bare(options)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.push_screen(GameOverScreen(game, options, Path("game.json")))
        await pilot.pause()
        screen = app.screen
        chart = screen.query_one("#gameover-chart", RunningTotals)
        art = screen.query_one(UnderTable)
        assert chart.display and art.display
        assert chart.region.x >= art.region.right  # side by side
        assert chart.region.right <= 120
        assert screen.query_one("#gameover-standings").region.y >= chart.region.bottom
        assert "g: " not in keys_line(screen)
        await pilot.press("g")  # nothing to swap: the key is off
        await pilot.pause()
        assert chart.display and art.display
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not chart.display and art.display  # narrower: the chart waits for g


# --- statistics ------------------------------------------------------------------------------
EXPERTS = dataclasses.asdict(PlayOptions(deals=4, bots=("expert",) * 3))


def level(name: str) -> dict[str, Any]:
    return dataclasses.asdict(PlayOptions(deals=2, bots=(name,) * 3))


@pytest.fixture
def store(tmp_path: Path) -> Any:
    s = Store.open(tmp_path / "data")
    yield s
    s.close()


def fill(store: Store) -> list[dict[str, Any]]:
    """Six games at three levels and three challenges (one still without its reference)."""
    for n, name in enumerate(["easy", "normal", "easy", "hard", "easy", "normal"]):
        store.finish_game(play(Game(2 + n % 2, seed=20 + n), rng_seed=n).to_record(),
                          level(name))
    records = []
    for n, date in enumerate(["2026-11-27", "2026-11-28", "2026-11-29"]):
        game = Game(4, seed=40 + n)
        game.challenge = {"date": date, "reference": None}
        records.append(play(game, rng_seed=n).to_record())
        store.finish_game(records[-1], EXPERTS)
    assert store.set_challenge_reference("2026-11-27", [1, 0, 2, 1])
    assert store.set_challenge_reference("2026-11-28", [0, 0, 0, 0])
    return records


async def stats_screen(app: App[Any], pilot: Any, store: Store, ascii: bool) -> StatsScreen:
    await pilot.pause()
    screen = StatsScreen(store, ascii=ascii)
    app.push_screen(screen)
    await pilot.pause()
    return screen


@pytest.mark.parametrize("ascii", [False, True], ids=["glyphs", "ascii"])
async def test_stats_draw_the_store_at_80x24(store: Store, ascii: bool) -> None:
    records = fill(store)
    stats = store.stats()
    app = Bare(PlayOptions(ascii=ascii))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await stats_screen(app, pilot, store, ascii)
        games = screen.query_one("#stats-games", LineChart)
        assert list(games.series[0].values) == [s["points_per_deal"] for s in stats["series"]]
        assert games.steps == list(range(1, 10))
        challenges = screen.query_one("#stats-challenges", BarChart)
        mine = [sum(d["points"][0] for d in r["deals"]) for r in records]
        assert challenges.names == ["11-27", "11-28"]  # the third waits for its reference
        assert challenges.values == [mine[0] - 4, mine[1] - 0]
        assert "1 challenge still waiting" in str(
            screen.query_one("#stats-challenges-note").render())
        clean = screen.query_one("#stats-clean", BarChart)
        by = stats["by_difficulty"]
        assert clean.names == list(by)
        assert clean.values == [round(100 * f["clean_deals"] / f["deals"], 1)
                                for f in by.values()]
        assert screen.query_one("#stats-chart").display is (not ascii)  # the sparkline
        for chart in (games, challenges, clean):
            chart.scroll_visible(animate=False, top=True)
            await pilot.pause()
            assert chart.plot.display and chart.region.width >= 70
            lines = lines_of(app, chart)
            assert any(line.strip() for line in lines)
            if ascii:
                assert non_ascii(lines) == set(), "\n".join(lines)
        if ascii:
            body = screen.query_one("#stats-body")
            for y in range(0, int(body.max_scroll_y) + 23, 23):
                body.scroll_to(y=y, animate=False)
                await pilot.pause()
                region = body.scrollable_content_region  # Textual's scrollbar aside
                lines = screen_lines(app)[region.y:region.bottom]
                assert non_ascii([line[region.x:region.right] for line in lines]) == set()


async def test_stats_without_challenges_say_how_to_play_one(store: Store) -> None:
    store.finish_game(play(Game(2, seed=1)).to_record(), level("easy"))
    app = Bare(PlayOptions())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await stats_screen(app, pilot, store, False)
        chart = screen.query_one("#stats-challenges", BarChart)
        assert not chart.plot.display
        chart.scroll_visible(animate=False, top=True)
        await pilot.pause()
        drawn = " ".join(line.strip() for line in lines_of(app, chart))
        assert "No daily challenge played yet. Press c in setup" in drawn
        assert "nil-tui challenge" in NO_CHALLENGE
        games = screen.query_one("#stats-games", LineChart)  # one game: no chart of a point
        assert not games.plot.display
        assert str(games.query_one(".chart-empty").render()) == (
            "One game so far: this chart starts with the second.")


async def test_stats_of_an_empty_store(store: Store) -> None:
    app = Bare(PlayOptions())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await stats_screen(app, pilot, store, True)
        for chart in screen.query(Chart):
            assert not chart.plot.display
            assert chart.query_one(".chart-empty").display


async def test_stats_take_ascii_from_the_app_options(store: Store) -> None:
    app = Bare(PlayOptions(ascii=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = StatsScreen(store)
        app.push_screen(screen)
        await pilot.pause()
        assert screen.ascii
        assert all(chart.ascii for chart in screen.query(Chart))


# --- what playing showed ---------------------------------------------------------------------
async def test_a_bar_of_zero_is_drawn_as_a_zero() -> None:
    chart = BarChart(["11-30"], [0.0], signed=True)
    chart.styles.height = 12
    app = Host(chart)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        inside = [line.split("┤", 1)[1].rstrip(" │") for line in lines_of(app, chart)
                  if "┤" in line]
        assert any(part.strip() == "0" for part in inside), inside
        assert "11-30 +0" in "\n".join(lines_of(app, chart))


async def test_a_percent_axis_runs_to_100_percent() -> None:
    chart = BarChart(["easy", "hard"], [0.5, 0.0], unit="%", decimals=1, horizontal=True,
                     top=100.0)
    chart.styles.height = 8
    app = Host(chart)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        drawn = "\n".join(lines_of(app, chart))
        assert "0%" in drawn and "100%" in drawn and "1%" not in drawn.replace("100%", "")
        assert "hard 0.0%┤0" in drawn  # the zero is seen


def test_seats_tied_all_game_say_whose_line_hides_theirs() -> None:
    chart = RunningTotals(NAMES, [[1, 0, 1, 1], [2, 3, 2, 2]])
    key = chart.key()
    assert key is not None
    assert key.plain == "Y You 2   W West 3   N North 2   E East 2   N, E same as Y"
    apart = RunningTotals(NAMES, [[1, 0, 2, 0], [2, 3, 2, 2]]).key()
    assert apart is not None and "same as" not in apart.plain  # tied only at the end


@pytest.mark.parametrize("ascii", [False, True], ids=["glyphs", "ascii"])
async def test_stats_with_one_game_say_so_instead_of_a_solid_sparkline(
        store: Store, ascii: bool) -> None:
    store.finish_game(play(Game(2, seed=1)).to_record(), level("easy"))
    app = Bare(PlayOptions(ascii=ascii))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await stats_screen(app, pilot, store, ascii)
        assert not screen.query_one("#stats-chart").display  # no sparkline of one value
        words = str(screen.query_one("#stats-chart-range").render())
        assert screen.query_one("#stats-chart-title").display is (not ascii)
        if ascii:  # the chart below draws the figures: here only the results, titled
            assert words.startswith("Results, game by game: ")
        else:
            assert words.startswith("One game so far (")
        clean = screen.query_one("#stats-clean", BarChart)
        clean.scroll_visible(animate=False, top=True)
        await pilot.pause()
        assert "100%" in "\n".join(lines_of(app, clean))  # percents on a 0..100% axis


@pytest.mark.parametrize("ascii", [False, True], ids=["glyphs", "ascii"])
async def test_stats_in_ascii_keep_no_title_without_its_chart(store: Store, ascii: bool) -> None:
    fill(store)
    app = Bare(PlayOptions(ascii=ascii))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await stats_screen(app, pilot, store, ascii)
        sparkline = screen.query_one("#stats-chart")
        assert sparkline.display is (not ascii)
        assert screen.query_one("#stats-chart-title").display is sparkline.display
        words = str(screen.query_one("#stats-chart-range").render())
        assert ("low" in words) is (not ascii)


def test_a_key_too_long_for_its_line_breaks_between_entries_only() -> None:
    from nil_tui.tui.widgets.charts import lines_of

    entries = [Text(f"{m} {name} {v}") for m, name, v in
               (("Y", "You", 2), ("W", "West", -3), ("N", "North", 12), ("E", "East", -7))]
    text = lines_of(entries, 30)
    assert text.plain.split("\n") == ["Y You 2   W West -3", "N North 12   E East -7"]


async def test_one_challenge_is_a_bar_not_a_block_across_the_chart(store: Store) -> None:
    chart = BarChart(["11-30"], [2.0], signed=True, id="one")

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield chart

    app = One()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        drawn = lines_of(app, chart.plot)
        bar = max((line.count("█") for line in drawn), default=0)
        assert 0 < bar <= chart.plot.size.width // 4, drawn


async def test_a_line_whose_every_mark_is_under_another_players_says_so() -> None:
    """East's -1, -2, -5 fall in the cells of North's 0, -2, -4 on a chart 12 rows high over
    a range of 45: no E is drawn, and the key says so (it said nothing)."""
    totals = [[10, 15, 0, -1], [20, 25, -2, -2], [30, 40, -4, -5]]
    chart = RunningTotals(NAMES, totals, id="totals")

    class Totals(App[None]):
        def compose(self) -> ComposeResult:
            yield chart

    app = Totals()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        plot = " ".join(lines_of(app, chart.plot))
        key = " ".join(lines_of(app, chart.query_one(".chart-key")))
    assert "E" not in plot  # hidden: no mark of East's on the chart
    assert "N" in plot and "E East -5" in key and "E under other marks" in key
