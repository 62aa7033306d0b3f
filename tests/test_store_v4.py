"""The store, version 4: results computed once and kept (``remember`` / ``computed``), the
daily challenge a game is (``find_challenge``), the expert's reference known after the game
(``set_challenge_reference``), challenges in history and statistics, and the migration of a
version 3 store."""

from __future__ import annotations

import dataclasses
import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nil_tui.engine import Game
from nil_tui.engine.game import Phase
from nil_tui.game.options import PlayOptions
from nil_tui.store import (
    DB_NAME,
    LOCKED,
    MIGRATIONS,
    SCHEMA_VERSION,
    ChallengeFound,
    ChallengeResult,
    Store,
    fingerprint,
)

EXPERTS = dataclasses.asdict(PlayOptions(deals=4, bots=("expert", "expert", "expert")))
EASY = dataclasses.asdict(PlayOptions(deals=2, bots=("easy", "easy", "easy"), seed=7))
DATE = "2026-11-30"


def play(game: Game, plays: int | None = None, rng_seed: int = 0) -> Game:
    rng = random.Random(rng_seed)
    done = 0
    while not game.is_over and (plays is None or done < plays):
        if game.phase is Phase.DEAL_OVER:
            game.next_deal()
        game.play(rng.choice(list(game.deal.legal_moves())))
        done += 1
    return game


def challenge(date: str = DATE, reference: list[int] | None = None, plays: int | None = None,
              seed: int = 5) -> dict[str, Any]:
    game = Game(4, seed=seed)
    game.challenge = {"date": date, "reference": reference}
    return play(game, plays=plays).to_record()


def mine(record: dict[str, Any]) -> list[int]:
    return [d["points"][0] for d in record["deals"]]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def store(home: Path) -> Iterator[Store]:
    s = Store.open(home)
    yield s
    s.close()


@pytest.fixture
def short_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Store, "open_wait", 0.3)
    monkeypatch.setattr(Store, "busy_timeout", 0.05)


@pytest.fixture
def lock(home: Path, short_waits: None) -> Iterator[Any]:
    """Another connection holding the database's write lock until ``.release()``."""
    held: list[sqlite3.Connection] = []

    class Lock:
        def hold(self) -> None:
            conn = sqlite3.connect(home / DB_NAME, isolation_level=None)
            conn.execute("BEGIN EXCLUSIVE")
            held.append(conn)

        def release(self) -> None:
            while held:
                conn = held.pop()
                conn.execute("ROLLBACK")
                conn.close()

    yield Lock()
    Lock().release()


# --- computed results ------------------------------------------------------------------------
def test_remember_and_computed_round_trip(home: Path) -> None:
    value = {"deal": 1, "decisions": [{"cost": 0.25, "card": "9S"}]}
    with Store.open(home) as s:
        assert s.computed("analysis:abc") is None
        assert s.remember("analysis:abc", value) is True
        assert s.computed("analysis:abc") == value
        assert s.remember("analysis:abc", {"deal": 2}) is True  # the newest value is kept
    with Store.open(home) as again:
        assert again.computed("analysis:abc") == {"deal": 2}
        assert again.warnings == []


def test_only_the_newest_computed_results_are_kept(home: Path, monkeypatch: Any) -> None:
    from nil_tui.store import queue

    monkeypatch.setattr(queue, "COMPUTED_KEPT", 3)
    with Store.open(home) as s:
        for n in range(5):
            assert s.remember(f"analysis:{n}", {"n": n}) is True
        assert s.remember("analysis:1", {"n": 10}) is True  # written again: the newest now
        kept = [n for n in range(5) if s.computed(f"analysis:{n}") is not None]
        assert kept == [1, 3, 4]
        assert s.computed("analysis:1") == {"n": 10}
    with Store.open(home) as again:
        assert [n for n in range(5) if again.computed(f"analysis:{n}") is not None] == [1, 3, 4]
        assert again.warnings == []


def test_remember_refuses_what_is_not_a_json_object(store: Store) -> None:
    assert store.remember("k", [1, 2]) is False  # type: ignore[arg-type]
    assert store.remember("k", {"x": object()}) is False
    assert store.problem is None


