"""plugins.log stays within its limit while plugins write to it, and says where it was cut."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nil_tui.bots.host import SANDBOX_ENV
from nil_tui.bots.pluginlog import LIMIT, Log

PLUGINS = Path(__file__).resolve().parents[1] / "plugins"
CUT = b"nil-tui: plugins.log reached its limit of 1,048,576 bytes and was cut here"


def sizes(home: Path) -> list[int]:
    out = []
    for name in ("plugins.log", "plugins.log.1"):
        try:
            out.append((home / name).stat().st_size)
        except FileNotFoundError:
            pass
    return out


@pytest.mark.parametrize("sandbox", [True, False], ids=["namespaces", "no-namespaces"])
def test_a_plugin_printing_a_megabyte_a_decision_keeps_the_log_within_its_limit(
        tmp_path: Path, sandbox: bool) -> None:
    """Two seats of a plugin that writes 1 MB at each of its decisions (by print and
    straight to file descriptor 2), in two simulate processes at once: the log, watched
    while the games run, is never longer than its limit; full, it starts afresh with a line
    that says it was cut, the output before it kept as plugins.log.1."""
    home = tmp_path / "home"
    env = dict(os.environ, NIL_TUI_HOME=str(home), PYTHONPATH=str(PLUGINS))
    env.pop(SANDBOX_ENV, None)
    if not sandbox:
        env[SANDBOX_ENV] = "off"
    proc = subprocess.Popen(
        [sys.executable, "-m", "nil_tui", "simulate", "--games", "2", "--deals", "1",
         "--seed", "3", "--jobs", "2", "--bots", "nil_loud:Loud,nil_loud:Loud,easy,easy"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    seen: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while proc.poll() is None and time.monotonic() < deadline:
            seen += sizes(home)
            time.sleep(0.005)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    seen += sizes(home)
    assert seen and max(seen) <= LIMIT, max(seen)
    log = (home / "plugins.log").read_bytes()
    assert log.count(CUT) == 1 and log.index(CUT) < 40, log[:300]
    assert CUT in (home / "plugins.log.1").read_bytes()[:300]
    # 4 seats' worth of 13 MB went through: it was cut many times, never grew past the limit.
    assert len(seen) > 10


def test_appends_from_several_processes_never_pass_the_limit(tmp_path: Path) -> None:
    """Four processes append to one log at once, each 64 KiB at a time: the file is never
    longer than its limit, and every append is whole, in one file or the other."""
    path = tmp_path / "plugins.log"
    code = ("import sys; from nil_tui.bots.pluginlog import Log; log = Log(sys.argv[1], "
            "limit=300_000); line = (sys.argv[2] * 99 + '\\n').encode(); "
            "[log.append(line * 662) for _ in range(40)]")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(path), tag])
             for tag in "abcd"]
    seen: list[int] = []
    deadline = time.monotonic() + 60
    while any(p.poll() is None for p in procs) and time.monotonic() < deadline:
        seen += sizes(tmp_path)
    for p in procs:
        assert p.wait(timeout=60) == 0
    seen += sizes(tmp_path)
    assert max(seen) <= 300_000
    for name in ("plugins.log", "plugins.log.1"):
        text = (tmp_path / name).read_bytes()
        first, _, rest = text.partition(b"\n")
        assert b"was cut here" in first
        assert len(rest) % 66_200 == 0  # whole appends only (662 lines of 100 bytes)


def test_a_log_without_a_file_passes_everything_on(tmp_path: Path) -> None:
    """With no log file (the host run by hand), the plugin's output goes to the host's own
    standard error as it is, without a limit."""
    read, write = os.pipe()
    log = Log(None, fd=write)
    log.append(b"x" * 1000)
    os.close(write)
    assert os.read(read, 4096) == b"x" * 1000
    os.close(read)


def test_a_log_locked_by_another_process_costs_a_game_no_time(tmp_path: Path) -> None:
    """Another process (a plugin, say) takes the log's lock and keeps it: the loud plugin's
    game still ends in its usual time, each of its decisions within the time cap (no card
    played for it), and what it wrote meanwhile is dropped rather than waited on."""
    import fcntl
    import json

    home = tmp_path / "home"
    home.mkdir()
    records = tmp_path / "r.jsonl"
    env = dict(os.environ, NIL_TUI_HOME=str(home), PYTHONPATH=str(PLUGINS))
    with open(home / "plugins.log", "ab") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        start = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "nil_tui", "simulate", "--games", "1", "--deals", "2",
             "--seed", "3", "--time-cap", "2", "--records", str(records), "--bots",
             "nil_loud:Loud,easy,easy,easy"], env=env, capture_output=True, timeout=120,
            check=False)
        took = time.monotonic() - start
    assert done.returncode == 0, done.stderr
    assert "incidents" not in json.loads(records.read_text(encoding="utf-8"))
    assert took < 30, took
    assert (home / "plugins.log").stat().st_size == 0


def test_a_log_taken_away_by_hand_starts_again_without_a_cut_note(tmp_path: Path) -> None:
    """The player deletes plugins.log while plugins write: the next append starts a new
    file, which does not claim to have been cut; a log cut for its size says so."""
    path = tmp_path / "plugins.log"
    log = Log(str(path), limit=1000)
    log.append(b"a" * 400 + b"\n")
    path.unlink()
    log.append(b"b" * 400 + b"\n")
    assert path.read_bytes() == b"b" * 400 + b"\n"
    log.append(b"c" * 400 + b"\n")
    log.append(b"d" * 400 + b"\n")  # past 1000 bytes: cut
    first, _, rest = path.read_bytes().partition(b"\n")
    assert b"was cut here" in first and rest == b"d" * 400 + b"\n"
    assert (tmp_path / "plugins.log.1").read_bytes() == b"b" * 400 + b"\n" + b"c" * 400 + b"\n"
    log.close()
