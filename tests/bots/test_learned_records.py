"""Training positions from the game records ``nil-tui simulate --records`` writes
(training/records.py): the same lines as self-play's, one at the end of every trick that leaves
a deal going, the deal's worth the engine's; deals not scored the classic way are skipped and
counted; a line that is not a record stops the reading with a message, not a traceback; and
``training.train --records`` fits a model from such a file."""

from __future__ import annotations

import json
import re
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from nil_tui.game.sim import run_match
from training import records, train

NORMAL = ("normal",) * 4
FIELDS = ["deal", "hands", "taken", "leader", "tricks", "worth", "clean"]  # as selfplay's


def simulate(path: Path, games: int, deals: int, seed: int, scoring: str = "classic") -> Path:
    run_match(NORMAL, games, deals, seed, records_path=str(path), time_cap=None,
              scoring=scoring)
    return path


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``nil-tui simulate --bots normal,normal,normal,normal --games 2 --deals 2 --seed 3
    --time-cap 0 --records games.jsonl``."""
    return simulate(tmp_path_factory.mktemp("records") / "games.jsonl", 2, 2, 3)


def test_a_position_at_the_end_of_every_trick_that_leaves_the_deal_going(games: Path) -> None:
    rows, counts = records.load(games)
    recs = read_lines(games)
    assert counts == {"used": 4, "pool": 0, "unfinished": 0}
    assert {r["deal"] for r in rows} == {0, 1, 100, 101}  # 100 * record + deal
    for r, rec in enumerate(recs):
        for k, deal in enumerate(rec["deals"]):
            mine = [p for p in rows if p["deal"] == 100 * r + k]
            tricks = deal["tricks"]
            assert len(mine) == len(tricks) - 1  # the last trick ends the deal
            for p, trick, after in zip(mine, tricks, tricks[1:]):
                assert list(p) == FIELDS
                n = p["tricks"]
                assert p["leader"] == trick["winner"] == after["leader"]
                assert sum(p["taken"]) == n
                assert [h.bit_count() for h in p["hands"]] == [13 - n] * 4
                # worth and clean seats: the finished deal's, as the record gives them
                assert p["worth"] == [float(x) for x in deal["points"]]
                assert p["clean"] == [int(t == 0) for t in deal["taken"]]
            for a, b in pairwise(mine):  # each trick takes one card from every hand
                assert b["tricks"] == a["tricks"] + 1
                assert all(hb & ~ha == 0 and (ha & ~hb).bit_count() == 1
                           for ha, hb in zip(a["hands"], b["hands"]))
    # both kinds of end are covered: early (every seat took a trick), and all 13 tricks
    assert {len(d["tricks"]) == 13 for rec in recs for d in rec["deals"]} == {True, False}


def test_the_command_writes_the_lines_and_skips_the_pool(games: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    pool = simulate(tmp_path / "pool.jsonl", 1, 3, 4, scoring="pool")
    both = tmp_path / "both.jsonl"
    both.write_text(games.read_text() + "\n" + pool.read_text(), encoding="utf-8")
    out = tmp_path / "positions.jsonl"
    assert records.main([str(both), "--out", str(out)]) == 0
    pool_deals = len(read_lines(pool)[0]["deals"])
    assert f"skipped {pool_deals} deals scored by the pool" in capsys.readouterr().out
    assert read_lines(out) == records.load(games)[0]


@pytest.mark.parametrize(("line", "says"), [
    ('{"format": "nil-tui-record", "version": 1', "line 3: not a JSON game record"),
    ("[1, 2]", "line 3: not a game record"),
    (None, "line 3: not a valid game record: deals[0].tricks[0].winner: seat"),
])
def test_a_line_that_is_not_a_record_is_named(games: Path, tmp_path: Path, line: str | None,
                                              says: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    first, second = games.read_text(encoding="utf-8").splitlines()
    if line is None:  # a record whose first trick goes to the wrong seat
        rec = json.loads(second)
        trick = rec["deals"][0]["tricks"][0]
        trick["winner"] = (trick["winner"] + 1) % 4
        line = json.dumps(rec)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(f"{first}\n\n{line}\n", encoding="utf-8")
    with pytest.raises(records.RecordsError, match=re.escape(says)):
        records.load(bad)
    assert records.main([str(bad), "--out", str(tmp_path / "out.jsonl")]) == 2
    assert train.main(["--records", str(bad), "--out", str(tmp_path / "leaf.json")]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err
    assert not (tmp_path / "leaf.json").exists()


def test_train_fits_from_records_the_same_way_twice(tmp_path: Path) -> None:
    games = simulate(tmp_path / "games.jsonl", 1, 5, 5)  # its fifth deal is held out
    outs = [tmp_path / "a.json", tmp_path / "b.json"]
    for out in outs:
        assert train.main(["--records", str(games), "--out", str(out)]) == 0
    model = json.loads(outs[0].read_text(encoding="utf-8"))
    assert outs[0].read_bytes() == outs[1].read_bytes()
    assert model["data"]["records"] == "games.jsonl" and model["data"]["deals"] == 5
    held = sum(1 for p in records.load(games)[0] if train.held_out(p))
    assert model["held_out"]["positions"] == held > 0
    assert len(model["weights"]) == len(model["features"])
