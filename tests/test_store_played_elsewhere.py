"""The saved game being played by another nil-tui is never "no saved game": a second
``nil-tui resume`` says where it is, with the first one running on a real terminal."""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from test_store_real_faults import ANSI, EASY, NO_GAME, make_store, partial, resume

from nil_tui.session.home import Home, Refused
from nil_tui.session.saving import Keeper
from nil_tui.store import PLAYED_ELSEWHERE, Store

ELSEWHERE = f"nil-tui resume: {PLAYED_ELSEWHERE}"


@pytest.fixture(autouse=True)
def short_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Store, "open_wait", 0.3)
    monkeypatch.setattr(Store, "busy_timeout", 0.05)


@contextmanager
def playing(home: Path, limit: float = 60.0) -> Iterator[None]:
    """``nil-tui resume`` on a 100x32 pseudo-terminal, its game on the table, until the block
    ends; then it is stopped."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
    env = dict(os.environ, TERM="xterm-256color", NIL_TUI_HOME=str(home), COLUMNS="100",
               LINES="32")
    env.pop("TEXTUAL", None)
    proc = subprocess.Popen([sys.executable, "-m", "nil_tui", "resume"], stdin=slave,
                            stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    raw = b""
    deadline = time.monotonic() + limit
    try:
        while "You (South)" not in ANSI.sub("", raw.decode("utf-8", "replace")):
            assert time.monotonic() < deadline and proc.poll() is None, raw[-2000:]
            if select.select([master], [], [], 0.1)[0]:
                raw += os.read(master, 65536)
        yield
    finally:
        proc.kill()
        proc.wait(timeout=10)
        os.close(master)


def test_a_second_resume_says_the_game_is_played_elsewhere(tmp_path: Path) -> None:
    home = tmp_path / "data"
    make_store(home, current=partial(1))
    with playing(home):
        done = resume(home)
        assert done.returncode == 1 and "Traceback" not in done.stderr
        assert NO_GAME not in done.stderr
        assert ELSEWHERE in done.stderr.strip().splitlines()
    done = resume(home)  # the first one quit: the game is here to be resumed
    assert done.returncode == 2 and "needs a terminal" in done.stderr, done.stderr


def test_a_game_played_in_a_second_slot_is_played_elsewhere_too(tmp_path: Path) -> None:
    home = tmp_path / "data"
    make_store(home, current=None)
    game = partial(2)
    main = Store.open(home)
    with Store.open(home) as second:
        assert second.is_secondary and second.save_current(game, EASY)
        main.close()  # the main one quits; a third comes while the second plays
        with Store.open(home) as third:
            assert not third.is_secondary and third.load_current() is None
            assert third.unreadable == PLAYED_ELSEWHERE
    with Store.open(home) as after:  # the second one quit: its game is adopted
        assert after.unreadable is None and after.load_current() == (game, EASY)


def test_no_saved_game_anywhere_is_still_no_saved_game(tmp_path: Path) -> None:
    home = tmp_path / "data"
    make_store(home, current=None)
    with Store.open(home) as main, Store.open(home) as second:
        assert main.unreadable is None and second.unreadable is None
        assert main.save_current(partial(3), EASY)
        assert main.unreadable is None  # its own game is no game elsewhere
        assert second.unreadable == PLAYED_ELSEWHERE


def test_resume_in_the_app_says_the_game_is_played_elsewhere(tmp_path: Path) -> None:
    home = tmp_path / "data"
    make_store(home, current=partial(4))
    from nil_tui.game.options import PlayOptions

    with Store.open(home) as main, Store.open(home) as second:
        assert main.load_current() is not None
        home_of_second = Home(Keeper(lambda: second, lambda problem, was: None), PlayOptions())
        step = home_of_second.resume()
        assert isinstance(step, Refused)
        assert [n.text for n in step.notices] == [PLAYED_ELSEWHERE]
