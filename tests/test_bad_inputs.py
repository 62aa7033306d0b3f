"""Every command and flag with odd values: exit status 2, one line naming the problem, no
traceback, nothing on standard output, and nothing started.

Each row is (argv, expected exit status, a piece of the one-line message). ``{tmp}`` in an
argument is the test's folder, where the odd files below are made. Rows run in this process
(the app is replaced by a stub that fails the test if it would start); the rows about standard
output itself run in real processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from nil_tui.commands import cli

BIG = "9" * 5000  # more digits than Python converts (4,300)
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
LINUX = sys.platform.startswith("linux")

# (argv, status, message)
ROWS: list[tuple[list[str], int, str]] = [
    # no command, unknown commands and flags
    (["--bogus"], 2, "unrecognized arguments: --bogus"),
    ([""], 2, "invalid choice"),
    (["é"], 2, "invalid choice"),
    (["rules", "x"], 2, "unrecognized arguments: x"),
    (["history", "x"], 2, "unrecognized arguments: x"),
    (["stats", "--x"], 2, "unrecognized arguments: --x"),
    (["resume", "x"], 2, "unrecognized arguments: x"),
    # replay: the file
    (["replay"], 2, "required: FILE"),
    (["replay", "a", "b"], 2, "unrecognized arguments: b"),
    (["replay", ""], 2, "expected a file name, got ''"),
    (["replay", "{tmp}/missing.json"], 2, "missing.json: no such file"),
    (["replay", "{tmp}/é€ missing.jsonl"], 2, "no such file"),
    (["replay", "{tmp}/no/such/folder/x.json"], 2, "no such file"),
    (["replay", "{tmp}"], 2, "is a folder"),
    (["replay", "{tmp}/fifo"], 2, "not a regular file"),
    (["replay", "/dev/zero"], 2, "not a regular file"),
    (["replay", "/dev/null"], 2, "not a regular file"),
    (["replay", "{tmp}/big.json"], 2, "too large for a game record"),
    (["replay", "{tmp}/big-line.jsonl"], 2, "too large for a game record"),
    (["replay", "{tmp}/deep.json"], 2, "nested too deeply"),
    (["replay", "{tmp}/long-number.json"], 2, "a number too long to read"),
    (["replay", "{tmp}/nul.json"], 2, "not a JSON game record"),
    (["replay", "{tmp}/latin1.json"], 2, "not UTF-8"),
    (["replay", "{tmp}/empty.json"], 2, "the file is empty"),
    (["replay", "{tmp}/blank.jsonl"], 2, "the file is empty"),
    (["replay", "{tmp}/broken.json"], 2, "not a JSON game record"),
    (["replay", "{tmp}/broken.jsonl"], 2, "not a JSON game record"),
    (["replay", "{tmp}/list.json"], 2, "a record must be a JSON object"),
    (["replay", "{tmp}/infinity.json"], 2, "a record must be a JSON object"),
    (["replay", "{tmp}/header-only.json"], 2, "not a valid game record"),
    (["replay", "{tmp}/bad-card.json"], 2, "not a valid game record"),
    # records: one strict format (docs/RECORDS.md)
    (["replay", "{tmp}/lower-card.json"], 2, "game record: deals[0].hands[0][0]: '"),
    (["analyse", "{tmp}/lower-card.json"], 2, "game record: deals[0].hands[0][0]: '"),
    (["replay", "{tmp}/ten-card.json"], 2, "deals[0].hands[0][0]: expected a two-character"),
    (["replay", "{tmp}/incident-elsewhere.json"], 2, "incidents[0]: seat 0 did not play 3C"),
    (["replay", "{tmp}/incident-deal.json"], 2, "incidents[0].deal: expected a whole number"),
    (["replay", "{tmp}/incident-text.json"], 2, "incidents: expected a list"),
    (["replay", "{tmp}/undone-cards.json"], 2, "undone[0].cards[0]: 'zz' is not a card"),
    (["replay", "{tmp}/undone-deal.json"], 2, "undone[0].deal: expected a whole number"),
    (["replay", "{tmp}/replaced-trick.json"], 2, "players[1].replaced[0].trick"),
    (["replay", "{tmp}/player-kind.json"], 2, "players[3].kind: expected one of human, bot"),
    # a file name (or an argument) that holds control characters is shown escaped
    (["replay", "{tmp}/\x1b]0;title\x07\x1b[2J\n.json"], 2,
     "\\x1b]0;title\\x07\\x1b[2J\\n.json: no such file"),
    (["rules", "\x1b[2J"], 2, "unrecognized arguments: \\x1b[2J"),
    (["analyse", "x.json", "--seat", "\x1b[2J"], 2, "--seat"),
    (["simulate", "--records", "{tmp}/no/\x1b]0;title\x07.jsonl"], 2,
     "--records: cannot write"),
    # challenge: a date whose challenge is not open yet (today is local: see test_cli)
    (["challenge", "--date", "2999-12-31"], 2, "the challenge of 2999-12-31 opens on that day"),
    (["challenge", "--date", "tomorrow"], 2, "expected a date written YYYY-MM-DD"),
    (["challenge", "--date", "2026-02-30"], 2, "no such date"),
    # simulate
    (["simulate", "--records", ""], 2, "--records: expected a file name"),
    (["simulate", "--records", "{tmp}"], 2, "--records: cannot write"),
    (["simulate", "--records", "{tmp}/no/such/folder/x.jsonl"], 2, "--records: cannot write"),
    (["simulate", "--records", "{tmp}/fifo"], 2, "not a regular file"),
    (["simulate", "--records", "/dev/full"], 2, "not a regular file"),
    (["simulate", "--records", "/dev/null"], 2, "not a regular file"),
    (["simulate", "--seed", BIG], 2, "a seed is a whole number from 0 to"),
    (["simulate", "--seed", "-1"], 2, "a seed is a whole number from 0 to"),
    (["simulate", "--seed", str(2**64)], 2, "got 18446744073709551616"),
    (["simulate", "--seed", ""], 2, "expected a whole number"),
    (["simulate", "--seed", "1.5"], 2, "expected a whole number"),
    (["simulate", "--seed", "١٢"], 2, "expected a whole number"),
    (["simulate", "--seed", "x" * 1000], 2, "(1000 characters)"),
    (["simulate", "--games", "0"], 2, "a match has 1 to 100000 games"),
    (["simulate", "--games", "-1"], 2, "a match has 1 to 100000 games"),
    (["simulate", "--games", BIG], 2, "a number of 5000 digits"),
    (["simulate", "--games", "10000000000000"], 2, "a match has 1 to 100000 games"),
    (["simulate", "--games", "many"], 2, "expected a whole number"),
    (["simulate", "--jobs", "0"], 2, "--jobs"),
    (["simulate", "--jobs", "100000"], 2, "expected 1 to 64 processes"),
    (["simulate", "--deals", "0"], 2, "a game has 1 to 99 deals"),
    (["simulate", "--deals", "100"], 2, "a game has 1 to 99 deals"),
    (["simulate", "--deals", ""], 2, "expected a whole number"),
    (["simulate", "--time-cap", "-2"], 2, "--time-cap"),
    (["simulate", "--time-cap", "nan"], 2, "expected 0 to 3600 seconds"),
    (["simulate", "--time-cap", "inf"], 2, "expected 0 to 3600 seconds"),
    (["simulate", "--time-cap", "1e308"], 2, "expected 0 to 3600 seconds"),
    (["simulate", "--time-cap", ""], 2, "expected a number of seconds"),
    (["simulate", "--bots", ""], 2, "expected 4 bot specs"),
    (["simulate", "--bots", "easy,easy,easy"], 2, "expected 4 bot specs"),
    (["simulate", "--bots", "easy,easy,easy,easy,easy"], 2, "expected 4 bot specs"),
    (["simulate", "--bots", "easy,,easy,easy"], 2, "is empty"),
    (["simulate", "--bots", "easy,nosuchbot,easy,easy"], 2, "nosuchbot"),
    (["simulate", "--bots", "é,é,é,é"], 2, "'é'"),
    (["simulate", "--bots", "easy,easy,no_such_module_x:Bot,easy"], 2, "no_such_module_x"),
    (["simulate", "--bots", "easy,easy,collections:OrderedDict,easy"], 2, "OrderedDict"),
    (["simulate", "--json", "x"], 2, "unrecognized arguments: x"),
    # play (argument errors come before the app)
    (["play", "--seed", BIG], 2, "a seed is a whole number from 0 to"),
    (["play", "--seed", "-5"], 2, "a seed is a whole number from 0 to"),
    (["play", "--seed", str(2**64)], 2, "a seed is a whole number from 0 to"),
    (["play", "--seed", "abc"], 2, "--seed"),
    (["play", "--deals", "0"], 2, "a game has 1 to 99 deals"),
    (["play", "--deals", BIG], 2, "a game has 1 to 99 deals"),
    (["play", "--speed", "warp"], 2, "--speed"),
    (["play", "--theme", "[/]"], 2, "no theme called '[/]'"),
    (["play", "--theme", "[bold red]x[/bold red]"], 2, "no theme called"),
    (["play", "--theme", ""], 2, "no theme called ''"),
    (["play", "--theme", "nord2"], 2, "themes: "),
    (["play", "--bots", ""], 2, "--bots: expected W=SPEC,N=SPEC,E=SPEC"),
    (["play", "--bots", "W=easy,Q=easy"], 2, "--bots: expected W=SPEC,N=SPEC,E=SPEC"),
    (["play", "--bots", "W=easy,W=hard"], 2, "seat W is given twice"),
    (["play", "--bots", "W="], 2, "--bots"),
    (["play", "--difficulty", ""], 2, "empty"),
    (["play", "--difficulty", "grandmaster"], 2, "grandmaster"),
    (["play", "--difficulty", "a..b:C"], 2, "a..b:C"),
    (["play", "--difficulty", "oracle"], 2, "--difficulty: oracle sees every hand"),
    (["play", "--difficulty", " oracle "], 2, "--difficulty: oracle sees every hand"),
    (["play", "--bots", "N=oracle"], 2, "--bots: oracle sees every hand"),
    (["play", "--difficulty", "easy", "--bots", "E=oracle"], 2, "--bots: oracle"),
    (["play", "--difficulty", "nope", "--bots", "W=easy,N=easy,E=easy"], 2,
     "--difficulty: unknown bot 'nope'"),
    (["play", "--difficulty", "", "--bots", "W=easy,N=easy,E=easy"], 2, "--difficulty"),
    (["play", "--bots", "W=easy,N=nope"], 2, "--bots: unknown bot 'nope'"),
    (["play", "--ascii=yes"], 2, "--ascii"),
    (["play", "--no-deals"], 2, "unrecognized arguments: --no-deals"),
    (["play", "--no-four-colour"], 2, "--no-four-colour"),
]

if LINUX:
    ROWS += [
        (["simulate", "--records", "/proc/version"], 2, "--records: cannot write /proc/version"),
        (["replay", "/proc/self/fd"], 2, "is a folder"),
    ]
if not ROOT:  # the superuser reads and writes everything
    ROWS += [
        (["replay", "{tmp}/unreadable.json"], 2, "cannot read it"),
        (["simulate", "--records", "{tmp}/read-only.jsonl"], 2, "--records: cannot write"),
    ]


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("NIL_TUI_HOME", str(folder))
    return folder


@pytest.fixture(scope="module")
def odd_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp_path = tmp_path_factory.mktemp("odd")
    os.mkfifo(tmp_path / "fifo")
    with open(tmp_path / "big.json", "wb") as fh:  # sparse: 11 MB without writing them
        fh.truncate(11 * 1024 * 1024)
    with open(tmp_path / "big-line.jsonl", "wb") as fh:
        fh.write(b"[" + b" " * (11 * 1024 * 1024) + b"]\n")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "long-number.json").write_text('{"seed": ' + BIG + "}")
    (tmp_path / "nul.json").write_bytes(b'{"format":\x00}')
    (tmp_path / "latin1.json").write_bytes(b'{"name": "caf\xe9"}')
    (tmp_path / "empty.json").write_text("")
    (tmp_path / "blank.jsonl").write_text("\n   \n\n")
    (tmp_path / "broken.json").write_text("{not json")
    (tmp_path / "broken.jsonl").write_text("{not json\n{}\n")
    (tmp_path / "list.json").write_text("[1, 2, 3]")
    (tmp_path / "infinity.json").write_text("1e999")
    (tmp_path / "header-only.json").write_text('{"format": "nil-tui-record", "version": 1}')
    record = _finished_record()
    record["deals"][0]["hands"][0][0] = "ZZ"
    (tmp_path / "bad-card.json").write_text(json.dumps(record))
    for name, change in _STRICT.items():
        record = _finished_record()
        change(record)
        (tmp_path / f"{name}.json").write_text(json.dumps(record))
    unreadable = tmp_path / "unreadable.json"
    unreadable.write_text("{}")
    unreadable.chmod(0)
    read_only = tmp_path / "read-only.jsonl"
    read_only.write_text("")
    read_only.chmod(0o444)
    return tmp_path


def _set_card(record: dict[str, Any], code: str) -> None:
    """The first card of South's hand written ``code`` wherever it is (hand and trick)."""
    deal = record["deals"][0]
    old = deal["hands"][0][0]
    deal["hands"][0][0] = code
    for trick in deal["tricks"]:
        trick["cards"] = [code if c == old else c for c in trick["cards"]]


