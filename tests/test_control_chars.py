"""Nothing a terminal obeys reaches it from what a player typed, a plugin named or a record
holds: each command is run as a real process, and its output is read byte by byte."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from nil_tui.util.textsafe import unsafe


def run_cli(*argv: str, home: Path, timeout: float = 120,
            extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, NIL_TUI_HOME=str(home), **(extra_env or {}))
    return subprocess.run([sys.executable, "-m", "nil_tui", *argv], capture_output=True,
                          stdin=subprocess.DEVNULL, env=env, timeout=timeout, check=False)


def assert_terminal_safe(data: bytes) -> None:
    """No byte below 32 but a newline, no DEL, and decoded, no C1 control, no mark that turns
    the direction of text, no line separator (everything ``unsafe()`` finds but the newline)."""
    bad = sorted({b for b in data if (b < 32 and b != 10) or b == 0x7F})
    assert not bad, f"control bytes {bad} in {data[:600]!r}"
    text = data.decode("utf-8", "surrogateescape")
    found = sorted({ch for ch in text if ch != "\n" and unsafe().fullmatch(ch)})
    assert not found, f"unsafe characters {found!r} in {text[:600]!r}"


# --- what argparse quotes as it was typed ---------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["history", "5\n6"], ["rules", "a\rb"], ["stats", "x\x1b]0;TITLE\x07y"],
    ["play", "--sp\ny"], ["rules", "\u202eevil"], ["simulate", "--games", "1", "\x9b2J"],
    ["history", "\t\x7f"],
], ids=["newline", "cr", "osc", "option-newline", "bidi", "c1", "tab-del"])
def test_an_unknown_argument_is_quoted_on_one_safe_line(argv: list[str], tmp_path: Path) -> None:
    """argparse quotes an unknown argument as typed: a newline or a CR in it would start a
    new line (or write over the message), so it is written as its escape."""
    done = run_cli(*argv, home=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stdout == b""
    assert done.stderr.endswith(b"\n") and done.stderr.count(b"\n") == 1, done.stderr
    assert_terminal_safe(done.stderr)
    assert b"unrecognized arguments" in done.stderr or b"invalid" in done.stderr, done.stderr


# --- names from plugins and records ------------------------------------------------------
# What a terminal would obey: a new window title, a C1 CSI that clears the screen, a mark that
# turns the text right to left.
TITLE = "\x1b]0;OWNED\x07"
HOSTILE = f"e{TITLE}m\x9b2J\u202e"
ESCAPED = "e\\x1b]0;OWNED\\x07m\\x9b2J\\u202e"


def evil_plugin(folder: Path) -> str:
    """A plugin module whose file name holds ESC ] 0; ... BEL: the spec that names it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"e{TITLE}m.py").write_text(
        "class Bot:\n    name = 'Plain'\n\n    def __init__(self, seed=0):\n        pass\n\n"
        "    def choose(self, view):\n        return view.legal[0]\n", encoding="utf-8")
    return f"e{TITLE}m:Bot"


@pytest.mark.parametrize("command", ["play", "simulate", "host"])
def test_a_plugin_spec_with_a_control_character_is_refused_where_it_enters(
        command: str, tmp_path: Path) -> None:
    """The route seen: a plugin module named ``e<ESC>]0;TITLE<BEL>m.py``, a game with
    ``--bots W=<that>:Bot``. The spec is refused on one safe line, before any game starts,
    so no record, no history and no setting ever holds it."""
    spec = evil_plugin(tmp_path / "plugins")
    home = tmp_path / "home"
    argv = {"play": ["play", "--bots", f"W={spec}", "--speed", "instant"],
            "simulate": ["simulate", "--games", "1", "--deals", "1", "--bots",
                         f"{spec},easy,easy,easy", "--records", str(tmp_path / "r.jsonl")],
            "host": ["host", "--bots", f"W={spec}"]}[command]
    done = run_cli(*argv, home=home, timeout=60,
                   extra_env={"PYTHONPATH": str(tmp_path / "plugins")})
    assert done.returncode == 2, done.stderr
    assert_terminal_safe(done.stdout + done.stderr)
    assert b"control character" in done.stderr, done.stderr
    assert not (tmp_path / "r.jsonl").exists()
    assert not list(home.glob("**/*.json*"))


def test_a_plugin_named_with_control_characters_is_not_listed(tmp_path: Path) -> None:
    """An installed plugin (an entry point) whose name or target holds a control character
    is left out of the plugins the game offers and accepts."""
    dist = tmp_path / "evil-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: evil\nVersion: 1.0\n",
                                   encoding="utf-8")
    (dist / "entry_points.txt").write_text(
        f"[nil_tui.bots]\nfine = nil_levels:Recorder\nbad{TITLE} = nil_levels:Recorder\n"
        f"worse = nil_levels:Recorder{TITLE}\n", encoding="utf-8")
    code = ("from nil_tui.bots import plugin_entry_points as p; "
            "print(sorted(n for n in p() if n in ('fine', 'worse') or n.startswith('bad')))")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['fine']"


