"""The command line: simulate's options and errors, rules, --version."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from nil_tui import __version__
from nil_tui.commands.cli import main
from nil_tui.engine import Game


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "nil_tui", *args], check=False,
                          capture_output=True,
                          text=True, timeout=60, cwd=Path(__file__).parent)


def test_version() -> None:
    done = run_cli("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"nil-tui {__version__}"


def test_rules_prints_the_rules() -> None:
    done = run_cli("rules")
    assert done.returncode == 0 and done.stderr == ""
    text = " ".join(done.stdout.split()).lower()
    assert text.startswith("zero (also called nil)")
    for words in ("the lowest rank deals", "must play a card of the suit that was led",
                  "everyone scores 1 point", "that player scores 3", "those two score 1 each",
                  "took all 13 tricks scores 3", "fewest points loses", "nobody does (a draw)"):
        assert words in text


def test_simulate_json_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "out.jsonl"
    code = main(["simulate", "--bots", "easy,easy,normal,easy", "--games", "2", "--deals", "2",
                 "--seed", "12", "--rotate", "--json", "--records", str(path),
                 "--time-cap", "0"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""  # no progress bar when stderr is not a terminal
    data = json.loads(out)
    assert (data["games"], data["deals"], data["seed"], data["rotate"]) == (8, 16, 12, True)
    assert set(data["bots"]) == {"easy", "normal"}
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 8
    for line in lines:
        assert Game.from_record(json.loads(line)).is_over


def test_simulate_summary_text(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--games", "2", "--deals", "1", "--seed", "77"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert "seed 77" in out and "--seed 77" in out
    assert "points/deal" in out and "edge" in out and "clean" in out and "games lost" in out
    row = next(line for line in out.splitlines() if line.startswith("easy"))
    assert " 4 " in row and " 8 " in row  # 4 seats, 8 seat-deals


def test_simulate_without_seed_prints_the_seed_it_used(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "1", "--deals", "1", "--json"]) == 0
    seed = json.loads(capsys.readouterr().out)["seed"]
    assert isinstance(seed, int)
    assert main(["simulate", "--games", "1", "--deals", "1", "--json", "--seed", str(seed)]) == 0
    assert json.loads(capsys.readouterr().out)["seed"] == seed


def test_simulate_records_file_that_cannot_be_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--games", "1", "--records", str(tmp_path / "no" / "x.jsonl")])
    err = capsys.readouterr().err
    assert code == 2 and "--records" in err and len(err.strip().splitlines()) == 1


def test_simulate_error_in_a_real_process_has_no_traceback() -> None:
    done = run_cli("simulate", "--bots", "easy,easy,no_such_module_x:Bot,easy")
    assert done.returncode == 2
    assert done.stderr.startswith("nil-tui simulate: error: --bots:")
    assert len(done.stderr.strip().splitlines()) == 1
    done = run_cli("simulate", "--deals", "0")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_simulate_accepts_the_largest_seed(capsys: pytest.CaptureFixture[str]) -> None:
    from nil_tui.util.argtypes import MAX_SEED

    assert MAX_SEED == 2**64 - 1
    assert main(["simulate", "--games", "1", "--deals", "1", "--json", "--time-cap", "0",
                 "--seed", str(MAX_SEED)]) == 0
    assert json.loads(capsys.readouterr().out)["seed"] == MAX_SEED


@pytest.mark.skipif(sys.platform == "win32", reason="needs resource limits")
def test_simulate_records_that_stop_being_written_mid_match(tmp_path: Path) -> None:
    """A write that fails after the first game (here a file size limit) is one line and
    status 2, not a traceback."""
    path = tmp_path / "out.jsonl"
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100)); "
            "from nil_tui.commands.cli import main; "
            f"raise SystemExit(main(['simulate', '--games', '2', '--deals', '1', "
            f"'--time-cap', '0', '--records', {str(path)!r}]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip() == f"nil-tui simulate: error: --records: cannot write {path} " \
        "(File too large)"
    assert done.stdout == ""


def test_command_line_deal_limit_is_the_engines() -> None:
    from nil_tui.engine.game import MAX_DEALS
    from nil_tui.util import argtypes

    assert argtypes.MAX_DEALS == MAX_DEALS


def test_a_challenge_opens_on_its_day(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Today's challenge and earlier ones open; tomorrow's is refused in one line."""
    from nil_tui.game import daily_challenge as challenge
    from nil_tui.tui import launch

    opened: list[str | None] = []
    monkeypatch.setattr(challenge, "today", lambda: "2026-11-30")
    monkeypatch.setattr(launch, "challenge", lambda date: opened.append(date) or 0)
    assert main(["challenge", "--date", "2026-11-30"]) == 0
    assert main(["challenge", "--date", "2025-01-01"]) == 0
    assert main(["challenge"]) == 0  # today, as the app reckons it
    assert opened == ["2026-11-30", "2025-01-01", None]
    capsys.readouterr()
    assert main(["challenge", "--date", "2026-12-01"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and opened == ["2026-11-30", "2025-01-01", None]
    assert err == "nil-tui challenge: error: the challenge of 2026-12-01 opens on that day\n"




def test_every_noqa_marker_names_a_rule_ruff_runs() -> None:
    """A ``noqa`` marker for a rule ruff does not run hides nothing and says nothing: the
    project's ruff settings name every rule the package's markers name (ruff's own default
    rules change from version to version), and RUF100, which reports a marker that
    suppresses nothing; ``ruff check nil_tui`` is clean with them."""
    import re

    tomllib = pytest.importorskip("tomllib")
    pytest.importorskip("ruff")
    from ruff.__main__ import find_ruff_bin

    root = Path(__file__).resolve().parent.parent
    named: set[str] = set()
    for path in (root / "nil_tui").rglob("*.py"):
        for codes in re.findall(r"#\s*noqa:\s*([A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)",
                                path.read_text(encoding="utf-8")):
            named.update(code.strip() for code in codes.split(","))
    assert named, "no noqa markers found: the pattern is wrong"
    lint = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))[
        "tool"]["ruff"].get("lint", {})
    listed = set(lint.get("select", [])) | set(lint.get("extend-select", []))
    assert "RUF100" in listed
    assert named <= listed, f"markers name rules the settings do not run: {named - listed}"
    done = subprocess.run([find_ruff_bin(), "check", "--no-cache", "--output-format",
                           "concise", "nil_tui"],
                          check=False, capture_output=True, text=True, timeout=120, cwd=root)
    assert done.returncode == 0, done.stdout[-3000:]


