"""End to end: the real app on a pseudo-terminal, killed in the middle of a deal (SIGKILL,
SIGTERM), then ``nil-tui resume``: it goes on from exactly the saved position, and a game played
with Enter alone ends with the same record whether or not it was interrupted."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import sqlite3
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")

NIL_TUI = Path(sys.executable).with_name("nil-tui")
GAME = ["--difficulty", "easy", "--speed", "instant", "--deals", "2", "--seed", "5"]
WAIT = 40.0  # seconds any one wait may take before the test fails


class AppRun:
    """``nil-tui ARGS`` on a 100x32 pty, its output drained by a thread."""

    def __init__(self, home: Path, *args: str) -> None:
        self.home = home
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
        env = dict(os.environ, TERM="xterm-256color", NIL_TUI_HOME=str(home),
                   COLUMNS="100", LINES="32")
        env.pop("TEXTUAL", None)
        command = [str(NIL_TUI)] if NIL_TUI.exists() else [sys.executable, "-m", "nil_tui"]
        self.proc = subprocess.Popen([*command, *args], stdin=slave, stdout=slave,
                                     stderr=slave, env=env, start_new_session=True,
                                     close_fds=True)
        os.close(slave)
        self.master = master
        self.output = bytearray()
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.output += chunk
            del self.output[:-200_000]

    def press_enter(self) -> None:
        os.write(self.master, b"\r")

    def tail(self) -> str:
        return self.output[-1500:].decode("utf-8", "replace")

    def stop(self, sig: int = signal.SIGKILL) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            code = self.proc.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
            raise AssertionError(f"nil-tui did not stop on signal {sig}; screen:\n"
                                 f"{self.tail()}") from None
        try:
            os.close(self.master)
        except OSError:
            pass
        self._reader.join(timeout=5)
        return code


# --- reading the store as it is on disk -----------------------------------------------------
def saved(home: Path) -> dict[str, Any] | None:
    """The main slot's saved game record, read straight from the database file."""
    path = home / "nil-tui.db"
    if not path.exists():
        return None
    try:
        conn = sqlite3.connect(path, timeout=5)
        try:
            row = conn.execute("SELECT record FROM current WHERE slot = 0").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    return None if row is None else json.loads(row[0])


def finished_records(home: Path) -> list[Path]:
    return sorted((home / "records").glob("*.json")) if (home / "records").exists() else []


def plays(record: dict[str, Any]) -> list[tuple[int, str]]:
    """Every card played, in order, with its deal number."""
    return [(i, card) for i, deal in enumerate(record["deals"])
            for trick in deal["tricks"] for card in trick["cards"]]


def hands(record: dict[str, Any]) -> list[Any]:
    return [deal["hands"] for deal in record["deals"]]


def mid_deal(record: dict[str, Any] | None, at_least: int) -> bool:
    """Saved in the middle of a deal, with at least ``at_least`` cards of it played."""
    if record is None or record["finished"]:
        return False
    deal = record["deals"][-1]
    played = sum(len(t["cards"]) for t in deal["tricks"])
    return deal["points"] is None and played >= at_least


def same_game(a: dict[str, Any], b: dict[str, Any]) -> bool:
    strip = ("created", "app_version")
    return {k: v for k, v in a.items() if k not in strip} == {
        k: v for k, v in b.items() if k not in strip}


def press_until(run: AppRun, done: Callable[[], bool], what: str,
                interval: float = 0.15) -> None:
    """Press Enter, one key at a time, until ``done()``; fail clearly after WAIT seconds."""
    deadline = time.monotonic() + WAIT
    while not done():
        if run.proc.poll() is not None:
            raise AssertionError(f"nil-tui exited ({run.proc.returncode}) before {what}; "
                                 f"screen:\n{run.tail()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; screen:\n{run.tail()}")
        run.press_enter()
        time.sleep(interval)


