"""``nil-tui analyse``: the table, --json, which seat and game, bad inputs in one line, and
Ctrl-C or a killed command leaving no worker behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from test_analysis import BOTS_ONLY, QUICK, known_game

from nil_tui.analysis import DealAnalysis
from nil_tui.bots.normal import NormalBot
from nil_tui.commands import analyse as analysis_cli
from nil_tui.commands.cli import main
from nil_tui.engine import Game


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis_cli, "BUDGET", QUICK)


def write(path: Path, *games: Game) -> str:
    if path.suffix == ".json":
        path.write_text(json.dumps(games[0].to_record()), encoding="utf-8")
    else:
        path.write_text("".join(json.dumps(g.to_record()) + "\n\n" for g in games),
                        encoding="utf-8")
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["analyse", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_table_of_the_human_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "game.json", known_game("AH"))
    code, out, err = run(capsys, path, "--jobs", "1")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("Analysis of your plays: ")
    assert "Deal 1 of 1, dealt by South: you took 1 trick and scored 1 point." in lines
    assert "Costly plays:" in lines
    assert ("  Trick 12: A♥ instead of 3♥ cost about 2.0 points: you took the trick and lost "
            "your clean deal; with 3♥ your chance to stay clean was 100%.") in lines
    assert "   12  A♥      3♥    2.00 ± 0.00     3♥ 3.00  A♥ 1.00" in lines
    assert "    1  2♣      -     all the same" in lines
    assert "    3  4♣      -     only card" in lines
    assert lines[-1] == "Cost of your plays in deal 1: 2.00 points (± 0.00)"


def test_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "game.json", known_game("AH"))
    code, out, _ = run(capsys, path, "--json", "--jobs", "1")
    assert code == 0
    doc = json.loads(out)
    assert doc["format"] == "nil-tui-game-analysis" and doc["version"] == 1
    assert (doc["game"], doc["seat"], doc["seat_name"], doc["player"]) == (1, 0, "South",
                                                                          "South")
    (deal,) = doc["deals"]
    analysis = DealAnalysis.from_json(deal)
    assert analysis.decisions[-1].cost == 2.0
    assert doc["total_cost"] == 2.0 and doc["total_cost_se"] == 0.0


def test_a_bots_only_record_needs_a_seat(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "bots.json", known_game("AH", players=BOTS_ONLY))
    code, out, err = run(capsys, path)
    assert code == 2 and out == ""
    assert err == ("nil-tui analyse: error: the record has no human seat: pass --seat S to say "
                   "whose plays to analyse (0-3 or S, W, N, E)\n")
    code, out, err = run(capsys, path, "--seat", "S", "--jobs", "1")
    assert (code, err) == (0, "")
    assert out.startswith("Analysis of South's plays (South, Normal 1): ")
    assert "  Trick 12: A♥ instead of 3♥ cost about 2.0 points: South took the trick and " \
        "lost their clean deal; with 3♥ South's chance to stay clean was 100%." in out
    code, out, err = run(capsys, path, "--seat", "W", "--jobs", "1")
    assert code == 0 and "West took 4 tricks and scored 1 point." in out


def test_game_n_of_a_jsonl_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "games.jsonl", known_game("3H"), known_game("AH"))
    code, first, _ = run(capsys, path, "--jobs", "1")
    assert code == 0 and "Costly plays:" not in first
    code, second, _ = run(capsys, path, "--game", "2", "--deal", "1", "--jobs", "1")
    assert code == 0 and "Trick 12: A♥ instead of 3♥ cost about 2.0 points" in second
    code, out, err = run(capsys, path, "--game", "3")
    assert (code, out) == (2, "")
    assert err == (f"nil-tui analyse: error: {path}: holds only 2 records, so there is no "
                   "game 3\n")


def test_an_unfinished_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "saved.json", known_game())
    code, out, _ = run(capsys, path, "--jobs", "1")
    assert code == 0
    assert ("Deal 1 of 1, dealt by South (unfinished, analysed up to trick 11): you had taken "
            "0 tricks.") in out.splitlines()


@pytest.mark.parametrize("args, message", [
    (["{dir}/missing.json"], "{dir}/missing.json: no such file"),
    (["{dir}"], "{dir}: is a folder, not a game record"),
    (["{dir}/bad.json"], "{dir}/bad.json: not a JSON game record"),
    (["{dir}/game.json", "--game", "2"], "{dir}/game.json: a .json file holds one game record"),
    (["{dir}/game.json", "--deal", "2"], "--deal 2: the record has 1 deal"),
    (["{dir}/games.jsonl", "--game", "2"], "{dir}/games.jsonl (game 2): not a valid game"),
    (["{dir}/empty.jsonl", "--game", "2"], "{dir}/empty.jsonl: holds no records, so there"),
    (["{dir}/game.json", "--seat", "9"], "argument --seat: a seat is 0 to 3"),
    (["{dir}/game.json", "--jobs", "0"], "argument --jobs: expected 1 to 64 processes"),
])
def test_bad_inputs_give_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  args: list[str], message: str) -> None:
    write(tmp_path / "game.json", known_game("AH"))
    (tmp_path / "bad.json").write_text("{nope", encoding="utf-8")
    (tmp_path / "empty.jsonl").write_text("\n\n", encoding="utf-8")
    record = known_game("AH").to_record()
    broken: dict[str, Any] = json.loads(json.dumps(record))
    broken["deals"][0]["tricks"][0]["cards"][0] = "AS"
    (tmp_path / "games.jsonl").write_text(json.dumps(record) + "\n" + json.dumps(broken) + "\n",
                                          encoding="utf-8")
    code, out, err = run(capsys, *[a.format(dir=tmp_path) for a in args])
    assert (code, out) == (2, "")
    assert err.startswith("nil-tui analyse: error: ") and err.count("\n") == 1
    assert message.format(dir=tmp_path) in err
    assert "Traceback" not in err


# --- processes --------------------------------------------------------------------------------
def _long_record(path: Path) -> str:
    """Four deals of normal bots: many seconds of analysis at the default budget."""
    game = Game(4, seed=8)
    bots = [NormalBot(8 + s) for s in range(4)]
    while True:
        deal = game.deal
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            game.play(bots[seat].choose(deal.view(seat)))
        if game.is_over:
            break
        game.next_deal()
    return write(path, game)


def _session(sid: int) -> list[int]:
    """The processes of a session (Linux: read from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[3]) == sid:
            found.append(int(entry))
    return found


