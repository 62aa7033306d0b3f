"""The daily challenge in the app: started from the command line or setup, resumed where it
stopped (never dealt again), its result shown once finished, the comparison with the expert
at 80x24 while the expert's game is still worked out and once it arrives. The expert's game
is played by a stand-in here (the real one is a minute of CPU: see the benchmark)."""

from __future__ import annotations

import asyncio
import queue
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any, ClassVar

import pytest
from textual.widgets import Button, Static
from tui_helpers import blocking_opener

from nil_tui.engine import Game
from nil_tui.game import daily_challenge as challenge
from nil_tui.game.daily_challenge import Failed, Finished, Progress, challenge_game, reference_key
from nil_tui.game.daily_challenge import ReferenceProcess as RealReference
from nil_tui.game.options import PlayOptions
from nil_tui.store import Store
from nil_tui.tui.app import NilApp
from nil_tui.tui.screens.challenge import ChallengeScreen
from nil_tui.tui.screens.dialogs import ReplaceSaved
from nil_tui.tui.screens.setup import SetupScreen
from nil_tui.tui.screens.summary import ScoresScreen
from nil_tui.tui.screens.table import TableScreen

DATE = "2026-11-30"
REFERENCE = [1, 0, 3, 1]
LOOK = {"speed": "instant", "auto_play": False}  # the player's settings in these tests


class FakeReference:
    """Stands in for the expert's process: says what the test puts in its queue."""

    made: ClassVar[list[FakeReference]] = []

    def __init__(self, date: str) -> None:
        self.date = date
        self.queue: queue.Queue[Any] = queue.Queue()
        self.stopped = False
        FakeReference.made.append(self)

    def news(self, should_stop: Callable[[], bool] | None = None, poll: float = 0.25) -> Any:
        while not self.stopped:
            if should_stop is not None and should_stop():
                return
            try:
                item = self.queue.get(timeout=0.02)
            except queue.Empty:
                continue
            yield item
            if isinstance(item, (Finished, Failed)):
                return

    def stop(self) -> None:
        self.stopped = True


@pytest.fixture(autouse=True)
def fake_reference(monkeypatch: pytest.MonkeyPatch) -> type[FakeReference]:
    FakeReference.made = []
    monkeypatch.setattr(challenge, "ReferenceProcess", FakeReference)
    return FakeReference


@pytest.fixture
def short_home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A data folder with a short name, as a player's is: the record's path that the
    comparison shows takes two lines at 80 columns, not three as under pytest's folders."""
    with tempfile.TemporaryDirectory(prefix="nil-") as folder:
        monkeypatch.setenv("NIL_TUI_HOME", folder)
        yield Path(folder)


def options_dict(**kw: Any) -> dict[str, Any]:
    data = asdict(PlayOptions(**kw))
    data["bots"] = list(data["bots"])
    return data


def played(game: Game, cards: int) -> Game:
    """``cards`` more cards played (lowest legal), dealing on as needed."""
    for _ in range(cards):
        if game.deal.is_over:
            game.next_deal()
        game.play(game.deal.legal_moves()[0])
    return game


def to_last_card(game: Game) -> Game:
    """The game just before seat 0's last card of the game (lowest legal cards all along, as
    the stand-in bots play)."""
    plays: list[int] = []
    full = Game.from_record(game.to_record())
    while not full.is_over:
        if full.deal.is_over:
            full.next_deal()
        plays.append(full.to_move or 0)
        full.play(full.deal.legal_moves()[0])
    last = max(k for k, seat in enumerate(plays) if seat == 0)
    return played(game, last)


def cards_played(game: Game) -> list[str]:
    return [str(c) for d in game.deals for t in d.tricks for c in t.cards] + [
        str(c) for c in game.deal.trick]


def setup_store(home: Any, current: Game | None = None, current_options: dict[str, Any] |
                None = None, finished: Game | None = None, aside: Game | None = None,
                **settings: Any) -> None:
    with Store.open(home) as store:
        store.save_settings({**LOOK, **settings})
        if aside is not None:
            store.save_current(aside.to_record(), options_dict())
            assert store.archive_current() is not None
        if finished is not None:
            assert store.finish_game(finished.to_record(), options_dict()) is not None
        if current is not None:
            store.save_current(current.to_record(), current_options or options_dict())


async def until(pilot: Any, test: Callable[[], bool], what: str) -> None:
    """Wait for ``test()`` (the expert's stand-in never ends by itself, so not for every
    worker)."""
    app = pilot.app
    for _ in range(300):
        if test():
            return
        busy = [w for w in app.workers if w.group != "challenge-reference" and w.is_running]
        if busy:
            await app.workers.wait_for_complete(busy)
        await pilot.pause(0.02)
    raise AssertionError(f"never: {what} (the screen is {app.screen!r})")


