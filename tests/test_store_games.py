"""The store keeps every game: unfinished games set aside for a new one (browsable,
resumable), saved games that cannot be resumed (kept as files), and games of any seed."""

from __future__ import annotations

import dataclasses
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from nil_tui.engine import Game
from nil_tui.engine.game import Phase
from nil_tui.game.options import PlayOptions
from nil_tui.store import DB_NAME, MIGRATIONS, Store

EASY = dataclasses.asdict(PlayOptions(deals=2, bots=("easy", "easy", "easy"), seed=7))

HUGE = 99999999999999999999  # above SQLite's INTEGER range
VAST = int("7" * 300)  # a seed the command line accepts, far too long for a file name


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def store(home: Path) -> Any:
    s = Store.open(home)
    yield s
    s.close()


def play(game: Game, plays: int | None = None, rng_seed: int = 0) -> Game:
    """Random legal cards: ``plays`` of them, or to the end of the game."""
    rng = random.Random(rng_seed)
    done = 0
    while not game.is_over and (plays is None or done < plays):
        if game.phase is Phase.DEAL_OVER:
            game.next_deal()
        game.play(rng.choice(list(game.deal.legal_moves())))
        done += 1
    return game


def finished(seed: int, deals: int = 2) -> dict[str, Any]:
    return play(Game(deals, seed=seed)).to_record()


def partial(seed: int, plays: int = 9) -> dict[str, Any]:
    return play(Game(2, seed=seed), plays=plays).to_record()


# --- unfinished games ------------------------------------------------------------------------
def test_archiving_keeps_the_unfinished_game_in_history(store: Store) -> None:
    record = partial(1)
    assert store.save_current(record, EASY) is True
    game_id = store.archive_current()
    assert game_id is not None
    assert store.load_current() is None
    (row,) = store.history()
    assert row["id"] == game_id and row["finished"] is False and row["result"] == "unfinished"
    assert row["path"] is None and row["lost"] is False and row["seed"] == 1
    assert store.load_record(game_id) == record
    stats = store.stats()
    assert stats["overall"]["games"] == 0 and stats["series"] == []  # finished games only
    assert store.archive_current() is None  # nothing saved any more


def test_archiving_the_same_game_twice_keeps_one_row(store: Store) -> None:
    record = partial(2)
    store.save_current(record, EASY)
    first = store.archive_current()
    store.save_current(record, EASY)
    assert store.archive_current() == first
    assert len(store.history()) == 1


def test_reopen_makes_it_the_saved_game_again(home: Path) -> None:
    a, b = partial(3), partial(4, plays=14)
    with Store.open(home) as s:
        s.save_current(a, EASY)
        a_id = s.archive_current()
        assert a_id is not None
        s.save_current(b, EASY)
    with Store.open(home) as s:  # a later run
        assert s.reopen(a_id) == (a, EASY)
        assert s.load_current() == (a, EASY)
        rows = s.history()
        assert [r["seed"] for r in rows] == [4]  # b was archived, a left the list
        assert rows[0]["finished"] is False and s.load_record(rows[0]["id"]) == b
        assert s.reopen(a_id) is None  # no longer unfinished in history
    with Store.open(home) as s:
        assert s.load_current() == (a, EASY)


def test_reopen_refuses_a_finished_game(store: Store) -> None:
    record = finished(5)
    assert store.finish_game(record, EASY) is not None
    (row,) = store.history()
    assert row["finished"] is True
    assert store.reopen(row["id"]) is None and store.reopen(12345) is None
    assert store.load_current() is None


def test_unfinished_then_finished_counts_once(store: Store) -> None:
    game = play(Game(2, seed=6), plays=10)
    store.save_current(game.to_record(), EASY)
    game_id = store.archive_current()
    assert game_id is not None
    resumed = store.reopen(game_id)
    assert resumed is not None
    done = play(Game.from_record(resumed[0]))
    assert store.finish_game(done.to_record(), EASY) is not None
    rows = store.history()
    assert [r["finished"] for r in rows] == [True]
    assert store.stats()["overall"]["games"] == 1