def test_a_damaged_computed_row_is_set_aside_and_forgotten(store: Store, home: Path) -> None:
    store.remember("good", {"a": 1})
    conn = sqlite3.connect(home / DB_NAME, isolation_level=None)
    conn.execute("INSERT INTO computed VALUES ('bad', '{not json', '2026-01-01T00:00:00Z')")
    conn.execute("INSERT INTO computed VALUES ('list', '[1, 2]', '2026-01-01T00:00:00Z')")
    conn.execute("INSERT INTO computed VALUES ('deep', ?, '2026-01-01T00:00:00Z')",
                 ("[" * 100_000 + "]" * 100_000,))
    conn.close()
    assert store.computed("bad") is None
    assert store.computed("list") is None
    assert store.computed("deep") is None
    assert store.computed("good") == {"a": 1}
    kept = sorted(home.glob("set-aside-computed-*.json"))
    assert len(kept) == 3
    assert any("'bad'" in w and "computed again" in w for w in store.warnings)
    left = sqlite3.connect(home / DB_NAME).execute("SELECT key FROM computed").fetchall()
    assert left == [("good",)]


def test_remember_on_a_locked_store_waits_in_the_queue(home: Path, lock: Any) -> None:
    with Store.open(home):
        pass
    lock.hold()
    with Store.open(home) as s:
        assert s.remember("ref:1", {"points": [1, 0, 3, 1]}) is False  # never raises
        assert s.problem == LOCKED
        assert s.computed("ref:1") == {"points": [1, 0, 3, 1]}  # what waits is the truth
        assert s.remember("ref:1", {"points": [1, 1, 3, 1]}) is False
        assert len(s._pending) == 1  # the newest value of a key replaces the waiting one
        lock.release()
        assert s.retry_pending() is True and s.problem is None
    with Store.open(home) as again:
        assert again.computed("ref:1") == {"points": [1, 1, 3, 1]}


def test_a_store_that_saves_nothing_still_remembers_for_the_session() -> None:
    s = Store.in_memory("a test")
    try:
        assert s.remember("k", {"v": 1}) is False  # not durably stored: never said to be
        assert s.computed("k") == {"v": 1}
    finally:
        s.close()


def test_a_newer_store_is_left_untouched(home: Path) -> None:
    home.mkdir()
    conn = sqlite3.connect(home / DB_NAME)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.execute("CREATE TABLE computed (key TEXT, value TEXT, created TEXT)")
    conn.commit()
    conn.close()
    before = (home / DB_NAME).read_bytes()
    with Store.open(home) as s:
        assert s.read_only_reason is not None
        assert s.remember("k", {"v": 1}) is False
        assert s.set_challenge_reference(DATE, [0, 1, 2, 3]) is False
    assert (home / DB_NAME).read_bytes() == before


# --- the daily challenge ---------------------------------------------------------------------
def test_find_challenge_in_the_saved_game_and_in_history(store: Store) -> None:
    assert store.find_challenge(DATE) is None
    started = challenge(plays=10)
    assert store.save_current(started, EXPERTS)
    assert store.find_challenge(DATE) == ChallengeFound("current", None, False)
    assert store.find_challenge("2026-12-01") is None
    gid = store.archive_current()  # a new game replaced it: set aside, unfinished
    assert gid is not None
    assert store.find_challenge(DATE) == ChallengeFound("history", gid, False)
    assert store.history()[0]["challenge"] == DATE
    assert store.history()[0]["challenge_diff"] is None
    done = challenge(seed=6)
    assert store.finish_game(done, EXPERTS) is not None
    found = store.find_challenge(DATE)
    assert found is not None and found["finished"] and found["where"] == "history"
    assert found["id"] != gid  # the finished game is preferred
    plain = play(Game(2, seed=3)).to_record()
    assert store.save_current(plain, EASY)  # another saved game is not the challenge
    assert store.find_challenge(DATE) == found