def at_table(app: NilApp) -> Callable[[], bool]:
    return lambda: isinstance(app.screen, TableScreen)


def app_for(date: str = DATE) -> NilApp:
    return NilApp("challenge", challenge_date=date, opener=blocking_opener([]))


def dialog_text(app: NilApp) -> str:
    return "\n".join(str(w.render()) for w in app.screen.query(Static))


def screen_text(app: NilApp) -> str:
    return "\n".join("".join(seg.text for seg in strip)
                     for strip in app.screen._compositor.render_strips())


# --- starting ---------------------------------------------------------------------------------
async def test_a_new_challenge_is_the_dates_deals_against_experts(nil_home: Any) -> None:
    setup_store(nil_home)
    app = app_for()
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, at_table(app), "the table")
        game = app.screen.game  # type: ignore[attr-defined]
        fresh = challenge_game(DATE)
        assert game.challenge == {"date": DATE, "reference": None}
        assert game.deals[0].dealt == fresh.deals[0].dealt
        assert [p.get("bot") for p in game.players] == [None, "expert", "expert", "expert"]
        assert app.options.challenge == DATE and not app.options.meter
        assert app.options.speed == "instant"  # the player's look is kept
        assert app.title == f"Daily challenge {DATE}"
        assert [f.date for f in FakeReference.made] == [DATE]  # worked out meanwhile
        FakeReference.made[0].queue.put(Progress(13, 52))
        FakeReference.made[0].queue.put(Finished(REFERENCE))
        await until(pilot, lambda: game.challenge["reference"] == REFERENCE, "the reference")
        assert app.store.computed(reference_key(DATE)) == {"points": REFERENCE}
        saved = app.store.load_current()
        assert saved is not None and saved[0]["challenge"]["reference"] == REFERENCE


async def test_a_known_reference_is_not_worked_out_again(nil_home: Any) -> None:
    setup_store(nil_home)
    with Store.open(nil_home) as store:
        store.remember(reference_key(DATE), {"points": REFERENCE})
    app = app_for()
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, at_table(app), "the table")
        assert app.screen.game.challenge["reference"] == REFERENCE  # type: ignore[attr-defined]
        assert FakeReference.made == []


async def test_an_unfinished_challenge_resumes_where_it_stopped(nil_home: Any) -> None:
    started = played(challenge_game(DATE), 30)  # into the second deal, say
    # saved with options that say nothing of a challenge: the game's record says it
    setup_store(nil_home, current=started, current_options=options_dict(speed="instant"))
    app = app_for()
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, at_table(app), "the table")
        game = app.screen.game  # type: ignore[attr-defined]
        assert cards_played(game)[:30] == cards_played(started)  # where it stopped
        assert [d.dealt for d in game.deals] == [d.dealt for d in started.deals]
        assert app.options.challenge == DATE and not app.options.meter


async def test_a_challenge_set_aside_in_history_resumes(nil_home: Any) -> None:
    started = played(challenge_game(DATE), 20)
    other = played(Game(3, 11), 5)
    setup_store(nil_home, aside=started, current=other)
    app = app_for()
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, at_table(app), "the table")
        game = app.screen.game  # type: ignore[attr-defined]
        assert game.challenge["date"] == DATE
        assert cards_played(game)[:20] == cards_played(started)  # where it stopped
    with Store.open(nil_home) as store:
        rows = store.history()
    # the game saved until then went to history, unfinished: nothing lost
    assert [(r["finished"], r.get("challenge")) for r in rows] == [(False, None)]


async def test_another_saved_game_is_offered_first(nil_home: Any) -> None:
    other = played(Game(3, 11), 5)
    setup_store(nil_home, current=other)
    app = app_for()
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplaceSaved), "the question")
        said = dialog_text(app)
        assert "The saved game (deal 1 of 3" in said
        assert f"The new game is the daily challenge of {DATE}." in said
        assert "Start the challenge keeps the saved game in History" in said
        assert str(app.screen.query_one("#answer-new", Button).label) == "Start the challenge"
        await pilot.click("#answer-new")
        await until(pilot, at_table(app), "the table")
        assert app.screen.game.challenge["date"] == DATE  # type: ignore[attr-defined]
    with Store.open(nil_home) as store:
        assert [r["finished"] for r in store.history()] == [False]


