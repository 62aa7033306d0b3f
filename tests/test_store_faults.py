"""The store under faults: a database that another process holds (a lock is not damage),
hostile JSON inside the database, a read-only file, a full disk. Real processes hold the locks;
the waits are shrunk so that the tests stay fast."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nil_tui.engine import Game
from nil_tui.engine.game import Phase
from nil_tui.game.options import PlayOptions
from nil_tui.store import DB_NAME, LOCKED, Store

EASY = dataclasses.asdict(PlayOptions(deals=2, bots=("easy", "easy", "easy"), seed=7))
DEEP = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"a":' * 100_000 + "1" + "}" * 100_000


def play(game: Game, plays: int | None = None, rng_seed: int = 0) -> Game:
    rng = random.Random(rng_seed)
    done = 0
    while not game.is_over and (plays is None or done < plays):
        if game.phase is Phase.DEAL_OVER:
            game.next_deal()
        game.play(rng.choice(list(game.deal.legal_moves())))
        done += 1
    return game


def partial(seed: int, plays: int = 9) -> dict[str, Any]:
    return play(Game(2, seed=seed), plays=plays).to_record()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture(autouse=True)
def short_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Store, "open_wait", 0.3)
    monkeypatch.setattr(Store, "busy_timeout", 0.05)


def make_store(home: Path, games: int = 3, current: dict[str, Any] | None = None) -> None:
    with Store.open(home) as s:
        s.save_settings({"speed": "fast", "ascii": True})
        for n in range(games):
            assert s.finish_game(play(Game(1, seed=100 + n)).to_record(), EASY) is not None
        if current is not None:
            assert s.save_current(current, EASY)


def set_aside_files(home: Path) -> list[Path]:
    return sorted(home.glob("set-aside-*.json"))


def damaged_files(home: Path) -> list[Path]:
    return sorted(home.glob("*.damaged-*"))


# --- a lock is not damage --------------------------------------------------------------------
HOLD = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
if sys.argv[2] != "keep":
    conn.execute("PRAGMA journal_mode = " + sys.argv[2])
conn.execute("BEGIN EXCLUSIVE")
print("held", flush=True)
time.sleep(40)
"""


@pytest.fixture
def holder(home: Path) -> Iterator[Any]:
    """Start a process holding ``BEGIN EXCLUSIVE`` on the database; stop it with .release()."""
    procs: list[subprocess.Popen[str]] = []

    class Holder:
        def hold(self, journal: str = "keep") -> None:
            proc = subprocess.Popen([sys.executable, "-c", HOLD, str(home / DB_NAME), journal],
                                    stdout=subprocess.PIPE, text=True)
            procs.append(proc)
            assert proc.stdout is not None and proc.stdout.readline().strip() == "held"

        def release(self) -> None:
            for proc in procs:
                proc.kill()
                proc.wait(timeout=10)

    h = Holder()
    yield h
    h.release()


def test_a_locked_store_is_not_damaged_and_saves_once_free(home: Path, holder: Any) -> None:
    before = partial(1)
    make_store(home, current=before)
    holder.hold()  # the store's own journal (WAL): reading goes on, writing waits
    s = Store.open(home)
    try:
        assert not damaged_files(home) and (home / DB_NAME).exists()
        assert s.persistent and s.read_only_reason is None
        assert s.load_current() == (before, EASY) and len(s.history()) == 3
        assert s.load_settings()["speed"] == "fast"
        newer, newest = partial(1, plays=12), partial(1, plays=15)
        assert s.save_current(newer, EASY) is False  # not stored: never reported as done
        assert s.busy and s.problem == LOCKED
        assert s.save_current(newest, EASY) is False
        assert s.save_settings({"speed": "slow"}) is False
        assert s.load_current() == (newest, EASY)  # what waits is the newest truth
        assert s.retry_pending() is False  # still held
        holder.release()
        assert s.retry_pending() is True
        assert s.problem is None and not s.busy
    finally:
        s.close()
    with Store.open(home) as again:
        assert again.warnings == [] and again.load_current() == (newest, EASY)
        assert again.load_settings()["speed"] == "slow" and len(again.history()) == 3
    assert not damaged_files(home)


def test_a_finished_game_waits_for_the_lock_and_counts_once(home: Path, holder: Any) -> None:
    make_store(home, games=1)
    game = play(Game(1, seed=9))
    holder.hold()
    with Store.open(home) as s:
        s.save_current(game.to_record(), EASY)
        assert s.finish_game(game.to_record(), EASY) is None
        assert s.finish_game(game.to_record(), EASY) is None  # asked again: still one game
        assert s.problem == LOCKED
        holder.release()
        assert s.retry_pending() is True
        path = s.finish_game(game.to_record(), EASY)
        assert path is not None and path.exists()
        assert len(s.history()) == 2 and s.stats()["overall"]["games"] == 2
        assert s.load_current() is None
    assert len(list((home / "records").glob("*.json"))) == 2