def test_simulate_and_the_record_reader_do_not_import_the_command_line() -> None:
    """One record-file reader in a module of its own, which ``replay`` and ``analyse`` share;
    the simulator writes through the terminal-safe output and imports no command line (no
    cycle cli -> sim -> cli)."""
    code = ("import sys, argparse, io; from nil_tui.game import sim; "
            "from nil_tui.commands import recordfile; "
            "p = argparse.ArgumentParser(); sim.add_arguments(p); "
            "a = p.parse_args(['--games', '1', '--deals', '1', '--seed', '3', '--bots', "
            "'easy,easy,easy,easy']); "
            "sys.stdout = io.StringIO(); code = sim.run(a); sys.stdout = sys.__stdout__; "
            "print(code, 'nil_tui.commands.cli' in sys.modules, "
            "'nil_tui.commands.analyse' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True,
                          text=True, timeout=120)
    assert done.stdout.split() == ["0", "False", "False"], done.stderr[-2000:]


def test_replay_and_analyse_read_records_through_one_reader(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from nil_tui.commands import analyse as analysis_cli
    from nil_tui.commands import cli, recordfile

    asked: list[tuple[str, int]] = []

    def read(path: str, number: int = 1) -> dict[str, object]:
        asked.append((path, number))
        raise cli.UsageError("stop here")

    monkeypatch.setattr(recordfile, "read_record", read)
    for load in (cli.load_game, analysis_cli.load_game):
        with pytest.raises(cli.UsageError):
            load("x.jsonl")
    with pytest.raises(cli.UsageError):
        analysis_cli.load_game("x.jsonl", 3)
    assert asked == [("x.jsonl", 1), ("x.jsonl", 1), ("x.jsonl", 3)]


HOSTILE = "\x1b]0;owned\x07\x1b[2J\x00a\nb"


def test_a_bot_name_and_a_failure_as_the_driver_reports_them_are_terminal_safe() -> None:
    """A bot's name (a plugin's, shown at the table and written in records) and a failure's
    text (a plugin's exception) hold no character a terminal would obey."""
    from nil_tui.engine import Game
    from nil_tui.game.driver import GameDriver, short_text
    from nil_tui.util.textsafe import unsafe

    class Named:
        name = HOSTILE

        def decide(self, view: object, perfect: object = None) -> object:
            raise AssertionError("not asked to play")

        def close(self) -> None:
            pass

    players = [{"name": "S", "kind": "bot", "bot": "x"} for _ in range(4)]
    with GameDriver(Game(1, 3, players=players), opener=lambda spec, seed: Named()) as d:
        name = d.player_name(1)
    assert name == "\\x1b]0;owned\\x07\\x1b[2J\\x00a\\nb"
    assert not unsafe().search(short_text(RuntimeError(HOSTILE)))


def test_saved_settings_never_seat_the_oracle_at_a_table() -> None:
    """The oracle sees every hand: settings that name it (written by hand) give the default
    bots, as --difficulty oracle is refused."""
    from nil_tui.game.options import PlayOptions, options_from_dict

    assert options_from_dict({"bots": ["oracle", "easy", "easy"]}).bots == PlayOptions().bots
    assert options_from_dict({"bots": ["hard", "easy", " oracle"]}).bots == PlayOptions().bots
    assert options_from_dict({"bots": ["hard", "easy", "expert"]}).bots == (
        "hard", "easy", "expert")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a real pty (Linux)")
def test_replay_on_a_real_terminal_shows_a_hostile_file_name_as_text(tmp_path: Path) -> None:
    """``nil-tui replay`` names the file in its title: a file name holding ESC ] 0;... BEL
    (which sets the terminal's title) or ESC [2J (which clears the screen) is shown escaped;
    the names of the record's players are read escaped too."""
    import fcntl
    import os
    import select
    import struct
    import termios
    import time

    game = Game(1, seed=5)
    while not game.is_over:
        game.play(game.deal.legal_moves()[0])
    record = game.to_record()
    for seat, name in ((1, "\x1b]0;title\x07"), (2, "nul\x00here"), (3, "two\nlines")):
        record["players"][seat]["name"] = name
    import tempfile

    short = Path(tempfile.mkdtemp(prefix="nil-"))  # the title fits in 100 columns
    path = short / "\x1b]0;title\x07\x1b[2Jgame.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
    env = dict(os.environ, TERM="xterm-256color", NIL_TUI_HOME=str(tmp_path))
    env.pop("TEXTUAL", None)
    proc = subprocess.Popen([sys.executable, "-m", "nil_tui", "replay", str(path)],
                            stdin=slave, stdout=slave, stderr=slave, env=env,
                            start_new_session=True, close_fds=True)
    out = bytearray()
    try:
        deadline = time.monotonic() + 60
        while b"game.json" not in out and time.monotonic() < deadline:
            if select.select([master], [], [], 0.1)[0]:
                out += os.read(master, 65536)
        os.write(master, b"\x11")  # Ctrl+Q
        while proc.poll() is None and time.monotonic() < deadline + 30:
            if select.select([master], [], [], 0.1)[0]:
                try:
                    out += os.read(master, 65536)
                except OSError:
                    break
        assert proc.wait(timeout=30) == 0, bytes(out[-800:])
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        os.close(master)
        os.close(slave)
        path.unlink()
        short.rmdir()
    assert b"\\x1b]0;title\\x07\\x1b[2Jgame.json" in out, bytes(out[:1500])
    assert b"\x1b]0;title" not in out
    assert b"\x1b[2Jgame" not in out
    assert b"\x00" not in out


def test_simulate_with_a_plugin_named_with_control_characters_prints_none(
        tmp_path: Path) -> None:
    """A plugin's name goes to the records and a bot spec to the summary: no control
    character of either reaches standard output, standard error or the records."""
    import os

    (tmp_path / "hostile_name_bot.py").write_text(
        "class Bad:\n"
        "    name = '\\x1b]0;title\\x07\\x1b[2Jbad\\nname\\x00'\n"
        "    def __init__(self, seed=0):\n"
        "        pass\n"
        "    def choose(self, view):\n"
        "        return view.legal[0]\n", encoding="utf-8")
    records = tmp_path / "games.jsonl"
    env = dict(os.environ, PYTHONPATH=str(tmp_path), NIL_TUI_HOME=str(tmp_path / "home"))
    done = subprocess.run([sys.executable, "-m", "nil_tui", "simulate", "--games", "1",
                           "--deals", "1", "--seed", "3", "--bots",
                           "easy,easy,easy,hostile_name_bot:Bad", "--records", str(records)],
                          check=False, capture_output=True, timeout=300, env=env,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    for data in (done.stdout, done.stderr, records.read_bytes()):
        assert not any(b < 0x20 and b != 0x0A for b in data), data[:800]
    name = json.loads(records.read_text(encoding="utf-8").splitlines()[0])["players"][3]["name"]
    assert "title" in name and "bad" in name and "\x1b" not in name and "\n" not in name


@pytest.mark.parametrize("words", [
    ["play", "--deals", "3", "--seed", "4", "--no-ascii", "--scoring", "pool"],
    ["resume"], ["replay", "game.json"], ["rules"], ["history"], ["stats"],
    ["challenge", "--date", "2026-01-02"], ["analyse", "r.jsonl", "--game", "2", "--json"],
    ["host", "--deals", "2", "--no-seat"], ["join", "nil://127.0.0.1:4711/abc", "--name", "Bo"],
    ["serve", "--port", "0"], ["simulate", "--games", "2", "--seed", "1"],
])
def test_a_command_built_alone_reads_its_line_as_the_whole_parser_does(
        words: list[str]) -> None:
    """The command line is read by a parser holding only the command it names (a quicker
    start): it must read every command's words exactly as the parser of all commands."""
    from nil_tui.commands.cli import _COMMANDS, build_parser

    assert words[0] in _COMMANDS
    alone = build_parser(with_simulate=True, only=words[0]).parse_args(words)
    assert alone == build_parser(with_simulate=True).parse_args(words)


@pytest.mark.parametrize("words", [["play", "--deals", "0"], ["play", "--bogus"],
                                   ["host", "--port", "x"], ["bogus"]])
def test_a_command_line_error_reads_the_same_with_the_command_alone(
        words: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(words) == 2
    alone = capsys.readouterr().err
    from nil_tui.commands.cli import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args(words)
    assert capsys.readouterr().err == alone and "error:" in alone


def test_play_cursor_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    from nil_tui.tui import launch

    seen: dict[str, object] = {}
    monkeypatch.setattr(launch, "play_command",
                        lambda overrides: seen.update(overrides.given()) or 0)
    assert main(["play", "--cursor", "every"]) == 0
    assert seen == {"seed": None, "cursor": "every"}
    seen.clear()
    assert main(["play", "--cursor", "playable"]) == 0
    assert seen == {"seed": None, "cursor": "playable"}
    seen.clear()
    assert main(["play"]) == 0
    assert seen == {"seed": None}  # the player's setting, else playable


def test_play_cursor_flag_refuses_what_it_does_not_know(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--cursor", "all"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert "--cursor" in err and "playable" in err and "every" in err
