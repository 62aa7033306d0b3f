"""A plugin's processes, seen from outside, with real processes: a plugin cannot reach the
game's process through /proc (where Linux gives it namespaces of its own), whatever it forks
ends with the game, an import that never ends is given up after 10 s with a notice first, and
a plugin that keeps hanging cannot hold a game up for long. Every test also runs where the
namespaces are refused (forced with NIL_TUI_PLUGIN_SANDBOX=off)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nil_tui.bots import open_player, seat_seed
from nil_tui.bots.host import SANDBOX_ENV
from nil_tui.engine import Game

PLUGINS = Path(__file__).resolve().parents[1] / "plugins"
if str(PLUGINS) not in sys.path:
    sys.path.insert(0, str(PLUGINS))

import nil_marks
import nil_procs

REFUSED = "without a user and PID namespace of their own"
SEED = "424242"


@pytest.fixture(autouse=True)
def plugins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    monkeypatch.syspath_prepend(str(PLUGINS))
    monkeypatch.setenv("NIL_TUI_HOME", str(tmp_path / "home"))
    yield


def simulate(tmp_path: Path, *args: str, sandbox: bool = True, tag: str = "",
             **env: str) -> subprocess.Popen[bytes]:
    environment = dict(os.environ, NIL_TUI_HOME=str(tmp_path / "home"),
                       PYTHONPATH=str(PLUGINS), **env)
    environment.pop(SANDBOX_ENV, None)
    if not sandbox:
        environment[SANDBOX_ENV] = "off"
    if tag:
        environment[nil_procs.TAG] = tag
    return subprocess.Popen([sys.executable, "-m", "nil_tui", "simulate", *args],
                            env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def finish(proc: subprocess.Popen[bytes], timeout: float = 120.0) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, out.decode(), err.decode()


def log_lines(tmp_path: Path) -> list[str]:
    log = tmp_path / "home" / "plugins.log"
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def sandboxed(tmp_path: Path) -> bool:
    """Whether this system gave the plugins their namespaces (said in the log when not)."""
    return not any(REFUSED in line for line in log_lines(tmp_path))


# --- /proc --------------------------------------------------------------------------------
def test_a_plugin_sees_neither_the_games_process_nor_its_seed(tmp_path: Path) -> None:
    out = tmp_path / "snoop.jsonl"
    code, _, err = finish(simulate(tmp_path, "--seed", SEED, "--games", "2", "--deals", "1",
                                   "--jobs", "2", "--bots", "nil_snoop:Snoop,easy,easy,easy",
                                   NIL_TUI_SNOOP_OUT=str(out)))
    assert code == 0, err
    if not sandboxed(tmp_path):
        pytest.skip("this system refuses plugins their namespaces (see the fallback's test)")
    found = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(found) == 2  # one look per game
    for look in found:
        assert SEED not in look["parent"] and "simulate" not in look["parent"]
        assert look["processes"], "it sees at least its host"
        for pid, seen in look["processes"].items():
            assert SEED not in seen["cmdline"] and "simulate" not in seen["cmdline"], (pid, seen)
            assert "nil_tui.bots.host" in seen["cmdline"], (pid, seen)  # only its own host
    assert [line for line in log_lines(tmp_path) if "nil-tui:" in line] == []


def test_where_namespaces_are_refused_the_log_says_so_once_and_plugins_still_play(
        tmp_path: Path) -> None:
    out = tmp_path / "snoop.jsonl"
    code, text, err = finish(simulate(
        tmp_path, "--seed", SEED, "--games", "4", "--deals", "1", "--jobs", "2",
        "--bots", "nil_snoop:Snoop,easy,nil_snoop:Snoop,easy", sandbox=False,
        NIL_TUI_SNOOP_OUT=str(out)))
    assert code == 0, err
    assert "4 games" in text
    said = [line for line in log_lines(tmp_path) if REFUSED in line]
    assert len(said) == 1 and f"turned off by {SANDBOX_ENV}" in said[0], said
    found = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(found) == 8  # it played every game, in both seats
    if os.geteuid() != 0:  # (root reads any memory) the game's process is not dumpable
        for look in found:
            for seen in look["processes"].values():
                if "simulate" in seen["cmdline"]:
                    assert seen["memory"] != "read", seen


def test_the_game_process_is_not_dumpable_once_a_plugin_plays() -> None:
    from nil_tui.util.processes import dumpable

    if dumpable() is None:
        pytest.skip("not Linux")
    open_player("nil_hostile:Trivial", 1).close()
    assert dumpable() is False


# --- what a plugin forks ----------------------------------------------------------------------
def _play_one_deal(spec: str, seed: int = 3, time_cap: float | None = 20.0) -> Game:
    players = [open_player(s, seat_seed(seed, k), time_cap=time_cap)
               for k, s in enumerate([spec, "easy", "easy", "easy"])]
    game = Game(deals_planned=1, seed=seed)
    try:
        while not game.deal.is_over:
            seat = game.deal.to_move
            assert seat is not None
            choice = players[seat].decide(game.deal.view(seat))
            if choice.incident is not None:
                game.record_incident(seat, choice.card, choice.incident)
            game.play(choice.card)
    finally:
        for player in players:
            player.close()
    return game


def _written(path: Path) -> bool:
    return path.exists() and path.read_text().endswith("\n")


def _marks(path: Path) -> list[str]:
    """The marks written whole so far (a child may be writing the next one)."""
    return path.read_text().split("\n")[:-1]


@pytest.mark.parametrize("sandbox", [True, False], ids=["namespaces", "fallback"])
def test_a_child_that_left_the_session_ends_with_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sandbox: bool) -> None:
    out = tmp_path / "forker.txt"
    monkeypatch.setenv("NIL_TUI_FORKER_OUT", str(out))
    if sandbox:
        monkeypatch.delenv(SANDBOX_ENV, raising=False)
    else:
        monkeypatch.setenv(SANDBOX_ENV, "off")
    game = _play_one_deal("nil_hostile:Forker")
    assert game.deal.is_over and game.incidents == []
    assert nil_procs.wait_for(lambda: _written(out), 10.0)
    mark = out.read_text().split()[0]
    # the game is over (its players closed, the plugin's host kept for the next game)
    assert nil_procs.wait_for(lambda: not nil_marks.alive(mark), 10.0), \
        "the plugin's child outlived the game"


@pytest.mark.parametrize("sandbox", [True, False], ids=["namespaces", "fallback"])
def test_a_child_that_left_the_session_ends_when_simulate_is_killed(
        tmp_path: Path, sandbox: bool) -> None:
    out = tmp_path / "forker.txt"
    tag = nil_procs.new_tag()
    proc = simulate(tmp_path, "--games", "400", "--deals", "8", "--bots",
                    "nil_hostile:Forker,easy,easy,easy", sandbox=sandbox, tag=tag,
                    NIL_TUI_FORKER_OUT=str(out))
    try:
        assert nil_procs.wait_for(lambda: _written(out), 60.0)
        # Each game's plugin forks its own child at its first card, and that child ends with
        # its game: on a busy machine the first game may be over before its mark is looked
        # at. Some child is alive while the games go on.
        live: list[str] = []

        def a_child_lives() -> bool:
            live[:] = [m for m in _marks(out) if nil_marks.alive(m)]
            return bool(live)

        assert nil_procs.wait_for(a_child_lives, 30.0)
        seen = nil_procs.tagged(tag)
        proc.send_signal(signal.SIGKILL)
        left = nil_procs.all_gone(tag, seen, 10.0)
        assert not left and not any(nil_marks.alive(m) for m in _marks(out)), left
    finally:
        finish(proc, 10.0)


# --- an import that never ends ----------------------------------------------------------------
@pytest.mark.parametrize("sandbox", [True, False], ids=["namespaces", "fallback"])
@pytest.mark.slow
def test_an_import_that_never_ends_is_given_up_after_10_s_with_a_notice_first(
        tmp_path: Path, sandbox: bool) -> None:
    tag = nil_procs.new_tag()
    proc = simulate(tmp_path, "--games", "1", "--bots", "nil_sleepy:Bot,easy,easy,easy",
                    sandbox=sandbox, tag=tag)
    code, text, err = finish(proc, 100.0)  # the import sleeps for 120 s
    lines = err.strip().splitlines()
    assert code == 2 and text == ""
    assert lines[0] == "nil-tui simulate: starting plugin nil_sleepy:Bot..."
    assert lines[-1].startswith("nil-tui simulate: error: --bots: bot 'nil_sleepy:Bot' could "
                                "not be started (it did not answer within 10 s)"), lines
    assert not nil_procs.all_gone(tag, set(), 10.0)


@pytest.mark.slow
def test_the_notice_comes_once_for_a_slow_plugin_and_the_match_is_played(
        tmp_path: Path) -> None:
    code, text, err = finish(simulate(tmp_path, "--games", "2", "--jobs", "2", "--bots",
                                      "nil_sleepy:Bot,easy,nil_sleepy:Bot,normal",
                                      NIL_TUI_SLEEPY_SECONDS="3"))
    assert code == 0 and "2 games" in text
    assert err.splitlines() == ["nil-tui simulate: starting plugin nil_sleepy:Bot..."]


# --- a plugin that keeps hanging ---------------------------------------------------------------
def test_after_its_first_hang_a_plugin_has_1_s_and_after_a_second_it_is_out_of_the_game(
        ) -> None:
    game = _play_one_deal("nil_hostile:EveryOtherHanger", time_cap=3.0)
    texts = [str(i["reason"]) for i in game.incidents if i["seat"] == 0]
    assert len(texts) >= 3, texts  # the first decision answered, then only hangs
    assert "took longer than 3 s and was stopped" in texts[0]
    assert "it has 1 s per card for the rest of this game" in texts[0]
    assert "took longer than 1 s again and was stopped" in texts[1]
    assert "its lowest legal card will be for the rest of this game" in texts[1]
    assert all("is out of this game (it took longer than 1 s twice)" in t for t in texts[2:])
    assert all(len(t) <= 300 for t in texts)


@pytest.mark.slow
def test_the_short_cap_lasts_one_game() -> None:
    first = _play_one_deal("nil_hostile:EveryOtherHanger", time_cap=2.0)
    second = _play_one_deal("nil_hostile:EveryOtherHanger", time_cap=2.0)
    for game in (first, second):
        texts: list[Any] = [i["reason"] for i in game.incidents if i["seat"] == 0]
        assert "took longer than 2 s and was stopped" in texts[0]


@pytest.mark.slow
def test_play_says_it_is_starting_a_plugin_and_gives_up_on_an_endless_import(
        tmp_path: Path) -> None:
    env = dict(os.environ, NIL_TUI_HOME=str(tmp_path / "home"), PYTHONPATH=str(PLUGINS))
    result = subprocess.run([sys.executable, "-m", "nil_tui", "play", "--bots",
                             "W=nil_sleepy:Bot"], env=env, capture_output=True, text=True,
                            timeout=100, stdin=subprocess.DEVNULL, check=False)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and lines[0] == "nil-tui play: starting plugin nil_sleepy:Bot..."
    assert "did not answer within 10 s" in lines[-1] and len(lines) == 2, lines


def test_the_notice_is_for_the_thread_that_asked_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The app opens plugins in a worker thread and shows the notice there; another thread
    (another game) opening a slow plugin meanwhile gives it no notice."""
    import threading

    from nil_tui.bots.players import set_start_notice

    monkeypatch.setenv("NIL_TUI_SLEEPY_SECONDS", "3")
    heard: list[tuple[str, str]] = []

    def open_slow(name: str, listen: bool) -> None:
        if listen:
            set_start_notice(lambda text: heard.append((name, text)))
        try:
            open_player("nil_sleepy:Bot", 1).close()
        finally:
            set_start_notice(None)

    threads = [threading.Thread(target=open_slow, args=(name, name == "a")) for name in "ab"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert heard == [("a", "starting plugin nil_sleepy:Bot...")]