def test_closing_while_locked_keeps_the_game_in_a_file(home: Path, holder: Any) -> None:
    make_store(home, games=0)
    holder.hold()
    record = partial(12)
    s = Store.open(home)
    assert s.save_current(record, EASY) is False
    s.close()
    (kept,) = set_aside_files(home)
    assert json.loads(kept.read_text(encoding="utf-8"))["saved_game"]["record"] == record
    holder.release()
    with Store.open(home) as again:  # told at the next opening
        said = ("The last game could not be written to the data file before nil-tui closed; "
                f"it was kept as {kept}.")
        assert again.warnings == [said]


def test_a_store_locked_at_opening_is_read_when_free(home: Path, holder: Any) -> None:
    """A rollback-journal database held exclusively cannot even be read: the store opens
    busy, saves nothing over it, and reads it all once it is free."""
    old = partial(2)
    make_store(home, current=old)
    holder.hold("DELETE")
    s = Store.open(home)
    try:
        assert s.busy and s.warnings == [LOCKED] and s.problem == LOCKED
        assert s.persistent and not damaged_files(home)
        assert s.load_current() is None and s.history() == [] and s.load_settings() == {}
        new = partial(3)
        assert s.save_current(new, EASY) is False  # waits
        holder.release()
        assert s.retry_pending() is True and not s.busy and s.problem is None
        assert s.load_current() == (new, EASY)
        rows = s.history()
        # the saved game nobody could see was kept in history, unfinished, not replaced
        unfinished = [r for r in rows if not r["finished"]]
        assert len(rows) == 4 and len(unfinished) == 1
        assert s.load_record(unfinished[0]["id"]) == old
        assert s.load_settings()["speed"] == "fast"
    finally:
        s.close()
    assert not damaged_files(home)


def test_the_cli_can_tell_what_was_found(home: Path) -> None:
    home.mkdir()
    (home / DB_NAME).write_bytes(b"SQLite format 3\x00" + b"\x07" * 4000)
    with Store.open(home) as s:
        (said,) = s.warnings
    (aside,) = damaged_files(home)
    assert said.startswith("The data file could not be used: it is damaged (")
    assert f"It was kept as {aside} and a fresh one was started" in said


# --- hostile JSON ----------------------------------------------------------------------------
def poke(home: Path, sql: str, *params: object) -> None:
    conn = sqlite3.connect(home / DB_NAME)
    conn.execute(sql, params)
    conn.commit()
    conn.close()


@pytest.mark.parametrize("column", ["record", "options"])
def test_deeply_nested_saved_game_is_set_aside(home: Path, column: str) -> None:
    make_store(home, current=partial(4))
    poke(home, f"UPDATE current SET {column} = ?", DEEP)
    with Store.open(home) as s:
        assert s.load_current() is None
        (kept,) = set_aside_files(home)
        assert DEEP in kept.read_text(encoding="utf-8")  # the data itself is kept
        assert any(str(kept) in w for w in s.warnings)
        newer = partial(5)  # made once: a record carries the second it was made
        assert len(s.history()) == 3 and s.save_current(newer, EASY) is True
    with Store.open(home) as s:
        assert s.load_current() == (newer, EASY)


@pytest.mark.parametrize("column", ["totals", "losers", "record"])
def test_deeply_nested_history_row_is_set_aside(home: Path, column: str) -> None:
    make_store(home, games=3)
    with Store.open(home) as s:
        victim = s.history()[1]
        expected_games = s.stats()["overall"]["games"] - 1
        expected_points = s.stats()["overall"]["points"] - victim["points"]
    poke(home, f"UPDATE games SET {column} = ? WHERE id = ?", DEEP, victim["id"])
    with Store.open(home) as s:
        if column == "record":
            assert s.load_record(victim["id"]) is None
        rows = s.history()
        assert victim["id"] not in [r["id"] for r in rows] and len(rows) == 2
        for row in rows:
            assert s.load_record(row["id"]) is not None
        stats = s.stats()
        assert stats["overall"]["games"] == expected_games
        assert stats["overall"]["points"] == expected_points and len(stats["series"]) == 2
        (kept,) = set_aside_files(home)
        assert f"set-aside-game-{victim['id']}-" in kept.name and DEEP in kept.read_text()
        assert any(str(kept) in w for w in s.warnings)
        assert s.save_settings({"speed": "slow"}) is True  # the app goes on saving


def test_deeply_nested_setting_is_set_aside(home: Path) -> None:
    make_store(home, games=1)
    poke(home, "UPDATE settings SET value = ? WHERE key = 'speed'", DEEP_OBJECT)
    with Store.open(home) as s:
        assert s.load_settings() == {"ascii": True}
        (kept,) = set_aside_files(home)
        assert s.warnings[-1].startswith("The setting 'speed' cannot be read (it is nested")
        assert json.loads(kept.read_text(encoding="utf-8"))["key"] == "speed"
        assert s.save_settings({"speed": "slow"}) is True
    with Store.open(home) as s:
        assert s.load_settings() == {"ascii": True, "speed": "slow"} and s.warnings == []


