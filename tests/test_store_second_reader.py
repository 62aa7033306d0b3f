"""A second program reading the data file, at any moment, changes nothing for the running
game: in real processes, on a real small disk filled and freed again.

SQLite's locks are POSIX locks: closing any descriptor of the file in the game's process drops
every lock that process holds on it. A second program that then reads the file and quits
believes it was the last one there, and takes the write-ahead log and its index away; the
game goes on writing into files nobody will read again, and loses everything after its last
checkpoint. The game must never open its data file except through SQLite."""

from __future__ import annotations

import builtins
import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import test_store_real_faults as real_faults
from test_store_real_faults import EASY, SmallDisk, finished, make_store, partial

from nil_tui.store import DB_NAME, Store

small_disk = real_faults.small_disk  # a 2 MB tmpfs of its own, filled and freed by the test

GAME = """
import json, os, sys
from nil_tui.store import Store
Store.open_wait, Store.busy_timeout = 0.3, 0.05
s = Store.open(sys.argv[1])
s.load_current()

def gone():  # the store's files this process still writes though nobody will read them
    names = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            names.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            pass
    return sorted(n for n in names if n.endswith("(deleted)") and "nil-tui.db" in n)

print(json.dumps({"problem": s.problem}), flush=True)
for line in sys.stdin:
    ask = json.loads(line)
    if ask["do"] == "save":
        out = s.save_current(ask["record"], ask["options"])
    else:
        kept = s.keep_finished(ask["record"], ask["options"])
        out = [kept.stored, str(kept.record_file)]
    print(json.dumps({"out": out, "problem": s.problem, "gone": gone()}), flush=True)
"""

READ = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
print(conn.execute("SELECT count(*) FROM games").fetchone()[0])
conn.close()
"""


class Game:
    """The running game: a process of its own holding the store, as the app does."""

    def __init__(self, home: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", GAME, str(home)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.opened = self._answer()

    def _answer(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, "the game's process ended"
        answer: dict[str, Any] = json.loads(line)
        return answer

    def ask(self, do: str, record: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"do": do, "record": record, "options": EASY}) + "\n")
        self.proc.stdin.flush()
        return self._answer()

    def kill(self) -> None:
        """``kill -9``: nothing is closed, nothing more is written."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)


@pytest.fixture
def game_process() -> Iterator[list[Game]]:
    started: list[Game] = []
    yield started
    for game in started:
        game.kill()


def read_by_another_program(home: Path, full: bool = False) -> None:
    """A plain read of the file by another program, which then quits (as ``nil-tui
    history`` does, or ``sqlite3`` at a prompt). On a full disk it may fail to read: SQLite
    finds no room for the log's index."""
    commands = [[sys.executable, "-c", READ, str(home / DB_NAME)]]
    if shutil.which("sqlite3"):
        commands.append(["sqlite3", str(home / DB_NAME), "SELECT count(*) FROM games"])
    for command in commands:
        done = subprocess.run(command, capture_output=True, text=True, timeout=30,
                              check=False)
        assert done.returncode == 0 or (full and "disk I/O error" in done.stderr), done.stderr


@pytest.fixture(autouse=True)
def short_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Store, "open_wait", 0.3)
    monkeypatch.setattr(Store, "busy_timeout", 0.05)


def test_a_reader_after_a_full_disk_start_takes_nothing_from_the_game(
        small_disk: SmallDisk, game_process: list[Game]) -> None:
    home = small_disk.mount / "data"
    make_store(home, current=partial(1))
    small_disk.fill()
    game = Game(home)
    game_process.append(game)
    assert "is full" in (game.opened["problem"] or "")
    read_by_another_program(home, full=True)

    assert game.ask("save", partial(1, plays=10))["out"] is False  # not saved: said so
    small_disk.free()
    read_by_another_program(home)  # room again, before the game wrote anything
    assert game.ask("save", partial(1, plays=11)) == {"out": True, "problem": None, "gone": []}
    read_by_another_program(home)  # the game has written since the disk was freed

    later = partial(1, plays=12)
    answer = game.ask("save", later)
    assert answer == {"out": True, "problem": None, "gone": []}
    read_by_another_program(home)
    answer = game.ask("finish", finished(5))
    assert answer["out"][0] is True and answer["gone"] == []
    assert Path(answer["out"][1]).parent == home / "records"
    read_by_another_program(home)
    assert game.ask("save", later)["gone"] == []
    game.kill()

    with Store.open(home) as s:  # what resume and history find after the game was killed
        assert s.warnings == []
        assert [r["finished"] for r in s.history()] == [True, True]
        assert s.load_current() == (later, EASY)