def _incident(record: dict[str, Any], **change: Any) -> None:
    trick = record["deals"][0]["tricks"][0]
    record["incidents"] = [{"deal": 1, "trick": 1, "seat": trick["leader"],
                            "card": trick["cards"][0], "reason": "too slow", **change}]


_STRICT: dict[str, Any] = {
    "lower-card": lambda r: _set_card(r, r["deals"][0]["hands"][0][0].lower()),
    "ten-card": lambda r: _set_card(r, "10" + r["deals"][0]["hands"][0][0][1]),
    "incident-elsewhere": lambda r: _incident(r, seat=(r["deals"][0]["tricks"][0]["leader"]
                                                       + 1) % 4),
    "incident-deal": lambda r: _incident(r, deal=2),
    "incident-text": lambda r: r.__setitem__("incidents", "none"),
    "undone-cards": lambda r: r.__setitem__("undone", [{"deal": 1, "trick": 1,
                                                        "cards": ["zz"]}]),
    "undone-deal": lambda r: r.__setitem__("undone", [{"deal": 9, "trick": 1,
                                                       "cards": ["2C"]}]),
    "replaced-trick": lambda r: r["players"][1].__setitem__("replaced", [
        {"bot": "easy", "deal": 1, "trick": 15, "reason": "gone"}]),
    "player-kind": lambda r: r["players"][3].__setitem__("kind", "robot"),
}