def test_the_game_never_writes_a_control_character_in_a_record() -> None:
    """Whatever a player, a bot or an incident was named in the game, the record written
    holds every text with its control characters escaped; read back, it is the same."""
    from nil_tui.engine import Game

    players = [{"name": HOSTILE, "kind": "human"}] + [
        {"name": f"n{seat}{HOSTILE}", "kind": "bot", "bot": HOSTILE,
         "replaced": [{"bot": HOSTILE, "deal": 1, "trick": 1, "reason": HOSTILE}]}
        for seat in (1, 2, 3)]
    game = Game(1, seed=5, players=players)
    while not game.is_over:
        card = game.deal.legal_moves()[0]
        if game.deal.to_move == 1 and not game.incidents:
            game.record_incident(1, card, HOSTILE)  # a card played for a bot that failed
        game.play(card)
    record = game.to_record()

    def texts(value: object) -> list[str]:
        if isinstance(value, str):
            return [value]
        if isinstance(value, dict):
            return [t for k, v in value.items() for t in (k, *texts(v))]
        if isinstance(value, list):
            return [t for v in value for t in texts(v)]
        return []

    assert record["incidents"] and record["incidents"][0]["reason"] == ESCAPED
    assert record["players"][2]["bot"] == ESCAPED
    assert record["players"][3]["replaced"][0]["reason"] == ESCAPED
    assert not [t for t in texts(record) if unsafe().search(t)]
    assert Game.from_record(record).to_record()["players"] == record["players"]


def on_a_terminal(argv: list[str], home: Path, until: bytes, keys: bytes = b"\x11",
                  timeout: float = 60.0, rows: int = 32) -> bytes:
    """What ``nil-tui ARGV`` writes to a real terminal (a pty of 100 columns) until ``until``
    has been drawn; then ``keys`` are typed (Ctrl+Q: quit) and the rest is read to its end."""
    import fcntl
    import select
    import struct
    import termios
    import time

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, 100, 0, 0))
    env = dict(os.environ, TERM="xterm-256color", NIL_TUI_HOME=str(home))
    env.pop("TEXTUAL", None)
    proc = subprocess.Popen([sys.executable, "-m", "nil_tui", *argv], stdin=slave,
                            stdout=slave, stderr=slave, env=env, start_new_session=True,
                            close_fds=True)
    out = bytearray()
    try:
        deadline = time.monotonic() + timeout
        while until not in out and proc.poll() is None and time.monotonic() < deadline:
            if select.select([master], [], [], 0.1)[0]:
                out += os.read(master, 65536)
        assert until in out, bytes(out[-1500:])
        os.write(master, keys)
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
    return bytes(out)


def keep_hostile_game(home: Path) -> None:
    """Finished games in the store whose opponents (and a daily challenge's date) are named
    with ESC ] 0; ... BEL, a C1 CSI and U+202E, as a record or a setting kept before names
    were cleaned holds them."""
    from nil_tui.engine import Game
    from nil_tui.store import Store

    game = Game(1, seed=5)
    while not game.is_over:
        game.play(game.deal.legal_moves()[0])
    record = game.to_record()
    for player in record["players"][1:]:
        player["bot"] = player["name"] = HOSTILE
    challenge = {**record, "seed": 6, "challenge": {"date": f"2026-{HOSTILE}", "reference": [0]}}
    store = Store.open(home)
    try:
        store.finish_game(record, {"deals": 1, "bots": [HOSTILE] * 3, "seed": 5})
        store.finish_game(challenge, {"deals": 1, "bots": [HOSTILE] * 3, "seed": 6})
    finally:
        store.close()


def assert_nothing_obeyed(out: bytes) -> None:
    """The hostile name was drawn as text: none of what it holds reached the terminal."""
    for raw in (TITLE.encode(), b"\x1b]0;", "\x9b".encode(), "\u202e".encode()):
        assert raw not in out, (raw, out[:2000])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a real pty (Linux)")
@pytest.mark.parametrize("command", ["history", "stats"])
def test_history_and_stats_on_a_real_terminal_show_stored_names_as_text(
        command: str, tmp_path: Path) -> None:
    """The route seen: the opponents' spec held ESC ] 0;TITLE BEL, and ``nil-tui history``
    changed the window's title. Every stored name is drawn with its escapes shown."""
    keep_hostile_game(tmp_path)
    # Tall enough for every chart of the statistics (the challenges' dates label one).
    out = on_a_terminal([command], tmp_path, until=b"OWNED", rows=120)
    assert b"e\\x1b]0;OWNED\\x07m" in out, out[:2000]
    assert_nothing_obeyed(out)