def test_a_reader_at_any_moment_of_a_game_takes_nothing_from_it(
        tmp_path: Path, game_process: list[Game]) -> None:
    home = tmp_path / "data"
    make_store(home, current=partial(2))
    read_by_another_program(home)
    game = Game(home)
    game_process.append(game)
    assert game.opened["problem"] is None
    last: dict[str, Any] = {}
    for plays in range(9, 14):
        read_by_another_program(home)
        last = partial(2, plays=plays)
        assert game.ask("save", last) == {"out": True, "problem": None, "gone": []}
    read_by_another_program(home)
    game.kill()
    with Store.open(home) as s:
        assert s.load_current() == (last, EASY) and len(s.history()) == 1


def test_the_copy_read_while_the_file_cannot_be_used_opens_nothing_but_sqlite(
        small_disk: SmallDisk, monkeypatch: pytest.MonkeyPatch) -> None:
    """The copy read meanwhile goes through SQLite only: no file of the store is opened by
    the game's own code (each open would close again, dropping SQLite's locks)."""
    home = small_disk.mount / "data"
    saved = partial(3)
    make_store(home, current=saved)
    small_disk.fill()
    opened: list[str] = []
    real_open = os.open

    def watched(path: Any, *args: Any, **kwargs: Any) -> int:
        opened.append(os.fspath(path))
        return real_open(path, *args, **kwargs)

    real_builtin_open = builtins.open

    def watched_builtin(path: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(os.fspath(path) if not isinstance(path, int) else "")
        return real_builtin_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", watched)
    monkeypatch.setattr(builtins, "open", watched_builtin)
    with Store.open(home) as s:
        assert s.load_current() == (saved, EASY) and "is full" in (s.problem or "")
    assert not [p for p in opened if Path(p).name.startswith(DB_NAME)], opened


@pytest.mark.parametrize("index", ["kept", "missing"])
def test_a_game_killed_then_a_full_disk_resumes_where_it_stopped(
        small_disk: SmallDisk, game_process: list[Game], index: str) -> None:
    """The last position of a killed game is in the log, not yet in the file: read there even
    on a full disk, with the log's index kept or missing (no room to make it again)."""
    home = small_disk.mount / "data"
    make_store(home, current=partial(4))
    game = Game(home)
    game_process.append(game)
    last = partial(4, plays=13)
    assert game.ask("save", last)["out"] is True
    game.kill()
    log = home / f"{DB_NAME}-wal"
    assert log.stat().st_size > 0  # the killed game's last writes wait in the log
    if index == "missing":
        (home / f"{DB_NAME}-shm").unlink()
    small_disk.fill()
    with Store.open(home) as s:
        assert s.load_current() == (last, EASY) and len(s.history()) == 1
        assert not any("damaged" in w for w in s.warnings)
    small_disk.free()
    with Store.open(home) as s:
        assert s.warnings == [] and s.load_current() == (last, EASY)


def test_a_log_removed_by_another_program_is_never_said_saved(tmp_path: Path) -> None:
    """Should another program remove the log all the same (``rm``), the game is told it is
    not saved, the finished game is not said to be in history, and quitting keeps both."""
    home = tmp_path / "data"
    make_store(home, current=partial(5))
    s = Store.open(home)
    try:
        assert s.save_current(partial(5, plays=10), EASY) is True
        side = [str(home / f"{DB_NAME}-wal"), str(home / f"{DB_NAME}-shm")]
        subprocess.run(["rm", "-f", *side], check=True, timeout=30)
        last = partial(5, plays=11)
        assert s.save_current(last, EASY) is False
        assert s.problem is not None and "removed the journal" in s.problem
        game = finished(6)
        kept = s.keep_finished(game, EASY)
        assert kept.stored is False and kept.problem == s.problem
        assert s.retry_pending() is False
    finally:
        file = s.close()
    assert file is not None and file.parent == home
    content = json.loads(file.read_text(encoding="utf-8"))
    assert content["saved_game"]["record"] == last
    assert content["finished_games"] == [game]