# --- a saved game that cannot be resumed -----------------------------------------------------
def test_set_aside_current_keeps_it_beside_the_store(store: Store, home: Path) -> None:
    record = partial(7)
    store.save_current(record, EASY)
    kept = store.set_aside_current("deal 1: West plays a card twice")
    assert kept is not None and kept.parent == home and kept.exists()
    content = json.loads(kept.read_text(encoding="utf-8"))
    assert content["record"] == record and content["why"] == "deal 1: West plays a card twice"
    assert content["options"] == json.loads(json.dumps(EASY))
    assert store.load_current() is None
    assert store.warnings[-1] == ("The saved game cannot be resumed: deal 1: West plays a card "
                                  f"twice. It was kept as {kept}.")
    assert store.set_aside_current("again") is None  # nothing saved any more


def test_unreadable_saved_game_is_kept_in_a_file(store: Store, home: Path) -> None:
    conn = sqlite3.connect(home / DB_NAME)
    conn.execute("INSERT INTO current VALUES (0, '{\"format\": ', '{}', 'x')")
    conn.commit()
    conn.close()
    assert store.load_current() is None
    (kept,) = home.glob("set-aside-saved-game-*.json")
    assert json.loads(kept.read_text(encoding="utf-8"))["record"] == '{"format": '
    assert "not readable JSON" in store.warnings[-1] and str(kept) in store.warnings[-1]


# --- any seed --------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [HUGE, VAST, -HUGE, 2**63 - 1], ids=["2^66", "300 digits",
                                                                      "negative", "2^63-1"])
def test_any_seed_is_stored_and_named_safely(store: Store, seed: int) -> None:
    game = play(Game(1, seed=seed))
    record = game.to_record()
    assert store.save_current(record, dict(EASY, seed=seed)) is True
    assert store.load_current() == (record, dict(EASY, seed=seed))
    path = store.finish_game(record, dict(EASY, seed=seed))
    assert path is not None and path.exists() and len(path.name) < 80
    assert json.loads(path.read_text(encoding="utf-8"))["seed"] == seed  # exact
    assert store.finish_game(game.to_record(), EASY) == path  # the same game again
    (row,) = store.history()
    assert row["seed"] == seed and row["finished"] is True
    assert store.stats()["overall"]["games"] == 1
    assert store.load_current() is None and store.problem is None
    assert len(list(store.records_dir.iterdir())) == 1


def test_long_seeds_get_distinct_names(store: Store) -> None:
    a = store.finish_game(finished(VAST, deals=1), EASY)
    b = store.finish_game(finished(VAST + 1, deals=1), EASY)
    assert a is not None and b is not None
    assert a.name.split("_seed-")[1] != b.name.split("_seed-")[1]


def test_migration_keeps_huge_seeds(home: Path) -> None:
    home.mkdir()
    record = finished(HUGE, deals=1)
    conn = sqlite3.connect(home / DB_NAME, isolation_level=None)
    conn.execute("BEGIN")
    MIGRATIONS[1](conn)
    conn.execute("PRAGMA user_version = 1")
    conn.execute("INSERT INTO games(finished_at, path, record, options) VALUES (?,?,?,?)",
                 ("2026-01-01T10:00:00Z", "/old/0.json", json.dumps(record), json.dumps(EASY)))
    conn.execute("COMMIT")
    conn.close()
    with Store.open(home) as s:
        assert s.warnings == []
        (row,) = s.history()
        assert row["seed"] == HUGE and row["finished"] is True
        assert s.finish_game(record, EASY) == Path("/old/0.json")  # known: counted once
        assert s.stats()["overall"]["games"] == 1


def test_a_game_with_plays_taken_back_is_kept_apart_as_assisted(tmp_path: Path) -> None:
    from nil_tui.engine import Game

    with Store.open(tmp_path) as store:
        for seed, undo in ((1, False), (2, True)):
            game = Game(1, seed)
            while not game.is_over:
                game.play(game.deal.legal_moves()[0])
                if undo and len(game.deal.trick) == 2 and not game.undone:
                    game.take_back(1)
            assert store.finish_game(game.to_record(), {"bots": ["easy"] * 3}) is not None
        rows = {r["seed"]: r for r in store.history()}
        assert rows[1]["opponents"] == "easy x3"
        assert rows[2]["opponents"] == "easy x3 (assisted)"
        by = store.stats()["by_difficulty"]
        assert by["easy"]["games"] == 1 and by["easy (assisted)"]["games"] == 1
