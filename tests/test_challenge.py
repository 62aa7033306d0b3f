"""The daily challenge without a screen: the same deals for a date on every run and machine,
the expert's reference the same every time, the comparison, and the reference's process."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from nil_tui.bots import seat_seed
from nil_tui.bots.expert import EXPERT, ExpertBot
from nil_tui.bots.players import open_player
from nil_tui.engine import Game
from nil_tui.game import daily_challenge as challenge
from nil_tui.game.daily_challenge import (
    CHALLENGE_BOTS,
    CHALLENGE_DEALS,
    Failed,
    Finished,
    Progress,
    ReferenceProcess,
    challenge_game,
    challenge_seed,
    compare,
    reference_game,
    reference_points,
    totals,
    valid_reference,
    verdict,
)
from nil_tui.game.driver import GameDriver

DATE = "2026-11-30"

# Computed once; a change here means every player's challenge of that date changed.
SEED_2026_11_30 = 248331352095174
HANDS_2026_11_30 = (
    "2C 4C 6C 7C TC KC 4D QD 2S 3S 6S KS AS",
    "5C AC 5D 6D 9D JD 5H 8H 9H AH 7S 9S TS",
    "8C JC 2D 3D 7D TD KD 2H 3H 7H JH QH 8S",
    "3C 9C QC 8D AD 4H 6H TH KH 4S 5S JS QS",
)


def hands(game: Game) -> tuple[str, ...]:
    return tuple(" ".join(str(c) for c in game.deal.hands[s]) for s in range(4))


def test_the_seed_of_a_date_is_fixed() -> None:
    assert challenge_seed(DATE) == SEED_2026_11_30
    assert challenge_seed("2026-12-01") != SEED_2026_11_30
    assert 0 <= challenge_seed("2000-01-01") < 2**53  # a seed a record keeps exactly


def test_the_deals_of_a_date_are_the_same_on_every_run() -> None:
    game = challenge_game(DATE)
    assert game.seed == SEED_2026_11_30
    assert game.deals_planned == CHALLENGE_DEALS
    assert game.deal.dealer == 2
    assert hands(game) == HANDS_2026_11_30
    assert hands(challenge_game(DATE)) == HANDS_2026_11_30
    assert hands(challenge_game("2026-12-01")) != HANDS_2026_11_30


def test_the_challenge_game() -> None:
    game = challenge_game(DATE)
    assert game.challenge == {"date": DATE, "reference": None}
    # named by the seat, as in any game the app starts (the screens say "You")
    assert game.players[0] == {"name": "South", "kind": "human"}
    assert [p["bot"] for p in game.players[1:]] == list(CHALLENGE_BOTS) == ["expert"] * 3
    again = Game.from_record(game.to_record())
    assert again.challenge == {"date": DATE, "reference": None}
    assert hands(again) == HANDS_2026_11_30


@pytest.mark.parametrize("bad", ["2026-02-30", "30-11-2026", "2026-1-5", "", "today"])
def test_a_date_that_is_none(bad: str) -> None:
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        challenge_seed(bad)


def test_the_reference_seats_the_same_bots() -> None:
    """The expert in seat 0, and the opponents with the seeds they have in the player's
    game: the very same bots."""
    opened: list[tuple[str, int]] = []

    def opener(spec: str, seed: int) -> Any:
        opened.append((spec, seed))
        return open_player("normal", seed, time_cap=None)

    player = GameDriver(challenge_game(DATE), opener=opener)
    player.open_bots()
    people = list(opened)
    opened.clear()
    GameDriver(reference_game(DATE), opener=opener).open_bots()
    assert opened[0] == ("expert", seat_seed(SEED_2026_11_30, 0))
    assert opened[1:] == people == [("expert", seat_seed(SEED_2026_11_30, s)) for s in (1, 2, 3)]


def small_expert(spec: str, seed: int) -> Any:
    """The expert's search on a small budget (work only, no time cap): fast enough for a
    test, deterministic in the same way as the real one."""
    from nil_tui.bots.players import _BuiltinPlayer

    assert spec == "expert"
    bot = ExpertBot(seed=seed, config=replace(EXPERT, worlds=8, max_worlds=8,
                                              max_rollouts=150, max_nodes=3000))
    return _BuiltinPlayer(spec, bot, None)


def test_the_reference_is_the_same_every_time() -> None:
    told: list[tuple[int, int]] = []
    first = reference_points(DATE, lambda done, total: told.append((done, total)),
                             opener=small_expert, deals=1)
    assert first is not None and len(first) == 1 and 0 <= first[0] <= 3
    assert reference_points(DATE, opener=small_expert, deals=1) == first
    assert told[0] == (0, 13) and told[-1] == (13, 13)
    assert [d for d, _ in told] == sorted(d for d, _ in told)


def test_the_reference_stops_when_told() -> None:
    asked = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 3

    assert reference_points(DATE, should_stop=stop, opener=small_expert) is None
    assert len(asked) == 4


def test_the_comparison() -> None:
    game = challenge_game(DATE)
    rows = compare(game, None)
    assert [(r.deal, r.yours, r.expert, r.difference) for r in rows] == [
        (k, None, None, None) for k in range(1, 5)]
    assert totals(rows) == (0, None, None)
    # the player's points as they are, against a reference
    game = play_out(game)
    mine = [d.points[0] for d in game.deals]
    rows = compare(game, [1, 0, 3, 1])
    assert [r.difference for r in rows] == [m - e for m, e in zip(mine, [1, 0, 3, 1])]
    assert totals(rows) == (sum(mine), 5, sum(mine) - 5)


def play_out(game: Game) -> Game:
    while True:
        while not game.deal.is_over:
            game.play(game.deal.legal_moves()[0])
        if game.is_over:
            return game
        game.next_deal()


def test_what_the_difference_means() -> None:
    assert verdict(2).startswith("You beat the expert by 2 points")
    assert verdict(1).startswith("You beat the expert by 1 point ")
    assert verdict(-1).startswith("The expert scored 1 point more than you")
    assert "tie" in verdict(0)


def test_a_reference_is_checked() -> None:
    assert valid_reference([1, 0, 3, 1]) == [1, 0, 3, 1]
    assert valid_reference({"points": [1, 0, 3, 1]}) == [1, 0, 3, 1]
    for bad in ([1, 0, 3], [1, 0, 3, 4], [1, 0, 3, True], "1031", None, {"points": None}):
        assert valid_reference(bad) is None


def test_progress_in_deals() -> None:
    assert (Progress(0, 52).deal, Progress(0, 52).deals) == (1, 4)
    assert Progress(13, 52).deal == 2
    assert Progress(51, 52).deal == 4
    assert Progress(52, 52).deal == 4


def fake_reference(date: str, progress: Any = None, should_stop: Any = None, **_: Any
                   ) -> list[int] | None:
    """Stands in for the expert in the reference's process (spawned: it imports this)."""
    for done in (0, 13, 26, 39, 52):
        if progress is not None:
            progress(done, 52)
    return [1, 0, 3, 1]


