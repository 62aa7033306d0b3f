"""The store: settings, the saved game, finished games, statistics; damage, migration and two
instances at once."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from nil_tui import store as store_mod
from nil_tui.engine import Game
from nil_tui.engine.game import Phase
from nil_tui.game.options import PlayOptions
from nil_tui.store import DB_NAME, SCHEMA_VERSION, Store
from nil_tui.store.files import write_new

EASY = dataclasses.asdict(PlayOptions(deals=2, bots=("easy", "easy", "easy"), seed=7))


def play(game: Game, plays: int | None = None, rng_seed: int = 0) -> Game:
    """Play random legal cards: ``plays`` of them, or to the end of the game."""
    rng = random.Random(rng_seed)
    done = 0
    while not game.is_over and (plays is None or done < plays):
        if game.phase is Phase.DEAL_OVER:
            game.next_deal()
        game.play(rng.choice(list(game.deal.legal_moves())))
        done += 1
    return game


def finished(seed: int, deals: int = 2, rng_seed: int = 0) -> dict[str, Any]:
    return play(Game(deals, seed=seed), rng_seed=rng_seed).to_record()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def store(home: Path):
    s = Store.open(home)
    yield s
    s.close()


def db_files(home: Path) -> list[str]:
    return sorted(p.name for p in home.iterdir() if p.name.startswith(DB_NAME))


# --- the API ---------------------------------------------------------------------------------
def test_fresh_store_has_defaults(store: Store, home: Path) -> None:
    assert store.warnings == []
    assert not store.is_secondary
    assert store.load_settings() == {}
    assert store.load_current() is None
    assert store.history() == []
    assert store.stats()["overall"]["games"] == 0
    assert store.records_dir == home / "records"
    assert (home / DB_NAME).exists()


def test_home_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NIL_TUI_HOME", str(tmp_path / "elsewhere"))
    with Store.open() as s:
        assert s.home == tmp_path / "elsewhere"
    assert (tmp_path / "elsewhere" / DB_NAME).exists()


def test_settings_round_trip_and_merge(home: Path) -> None:
    with Store.open(home) as s:
        s.save_settings({"speed": "fast", "bots": ("easy", "hard", "easy"), "theme": None})
        s.save_settings({"speed": "slow"})
    with Store.open(home) as s:
        assert s.load_settings() == {"speed": "slow", "bots": ("easy", "hard", "easy"),
                                     "theme": None}


def test_save_load_resume_round_trip(home: Path) -> None:
    game = play(Game(3, seed=11), plays=30)
    assert game.deal.trick  # stopped in the middle of a trick
    record = game.to_record()
    with Store.open(home) as s:
        s.save_current(record, EASY)
    with Store.open(home) as s:
        loaded = s.load_current()
    assert loaded is not None
    back, options = loaded
    assert back == record and options == EASY
    resumed = Game.from_record(back)
    assert resumed.to_record() | {"created": 0} == record | {"created": 0}
    # the resumed game goes on exactly like the original
    play(resumed, rng_seed=3)
    play(game, rng_seed=3)
    assert resumed.to_record() | {"created": 0} == game.to_record() | {"created": 0}


def test_save_current_replaces_and_clear(store: Store) -> None:
    game = Game(2, seed=1)
    for n in range(1, 6):
        play(game, plays=1, rng_seed=n)
        store.save_current(game.to_record(), EASY)
    loaded = store.load_current()
    assert loaded is not None
    assert sum(len(t["cards"]) for t in loaded[0]["deals"][0]["tricks"]) == 5
    store.clear_current()
    assert store.load_current() is None


def test_finish_game_writes_a_record_the_engine_reads(store: Store) -> None:
    record = finished(seed=42)
    store.save_current(record, EASY)
    path = store.finish_game(record, EASY)
    assert path is not None
    assert path.parent == store.records_dir and path.suffix == ".json"
    assert "seed-42" in path.name and path.name[:4].isdigit()
    game = Game.from_record(json.loads(path.read_text(encoding="utf-8")))
    assert game.is_over and list(game.totals) == record["totals"]
    assert store.load_current() is None  # cleared with the same transaction
    (row,) = store.history()
    assert row["path"] == path and row["deals"] == 2 and row["opponents"] == "easy x3"
    assert row["totals"] == record["totals"] and row["lost"] == (0 in record["losers"])
    assert store.load_record(row["id"]) == record


def test_finishing_the_same_game_twice_counts_once(store: Store) -> None:
    game = play(Game(2, seed=3))
    first = store.finish_game(game.to_record(), EASY)
    second = store.finish_game(game.to_record(), EASY)  # a new "created" time
    assert first == second
    assert len(store.history()) == 1 and store.stats()["overall"]["games"] == 1
    assert len(list(store.records_dir.glob("*.json"))) == 1


def test_two_instances_finishing_the_same_game_at_once(home: Path) -> None:
    record = finished(seed=8)
    stores = [Store.open(home), Store.open(home)]
    paths: list[Path] = []
    barrier = threading.Barrier(2)

    def finish(s: Store) -> None:
        barrier.wait()
        paths.append(s.finish_game(record, EASY))

    threads = [threading.Thread(target=finish, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    for s in stores:
        assert s.warnings == []
        s.close()
    assert len(paths) == 2 and paths[0] == paths[1] and paths[0].exists()
    assert [p.name for p in (home / "records").iterdir()] == [paths[0].name]
    with Store.open(home) as s:
        assert len(s.history()) == 1 and s.stats()["overall"]["games"] == 1


def test_record_files_never_overwrite_each_other(tmp_path: Path) -> None:
    names = []
    threads = [threading.Thread(target=lambda n=n: names.append(
        write_new(tmp_path / "same.json", str(n)))) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert len(set(names)) == 8
    assert sorted(p.read_text() for p in names) == [str(n) for n in range(8)]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in names)


def test_statistics_by_difficulty(store: Store) -> None:
    hard = dict(EASY, bots=["hard", "hard", "hard"])
    mixed = dict(EASY, bots=["easy", "hard", "easy"])
    games = [(finished(1), EASY), (finished(2), EASY), (finished(3), hard),
             (finished(4, deals=3), mixed)]
    for record, options in games:
        store.finish_game(record, options)
    stats = store.stats()
    by = stats["by_difficulty"]
    assert set(by) == {"easy", "hard", "mixed"}
    for name, chosen in (("easy", games[:2]), ("hard", games[2:3]), ("mixed", games[3:])):
        deals = [d for r, _ in chosen for d in r["deals"]]
        assert by[name]["games"] == len(chosen)
        assert by[name]["lost"] == sum(0 in r["losers"] for r, _ in chosen)
        assert by[name]["deals"] == len(deals)
        assert by[name]["clean_deals"] == sum(d["taken"][0] == 0 for d in deals)
        assert by[name]["points"] == sum(d["points"][0] for d in deals)
        assert by[name]["points_per_deal"] == pytest.approx(by[name]["points"] / len(deals))
    assert stats["overall"]["games"] == 4
    assert [s["points"] for s in stats["series"]] == [r["totals"][0] for r, _ in games]
    history = store.history()
    assert [h["seed"] for h in history] == [4, 3, 2, 1]  # newest first
    assert history[0]["opponents"] == "easy, hard, easy"


# --- damage ----------------------------------------------------------------------------------
def _make_store_with_games(home: Path, games: int) -> None:
    with Store.open(home) as s:
        s.save_settings({"speed": "fast"})
        for n in range(games):
            s.finish_game(finished(seed=100 + n, deals=3), EASY)


def _assert_fresh_after_damage(home: Path, expect: str) -> Store:
    s = Store.open(home)
    assert len(s.warnings) == 1, s.warnings
    assert expect in s.warnings[0]
    aside = [p for p in home.iterdir() if ".damaged-" in p.name and not p.name.endswith(
        ("-wal", "-shm"))]
    assert len(aside) == 1 and aside[0].name in s.warnings[0]
    assert s.persistent and s.load_settings() == {} and s.history() == []
    s.save_settings({"speed": "slow"})  # the fresh store works
    s.close()
    with Store.open(home) as again:
        assert again.warnings == [] and again.load_settings() == {"speed": "slow"}
    return s


def test_garbage_bytes(home: Path) -> None:
    home.mkdir()
    garbage = bytes(random.Random(5).randrange(256) for _ in range(5000))
    (home / DB_NAME).write_bytes(garbage)
    s = _assert_fresh_after_damage(home, "it is damaged (file is not a database)")
    (aside,) = home.glob(f"{DB_NAME}.damaged-*")
    assert str(aside) in s.warnings[0]  # says where the file went, in full
    (aside,) = home.glob(f"{DB_NAME}.damaged-*")
    assert aside.read_bytes() == garbage  # kept as it was


def test_truncated_file(home: Path) -> None:
    _make_store_with_games(home, 12)
    path = home / DB_NAME
    data = path.read_bytes()
    assert len(data) > 16 * 4096
    path.write_bytes(data[: len(data) // 2])
    _assert_fresh_after_damage(home, "damaged")


def test_truncated_inside_the_header(home: Path) -> None:
    _make_store_with_games(home, 1)
    path = home / DB_NAME
    path.write_bytes(path.read_bytes()[:60])
    _assert_fresh_after_damage(home, "damaged")


def test_warnings_nobody_read_reach_the_next_open(home: Path) -> None:
    home.mkdir()
    (home / DB_NAME).write_bytes(b"not a database at all" * 100)
    Store.open(home).close()  # e.g. only the last settings were looked up
    with Store.open(home) as s:
        assert len(s.warnings) == 1 and "damaged" in s.warnings[0]
    with Store.open(home) as s:  # told once
        assert s.warnings == []


def test_empty_file_is_a_fresh_store(home: Path) -> None:
    home.mkdir()
    (home / DB_NAME).write_bytes(b"")
    with Store.open(home) as s:
        assert s.warnings == [] and s.load_settings() == {}


def test_schema_from_the_future_is_left_untouched(home: Path) -> None:
    _make_store_with_games(home, 1)
    conn = sqlite3.connect(home / DB_NAME)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    conn.commit()
    conn.close()
    before = (home / DB_NAME).read_bytes()
    with Store.open(home) as s:
        said = (f"This data was written by a newer nil-tui (schema {SCHEMA_VERSION + 5}); this "
                "version will not change it, so nothing is saved in this session.")
        assert s.warnings == [said] and s.read_only_reason == said and s.problem == said
        assert not s.persistent
        game = play(Game(1, seed=2))
        assert s.save_current(game.to_record(), EASY) is False  # not stored: says so
        assert s.save_settings({"speed": "slow"}) is False
        path = s.finish_game(game.to_record(), EASY)
        assert path is not None and not path.is_relative_to(home)
        path.unlink()
    assert (home / DB_NAME).read_bytes() == before
    assert not list(home.glob("*.damaged-*"))


def test_a_database_of_another_program(home: Path) -> None:
    home.mkdir()
    conn = sqlite3.connect(home / DB_NAME)
    conn.execute("CREATE TABLE bookmarks (url TEXT)")
    conn.commit()
    conn.close()
    _assert_fresh_after_damage(home, "not a nil-tui store")


def test_missing_table(home: Path) -> None:
    _make_store_with_games(home, 1)
    conn = sqlite3.connect(home / DB_NAME)
    conn.execute("DROP TABLE games")
    conn.commit()
    conn.close()
    _assert_fresh_after_damage(home, "missing tables: games")


def test_data_folder_cannot_be_created(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with Store.open(blocker / "data") as s:
        assert not s.persistent
        assert "Cannot create the data folder" in s.warnings[0]
        game = play(Game(1, seed=2))
        s.save_current(game.to_record(), EASY)  # works, in memory
        assert s.load_current() is not None
        path = s.finish_game(game.to_record(), EASY)  # still written somewhere
        assert path.exists()
        path.unlink()


READ_ONLY_CHECK = """
import json, sys
from nil_tui.store import Store
s = Store.open(sys.argv[1])
print(json.dumps({"warnings": s.warnings, "persistent": s.persistent,
                  "settings": s.load_settings(), "history": len(s.history()),
                  "secondary": s.is_secondary}))
