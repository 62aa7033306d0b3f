"""The sample plugin loads by module:Name without installing; import cost; and a
small ladder: normal beats easy."""

from __future__ import annotations

import importlib.util
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from nil_tui.bots import BotSpecError, check_spec, make_bot, plugin_entry_points
from nil_tui.engine import Deal

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "examples" / "plugin"


@pytest.fixture
def plugin_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(PLUGIN))


def test_the_sample_plugin_loads_by_module_and_name(plugin_on_path: None) -> None:
    text = (PLUGIN / "pyproject.toml").read_text()
    section = text.split('[project.entry-points."nil_tui.bots"]', 1)[1]
    target = re.search(r'^ducker = "([^"]+)"', section, re.MULTILINE).group(1)  # type: ignore[union-attr]
    assert target == "nil_tui_ducker:DuckerBot"
    check_spec(target)
    bot = make_bot(target, seed=3)
    assert bot.name == "Ducker"
    rng = random.Random(4)
    for _ in range(20):
        deal = Deal.new(rng.randrange(4), rng)
        while deal.to_move is not None:
            view = deal.view(deal.to_move)
            card = bot.choose(view)
            assert card in view.legal
            deal.play(card)


def test_the_sample_entry_point_is_found_once_installed(plugin_on_path: None, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # What installing the sample leaves on the path: its metadata with the entry point.
    info = tmp_path / "nil_tui_ducker-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: nil-tui-ducker\n"
                                   "Version: 0.1.0\n")
    (info / "entry_points.txt").write_text("[nil_tui.bots]\nducker = nil_tui_ducker:DuckerBot\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert plugin_entry_points()["ducker"] == "nil_tui_ducker:DuckerBot"
    check_spec("ducker")
    assert make_bot("ducker", seed=1).name == "Ducker"


def test_bad_specs_get_one_clear_line() -> None:
    for spec, words in (("nosuchbot", "unknown bot"), ("no_such_module_x:Bot", "cannot import"),
                        ("nil_tui.bots.easy:Nothing", "has no"), ("", "empty")):
        with pytest.raises(BotSpecError, match=words) as info:
            make_bot(spec, seed=0)
        assert "\n" not in str(info.value)
    check_spec("oracle")


def test_importing_the_bots_loads_no_search_code() -> None:
    code = ("import sys, nil_tui.bots; "
            "bad = [m for m in sys.modules if m.startswith(('nil_tui.bots.', 'numpy'))]; "
            "print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() in ("[]", "['nil_tui.bots.safety']")


def test_ladder_smoke_normal_beats_easy() -> None:
    from nil_tui.game.sim import run_match

    # 25 games of 8 deals, each played four times with the seats rotated
    stats = run_match(["normal", "easy", "easy", "easy"], 25, 8, seed=7, rotate=True,
                      time_cap=None).to_json()["bots"]
    lo, _hi = stats["normal"]["edge_ci95"]
    assert lo > 0, stats["normal"]
    assert stats["easy"]["edge"] < 0


def _ladder() -> Any:
    spec = importlib.util.spec_from_file_location("ladder", ROOT / "benchmarks" / "ladder.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ladder"] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def test_a_ladder_row_in_two_sittings_is_the_row_in_one(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    from nil_tui.bots import search

    # the ladder switches the search levels' safety cap off: put it back after the test
    monkeypatch.setattr(search, "DEFAULT_SAFETY_CAP", search.DEFAULT_SAFETY_CAP)
    ladder = _ladder()
    keep = tmp_path / "kept.jsonl"

    def row(games: int, keep_file: Path | None) -> dict[str, Any]:
        out = ladder.run_row("normal/easy", games, 2, 11, 1, None, "classic", keep_file)
        return {k: v for k, v in out.items() if k not in ("seconds", "games_kept_before")}

    whole = row(3, None)
    first = row(1, keep)  # stopped after one game (four rotations) ...
    assert len(keep.read_text().splitlines()) == 4 and first != whole
    with keep.open("a") as f:  # ... the last line cut short by a kill
        f.write('{"row": "normal/easy", "seed": 11, "game": 1, "rot')
    assert row(3, keep) == whole  # resumed: the same row as in one sitting
    lines = keep.read_text().splitlines()
    assert len(lines) == 12 and all(json.loads(line)["row"] == "normal/easy" for line in lines)
    played: list[int] = []
    monkey = ladder.keep_game
    ladder.keep_game = lambda *a: played.append(1) or monkey(*a)  # nothing more to play
    assert row(3, keep) == whole and not played
    other = ladder.run_row("normal/easy", 1, 2, 12, 1, None, "classic", keep)  # another seed
    assert other["edge"] != whole["edge"] and len(keep.read_text().splitlines()) == 16

    lines[5] = lines[5].replace('"points":[[', '"points":[["x",')
    keep.write_text("\n".join(lines) + "\n")
    assert ladder.main(["--rows", "normal/easy", "--games", "3", "--deals", "2", "--seed",
                        "11", "--jobs", "1", "--keep", str(keep)]) == 2
    err = capsys.readouterr().err
    assert f"{keep} line 6 is not a kept game" in err and "Traceback" not in err
    lines[5] = "[1, 2]"  # JSON, but not a game
    keep.write_text("\n".join(lines) + "\n")
    assert ladder.main(["--rows", "normal/easy", "--games", "3", "--deals", "2", "--seed",
                        "11", "--jobs", "1", "--keep", str(keep), "--paired"]) == 2
    err = capsys.readouterr().err
    assert f"{keep} line 6 is not a kept game" in err and "Traceback" not in err


def test_a_paired_ladder_replays_each_deal_as_it_was_played(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """The replay of a deal with the game's own bots and seeds is the deal itself, card for
    card (pool and tie-break deals too); with the field bot in its place, the same lineup
    gains exactly nothing."""
    from nil_tui.bots import search, seat_seed
    from nil_tui.engine.records import from_record
    from nil_tui.game.sim import match_tasks, play_game

    monkeypatch.setattr(search, "DEFAULT_SAFETY_CAP", search.DEFAULT_SAFETY_CAP)
    ladder = _ladder()
    replays = 0
    for scoring in ("classic", "pool"):
        for task in match_tasks(["normal", "easy", "easy", "easy"], 2, 3, 8, True, None, True,
                                scoring):
            game = from_record(play_game(task).record)
            specs = [task.specs[k] for k in (task.position(s) for s in range(4))]
            seeds = [seat_seed(task.seed, task.position(s)) for s in range(4)]
            for deal in game.deals:
                again = ladder.replayed(deal, specs, seeds)
                assert [t.cards for t in again.tricks] == [t.cards for t in deal.tricks]
                assert again.points == deal.points
                replays += 1
    assert replays >= 40  # (2 scorings x 8 games x 3 deals; a perfect game ends one early)
    for task in match_tasks(["easy"] * 4, 2, 3, 8, True, None, False, "pool"):
        pairs = ladder.paired_game(task).pairs
        assert pairs and all(mine == theirs for mine, theirs in pairs)


def test_a_paired_ladder_row_shows_normal_beating_easy_and_keeps_its_pairs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from nil_tui.bots import search

    monkeypatch.setattr(search, "DEFAULT_SAFETY_CAP", search.DEFAULT_SAFETY_CAP)
    ladder = _ladder()
    keep = tmp_path / "paired.jsonl"
    row = ladder.run_row("normal/easy", 8, 2, 3, 1, None, "pool", keep, True)
    lo, hi = row["paired_ci95"]
    assert 0 < lo < row["paired_gain"] < hi and row["paired_deals"] == 16
    # the gain and the field's luck add up to the edge, deal by deal
    assert row["paired_gain"] + row["replay_edge"] == pytest.approx(row["edge"], abs=1e-5)
    lines = [json.loads(line) for line in keep.read_text().splitlines()]
    assert len(lines) == 32 and all(g["paired"] and len(g["pairs"]) >= 1 for g in lines)
    again = ladder.run_row("normal/easy", 8, 2, 3, 1, None, "pool", keep, True)
    assert {k: again[k] for k in row if k not in ("seconds", "games_kept_before")} == {
        k: row[k] for k in row if k != "seconds"}
    plain = ladder.run_row("normal/easy", 8, 2, 3, 1, None, "pool", keep)  # the same games
    assert plain["edge"] == row["edge"] and len(keep.read_text().splitlines()) == 32
    by_place = row["paired_by_place"]  # two deals a game: a first and a last, no middle
    assert set(by_place) == {"first", "last"} and by_place["first"][2] == 8
    assert (by_place["first"][0] + by_place["last"][0]) / 2 == pytest.approx(row["paired_gain"],
                                                                            abs=1e-5)
    # a row shared between two machines: games 5 to 7 (kept already: nothing played)
    tail = ladder.run_row("normal/easy", 8, 2, 3, 1, None, "pool", keep, True, 5)
    assert tail["games_played"] == 3 and tail["paired_deals"] == 6 and tail["first_game"] == 5
    assert len(keep.read_text().splitlines()) == 32
    head = ladder.run_row("normal/easy", 5, 2, 3, 1, None, "pool", None, True)  # played again
    assert (head["paired_gain"] * 10 + tail["paired_gain"] * 6) / 16 == pytest.approx(
        row["paired_gain"], abs=1e-5)


def test_a_ladder_row_refuses_a_first_game_outside_it(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    ladder = _ladder()
    for first in ("3", "-1"):
        assert ladder.main(["--rows", "normal/easy", "--games", "3", "--first-game", first]) == 2
        err = capsys.readouterr().err
        assert "--first-game must be from 0 to 2" in err and "Traceback" not in err