async def test_the_setup_button_starts_todays_challenge(nil_home: Any,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    monkeypatch.setattr(challenge, "today", lambda: DATE)
    setup_store(nil_home)
    app = NilApp("setup", opener=blocking_opener([]))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, SetupScreen), "setup")
        await pilot.click("#ascii")
        await pilot.click("#challenge")
        await until(pilot, at_table(app), "the table")
        assert app.screen.game.challenge["date"] == DATE  # type: ignore[attr-defined]
        assert app.options.ascii and app.options.challenge == DATE
    with Store.open(nil_home) as store:
        assert store.load_settings().get("ascii") is not True  # a look for this game only


async def test_after_a_challenge_setup_starts_an_ordinary_game(nil_home: Any) -> None:
    setup_store(nil_home)
    app = app_for()
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, at_table(app), "the table")
        app.open_setup()
        await until(pilot, lambda: isinstance(app.screen, SetupScreen), "setup")
        await pilot.pause()
        options = app.screen.options  # type: ignore[attr-defined]
        assert options.challenge is None
        # the challenge's deals, bots and seed stay with it; its look is the player's
        assert (options.deals, options.bots, options.seed) == (8, ("normal",) * 3, None)
        assert options.speed == "instant"


# --- the end ----------------------------------------------------------------------------------
async def finish(app: NilApp, pilot: Any) -> ChallengeScreen:
    """Play the last card (Enter) and wait for the comparison."""
    await until(pilot, lambda: isinstance(app.screen, TableScreen)
                and app.screen.driver.human_to_move(), "your last card")
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, ChallengeScreen), "the comparison")
    screen = app.screen
    assert isinstance(screen, ChallengeScreen)
    return screen


@pytest.mark.parametrize("ascii", [False, True])
async def test_the_comparison_waits_for_the_expert_then_fills_in(short_home: Path,
                                                                 ascii: bool) -> None:
    almost = to_last_card(challenge_game(DATE))
    # a resumed game takes the player's look now, not the one it was saved with
    setup_store(short_home, current=almost, current_options=options_dict(ascii=not ascii),
                ascii=ascii)
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, at_table(app), "the table")
        screen = await finish(app, pilot)
        game = screen.game
        assert game.is_over
        mine = [d.points[0] for d in game.deals]
        # kept in history at once, the reference to come
        rows = app.store.history()
        assert [(r["finished"], r["challenge"], r["challenge_diff"]) for r in rows] == [
            (True, DATE, None)]
        (process,) = FakeReference.made
        process.queue.put(Progress(13, 52))
        await until(pilot, lambda: "deal 2 of 4" in screen_text(app), "the progress")
        text = screen_text(app)
        assert "The expert is playing your seat: deal 2 of 4" in text
        assert "Expert" in text and "Difference" in text
        process.queue.put(Progress(40, 52))
        await until(pilot, lambda: "deal 4 of 4" in screen_text(app), "more progress")
        process.queue.put(Finished(REFERENCE))
        diff = sum(mine) - sum(REFERENCE)
        await until(pilot, lambda: f"{diff:+d}" in screen_text(app) if diff else
                    "a tie" in screen_text(app), "the result")
        text = screen_text(app)
        for number, (you, expert) in enumerate(zip(mine, REFERENCE), 1):
            d = you - expert
            assert any(line.replace("|", " ").split()[:4] == [str(number), str(you), str(expert),
                                            f"{d:+d}" if d else "0"]
                       for line in text.splitlines()), text
        assert "Total" in text
        assert "expert" in text.lower()
        assert "Enter or Esc: back to setup" in text  # all of it shows at 80x24
        scroll = screen.query_one("#challenge")
        assert scroll.max_scroll_y == 0, text
        if ascii:
            assert all(ord(ch) < 128 for ch in str(screen.query_one("#challenge-table")
                                                   .render()))
        assert [r["challenge_diff"] for r in app.store.history()] == [diff]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, SetupScreen), "setup")
        await pilot.pause()


async def test_a_reference_that_fails_is_said(nil_home: Any) -> None:
    almost = to_last_card(challenge_game(DATE))
    setup_store(nil_home, current=almost)
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, at_table(app), "the table")
        await finish(app, pilot)
        FakeReference.made[0].queue.put(Failed("MemoryError: no room"))
        await until(pilot, lambda: "could not be played" in screen_text(app), "the failure")
        assert "MemoryError: no room" in screen_text(app)