s.save_settings({"speed": "normal"})
s.close()
"""


def run_in_read_only(home: Path) -> dict[str, Any]:
    """READ_ONLY_CHECK in a process that cannot write in ``home``."""
    os.chmod(home, 0o555)
    try:
        command = [sys.executable, "-c", READ_ONLY_CHECK, str(home)]
        if os.geteuid() == 0:  # root writes anywhere: drop the capabilities that allow it
            if not shutil.which("setpriv"):
                pytest.skip("running as root without setpriv: cannot make a folder read-only")
            command = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner",
                       *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)  # type: ignore[no-any-return]
    finally:
        os.chmod(home, 0o755)


def test_read_only_folder(home: Path) -> None:
    _make_store_with_games(home, 2)
    seen = run_in_read_only(home)
    assert seen["persistent"] is False and seen["secondary"] is False
    assert any("read-only" in w for w in seen["warnings"])
    # what was saved is still shown (read into memory), and nothing was moved or changed
    assert seen["settings"] == {"speed": "fast"} and seen["history"] == 2
    with Store.open(home) as s:
        assert s.warnings == [] and s.load_settings() == {"speed": "fast"}
    assert not list(home.glob("*.damaged-*"))


def test_empty_read_only_folder(home: Path) -> None:
    home.mkdir()
    seen = run_in_read_only(home)
    assert seen["persistent"] is False and seen["secondary"] is False
    assert seen["settings"] == {} and seen["history"] == 0
    assert len(seen["warnings"]) == 1 and "read-only" in seen["warnings"][0]
    assert list(home.iterdir()) == []


def test_saved_game_that_no_longer_validates(home: Path) -> None:
    record = play(Game(2, seed=9), plays=20).to_record()
    record["deals"][0]["tricks"][0]["cards"][1] = record["deals"][0]["tricks"][0]["cards"][0]
    with Store.open(home) as s:
        s.save_current(record, EASY)
    with Store.open(home) as s:
        assert len(s.warnings) == 1
        assert "saved game cannot be resumed" in s.warnings[0]
        assert "deals[0].tricks[0]" in s.warnings[0]  # names the field
        assert s.load_current() is None
        (kept,) = home.glob("set-aside-saved-game-*.json")
        assert f"It was kept as {kept}." in s.warnings[0]
        assert json.loads(kept.read_text())["record"] == record
    with Store.open(home) as s:
        assert s.warnings == []


def test_saved_game_that_is_not_json(store: Store, home: Path) -> None:
    conn = sqlite3.connect(home / DB_NAME)
    conn.execute("INSERT INTO current VALUES (0, '{\"format\": ', '{}', 'x')")
    conn.commit()
    conn.close()
    assert store.load_current() is None
    assert "not readable JSON" in store.warnings[-1]


# --- migration -------------------------------------------------------------------------------
def _write_v1(path: Path, records: list[tuple[dict[str, Any], dict[str, Any]]],
              current: dict[str, Any] | None) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    store_mod.MIGRATIONS[1](conn)
    conn.execute("PRAGMA user_version = 1")
    conn.execute("INSERT INTO settings VALUES ('speed', '\"slow\"')")
    for n, (record, options) in enumerate(records):
        conn.execute("INSERT INTO games(finished_at, path, record, options) VALUES (?,?,?,?)",
                     (f"2026-01-0{n + 1}T10:00:00Z", f"/old/{n}.json", json.dumps(record),
                      json.dumps(options)))
    if current is not None:
        conn.execute("INSERT INTO current VALUES (0, ?, ?, '2026-01-09T10:00:00Z')",
                     (json.dumps(current), json.dumps(EASY)))
    conn.execute("COMMIT")
    conn.close()


def test_migration_from_v1(home: Path) -> None:
    home.mkdir()
    hard = dict(EASY, bots=["hard", "hard", "hard"])
    old = [(finished(21), EASY), (finished(22, deals=3), hard), (finished(23), EASY)]
    current = play(Game(2, seed=24), plays=9).to_record()
    _write_v1(home / DB_NAME, old, current)
    with Store.open(home) as s:
        assert s.warnings == []
        assert s._conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert s.load_settings() == {"speed": "slow"}
        assert s.load_current() == (current, EASY)
        history = s.history()
        assert [h["seed"] for h in history] == [23, 22, 21]
        assert history[1]["difficulty"] == "hard" and history[1]["deals"] == 3
        assert history[0]["totals"] == old[2][0]["totals"]
        by = s.stats()["by_difficulty"]
        assert by["easy"]["games"] == 2 and by["hard"]["games"] == 1
        assert by["hard"]["points"] == sum(d["points"][0] for d in old[1][0]["deals"])
        # an old game finished again is recognised by its fingerprint
        s.finish_game(old[0][0], EASY)
        assert len(s.history()) == 3


def test_a_failing_migration_leaves_v1_untouched(home: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    home.mkdir()
    _write_v1(home / DB_NAME, [(finished(31), EASY)], None)

    real = store_mod.MIGRATIONS[2]

    def broken(conn: sqlite3.Connection) -> None:
        if not conn.execute("SELECT 1 FROM games").fetchone():
            return real(conn)  # a fresh store migrates as usual
        conn.execute("ALTER TABLE games ADD COLUMN fingerprint TEXT")
        raise sqlite3.IntegrityError("UNIQUE constraint failed: games.fingerprint")

    monkeypatch.setitem(store_mod.MIGRATIONS, 2, broken)
    with Store.open(home) as s:  # the file is set aside (kept) and play goes on
        assert s.warnings and s.history() == []
    (aside,) = home.glob(f"{DB_NAME}.damaged-*")
    conn = sqlite3.connect(aside)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    cols = [r[1] for r in conn.execute("PRAGMA table_info(games)")]
    assert "fingerprint" not in cols  # the half-done step was rolled back
    conn.close()


def test_an_io_error_while_migrating_renames_nothing(home: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """An I/O error says nothing of the file's content: it stays where it is, at its version,
    and nothing is saved over it until it can be used."""
    home.mkdir()
    _write_v1(home / DB_NAME, [(finished(31), EASY)], None)

    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("ALTER TABLE games ADD COLUMN fingerprint TEXT")
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setitem(store_mod.MIGRATIONS, 2, broken)
    with Store.open(home) as s:
        assert s.warnings and not any("damaged" in w for w in s.warnings)
        assert s.save_settings({"speed": "slow"}) is False and s.problem is not None
    assert not list(home.glob("*.damaged-*"))
    conn = sqlite3.connect(home / DB_NAME)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    assert "fingerprint" not in [r[1] for r in conn.execute("PRAGMA table_info(games)")]
    conn.close()


# --- two instances ---------------------------------------------------------------------------
def test_second_instance_keeps_a_separate_slot(home: Path) -> None:
    first = Store.open(home)
    second = Store.open(home)
    try:
        assert not first.is_secondary and second.is_secondary
        assert second.warnings == []  # the app tells the player, from is_secondary
        a = play(Game(2, seed=1), plays=5).to_record()
        b = play(Game(2, seed=2), plays=7).to_record()
        first.save_current(a, EASY)
        second.save_current(b, EASY)
        assert first.load_current() == (a, EASY)
        assert second.load_current() == (b, EASY)
    finally:
        second.close()
        first.close()
    with Store.open(home) as again:  # the first slot is free again
        assert not again.is_secondary and again.load_current() == (a, EASY)


def test_a_left_behind_second_game_is_resumed_later(home: Path) -> None:
    first = Store.open(home)
    second = Store.open(home)
    b = play(Game(2, seed=2), plays=7).to_record()
    second.save_current(b, EASY)
    second.close()
    first.close()
    with Store.open(home) as again:
        assert again.load_current() == (b, EASY)


HOLDER = """
import sys, time
from nil_tui.store import Store
s = Store.open(sys.argv[1])
print(s.is_secondary, flush=True)
time.sleep(60)
"""


def test_lock_dies_with_its_process(home: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(home)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "False"
        with Store.open(home) as s:
            assert s.is_secondary
    finally:
        holder.kill()
        holder.wait(timeout=10)
    with Store.open(home) as s:
        assert not s.is_secondary


def test_threads_share_one_store(store: Store) -> None:
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            game = Game(1, seed=n)
            while not game.is_over:
                play(game, plays=1, rng_seed=n)
                store.save_current(game.to_record(), EASY)
            store.finish_game(game.to_record(), EASY)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors and store.warnings == []
    assert len(store.history()) == 4 and store.stats()["overall"]["games"] == 4


WRITER = """
import json, random, sys
from nil_tui.engine import Game
from nil_tui.engine.game import Phase
from nil_tui.store import Store
home, first_seed, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
s = Store.open(home)
print(json.dumps({"ready": True}), flush=True)
sys.stdin.readline()  # both open, then both write at once
options = {"deals": 1, "bots": ["easy", "easy", "easy"], "seed": None, "speed": "instant",
           "ascii": False, "four_color": False, "theme": None, "extra": {}}