def _finished_record() -> dict[str, Any]:
    from nil_tui.engine import Game

    game = Game(1, seed=5)
    while not game.is_over:
        game.play(game.deal.legal_moves()[0])
    return game.to_record()


@pytest.fixture
def no_app(monkeypatch: pytest.MonkeyPatch) -> None:
    """A row that gets past the command line would start the app: fail instead."""
    from nil_tui.tui import launch

    def started(*args: object, **kwargs: object) -> int:
        raise AssertionError("the command line accepted a bad input and started the app")

    for name in ("setup", "play", "play_command", "resume", "replay", "history", "stats",
                 "challenge"):
        monkeypatch.setattr(launch, name, started)


@pytest.mark.parametrize(("argv", "status", "message"), ROWS,
                         ids=[" ".join(a)[:60] or "(empty)" for a, _, _ in ROWS])
@pytest.mark.usefixtures("no_app")
def test_bad_input_is_one_line_and_status_2(
        argv: list[str], status: int, message: str, odd_files: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    words = [word.replace("{tmp}", str(odd_files)) for word in argv]
    if argv[0] == "simulate":  # small, so a row that is wrongly accepted ends soon
        words[1:1] = ["--games", "1", "--deals", "1"]
    code = cli.main(words)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    assert code == status, err
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("nil-tui"), lines[0]
    assert message in lines[0]
    assert not any(ch < " " or "\x7f" <= ch <= "\x9f" for ch in err.rstrip("\n")), err


# --- standard output that cannot be written, in real processes ------------------------------
def run_cli(argv: list[str], stdout: int, home: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NIL_TUI_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "nil_tui", *argv], stdout=stdout,
                          stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, env=env,
                          timeout=120, check=False)