async def test_a_finished_challenge_shows_its_result_without_dealing(nil_home: Any) -> None:
    done = played(challenge_game(DATE), 0)
    while not done.is_over:
        played(done, 1)
    done.challenge = {"date": DATE, "reference": REFERENCE}
    setup_store(nil_home, finished=done)
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ChallengeScreen), "the comparison")
        assert app.driver is None  # no table, no deal
        assert FakeReference.made == []
        assert "Enter or Esc: close" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_code == 0


async def test_a_finished_challenge_without_its_reference_gets_it(nil_home: Any) -> None:
    done = played(challenge_game(DATE), 0)
    while not done.is_over:
        played(done, 1)
    setup_store(nil_home, finished=done)
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ChallengeScreen), "the comparison")
        (process,) = FakeReference.made
        process.queue.put(Finished(REFERENCE))
        await until(pilot, lambda: "Record" in screen_text(app) or "beat" in
                    screen_text(app) or "more than you" in screen_text(app)
                    or "a tie" in screen_text(app), "the result")
    with Store.open(nil_home) as store:
        rows = store.history()
    mine = sum(d.points[0] for d in done.deals)
    assert [r["challenge_diff"] for r in rows] == [mine - sum(REFERENCE)]


async def test_the_expert_process_starts_inside_the_app() -> None:
    """The app replaces sys.stderr with an object without a file; the process (and the
    resource tracker every spawned process needs) starts all the same."""
    app = NilApp("setup")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        process = RealReference(DATE)
        try:
            assert next(iter(process.news())) == Progress(0, 52)
        finally:
            process.stop()
        # (it runs in the idle scheduling class: on a machine kept busy by other programs,
        # even a killed process waits its turn on a core to end)
        for _ in range(200):
            if not process.alive:
                break
            await asyncio.sleep(0.05)
        assert not process.alive


async def test_the_comparison_tells_the_last_deal_and_opens_scores_and_analysis(
        short_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from nil_tui import analysis
    from nil_tui.analysis import DealAnalysis
    from nil_tui.engine import describe_result
    from nil_tui.tui.screens.analysis import AnalysisScreen
    from nil_tui.tui.screens.summary import ScoresScreen
    from nil_tui.tui.words import SEAT_LABELS

    asked: list[tuple[int, int]] = []

    def analyse(game: Game, deal: int, seat: int, **_: Any) -> DealAnalysis:
        asked.append((deal, seat))
        return DealAnalysis(deal=deal, seat=seat, decisions=())

    monkeypatch.setattr(analysis, "analyse_deal", analyse)
    almost = to_last_card(challenge_game(DATE))
    setup_store(short_home, current=almost)
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, at_table(app), "the table")
        screen = await finish(app, pilot)
        game = screen.game
        last = game.deals[-1]
        await until(pilot, lambda: "Tricks taken" in screen_text(app), "the last deal")
        text = screen_text(app)
        # how the last deal ended, as game over says it, all of it at 80x24
        assert f"Deal {len(game.deals)} of 4: " in text
        assert describe_result(last.taken, last.points, SEAT_LABELS) in text
        assert "Tricks taken: " + ", ".join(f"{SEAT_LABELS[s]} {last.taken[s]}"
                                            for s in range(4)) in text
        assert f"s: scoreboard   a: analyse deal {len(game.deals)}" in text
        assert screen.query_one("#challenge").max_scroll_y == 0, text
        FakeReference.made[0].queue.put(Finished(REFERENCE))
        await until(pilot, lambda: "Total" in screen_text(app) and "..." not in
                    screen_text(app) and "…" not in screen_text(app), "the result")
        assert screen.query_one("#challenge").max_scroll_y == 0, screen_text(app)
        footer = {key for key, b in app.active_bindings.items() if b.binding.show and b.enabled}
        assert {"s", "a"} <= footer
        # s: every deal's scores, and back
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, ScoresScreen), "the scoreboard")
        text = screen_text(app)
        assert f"(daily challenge {DATE})" in text and "Enter or Esc: back" in text
        assert "back to the table" not in text and "If the game ended now" not in text
        assert app.screen.query_one("#summary").max_scroll_y == 0, text
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the comparison again")
        # a: the analysis of the last deal
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, AnalysisScreen), "the analysis")
        assert app.screen.deals == [len(game.deals)]  # type: ignore[attr-defined]
        await until(pilot, lambda: asked == [(len(game.deals), 0)], "the analysis asked")
        await app.workers.wait_for_complete([w for w in app.workers
                                             if w.group != "challenge-reference"])
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the comparison again")