for seed in range(first_seed, first_seed + games):
    game = Game(1, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.play(rng.choice(list(game.deal.legal_moves())))
        s.save_current(game.to_record(), options)
        s.save_settings({"last": seed})
    s.finish_game(game.to_record(), options)
print(json.dumps({"secondary": s.is_secondary, "warnings": s.warnings}))
s.close()
"""


def test_two_processes_writing_at_once(home: Path) -> None:
    Store.open(home).close()
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(home), str(first), "6"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
             for first in (1000, 2000)]
    for p in procs:
        assert p.stdout is not None and json.loads(p.stdout.readline()) == {"ready": True}
    outs = []
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        outs.append(json.loads(out))
    assert sorted(o["secondary"] for o in outs) == [False, True]
    assert all(o["warnings"] == [] for o in outs)
    conn = sqlite3.connect(home / DB_NAME)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    with Store.open(home) as s:
        history = s.history()
        assert sorted(h["seed"] for h in history) == [*range(1000, 1006), *range(2000, 2006)]
        assert s.stats()["overall"]["games"] == 12
        assert s.stats()["overall"]["deals"] == 12
        assert s.load_current() is None
        for h in history:
            Game.from_record(json.loads(Path(h["path"]).read_text()))
    assert len(list((home / "records").glob("*.json"))) == 12
