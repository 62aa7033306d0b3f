"""The store against real faults, in real processes: a real full filesystem (a small tmpfs,
mounted for the test), a real second process holding SQLite's lock, a folder in the way of
the journal, a schema version nobody wrote; ``nil-tui resume`` run as the player runs it.

A file is set aside as damaged only when its content fails a check; a full disk, an I/O
error, a lock or an unknown version never renames anything, and the player is told which."""

from __future__ import annotations

import dataclasses
import fcntl
import json
import os
import random
import re
import select
import shutil
import sqlite3
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nil_tui.engine import Game
from nil_tui.engine.game import Phase
from nil_tui.game.options import PlayOptions
from nil_tui.store import DB_NAME, Store

EASY = dataclasses.asdict(PlayOptions(deals=2, bots=("easy", "easy", "easy"), seed=7))
NO_GAME = "there is no saved game"


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


def finished(seed: int) -> dict[str, Any]:
    return play(Game(1, seed=seed)).to_record()


def make_store(home: Path, current: dict[str, Any] | None) -> None:
    """A data folder with a finished game in history and (if given) a saved game."""
    with Store.open(home) as s:
        assert s.finish_game(finished(100), EASY) is not None
        if current is not None:
            assert s.save_current(current, EASY) is True


def resume(home: Path) -> subprocess.CompletedProcess[str]:
    """``nil-tui resume`` in a process of its own, without a terminal: it says what the store
    found, and exits 2 ("needs a terminal") only once it found a game to resume."""
    env = dict(os.environ, NIL_TUI_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "nil_tui", "resume"], capture_output=True,
                          text=True, env=env, timeout=60, stdin=subprocess.DEVNULL, check=False)


def found_the_game(done: subprocess.CompletedProcess[str]) -> bool:
    return (done.returncode == 2 and "needs a terminal" in done.stderr
            and NO_GAME not in done.stderr and "Traceback" not in done.stderr)


def set_aside(home: Path) -> list[str]:
    return sorted(p.name for p in home.iterdir() if "damaged" in p.name or "set-aside" in p.name)


@pytest.fixture(autouse=True)
def short_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Store, "open_wait", 0.3)
    monkeypatch.setattr(Store, "busy_timeout", 0.05)


# --- a real full disk ------------------------------------------------------------------------
class SmallDisk:
    """A 2 MB tmpfs of its own; ``fill`` takes its last free byte, ``free`` gives it back."""

    def __init__(self, mount: Path) -> None:
        self.mount = mount
        self.filler = mount / "filler"

    def fill(self) -> None:
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            for size in (65536, 4096, 512, 1):
                try:
                    while os.write(fd, b"\0" * size):
                        pass
                except OSError:
                    continue
        finally:
            os.close(fd)
        st = os.statvfs(self.mount)
        assert st.f_bavail == 0, "the small disk did not fill"

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[SmallDisk]:
    mount = tmp_path / "small"
    mount.mkdir()
    if sys.platform != "linux" or not shutil.which("mount"):
        pytest.skip("mounting a small tmpfs needs Linux and mount")
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"mounting a small tmpfs is not permitted here ({done.stderr.strip()})")
    try:
        yield SmallDisk(mount)
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False, capture_output=True)


def test_a_disk_full_from_the_start_is_not_damage(small_disk: SmallDisk) -> None:
    home = small_disk.mount / "data"
    saved = partial(1)
    make_store(home, current=saved)
    before = sorted(p.name for p in home.iterdir())
    small_disk.fill()

    done = resume(home)
    assert found_the_game(done), done.stderr
    assert "damaged" not in done.stderr

    with Store.open(home) as s:  # what the app's store says and reads
        full = (f"The disk that holds nil-tui's data ({home}) is full; your game goes on, but "
                "it is not saved until there is room.")
        assert s.warnings == [full] and s.problem == full
        assert not any("damaged" in w for w in s.warnings)
        assert s.load_current() == (saved, EASY)
        assert [r["finished"] for r in s.history()] == [True]
        assert s.stats()["overall"]["games"] == 1
        assert s.save_settings({"speed": "slow"}) is False  # not saved: never said it was
        small_disk.free()
        assert s.retry_pending() is True and s.problem is None
    assert set_aside(home) == [] and set(before) <= {p.name for p in home.iterdir()}

    assert found_the_game(resume(home))
    with Store.open(home) as s:
        assert s.warnings == [] and s.load_current() == (saved, EASY)
        assert len(s.history()) == 1 and s.load_settings()["speed"] == "slow"