# --- every command that prints stored text ---------------------------------------------------
def hostile_record(folder: Path) -> Path:
    """A record file whose name and players' names hold what a terminal would obey (as a
    record written elsewhere may: the game reads them escaped)."""
    import json

    from nil_tui.engine import Game

    game = Game(1, seed=5)
    while not game.is_over:
        game.play(game.deal.legal_moves()[0])
    record = game.to_record()
    for player in record["players"]:
        player["name"] = HOSTILE
    for player in record["players"][1:]:
        player["bot"] = HOSTILE
    path = folder / f"g{TITLE}\u202e.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


@pytest.mark.parametrize("how", ["json", "missing"])
def test_analyse_prints_names_and_file_names_escaped(how: str, tmp_path: Path) -> None:
    """The JSON analysis names the player as the record does (the table names nobody), and
    an error quotes the file's name."""
    path = hostile_record(tmp_path)
    argv = ["analyse", str(path), "--jobs", "1", *(["--json"] if how == "json" else [])]
    if how == "missing":
        argv[1] = str(tmp_path / f"gone{TITLE}.json")
    done = run_cli(*argv, home=tmp_path / "home")
    assert done.returncode == (2 if how == "missing" else 0), done.stderr
    assert done.stdout or done.stderr
    assert_terminal_safe(done.stdout + done.stderr)
    if how == "json":
        assert b'"player": "e\\\\x1b]0;OWNED\\\\x07m' in done.stdout, done.stdout[:400]


def test_simulate_with_a_plugin_that_names_itself_and_fails_with_controls(
        tmp_path: Path) -> None:
    """A plugin whose name, failure and output hold what a terminal would obey: simulate's
    summary and messages, the records it writes and the log hold none of it raw."""
    import json

    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "nil_shouter.py").write_text(
        "import sys\n\n\nclass Shouter:\n"
        f"    name = {HOSTILE!r}\n\n    def __init__(self, seed=0):\n        self.n = 0\n\n"
        "    def choose(self, view):\n        self.n += 1\n"
        f"        print({HOSTILE!r}, file=sys.stderr)\n"
        f"        if self.n == 1:\n            raise ValueError({HOSTILE!r})\n"
        "        return view.legal[0]\n", encoding="utf-8")
    records = tmp_path / "r.jsonl"
    done = run_cli("simulate", "--games", "1", "--deals", "1", "--seed", "4", "--bots",
                   "nil_shouter:Shouter,easy,easy,easy", "--records", str(records),
                   home=tmp_path / "home", extra_env={"PYTHONPATH": str(plugins)})
    assert done.returncode == 0, done.stderr
    assert_terminal_safe(done.stdout + done.stderr)
    record = json.loads(records.read_text(encoding="utf-8"))
    assert record["incidents"], record
    texts = [record["players"][0]["name"], *(i["reason"] for i in record["incidents"])]
    assert not [t for t in texts if unsafe().search(t)], texts


@pytest.mark.parametrize("argv", [["rules"], ["--help"], ["play", "--help"],
                                  ["simulate", "--help"], ["analyse", "--help"]],
                         ids=" ".join)
def test_what_commands_print_of_their_own_is_terminal_safe(argv: list[str],
                                                          tmp_path: Path) -> None:
    done = run_cli(*argv, home=tmp_path)
    assert done.returncode == 0 and done.stdout, done.stderr
    assert_terminal_safe(done.stdout + done.stderr)


@pytest.mark.parametrize("command", ["simulate", "replay", "analyse"])
def test_a_file_name_in_an_error_is_quoted_on_one_safe_line(command: str,
                                                           tmp_path: Path) -> None:
    """A file name that holds a tab, a CR, a newline or ESC, quoted in the one line of an
    error (a file that cannot be written or read)."""
    path = str(tmp_path / "no folder" / f"a\tb\rc\nd{TITLE}.jsonl")
    argv = {"simulate": ["simulate", "--games", "1", "--deals", "1", "--records", path],
            "replay": ["replay", path], "analyse": ["analyse", path]}[command]
    done = run_cli(*argv, home=tmp_path / "home")
    assert done.returncode == 2, done.stderr
    assert done.stdout == b""
    assert done.stderr.count(b"\n") == 1 and done.stderr.endswith(b"\n"), done.stderr
    assert_terminal_safe(done.stderr)
    assert b"a\\tb\\rc\\nd\\x1b]0;OWNED\\x07" in done.stderr, done.stderr