def test_the_process_tells_its_progress_then_the_points(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    # The child is spawned: it imports nil_tui.game.daily_challenge afresh, so the fake goes in by name.
    monkeypatch.setattr(challenge, "_REFERENCE", f"{__name__}:fake_reference")
    process = ReferenceProcess(DATE)
    try:
        news = list(process.news())
    finally:
        process.stop()
    assert news[0] == Progress(0, 52)
    assert news[-1] == Finished([1, 0, 3, 1])
    assert not process.alive


def broken_reference(date: str, progress: Any = None, should_stop: Any = None, **_: Any
                     ) -> list[int] | None:
    raise RuntimeError("no deals today")


def test_a_process_that_fails_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(challenge, "_REFERENCE", f"{__name__}:broken_reference")
    process = ReferenceProcess(DATE)
    try:
        news = list(process.news())
    finally:
        process.stop()
    assert news == [Failed("RuntimeError: no deals today")]


def test_the_process_ends_when_its_parent_lets_go() -> None:
    """The real reference, stopped at once: closing the lifeline (as the parent's death
    does) ends the child by itself."""
    process = ReferenceProcess(DATE)
    try:
        first = next(iter(process.news()))
        assert first == Progress(0, 52)
        process._lifeline.close()
        process._process.join(20)
        assert not process.alive
    finally:
        process.stop()


@pytest.mark.parametrize(("date", "message"), [
    ("2026-13-01", "no such date"), ("30/11/2026", "YYYY-MM-DD"), ("1999-12-31", "from 2000")])
def test_the_command_line_refuses_a_bad_date(date: str, message: str,
                                             monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from nil_tui.commands import cli
    from nil_tui.tui import launch

    def started(*args: object) -> int:
        raise AssertionError("a bad date started the app")

    monkeypatch.setattr(launch, "challenge", started)
    assert cli.main(["challenge", "--date", date]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    (line,) = err.strip().splitlines()
    assert line.startswith("nil-tui") and message in line, line


def test_the_command_line_passes_the_date_on(monkeypatch: pytest.MonkeyPatch) -> None:
    from nil_tui.commands import cli
    from nil_tui.tui import launch

    asked: list[str | None] = []

    def challenge(date: str | None) -> int:
        asked.append(date)
        return 0

    monkeypatch.setattr(launch, "challenge", challenge)
    assert cli.main(["challenge", "--date", "2026-11-29"]) == 0
    assert cli.main(["challenge"]) == 0
    assert asked == ["2026-11-29", None]  # None: today, where the player is


def test_the_reference_is_kept_per_date_and_release() -> None:
    from nil_tui import __version__
    from nil_tui.game.daily_challenge import reference_key

    assert reference_key(DATE) == f"challenge-reference:v1:{__version__}:{DATE}"
    assert reference_key("2026-12-01") != reference_key(DATE)