OUTPUT_COMMANDS = [["rules"], ["--help"], ["--version"], ["play", "--help"],
                   ["simulate", "--games", "1", "--deals", "1", "--seed", "3", "--time-cap", "0"]]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", OUTPUT_COMMANDS, ids=" ".join)
def test_a_full_output_is_one_line_and_status_2(argv: list[str], tmp_path: Path) -> None:
    with open("/dev/full", "w") as full:
        done = run_cli(argv, full.fileno(), tmp_path)
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "cannot write the output (No space left on device)" in lines[0]


@pytest.mark.parametrize("argv", OUTPUT_COMMANDS, ids=" ".join)
def test_a_reader_that_went_away_ends_the_command_quietly(argv: list[str],
                                                          tmp_path: Path) -> None:
    read, write = os.pipe()
    os.close(read)  # like `| head -c 10` that has already read its bytes
    try:
        done = run_cli(argv, write, tmp_path)
    finally:
        os.close(write)
    assert done.stderr == ""
    assert done.returncode == cli.EXIT_BROKEN_PIPE


def test_a_closed_output_is_one_line_and_status_2(tmp_path: Path) -> None:
    env = dict(os.environ, NIL_TUI_HOME=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-c", ("import os, sys; os.close(1); sys.stdout = None; "
                                "from nil_tui.commands.cli import main; "
                                "raise SystemExit(main(['rules']))")],
        stderr=subprocess.PIPE, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == "nil-tui rules: error: cannot write the output (standard " \
        "output is closed)"