def _start(path: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-m", "nil_tui", "analyse", path, "--jobs", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + 30
    while len(_session(proc.pid)) < 3:  # the command and its two workers
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.05)
    return proc


def _gone(sid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while _session(sid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self") or os.name != "posix",
                                reason="reads the process table from /proc")


@needs_proc
def test_ctrl_c_exits_130_quietly_and_ends_the_workers(tmp_path: Path) -> None:
    proc = _start(_long_record(tmp_path / "long.json"))
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal sends it: to the whole group
    out, err = proc.communicate(timeout=30)
    assert (proc.returncode, out, err) == (130, "", "")
    assert _gone(proc.pid, 5), _session(proc.pid)


@needs_proc
def test_workers_do_not_outlive_a_killed_command(tmp_path: Path) -> None:
    proc = _start(_long_record(tmp_path / "long.json"))
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    assert _gone(proc.pid, 5), _session(proc.pid)


# --- control characters from a record never reach the terminal, in a real process ----------
HOSTILE_NAMES = ["\x1b]0;title\x07", "\x1b[2J", "nul\x00here", "two\nlines"]
CONTROL_BYTES = set(range(0x20)) - {0x0A} | {0x7F}


def _hostile_record(tmp_path: Path, name: str) -> str:
    """A game just dealt (nothing to analyse: quick) whose seats carry hostile names."""
    game = Game(1, seed=8)
    record = game.to_record()
    for player in record["players"]:
        player["name"] = name
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=["osc-title", "clear", "nul", "newline"])
@pytest.mark.parametrize("as_json", [False, True], ids=["table", "json"])
def test_analyse_writes_no_control_byte_of_a_record(tmp_path: Path, name: str,
                                                    as_json: bool) -> None:
    path = _hostile_record(tmp_path, name)
    argv = [sys.executable, "-m", "nil_tui", "analyse", path, "--seat", "W", "--jobs", "1"]
    done = subprocess.run(argv + (["--json"] if as_json else []), capture_output=True,
                          timeout=300, check=False, env={**os.environ, "PYTHONIOENCODING":
                                                         "utf-8"})
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert not set(done.stdout) & CONTROL_BYTES, done.stdout[:500]
    assert not set(done.stderr) & CONTROL_BYTES
    text = done.stdout.decode("utf-8")
    escaped = name.encode("unicode_escape").decode("ascii")
    if as_json:
        assert json.loads(text)["player"] == escaped
    else:
        assert f"(West, {escaped})" in text.splitlines()[0]


def test_a_file_name_with_control_characters_is_shown_escaped(tmp_path: Path) -> None:
    path = str(tmp_path / "\x1b]0;title\x07\x1b[2J.json")
    done = subprocess.run([sys.executable, "-m", "nil_tui", "analyse", path],
                          capture_output=True, timeout=60, check=False)
    assert done.returncode == 2
    assert not set(done.stderr) & CONTROL_BYTES - {0x0A}
    assert done.stderr.decode().count("\n") == 1
    assert "\\x1b]0;title\\x07\\x1b[2J.json: no such file" in done.stderr.decode()