def test_find_challenge_sees_a_finished_game_waiting_for_the_lock(home: Path,
                                                                 lock: Any) -> None:
    with Store.open(home):
        pass
    lock.hold()
    with Store.open(home) as s:
        assert s.finish_game(challenge(), EXPERTS) is None
        assert s.find_challenge(DATE) == ChallengeFound("history", None, True)
        lock.release()
        assert s.retry_pending()
        found = s.find_challenge(DATE)
        assert found is not None and found["id"] is not None and found["finished"]


def test_the_reference_known_at_the_end_gives_the_difference(store: Store) -> None:
    ref = [1, 0, 3, 1]
    record = challenge(reference=ref)
    assert store.finish_game(record, EXPERTS) is not None
    (row,) = store.history()
    assert row["challenge"] == DATE
    assert row["challenge_diff"] == sum(mine(record)) - sum(ref)
    (entry,) = store.stats()["challenges"]
    assert entry == ChallengeResult(date=DATE, finished_at=row["finished_at"],
                                    points=sum(mine(record)), reference=sum(ref),
                                    diff=sum(mine(record)) - sum(ref))


def test_the_reference_known_after_the_game_finished(store: Store) -> None:
    record = challenge()
    path = store.finish_game(record, EXPERTS)
    assert path is not None
    (row,) = store.history()
    assert row["challenge"] == DATE and row["challenge_diff"] is None
    assert store.stats()["challenges"][0]["diff"] is None
    assert store.stats()["challenges"][0]["reference"] is None

    ref = [0, 1, 1, 3]
    assert store.set_challenge_reference(DATE, ref) is True
    (row,) = store.history()
    diff = sum(mine(record)) - sum(ref)
    assert row["challenge_diff"] == diff
    kept = store.load_record(row["id"])
    assert kept is not None and kept["challenge"] == {"date": DATE, "reference": ref}
    on_disk = json.loads(path.read_text(encoding="utf-8"))
    assert on_disk["challenge"]["reference"] == ref
    assert Game.from_record(on_disk).challenge == {"date": DATE, "reference": ref}
    assert store.stats()["challenges"][0]["diff"] == diff
    assert store.stats()["overall"]["games"] == 1

    # the same game finished again, now with its reference, still counts once
    assert fingerprint(kept) == fingerprint(record)
    store.finish_game(kept, EXPERTS)
    assert len(store.history()) == 1 and store.stats()["overall"]["games"] == 1


def test_finishing_again_with_the_reference_brings_it_in(store: Store) -> None:
    record = challenge()
    store.finish_game(record, EXPERTS)
    ref = [3, 3, 3, 3]
    store.finish_game(challenge(reference=ref), EXPERTS)
    (row,) = store.history()
    assert row["challenge_diff"] == sum(mine(record)) - 12
    assert store.stats()["overall"]["games"] == 1


def test_set_challenge_reference_without_such_game_changes_nothing(store: Store) -> None:
    store.finish_game(play(Game(2, seed=3)).to_record(), EASY)
    assert store.set_challenge_reference(DATE, [0, 1, 2, 3]) is False
    assert store.problem is None and store._pending == []
    store.finish_game(challenge(), EXPERTS)
    assert store.set_challenge_reference(DATE, [0, 1, 2]) is False  # not one per deal
    assert store.set_challenge_reference(DATE, [0, 1, 2, 9]) is False  # not points of a deal
    assert store.set_challenge_reference(DATE, "0123") is False  # type: ignore[arg-type]
    assert store.history()[0]["challenge_diff"] is None


def test_challenges_in_statistics_oldest_first(store: Store) -> None:
    dates = ["2026-11-28", "2026-11-29", "2026-11-30"]
    for n, date in enumerate(dates):
        store.finish_game(challenge(date=date, seed=40 + n, reference=[1, 1, 1, 1]), EXPERTS)
    store.finish_game(play(Game(2, seed=3)).to_record(), EASY)
    stats = store.stats()
    assert [c["date"] for c in stats["challenges"]] == dates
    assert all(c["reference"] == 4 for c in stats["challenges"])
    assert len(stats["series"]) == 4 and set(stats["by_difficulty"]) == {"expert", "easy"}
    assert [h["challenge"] for h in store.history()] == [None, *reversed(dates)]