def test_schema_garbage_is_damage(home: Path) -> None:
    make_store(home, games=1)
    poke(home, "ALTER TABLE games DROP COLUMN finished")
    with Store.open(home) as s:
        assert "missing columns in games: finished" in s.warnings[0]
        assert s.history() == [] and s.save_settings({"speed": "slow"}) is True
    assert len(damaged_files(home)) == 1


# --- writes that fail ------------------------------------------------------------------------
DROP_PRIVILEGES = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner"]

READ_ONLY_FILE = """
import json, sys
from nil_tui.engine import Game
from nil_tui.store import Store
Store.open_wait, Store.busy_timeout = 0.3, 0.05
s = Store.open(sys.argv[1])
game = Game(1, seed=3)
game.play(list(game.deal.legal_moves())[0])
out = {"warnings": list(s.warnings), "history": len(s.history()),
       "current": s.load_current() is not None,
       "saved": s.save_current(game.to_record(), {"deals": 1}),
       "settings": s.save_settings({"speed": "slow"}), "problem": s.problem}
s.close()
print(json.dumps(out))
"""


def run_unprivileged(script: str, home: Path) -> dict[str, Any]:
    command = [sys.executable, "-c", script, str(home)]
    if os.geteuid() == 0:  # root writes anywhere: drop the capabilities that allow it
        if not shutil.which("setpriv"):
            pytest.skip("running as root without setpriv: cannot make a file read-only")
        command = [*DROP_PRIVILEGES, *command]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_a_read_only_database_file_is_not_reported_saved(home: Path) -> None:
    make_store(home, current=partial(6))
    db = home / DB_NAME
    before = db.read_bytes()
    os.chmod(db, 0o444)
    try:
        seen = run_unprivileged(READ_ONLY_FILE, home)
    finally:
        os.chmod(db, 0o644)
    assert seen["saved"] is False and seen["settings"] is False
    assert seen["problem"] == (f"nil-tui's data file {db} is read-only; your game goes on, "
                               "but it is not saved until the file can be written.")
    assert seen["history"] == 3 and seen["current"] is True  # what was saved still reads
    assert not any("damaged" in w for w in seen["warnings"])
    assert db.read_bytes() == before and not damaged_files(home)


READ_ONLY_FOLDER = """
import json, sys
from nil_tui.store import Store
s = Store.open(sys.argv[1])
out = {"warnings": list(s.warnings), "settings": s.save_settings({"speed": "slow"}),
       "problem": s.problem, "reason": s.read_only_reason}
s.close()
print(json.dumps(out))
"""


def test_a_read_only_folder_is_not_reported_saved(home: Path) -> None:
    make_store(home, games=1)
    os.chmod(home, 0o555)
    try:
        seen = run_unprivileged(READ_ONLY_FOLDER, home)
    finally:
        os.chmod(home, 0o755)
    assert seen["settings"] is False
    assert seen["problem"] == seen["reason"] and "read-only" in seen["problem"]


class FullDisk:
    """A connection whose writes fail as on a full disk, until ``room`` is set."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn, self.room = conn, False

    @property
    def in_transaction(self) -> bool:
        return self.conn.in_transaction

    def execute(self, sql: str, params: Any = ()) -> Any:
        if not self.room and sql.split()[0].upper() in ("INSERT", "UPDATE", "DELETE"):
            raise sqlite3.OperationalError("database or disk is full")
        return self.conn.execute(sql, params)

    def executemany(self, sql: str, rows: Any) -> Any:
        return self.execute(sql) if not self.room else self.conn.executemany(sql, rows)

    def close(self) -> None:
        self.conn.close()


def test_a_full_disk_is_said_and_retried(home: Path) -> None:
    make_store(home, games=1)
    with Store.open(home) as s:
        full = FullDisk(s._conn)
        s._conn = full  # type: ignore[assignment]
        game = play(Game(1, seed=11))
        assert s.save_current(partial(7), EASY) is False
        assert s.problem is not None and s.problem.startswith("The disk that holds")
        assert s.finish_game(game.to_record(), EASY) is None
        full.room = True
        assert s.retry_pending() is True and s.problem is None
        assert len(s.history()) == 2 and s.load_current() is None


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 256 KiB filesystem of its own (needs root and mount; skipped elsewhere)."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("needs root to mount a small filesystem")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)],
                          capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip("cannot mount a small filesystem here")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_really_full_disk(tiny_disk: Path) -> None:
    home = tiny_disk / "data"
    with Store.open(home) as s:
        assert s.save_current(partial(8), EASY) is True
        filler = tiny_disk / "filler"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
        try:  # fill the disk to the last byte
            while os.write(fd, b"\0" * 4096):
                pass
        except OSError:
            pass
        finally:
            os.close(fd)
        big = play(Game(6, seed=8)).to_record()
        assert s.save_current(big, EASY) is False
        assert s.problem is not None and "is full" in s.problem
        assert not damaged_files(home)
        filler.unlink()
        assert s.retry_pending() is True and s.problem is None
    with Store.open(home) as s:
        assert s.load_current() == (big, EASY) and s.warnings == []
