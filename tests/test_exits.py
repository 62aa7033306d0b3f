"""How the full-screen commands end when something is wrong: without a terminal they refuse
at once (status 2, one line); a crash inside the app saves the game, writes a report in the
data folder and ends with status 1 and one line saying where the report is."""

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
from pathlib import Path
from typing import Any

import pytest

from nil_tui.engine import Game
from nil_tui.tui import lifecycle

WAIT = 60.0


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("NIL_TUI_HOME", str(folder))
    return folder


def run(home: Path, *args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NIL_TUI_HOME=str(home))
    env.pop("TEXTUAL", None)
    return subprocess.run([sys.executable, "-m", "nil_tui", *args], capture_output=True,
                          text=True, env=env, timeout=WAIT, check=False, **kwargs)


def finished_record(tmp_path: Path) -> Path:
    game = Game(1, seed=5)
    while not game.is_over:
        game.play(game.deal.legal_moves()[0])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.to_record()), encoding="utf-8")
    return path


# --- no terminal ------------------------------------------------------------------------------
# (``nil-tui`` alone without a terminal plays in plain lines: tests/lines/)
@pytest.mark.parametrize("args", [["play"], ["play", "--deals", "1", "--seed", "3"],
                                  ["history"], ["stats"], ["resume"], ["replay"]],
                         ids=["play", "play-options", "history", "stats", "resume",
                              "replay"])
def test_without_a_terminal_the_app_refuses_at_once(home: Path, tmp_path: Path,
                                                    args: list[str]) -> None:
    if args == ["resume"]:
        from nil_tui.store import Store

        store = Store.open(home)
        store.save_current(Game(2, seed=1).to_record(), {"deals": 2})
        store.close()
    if args == ["replay"]:
        args = ["replay", str(finished_record(tmp_path))]
    result = run(home, *args, stdin=subprocess.DEVNULL)
    assert result.returncode == 2, result
    lines = result.stderr.strip().splitlines()
    command = " ".join(["nil-tui", *args[:1]]) if args else "nil-tui"
    assert lines == [(f"{command} needs a terminal: its standard input, output and error "
                      "are not one; for games without one, see nil-tui simulate")], result.stderr
    assert result.stdout == ""


def test_a_terminal_for_input_only_is_not_enough(home: Path) -> None:
    """Typing in a terminal while the screen goes to a file: refused too."""
    master, slave = os.openpty()
    try:
        result = run(home, "play", stdin=slave)
    finally:
        os.close(slave)
        os.close(master)
    assert result.returncode == 2
    assert "needs a terminal" in result.stderr


def test_missing_terminal_names_the_command() -> None:
    # Under pytest the standard streams are captured: no terminal here.
    line = lifecycle.missing_terminal("nil-tui stats")
    assert line is not None and line.startswith("nil-tui stats needs a terminal")


# --- the parts that keep the exit safe ------------------------------------------------------
def test_terminal_output_turns_a_write_error_into_a_lost_terminal() -> None:
    lost: list[str] = []

    class Dead:
        writes = 0

        def write(self, text: str) -> int:
            self.writes += 1
            raise OSError(5, "Input/output error")

        def flush(self) -> None:
            raise OSError(5, "Input/output error")

        def fileno(self) -> int:
            return 2

    dead = Dead()
    output = lifecycle.TerminalOutput(dead, lost.append)  # type: ignore[arg-type]
    assert output.write("frame") == 5
    output.flush()
    output.write("another frame")
    assert output.gone and dead.writes == 1
    assert len(lost) == 1 and "Input/output error" in lost[0]