def test_a_finished_game_on_a_disk_full_from_the_start_is_never_said_saved(
        small_disk: SmallDisk) -> None:
    home = small_disk.mount / "data"
    make_store(home, current=None)
    small_disk.fill()
    game = finished(7)
    with Store.open(home) as s:
        assert s.finish_game(game, EASY) is None  # None: not stored
        kept = s.keep_finished(game, EASY)  # asked again: still one game, still waiting
        assert kept.stored is False and kept.problem is not None and "is full" in kept.problem
        assert kept.record_file is not None  # written where there was room
        assert not kept.record_file.is_relative_to(small_disk.mount)
        assert s.retry_pending() is False and s.problem == kept.problem
        small_disk.free()
        assert s.retry_pending() is True and s.problem is None
        done = s.keep_finished(game, EASY)
        assert done.stored is True and done.record_file is not None
        # moved into records/ as the game went into history, which points there
        assert done.record_file.parent == home / "records" and done.record_file.exists()
        assert not kept.record_file.exists()
        newest, older = s.history()
        assert (newest["finished"], newest["path"]) == (True, done.record_file)
        assert older["finished"] is True
    with Store.open(home) as s:
        assert len(s.history()) == 2 and s.stats()["overall"]["games"] == 2
    assert set_aside(home) == []


def test_a_finished_game_never_written_is_kept_in_a_file_at_the_end(
        small_disk: SmallDisk) -> None:
    home = small_disk.mount / "data"
    make_store(home, current=partial(3))
    small_disk.fill()
    game = finished(8)
    s = Store.open(home)
    assert s.load_current() is not None
    result = s.keep_finished(game, EASY)
    assert result.stored is False
    if result.record_file is not None:
        result.record_file.unlink()
    kept = s.close()  # the disk is still full: kept outside it
    assert kept is not None and kept.exists() and not kept.is_relative_to(small_disk.mount)
    try:
        content = json.loads(kept.read_text(encoding="utf-8"))
        assert content["finished_games"] == [game] and "is full" in content["why"]
        small_disk.free()
        with Store.open(home) as again:
            assert any(str(kept) in w for w in again.warnings)
            assert len(again.history()) == 1  # history was never told it was saved
    finally:
        kept.unlink()