def test_you_within_a_sentence_is_lower_case() -> None:
    from types import SimpleNamespace

    from nil_tui.tui.screens.summary import names_list, standings_text

    def standings(totals: list[int]) -> str:
        return standings_text(SimpleNamespace(totals=totals, scoring="classic"),
                              final=False).plain  # type: ignore[arg-type]

    assert ("If the game ended now, you, West and East would crawl under the table."
            in standings([1, 1, 3, 1]))
    assert "If the game ended now, you would crawl under the table." in standings([0, 2, 2, 2])
    assert "If the game ended now, North would crawl" in standings([2, 2, 0, 2])
    assert names_list([0, 1]) == "You and West"  # starting a sentence
    assert names_list([1, 0], start=True) == "West and you"
    assert names_list([0, 2, 3], start=False) == "you, North and East"


# --- naming the challenge, its date, the player's look -------------------------------------
async def test_a_saved_challenge_is_named_in_setup_the_question_and_the_scoreboard(
        nil_home: Any) -> None:
    started = played(challenge_game(DATE), 30)
    n = len(started.deals)
    setup_store(nil_home, current=started)
    app = NilApp("setup", opener=blocking_opener([]))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, SetupScreen), "setup")
        setup = app.screen
        assert str(setup.query_one("#resume", Button).label) == (
            f"Resume the daily challenge of {DATE} (deal {n} of 4)")
        await pilot.press("ctrl+s")  # a new ordinary game
        await until(pilot, lambda: isinstance(app.screen, ReplaceSaved), "the question")
        said = dialog_text(app)
        assert f"The saved daily challenge of {DATE} (deal {n} of 4, started " in said
        assert "Start new keeps the saved game in History" in said
        assert "The new game is" not in said
        await pilot.click("#answer-resume")
        await until(pilot, at_table(app), "the table")
        await until(pilot, lambda: app.screen.driver.human_to_move(),  # type: ignore[attr-defined]
                    "your card")
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, ScoresScreen), "the scoreboard")
        text = screen_text(app)
        assert f"Scoreboard: deal {n} of 4 (daily challenge {DATE})" in text
        assert "Enter or Esc: back to the table" in text
        await pilot.press("escape")
        await until(pilot, at_table(app), "the table again")


async def test_a_resumed_challenge_takes_the_players_look_now(nil_home: Any) -> None:
    started = played(challenge_game(DATE), 30)
    then = options_dict(speed="slow", ascii=False, four_color=False, theme="textual-dark",
                        trick_pause="brief", auto_play=True, meter=True)
    setup_store(nil_home, current=started, current_options=then, ascii=True, four_color=True,
                theme="nord", trick_pause="key")
    app = app_for()
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, at_table(app), "the table")
        o = app.options
        assert (o.speed, o.ascii, o.four_color, o.theme, o.trick_pause, o.auto_play) == (
            "instant", True, True, "nord", "key", False)
        assert app.theme == "nord"
        # the game's own: its deals, bots, seed, date; no meter in a challenge
        assert (o.deals, o.bots, o.seed, o.challenge, o.meter) == (
            4, challenge.CHALLENGE_BOTS, started.seed, DATE, False)
        assert app.screen.options.ascii  # type: ignore[attr-defined]


async def test_any_resumed_game_takes_the_players_look_but_keeps_its_meter(
        nil_home: Any) -> None:
    started = played(Game(3, 11), 5)
    then = options_dict(deals=3, bots=("easy", "hard", "easy"), seed=11, ascii=False,
                        meter=True)
    setup_store(nil_home, current=started, current_options=then, ascii=True, meter=False,
                deals=8, bots=["expert"] * 3)
    app = NilApp("resume", opener=blocking_opener([]))
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, at_table(app), "the table")
        o = app.options
        assert o.ascii and o.speed == "instant" and not o.auto_play  # the look now
        assert o.meter and o.deals == 3 and o.seed == 11  # the game's own
        assert o.challenge is None


async def test_the_setup_resume_button_takes_the_look_on_screen(nil_home: Any) -> None:
    started = played(challenge_game(DATE), 30)
    setup_store(nil_home, current=started)
    app = NilApp("setup", opener=blocking_opener([]))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, SetupScreen), "setup")
        await pilot.click("#four")
        await pilot.click("#resume")
        await until(pilot, at_table(app), "the table")
        assert app.options.four_color and app.options.challenge == DATE


async def test_a_challenge_of_a_later_date_does_not_open(nil_home: Any,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.setattr(challenge, "today", lambda: DATE)
    setup_store(nil_home)
    app = app_for("2026-12-01")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, SetupScreen), "setup")
        assert app.driver is None and FakeReference.made == []
        assert [n.message for n in app._notifications] == [
            "The challenge of 2026-12-01 opens on that day."]