def wait_for(run: AppRun, done: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; screen:\n{run.tail()}")
        time.sleep(0.05)


def play_to_the_end(home: Path, run: AppRun) -> dict[str, Any]:
    """Enter until the finished game's record is written; then close the app."""
    before = len(finished_records(home))
    try:
        press_until(run, lambda: len(finished_records(home)) > before, "the end of the game")
    finally:
        run.stop(signal.SIGTERM)
    return json.loads(finished_records(home)[-1].read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The record of the game played with Enter alone, from start to end."""
    home = tmp_path_factory.mktemp("uninterrupted")
    record = play_to_the_end(home, AppRun(home, "play", *GAME))
    assert record["finished"] and record["seed"] == 5
    return record


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGHUP],
                         ids=["SIGKILL", "SIGTERM", "SIGHUP"])
def test_interrupted_game_resumes_from_the_saved_position(
        tmp_path: Path, uninterrupted: dict[str, Any], sig: int) -> None:
    home = tmp_path / "home"
    run = AppRun(home, "play", *GAME)
    try:
        press_until(run, lambda: mid_deal(saved(home), at_least=6),
                    "a saved game in the middle of a deal")
        seen = saved(home)
    finally:
        code = run.stop(sig)
    if sig != signal.SIGKILL:  # the app closes by itself
        assert code in (0, -sig, 128 + sig), run.tail()
    position = saved(home)
    assert position is not None and seen is not None
    # At most the play being made is lost: the saved game holds every play seen before.
    assert plays(position)[:len(plays(seen))] == plays(seen)
    assert mid_deal(position, at_least=6)
    assert not finished_records(home)

    resumed = AppRun(home, "resume")
    try:
        changes: list[dict[str, Any]] = []

        def changed() -> bool:
            now = saved(home)
            if now is not None and (plays(now), hands(now)) != (plays(position),
                                                                hands(position)):
                changes.append(now)
            return bool(changes)

        press_until(resumed, changed, "the resumed game's next play", interval=0.2)
        # The first change goes on from exactly that position: same deals, same plays, more.
        after = changes[0]
        assert hands(after)[:len(position["deals"])] == hands(position)
        assert plays(after)[:len(plays(position))] == plays(position)
        assert len(plays(after)) > len(plays(position))
        record = play_to_the_end(home, resumed)
    finally:
        resumed.stop()
    assert plays(record)[:len(plays(position))] == plays(position)
    assert same_game(record, uninterrupted), "the interrupted game ended differently"
    # The finished game is no longer the saved game. (An Enter already typed when game over
    # came may have started the next game, at the instant speed at once: that one is saved
    # in its first deal.)
    now = saved(home)
    assert now is None or len(now["deals"]) < len(record["deals"]), now


def slots(home: Path) -> dict[int, dict[str, Any]]:
    conn = sqlite3.connect(home / "nil-tui.db", timeout=5)
    try:
        rows = conn.execute("SELECT slot, record FROM current").fetchall()
    finally:
        conn.close()
    return {slot: json.loads(text) for slot, text in rows}


def test_two_instances_keep_separate_games(tmp_path: Path) -> None:
    home = tmp_path / "home"
    first = AppRun(home, "play", "--difficulty", "easy", "--speed", "instant", "--seed", "1")
    second: AppRun | None = None
    try:
        press_until(first, lambda: 0 in slots_or_empty(home), "the first game's save")
        second = AppRun(home, "play", "--difficulty", "easy", "--speed", "instant",
                        "--seed", "2")
        press_until(second, lambda: 1 in slots_or_empty(home), "the second game's save")
        for _ in range(4):  # both go on playing, each in its own slot
            first.press_enter()
            second.press_enter()
            time.sleep(0.2)
        both = slots(home)
        assert both[0]["seed"] == 1 and both[1]["seed"] == 2
        conn = sqlite3.connect(home / "nil-tui.db")
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()
    finally:
        first.stop()
        if second is not None:
            second.stop()


def slots_or_empty(home: Path) -> dict[int, dict[str, Any]]:
    if not (home / "nil-tui.db").exists():
        return {}
    try:
        return slots(home)
    except sqlite3.Error:
        return {}


def test_resume_without_a_saved_game_says_so(tmp_path: Path) -> None:
    env = dict(os.environ, NIL_TUI_HOME=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "nil_tui", "resume"], env=env,
                          capture_output=True, text=True, timeout=WAIT, check=False)
    assert done.returncode != 0
    assert "no saved game" in done.stderr and "Traceback" not in done.stderr