# --- a lock that also blocks readers ---------------------------------------------------------
HOLD_ALL = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA locking_mode=EXCLUSIVE")
conn.execute("BEGIN EXCLUSIVE")
conn.execute("INSERT INTO settings(key, value) VALUES ('held', '1')")
print("held", flush=True)
sys.stdin.read()
"""


def test_resume_says_locked_when_a_lock_blocks_readers(tmp_path: Path) -> None:
    home = tmp_path / "data"
    saved = partial(2)
    make_store(home, current=saved)
    holder = subprocess.Popen([sys.executable, "-c", HOLD_ALL, str(home / DB_NAME)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        done = resume(home)
        assert done.returncode == 1 and "Traceback" not in done.stderr
        assert NO_GAME not in done.stderr
        lines = done.stderr.strip().splitlines()
        assert ("nil-tui resume: Another program is using nil-tui's data so that even reading "
                "it must wait: the saved game cannot be read now. Nothing was changed; try "
                "again once that program is closed.") in lines
        assert not any("your game goes on" in line for line in lines)
        with Store.open(home) as s:
            assert s.busy and s.load_current() is None and s.unreadable is not None
    finally:
        holder.kill()
        holder.wait(timeout=10)
    assert set_aside(home) == []
    assert found_the_game(resume(home))
    with Store.open(home) as s:
        assert s.unreadable is None and s.load_current() == (saved, EASY)


def test_resume_without_a_saved_game_still_says_so(tmp_path: Path) -> None:
    home = tmp_path / "data"
    make_store(home, current=None)
    done = resume(home)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "nil-tui resume: there is no saved game (start one with nil-tui play)")


# --- a folder in the journal's way -----------------------------------------------------------
def test_a_folder_named_like_the_journal_is_not_damage(tmp_path: Path) -> None:
    home = tmp_path / "data"
    saved = partial(4)
    make_store(home, current=saved)
    wal = home / f"{DB_NAME}-wal"
    wal.mkdir()
    (wal / "mine.txt").write_text("someone's file")

    done = resume(home)
    assert found_the_game(done), done.stderr
    with Store.open(home) as s:
        said = (f"nil-tui cannot use its data file: {wal} is in the way (SQLite keeps its "
                "journal under that name; move it elsewhere). Your game goes on, but it is not "
                "saved until then.")
        assert s.warnings == [said] and s.problem == said
        assert s.load_current() == (saved, EASY) and len(s.history()) == 1
        later = partial(4, plays=12)  # made once: a record carries the second it was made
        assert s.save_current(later, EASY) is False
        assert set_aside(home) == [] and (wal / "mine.txt").exists()
        shutil.move(str(wal), str(tmp_path / "moved-wal"))
        assert s.retry_pending() is True and s.problem is None
    with Store.open(home) as s:
        assert s.warnings == [] and s.load_current() == (later, EASY)
    assert set_aside(home) == []


def test_a_damaged_file_is_set_aside_but_not_a_folder_beside_it(tmp_path: Path) -> None:
    home = tmp_path / "data"
    home.mkdir()
    (home / DB_NAME).write_bytes(b"SQLite format 3\x00" + b"\x07" * 4000)
    shm = home / f"{DB_NAME}-shm"
    shm.mkdir()
    with Store.open(home) as s:
        assert any("It was kept as" in w for w in s.warnings)
    assert shm.is_dir() and len([n for n in set_aside(home) if "damaged" in n]) == 1


# --- a version nobody wrote ------------------------------------------------------------------
@pytest.mark.parametrize("version", [-1, -(2**31), 2**31 - 1])
def test_an_unknown_version_is_left_untouched_and_said(tmp_path: Path, version: int) -> None:
    home = tmp_path / "data"
    make_store(home, current=partial(5))
    conn = sqlite3.connect(home / DB_NAME)
    conn.execute(f"PRAGMA user_version = {version}")
    conn.commit()
    conn.close()
    before = (home / DB_NAME).read_bytes()

    done = resume(home)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert NO_GAME not in done.stderr and "KeyError" not in done.stderr
    said = (f"This data has a schema version no nil-tui knows ({version})" if version < 0 else
            f"This data was written by a newer nil-tui (schema {version})")
    assert said in done.stderr

    with Store.open(home) as s:
        assert s.warnings and s.warnings[0].startswith(said) and s.unreadable == s.warnings[0]
        assert s.read_only_reason == s.warnings[0] and not s.persistent
        assert s.save_current(partial(6), EASY) is False
    assert (home / DB_NAME).read_bytes() == before and set_aside(home) == []
    assert not (home / "nil-tui.lock.1").exists()  # no slot left held by a failed opening


# --- a table of another shape ----------------------------------------------------------------
def reshape(home: Path, table: str, columns: str) -> None:
    conn = sqlite3.connect(home / DB_NAME)
    conn.execute(f"ALTER TABLE {table} RENAME TO old_{table}")
    conn.execute(f"CREATE TABLE {table} ({columns})")
    conn.execute(f"DROP TABLE old_{table}")
    conn.execute(f"INSERT INTO {table} VALUES ({', '.join('?' * len(columns.split(',')))})",
                 ("theirs",) * len(columns.split(",")))
    conn.commit()
    conn.close()


def test_a_current_table_of_another_shape_is_set_aside_and_saving_works(
        tmp_path: Path) -> None:
    home = tmp_path / "data"
    make_store(home, current=None)
    reshape(home, "current", "slot, data")
    with Store.open(home) as s:
        (said,) = s.warnings
        (kept,) = (p for p in home.iterdir() if p.name.startswith("set-aside-table-current-"))
        assert said == (f"The data file's table 'current' was not the one this nil-tui writes, "
                        f"so nothing could be saved in it: its rows were kept as {kept} and the "
                        "table was made again.")
        assert json.loads(kept.read_text())["rows"] == [{"slot": "theirs", "data": "theirs"}]
        game = partial(7)
        assert s.save_current(game, EASY) is True and s.problem is None
        assert len(s.history()) == 1  # the rest of the file is kept as it was
    assert found_the_game(resume(home))
    with Store.open(home) as s:
        assert s.warnings == [] and s.load_current() == (game, EASY)
    assert not any("damaged" in p.name for p in home.iterdir())


def test_a_statistics_table_of_another_shape_is_counted_again(tmp_path: Path) -> None:
    home = tmp_path / "data"
    make_store(home, current=None)
    with Store.open(home) as s:
        figures = s.stats()["overall"]
    reshape(home, "stats", "difficulty")
    with Store.open(home) as s:
        assert s.stats()["overall"] == figures and len(s.warnings) == 1
        assert s.finish_game(finished(9), EASY) is not None
        assert s.stats()["overall"]["games"] == figures["games"] + 1


# --- a read-only data file -------------------------------------------------------------------
READ_ONLY_FINISH = """
import json, os, sys
from nil_tui.engine import Game
from nil_tui.store import Store
Store.open_wait, Store.busy_timeout = 0.3, 0.05
record = json.loads(sys.argv[2])
s = Store.open(sys.argv[1])
kept = s.keep_finished(record, {"deals": 1})
out = {"first": [kept.stored, kept.problem], "retry": s.retry_pending()}
if kept.record_file is not None and "records" not in kept.record_file.parts[-2:]:
    kept.record_file.unlink()