def test_an_unreadable_challenge_column_is_read_as_none(store: Store, home: Path) -> None:
    store.finish_game(challenge(reference=[1, 1, 1, 1]), EXPERTS)
    conn = sqlite3.connect(home / DB_NAME, isolation_level=None)
    conn.execute("UPDATE games SET challenge_diff = 'lots'")
    conn.close()
    (row,) = store.history()
    assert row["challenge_diff"] is None
    assert store.stats()["challenges"][0]["diff"] is None


# --- migration from version 3 ----------------------------------------------------------------
def _write_v3(path: Path, games: list[tuple[dict[str, Any], dict[str, Any], bool]],
              current: dict[str, Any] | None) -> None:
    """A store as version 3 wrote it: its tables made by its own migrations."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    for version in (1, 2, 3):
        MIGRATIONS[version](conn)
    conn.execute("PRAGMA user_version = 3")
    conn.execute("INSERT INTO settings VALUES ('speed', '\"slow\"')")
    for n, (record, options, finished) in enumerate(games):
        totals, losers = record["totals"], record.get("losers", [])
        points = sum(d["points"][0] for d in record["deals"] if len(d.get("points", [])) == 4)
        conn.execute(
            "INSERT INTO games(finished_at, path, record, options, fingerprint, seed, difficulty, "
            "opponents, deals, totals, losers, lost, clean_deals, points, finished) "
            "VALUES (?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)",
            (f"2026-01-0{n + 1}T10:00:00Z", json.dumps(record), json.dumps(options),
             f"mark-{n}", str(record["seed"]), options["bots"][0],
             f"{options['bots'][0]} x3", len(record["deals"]), json.dumps(totals),
             json.dumps(losers), int(0 in losers), points, int(finished)))
        if finished:
            conn.execute("INSERT INTO stats(difficulty, games, lost, deals, clean_deals, points) "
                         "VALUES (?, 1, ?, ?, 0, ?) ON CONFLICT(difficulty) DO UPDATE SET "
                         "games = games + 1", (options["bots"][0], int(0 in losers),
                                               len(record["deals"]), points))
    if current is not None:
        conn.execute("INSERT INTO current VALUES (0, ?, ?, '2026-01-09T10:00:00Z')",
                     (json.dumps(current), json.dumps(EASY)))
    conn.execute("COMMIT")
    conn.close()


def test_migration_from_v3_keeps_every_row(home: Path) -> None:
    home.mkdir()
    old = play(Game(2, seed=21)).to_record()
    set_aside = play(Game(2, seed=22), plays=20).to_record()
    # a record that already carries a challenge field (written by a newer engine)
    carried = challenge(reference=[1, 1, 1, 1])
    current = play(Game(2, seed=24), plays=9).to_record()
    _write_v3(home / DB_NAME, [(old, EASY, True), (set_aside, EASY, False),
                               (carried, EXPERTS, True)], current)
    with Store.open(home) as s:
        assert s.warnings == []
        assert s._conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
        assert s.load_settings() == {"speed": "slow"}
        assert s.load_current() == (current, EASY)
        rows = s.history()
        assert [r["seed"] for r in rows] == [5, 22, 21]
        assert [r["finished"] for r in rows] == [True, False, True]
        assert [r["challenge"] for r in rows] == [DATE, None, None]
        assert rows[0]["challenge_diff"] == sum(mine(carried)) - 4
        assert [r["challenge_diff"] for r in rows[1:]] == [None, None]
        assert s.load_record(rows[2]["id"]) == old
        stats = s.stats()
        assert stats["by_difficulty"]["easy"]["games"] == 1
        assert len(stats["series"]) == 2
        assert [c["date"] for c in stats["challenges"]] == [DATE]
        assert s.computed("k") is None and s.remember("k", {"v": 1}) is True
    with Store.open(home) as again:
        assert again.computed("k") == {"v": 1} and again.warnings == []