def test_worker_threads_never_hold_up_the_exit() -> None:
    executor = lifecycle.DaemonExecutor()
    release = threading.Event()
    names: list[tuple[str, bool]] = []

    def job(x: int) -> int:
        current = threading.current_thread()
        names.append((current.name, current.daemon))
        release.wait(5)
        return x * 2

    future = executor.submit(job, 21)
    executor.shutdown(wait=True)  # returns at once: nothing is joined
    assert not future.done()
    release.set()
    assert future.result(timeout=5) == 42
    assert names == [("nil-tui-worker", True)]
    failing = executor.submit(lambda: 1 // 0)
    with pytest.raises(ZeroDivisionError):
        failing.result(timeout=5)


def test_crash_report_goes_to_the_data_folder(home: Path) -> None:
    path = lifecycle.write_crash_report("the report\n")
    again = lifecycle.write_crash_report("another\n")
    assert path is not None and again is not None and path != again
    assert path.parent == home and path.name.startswith("crash-")
    assert path.read_text(encoding="utf-8") == "the report\n"


# --- crashes --------------------------------------------------------------------------------
def test_a_crash_in_the_app_exits_with_status_1_and_names_the_report(
        home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """In process, without a terminal: the statistics screen fails as it is built."""
    from nil_tui.tui.app import NilApp

    def broken(self: Any, *args: Any, **kwargs: Any) -> None:
        raise KeyError("figures")

    monkeypatch.setattr(NilApp, "open_stats", broken)
    status = lifecycle.run(NilApp("stats"), "nil-tui stats", headless=True)
    assert status == 1
    err = capsys.readouterr().err.strip().splitlines()
    reports = sorted(home.glob("crash-*.log"))
    assert len(reports) == 1
    assert err == [(f"nil-tui stats: stopped by an unexpected error (KeyError: 'figures'); "
                    f"the full report is in {reports[0]}.")]
    text = reports[0].read_text(encoding="utf-8")
    assert "Traceback" in text and "in broken" in text and "KeyError: 'figures'" in text
    assert "Game in progress: no game in progress" in text


FAULTY = """
import sys
import time

from nil_tui.tui.app import NilApp


def torn(self):
    raise RuntimeError("the rules are torn")


def stuck(self):
    time.sleep(120)


NilApp.action_rules = {fault}  # F1 or "?" during a game
from nil_tui.commands.cli import main

sys.exit(main(sys.argv[1:]))
"""


class FaultyApp:
    """``nil-tui play`` on a pty, run by a script that breaks the rules key (``fault``:
    ``torn`` raises, ``stuck`` blocks the app for two minutes)."""

    def __init__(self, home: Path, tmp_path: Path, fault: str) -> None:
        self.home = home
        script = tmp_path / f"{fault}.py"
        script.write_text(FAULTY.format(fault=fault), encoding="utf-8")
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
        env = dict(os.environ, TERM="xterm-256color", NIL_TUI_HOME=str(home))
        env.pop("TEXTUAL", None)
        self.proc = subprocess.Popen(
            [sys.executable, str(script), "play", "--seed", "5", "--deals", "2",
             "--difficulty", "easy", "--speed", "instant"],
            stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True,
            close_fds=True)
        # This end of the terminal stays open until everything the app wrote is read: once
        # the last one closes, Linux may drop what the master has not read yet (the app's
        # last words, the modes it puts back).
        self.slave = slave
        self.output = bytearray()
        self._stop = threading.Event()
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        import select

        while not self._stop.is_set():
            if not select.select([self.master], [], [], 0.1)[0]:
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.output.extend(chunk)

    def saved_plays(self) -> int:
        """Cards played in the saved game, read from the file (the app holds the store)."""
        path = self.home / "nil-tui.db"
        if not path.exists():
            return 0
        try:
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
            try:
                row = conn.execute("SELECT record FROM current WHERE slot = 0").fetchone()
            finally:
                conn.close()
        except sqlite3.Error:
            return 0
        if row is None:
            return 0
        record = json.loads(row[0])
        return sum(len(t["cards"]) for d in record["deals"] for t in d["tricks"])

    def play_a_few_cards(self) -> None:
        deadline = time.monotonic() + WAIT
        while self.saved_plays() < 6:
            assert time.monotonic() < deadline and self.proc.poll() is None, \
                bytes(self.output[-800:])
            os.write(self.master, b"\r")
            time.sleep(0.3)

    def settled_plays(self, quiet: float = 1.5) -> int:
        """The saved cards once no more are being played: the Enter keys typed before a
        stuck key are still played on a slow machine, then nothing moves."""
        deadline = time.monotonic() + WAIT
        plays, since = self.saved_plays(), time.monotonic()
        while time.monotonic() - since < quiet and time.monotonic() < deadline:
            time.sleep(0.1)
            now = self.saved_plays()
            if now != plays:
                plays, since = now, time.monotonic()
        return plays

    def ask_for_the_rules(self) -> None:
        os.write(self.master, b"?")

    def wait(self) -> int:
        try:
            return self.proc.wait(timeout=WAIT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(timeout=10)
            quiet_since, seen = time.monotonic(), len(self.output)
            deadline = quiet_since + 10.0
            while time.monotonic() - quiet_since < 0.5 and time.monotonic() < deadline:
                time.sleep(0.05)  # the reader takes what is left, until all is quiet
                if len(self.output) != seen:
                    quiet_since, seen = time.monotonic(), len(self.output)
            self._stop.set()
            self._reader.join(timeout=5)
            os.close(self.master)
            os.close(self.slave)

    def text(self) -> str:
        return self.output.decode("utf-8", "replace")


def test_a_crash_during_a_game_saves_it_first(home: Path, tmp_path: Path) -> None:
    """A real run on a pty: the game goes on for a few cards, then the rules key fails."""
    app = FaultyApp(home, tmp_path, "torn")
    try:
        app.play_a_few_cards()
        app.ask_for_the_rules()
    finally:
        code = app.wait()
    assert code == 1
    reports = sorted(home.glob("crash-*.log"))
    assert len(reports) == 1
    text = app.text()
    assert "Traceback" not in text
    last = text.rstrip().splitlines()[-1]
    assert last.endswith(f"nil-tui play: stopped by an unexpected error (RuntimeError: the "
                         f"rules are torn); the full report is in {reports[0]}. Your game "
                         f"is saved: nil-tui resume continues it."), last
    report = reports[0].read_text(encoding="utf-8")
    assert "Game in progress: saved" in report and "the rules are torn" in report
    assert app.saved_plays() >= 6


@pytest.mark.slow
def test_an_app_that_hangs_still_ends_on_sigterm(home: Path, tmp_path: Path) -> None:
    """The last resort: the app is stuck, SIGTERM cannot be handled in order; the process
    ends anyway, the terminal is put back, and the game saved with every card stays."""
    app = FaultyApp(home, tmp_path, "stuck")
    try:
        app.play_a_few_cards()
        app.ask_for_the_rules()
        plays = app.settled_plays()  # (a key sent before the rules' may still have played)
        app.proc.send_signal(signal.SIGTERM)
    finally:
        code = app.wait()
    assert code == 128 + signal.SIGTERM
    assert app.text().rstrip().endswith("\x1b[?7h")  # the terminal's modes put back
    assert app.saved_plays() == plays


# --- the processes a command starts end with it, even when it is killed -------------------------
PLUGINS = Path(__file__).resolve().parent / "plugins"

_ANALYSIS = """
import random
from nil_tui.analysis.estimate import Budget
from nil_tui.analysis.workers import run_tasks
from nil_tui.engine import Deal
deal = Deal.new(0, random.Random(1))
view = deal.view(deal.to_move)
budget = Budget(min_layouts=10**6, max_layouts=10**6, max_playouts=10**9, target_se=1e-9)
run_tasks([(view, view.legal[0].index, budget)] * 4, 2, lambda k, f: None)
"""

_REFERENCE = """
import time
from nil_tui.game.daily_challenge import ReferenceProcess
process = ReferenceProcess("2024-01-02")
time.sleep(600)
"""

_PLUGIN_FROM_A_THREAD = """
import sys, threading, time
from nil_tui.bots import open_player
players = []
# opened in a thread that ends at once, as the app opens plugins in a worker thread: the
# plugin's processes must not end with that thread, only with the program
thread = threading.Thread(target=lambda: players.append(open_player("nil_hostile:Trivial", 1)))
thread.start()
thread.join()
time.sleep(600)
"""


def _procs() -> Any:
    if str(PLUGINS) not in sys.path:
        sys.path.insert(0, str(PLUGINS))
    import nil_procs

    return nil_procs


@pytest.mark.parametrize(("script", "count", "settle"), [
    (_ANALYSIS, 4, 0.0), (_ANALYSIS, 4, 3.0), (_REFERENCE, 3, 0.0), (_REFERENCE, 3, 3.0),
    (_PLUGIN_FROM_A_THREAD, 4, 0.5)],
    ids=["analysis-workers-starting", "analysis-workers", "challenge-reference-starting",
         "challenge-reference", "plugin-host"])
@pytest.mark.parametrize("sig", ["SIGKILL", "SIGTERM"])
def test_the_processes_a_program_starts_end_when_it_is_killed(
        home: Path, script: str, count: int, settle: float, sig: str) -> None:
    """The analysis's workers (and multiprocessing's resource tracker), the challenge's
    reference, a plugin's processes: each ends with the program that started it, however
    that program ends, and even while they are still starting (a worker killed in its first
    second used to compute on for ever)."""
    procs = _procs()
    tag = procs.new_tag()
    env = dict(os.environ, NIL_TUI_HOME=str(home), PYTHONPATH=str(PLUGINS), **{procs.TAG: tag})
    program = subprocess.Popen([sys.executable, "-c", script], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        assert procs.wait_for(lambda: len(procs.tagged(tag)) >= count, 60.0), \
            procs.tagged(tag)
        time.sleep(settle)  # (a thread that opened a plugin has ended by now)
        seen = procs.tagged(tag)
        assert len(seen) >= count and program.poll() is None
        program.send_signal(getattr(signal, sig))
        left = procs.all_gone(tag, seen, 10.0)
        assert not left, f"still running 10 s after {sig}: {left}"
    finally:
        if program.poll() is None:
            program.kill()
        program.wait()