for name in os.listdir(sys.argv[1]):  # the owner makes the file (and its journal) writable
    if name.startswith("nil-tui.db"):
        os.chmod(os.path.join(sys.argv[1], name), 0o644)
out["after"] = s.retry_pending()
out["history"] = len(s.history())
s.close()
print(json.dumps(out))
"""


def test_a_finished_game_on_a_read_only_file_is_written_once_it_can_be(
        tmp_path: Path) -> None:
    if os.geteuid() == 0 and not shutil.which("setpriv"):
        pytest.skip("running as root without setpriv: cannot make a file read-only")
    home = tmp_path / "data"
    make_store(home, current=None)
    db = home / DB_NAME
    os.chmod(db, 0o444)
    command = [sys.executable, "-c", READ_ONLY_FINISH, str(home), json.dumps(finished(12))]
    if os.geteuid() == 0:  # root writes anywhere: drop the capabilities that allow it
        command = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner",
                   *command]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    finally:
        os.chmod(db, 0o644)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    said = (f"nil-tui's data file {db} is read-only; your game goes on, but it is not saved "
            "until the file can be written.")
    assert seen["first"] == [False, said] and seen["retry"] is False
    assert seen["after"] is True and seen["history"] == 2
    assert set_aside(home) == []


# --- the player is told, on a real terminal ----------------------------------------------------
ANSI = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|.)")


def screen_text(home: Path, *args: str, until: tuple[str, ...], limit: float = 60.0) -> str:
    """``nil-tui ARGS`` on a 100x32 pseudo-terminal until all of ``until`` were drawn (or
    ``limit`` seconds); what it drew, escape sequences taken out. The app is then stopped."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
    env = dict(os.environ, TERM="xterm-256color", NIL_TUI_HOME=str(home), COLUMNS="100",
               LINES="32")
    env.pop("TEXTUAL", None)
    proc = subprocess.Popen([sys.executable, "-m", "nil_tui", *args], stdin=slave,
                            stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    raw = b""
    deadline = time.monotonic() + limit
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                raw += chunk
                text = ANSI.sub("", raw.decode("utf-8", "replace"))
                if all(word in text for word in until):
                    break
            elif proc.poll() is not None:
                break
    finally:
        proc.kill()
        proc.wait(timeout=10)
        os.close(master)
    return ANSI.sub("", raw.decode("utf-8", "replace"))


def test_resume_on_a_full_disk_plays_the_game_and_says_the_disk_is_full(
        small_disk: SmallDisk) -> None:
    home = small_disk.mount / "data"
    make_store(home, current=partial(1))
    small_disk.fill()
    drawn = screen_text(home, "resume", until=("You (South)", "full;"))
    assert "You (South)" in drawn, drawn[-2000:]  # the saved game is on the table
    assert "full;" in drawn and "The disk that holds" in drawn, drawn[-2000:]
    assert "damaged" not in drawn and NO_GAME not in drawn
    assert set_aside(home) == []


def test_the_shapes_checked_are_those_every_migration_leaves(tmp_path: Path) -> None:
    from nil_tui.store import schema

    conn = sqlite3.connect(":memory:")
    schema.create(conn)
    assert schema.misshapen(conn) == []
    make_store(tmp_path / "data", current=partial(1))
    with Store.open(tmp_path / "data") as s:
        assert s.warnings == [] and schema.misshapen(s._conn) == []
