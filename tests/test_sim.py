"""The simulator: determinism, rotation, jobs, records, statistics and failing bots."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from nil_tui.bots import seat_seed
from nil_tui.engine import Card, Deal, Game, PlayerView
from nil_tui.game.sim import game_seed, mean_ci95, run_match

SPECS = ("easy", "easy", "easy", "easy")


def read_records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def comparable(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Records without the fields that may differ between runs (created, app_version)."""
    out = []
    for rec in records:
        rec = dict(rec)
        rec.pop("created")
        rec.pop("app_version")
        out.append(rec)
    return out


# --- plugin bots used by these tests (specs "test_sim:Name") ----------------------------------
class LowBot:
    """Always plays its lowest legal card."""

    name = "Low"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: PlayerView) -> Card:
        return view.legal[0]


class FailingBot(LowBot):
    """Raises on its second decision of every deal."""

    name = "Failing"

    def choose(self, view: PlayerView) -> Card:
        if len(view.hand) == 12:
            raise RuntimeError("confused")
        return view.legal[-1]


class SeedBot(LowBot):
    """Shows its seed in its name."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.name = f"Seed {seed}"


class PerfectBot(LowBot):
    """A plugin that asks for the whole deal: it must never be given it."""

    name = "Perfect"

    def choose_perfect(self, view: PlayerView, deal: Deal) -> Card:  # pragma: no cover
        raise AssertionError("a plugin was handed the whole deal")


# --- determinism ---------------------------------------------------------------------------
def test_same_seed_same_records_and_different_seeds_differ(tmp_path: Path) -> None:
    paths = [tmp_path / f"{n}.jsonl" for n in range(3)]
    results = [run_match(SPECS, 3, 2, seed, records_path=str(p), time_cap=None)
               for seed, p in zip((7, 7, 8), paths)]
    a, b, c = (read_records(p) for p in paths)
    assert len(a) == 3
    assert comparable(a) == comparable(b)
    assert results[0].to_json() == results[1].to_json()
    assert [r["deals"][0]["hands"] for r in a] != [r["deals"][0]["hands"] for r in c]
    assert len({json.dumps(r["deals"][0]["hands"]) for r in a}) == 3  # games differ too
    assert [r["seed"] for r in a] == [game_seed(7, i) for i in range(3)]


def test_records_are_valid_game_records(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    result = run_match(("easy", "test_sim:LowBot", "easy", "test_sim:LowBot"), 2, 3, 5,
                       records_path=str(path), time_cap=None)
    records = read_records(path)
    assert len(records) == result.games == 2
    for rec in records:
        game = Game.from_record(rec)
        assert game.is_over and len(game.deals) == 3
        assert [p["bot"] for p in rec["players"]] == ["easy", "test_sim:LowBot", "easy",
                                                      "test_sim:LowBot"]
        assert all(p["kind"] == "bot" and p["name"] for p in rec["players"])


# --- rotation --------------------------------------------------------------------------------
def test_rotate_plays_each_game_on_the_same_cards_in_every_seat(tmp_path: Path) -> None:
    path = tmp_path / "rot.jsonl"
    specs = ("easy", "test_sim:LowBot", "easy", "easy")
    result = run_match(specs, 2, 2, 11, rotate=True, records_path=str(path), time_cap=None)
    records = read_records(path)
    assert result.games == len(records) == 8
    assert result.deals == 16
    for i in range(2):
        group = records[4 * i: 4 * i + 4]
        assert len({r["seed"] for r in group}) == 1
        assert all(r["cut"] == group[0]["cut"] for r in group)
        assert all([d["hands"] for d in r["deals"]] == [d["hands"] for d in group[0]["deals"]]
                   for r in group)
        # the plugin bot sits in seat 1, then 2, 3, 0
        seats = [[p["bot"] for p in r["players"]].index("test_sim:LowBot") for r in group]
        assert seats == [1, 2, 3, 0]
        for r, rec in enumerate(group):
            assert [p["bot"] for p in rec["players"]] == [specs[(s - r) % 4] for s in range(4)]
    assert records[0]["seed"] != records[4]["seed"]
    low = result.to_json()["bots"]["test_sim:LowBot"]
    assert low["seats"] == 1 and low["deals"] == 16 and low["games"] == 8


def test_rotation_keeps_each_bots_seed(tmp_path: Path) -> None:
    """Each bot is built with the seed of its lineup position, wherever rotation seats it."""
    path = tmp_path / "seeds.jsonl"
    run_match(("test_sim:SeedBot",) * 4, 1, 1, 3, rotate=True, records_path=str(path),
              time_cap=None)
    records = read_records(path)
    seed = game_seed(3, 0)
    for r, rec in enumerate(records):
        names = [p["name"] for p in rec["players"]]
        assert names == [f"Seed {seat_seed(seed, (s - r) % 4)}" for s in range(4)]


# --- jobs ------------------------------------------------------------------------------------
def test_jobs_give_the_same_results(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    specs = ("easy", "normal", "easy", "test_sim:LowBot")
    r1 = run_match(specs, 3, 2, 21, rotate=True, jobs=1, records_path=str(one), time_cap=None)
    r2 = run_match(specs, 3, 2, 21, rotate=True, jobs=2, records_path=str(two), time_cap=None)
    assert r1.to_json() == r2.to_json()
    assert comparable(read_records(one)) == comparable(read_records(two))


# --- statistics ------------------------------------------------------------------------------
def test_statistics_match_the_records(tmp_path: Path) -> None:
    path = tmp_path / "stats.jsonl"
    specs = ("easy", "test_sim:LowBot", "easy", "normal")
    result = run_match(specs, 4, 3, 9, rotate=True, records_path=str(path), time_cap=None)
    data = result.to_json()
    records = read_records(path)
    for spec, stats in data["bots"].items():
        points, edges, clean, games, lost = [], [], 0, 0, 0
        for rec in records:
            for seat, player in enumerate(rec["players"]):
                if player["bot"] != spec:
                    continue
                games += 1
                lost += seat in rec["losers"]
                for deal in rec["deals"]:
                    pts = deal["points"]
                    points.append(pts[seat])
                    edges.append(pts[seat] - (sum(pts) - pts[seat]) / 3)
                    clean += deal["taken"][seat] == 0
        assert stats["seats"] == specs.count(spec)
        assert stats["deals"] == len(points)
        assert stats["points_per_deal"] == pytest.approx(sum(points) / len(points), abs=1e-6)
        assert stats["edge"] == pytest.approx(sum(edges) / len(edges), abs=1e-6)
        assert stats["clean_share"] == pytest.approx(clean / len(points), abs=1e-6)
        assert (stats["games"], stats["games_lost"]) == (games, lost)
        lo, hi = stats["points_ci95"]
        assert lo <= stats["points_per_deal"] <= hi and lo < hi
        lo, hi = stats["edge_ci95"]
        assert lo <= stats["edge"] <= hi
    # the edges of the four seats of a deal add up to zero
    total_edge = sum(s["edge"] * s["deals"] for s in data["bots"].values())
    assert total_edge == pytest.approx(0, abs=1e-3)


def test_json_shape() -> None:
    data = run_match(("easy", "easy", "normal", "easy"), 2, 1, 4, time_cap=None).to_json()
    assert set(data) == {"games", "deals", "seed", "rotate", "bots"}
    assert (data["games"], data["deals"], data["seed"], data["rotate"]) == (2, 2, 4, False)
    assert list(data["bots"]) == ["easy", "normal"]
    for stats in data["bots"].values():
        assert set(stats) == {"seats", "deals", "points_per_deal", "points_ci95", "edge",
                              "edge_ci95", "clean_share", "games", "games_lost"}
        assert len(stats["points_ci95"]) == len(stats["edge_ci95"]) == 2
    assert data["bots"]["easy"]["seats"] == 3 and data["bots"]["easy"]["deals"] == 6
    json.dumps(data, allow_nan=False)


def test_mean_ci95() -> None:
    assert mean_ci95([]) == (0.0, 0.0, 0.0)
    assert mean_ci95([2.0]) == (2.0, 2.0, 2.0)
    mean, lo, hi = mean_ci95([1.0, 2.0, 3.0, 4.0])
    half = 3.182 * math.sqrt((2.25 + 0.25 + 0.25 + 2.25) / 3 / 4)
    assert mean == 2.5 and lo == pytest.approx(2.5 - half) and hi == pytest.approx(2.5 + half)
    values = [float(i % 7) for i in range(500)]
    mean, lo, hi = mean_ci95(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / 499)
    assert hi - mean == pytest.approx(1.96 * sd / math.sqrt(500))


# --- failing and perfect-information bots ---------------------------------------------------
def test_a_failing_bot_is_contained_and_recorded(tmp_path: Path) -> None:
    path = tmp_path / "fail.jsonl"
    result = run_match(("test_sim:FailingBot", "easy", "easy", "easy"), 1, 2, 1,
                       records_path=str(path), time_cap=5.0)
    (record,) = read_records(path)
    incidents = record["incidents"]
    assert incidents and result.incidents == len(incidents)
    assert all(i["seat"] == 0 and "confused" in i["reason"] for i in incidents)
    game = Game.from_record(record)
    for incident in incidents:  # the recorded card is the one that was played
        deal = game.deals[incident["deal"] - 1]
        trick = deal.tricks[incident["trick"] - 1]
        assert str(trick.card_of(0)) == incident["card"]
    assert "decisions were played for failing bots" in result.summary()


def test_a_plugin_is_never_handed_the_whole_deal() -> None:
    result = run_match(("test_sim:PerfectBot", "easy", "easy", "easy"), 1, 1, 2,
                       time_cap=None)
    assert result.incidents == 0  # it played its own choose() every time


def test_the_built_in_oracle_gets_a_copy_of_the_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    from nil_tui.bots.expert import OracleBot

    real = OracleBot.choose_perfect
    calls = []

    def checked(self: OracleBot, view: PlayerView, deal: Deal) -> Card:
        assert isinstance(deal, Deal)
        assert deal.hand(view.seat) == view.hand and deal.to_move == view.seat
        assert deal.tricks == view.tricks and deal.trick == view.trick
        calls.append(view.seat)
        card = real(self, view, deal.copy())
        while not deal.is_over:  # playing the copy out must not touch the live deal
            deal.play(deal.legal_moves()[0])
        return card

    monkeypatch.setattr(OracleBot, "choose_perfect", checked)
    result = run_match(("oracle", "easy", "easy", "easy"), 1, 1, 2, time_cap=None)
    assert calls and set(calls) == {0} and result.incidents == 0


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"games": 0}, ValueError), ({"deals": 0}, ValueError), ({"deals": 100}, ValueError),
    ({"jobs": 0}, ValueError), ({"time_cap": -1.0}, ValueError),
    ({"specs": ("easy", "easy", "easy")}, ValueError), ({"seed": "x"}, TypeError),
    ({"first_game": 1}, ValueError), ({"first_game": -1}, ValueError),
    ({"first_game": True}, ValueError),
])
def test_run_match_rejects_bad_arguments(kwargs: dict[str, Any], error: type) -> None:
    args: dict[str, Any] = {"specs": SPECS, "games": 1, "deals": 1, "seed": 1}
    args.update(kwargs)
    with pytest.raises(error):
        run_match(**args)


def test_a_match_split_into_ranges_plays_the_same_games() -> None:
    whole: list[Any] = []
    tail: list[Any] = []
    run_match(SPECS, 3, 2, 9, rotate=True, time_cap=None, on_game=whole.append)
    result = run_match(SPECS, 3, 2, 9, rotate=True, time_cap=None, on_game=tail.append,
                       first_game=2)
    assert [g.game for g in tail] == [2] * 4 and tail == [g for g in whole if g.game == 2]
    assert result.to_json()["games"] == 4  # only the games of the range are counted


# --- every process of a match ends with it -----------------------------------------------------
PLUGINS = Path(__file__).resolve().parent / "plugins"


def _procs() -> Any:
    import sys

    if str(PLUGINS) not in sys.path:
        sys.path.insert(0, str(PLUGINS))
    import nil_procs

    return nil_procs


@pytest.mark.parametrize("plugins", [False, True], ids=["built-in", "plugins"])
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGKILL", "SIGINT"])
def test_every_process_of_simulate_jobs_ends_with_it(tmp_path: Path, sig: str,
                                                     plugins: bool) -> None:
    """simulate --jobs 2, ended by a signal in the middle of the match: its workers (and their
    plugins' processes) end with it, whatever the signal (Ctrl-C reaches the terminal's whole
    process group; the plugins' processes are in sessions of their own)."""
    import os
    import signal
    import subprocess
    import sys

    procs = _procs()
    tag = procs.new_tag()
    # (plugins that hang at the first card of every deal: Ctrl-C used to wait for them)
    bots = "nil_hostile:Hanger,easy,nil_hostile:Hanger,hard" if plugins else "easy,easy,easy,easy"
    env = dict(os.environ, NIL_TUI_HOME=str(tmp_path / "home"), PYTHONPATH=str(PLUGINS),
               **{procs.TAG: tag})
    expected = 1 + 2 + (2 * 2 * 2 if plugins else 0)  # simulate, workers, plugin hosts
    simulate = subprocess.Popen(
        [sys.executable, "-m", "nil_tui", "simulate", "--jobs", "2", "--games", "400",
         "--deals", "8", "--seed", "1", "--bots", bots], env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert procs.wait_for(lambda: len(procs.tagged(tag)) >= expected, 60.0), \
            procs.tagged(tag)
        seen = procs.tagged(tag)
        if sig == "SIGINT":
            os.killpg(simulate.pid, signal.SIGINT)  # as a terminal does on Ctrl-C
        else:
            simulate.send_signal(getattr(signal, sig))
        left = procs.all_gone(tag, seen, 10.0)
        assert not left, f"still running 10 s after {sig}: {left}"
        code = simulate.wait(10.0)
        if sig == "SIGINT":
            assert code == 130
            assert simulate.stderr is not None
            assert simulate.stderr.read().decode().strip().splitlines()[-1] == \
                "nil-tui simulate: interrupted"
    finally:
        if simulate.poll() is None:
            simulate.kill()
            simulate.wait()
