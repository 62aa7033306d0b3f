"""End to end: the terminal goes away under a running game (a closed window, a dropped ssh
session) or the app is told to stop, and the process ends by itself with the game kept.

The app runs on a real pseudo-terminal. "hangup" makes the pty the app's controlling terminal
and closes its master side (SIGHUP, then write errors and end of input); "no-ctty" closes a
pty that is only the app's standard streams (no signal: the app must notice on its own).
A browser tab (``nil-tui serve``) ends the same way: the app runs under Textual's web driver
with pipes for its packets, and the server's "quit" (the tab closed or reloaded), the end of
its input (the server gone) or SIGTERM save the game and end it.
The limits are generous on purpose (a loaded machine); ``benchmarks/hangup.py`` measures the
real figures."""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")

PLUGINS = Path(__file__).parent / "plugins"  # nil_ponder: a bot that thinks for seconds
LIMIT = 10.0  # seconds the process may take to end (the target, measured elsewhere, is 2)
REACH = 60.0  # seconds to bring the game to a moment


class Terminal:
    """``nil-tui ARGS`` on a 100x32 pty, its output drained by a thread."""

    def __init__(self, home: Path, *args: str, controlling: bool = True) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
        env = dict(os.environ, TERM="xterm-256color", NIL_TUI_HOME=str(home),
                   COLUMNS="100", LINES="32", PYTHONPATH=str(PLUGINS),
                   NIL_TUI_PONDER_SECONDS="30")  # longer than LIMIT: the app may not wait
        env.pop("TEXTUAL", None)

        def take_terminal() -> None:  # in the child, a new session leader
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.proc = subprocess.Popen(
            [sys.executable, "-m", "nil_tui", *args], stdin=slave, stdout=slave,
            stderr=slave, env=env, start_new_session=True, close_fds=True,
            preexec_fn=take_terminal if controlling else None)  # noqa: PLW1509
        os.close(slave)
        self.master: int | None = master
        self.output = ""
        self.received = 0
        self._seen = 0
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._reader = threading.Thread(target=self._drain, args=(master,), daemon=True)
        self._reader.start()

    def _drain(self, fd: int) -> None:
        # Waits for output with select, never parked in a read: a read in progress holds the
        # pty's master open after close() (the kernel keeps the file until the read returns),
        # and the app, quiet at that moment, would never see its terminal go.
        while not self._closing.is_set():
            try:
                ready, _, _ = select.select([fd], [], [], 0.05)
                chunk = os.read(fd, 65536) if ready else None
            except OSError:
                return
            if chunk is None:
                continue
            if not chunk:
                return
            with self._lock:
                text = chunk.decode("utf-8", "replace")
                self.received += len(text)
                self.output = (self.output + text)[-100_000:]

    def recent(self, since: int) -> str:
        with self._lock:
            return self.output[-(self.received - since + 40):]

    def press(self, keys: bytes = b"\r") -> None:
        if self.master is not None:
            os.write(self.master, keys)

    def wait_for(self, text: str, enter_on: tuple[str, ...] = ()) -> None:
        """Until ``text`` is drawn (since the last wait); Enter whenever one of ``enter_on``
        is drawn."""
        deadline = time.monotonic() + REACH
        seen = self._seen
        while time.monotonic() < deadline:
            new = self.recent(seen)
            seen = self._seen = self.received
            if text in new:
                return
            if any(word in new for word in enter_on):
                self.press()
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never came; screen ends with {self.output[-800:]!r}")

    def quiet_for(self, seconds: float) -> bool:
        """Until nothing has been drawn for ``seconds`` (False if that never happens)."""
        deadline = time.monotonic() + REACH
        while time.monotonic() < deadline:
            before = self.received
            time.sleep(seconds)
            if self.received == before:
                return True
        return False

    def close(self) -> None:
        """The terminal goes away (the last reference to its master side is closed)."""
        if self.master is not None:
            self._closing.set()
            self._reader.join(5)
            os.close(self.master)
            self.master = None

    def ended_within(self, limit: float) -> int | None:
        try:
            return self.proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.close()


def kept(home: Path) -> tuple[bool, bool]:
    """(a saved game, a finished game in history) in the store."""
    from nil_tui.store import Store

    store = Store.open(home)
    try:
        return store.load_current() is not None, bool(store.history())
    finally:
        store.close()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


def close_and_check(term: Terminal, how: Callable[[], None]) -> int:
    try:
        how()
        code = term.ended_within(LIMIT)
    finally:
        term.kill()
    assert code is not None, "the app outlived its terminal"
    return code


def test_closed_at_the_first_frame(home: Path) -> None:
    term = Terminal(home, "play", "--seed", "3", "--deals", "1")
    deadline = time.monotonic() + REACH
    while term.received < 2000 and time.monotonic() < deadline:  # a frame, not only set-up
        time.sleep(0.01)
    code = close_and_check(term, term.close)
    assert code == 129


@pytest.mark.parametrize("controlling", [True, False], ids=["hangup", "no-ctty"])
@pytest.mark.slow
def test_closed_while_a_bot_thinks(home: Path, controlling: bool) -> None:
    """A bot may think for seconds: the app neither waits for it nor loses the game."""
    term = Terminal(home, "play", "--seed", "11", "--deals", "1", "--difficulty",
                    "nil_ponder:Bot", "--speed", "normal", controlling=controlling)
    term.wait_for("is thinking", enter_on=("Your turn",))
    code = close_and_check(term, term.close)
    assert code == 129
    assert kept(home) == (True, False)


@pytest.mark.slow
def test_terminated_while_a_bot_thinks(home: Path) -> None:
    term = Terminal(home, "play", "--seed", "11", "--deals", "1", "--difficulty",
                    "nil_ponder:Bot")
    term.wait_for("is thinking", enter_on=("Your turn",))
    code = close_and_check(term, lambda: term.proc.send_signal(signal.SIGTERM))
    assert code == 128 + signal.SIGTERM
    assert kept(home) == (True, False)
    assert "Traceback" not in term.output


def test_closed_at_game_over(home: Path) -> None:
    term = Terminal(home, "play", "--seed", "4", "--deals", "1", "--difficulty", "easy",
                    "--speed", "instant")
    term.wait_for("Game over", enter_on=("Your turn", "is over", "any key"))
    code = close_and_check(term, term.close)
    assert code == 129
    assert kept(home) == (False, True)


@pytest.mark.parametrize("controlling", [True, False], ids=["hangup", "no-ctty"])
def test_closed_while_the_app_waits_for_you(home: Path, controlling: bool) -> None:
    """Your turn, nothing moving on screen: the app writes nothing, and still notices its
    terminal go (without a hang-up signal too) and keeps the game."""
    term = Terminal(home, "play", "--seed", "6", "--deals", "1", "--no-auto-play",
                    "--speed", "instant", controlling=controlling)
    term.wait_for("Your turn")
    assert term.quiet_for(0.5)  # nothing drawn for half a second
    code = close_and_check(term, term.close)
    assert code == 129
    assert kept(home) == (True, False)


# --- a browser tab (nil-tui serve): Textual's web driver, packets on pipes ----------------------
class WebTab:
    """``nil-tui ARGS`` as ``nil-tui serve`` runs it for a tab: Textual's web driver, no
    terminal, its screen and input as packets on standard output and input."""

    def __init__(self, home: Path, *args: str) -> None:
        env = dict(os.environ, NIL_TUI_HOME=str(home), COLUMNS="100", ROWS="32",
                   TEXTUAL_DRIVER="textual.drivers.web_driver:WebDriver")
        env.pop("TEXTUAL", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "nil_tui", *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, start_new_session=True)
        self.output = ""
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        stream = self.proc.stdout
        if stream.readline() != b"__GANGLION__\n":
            return
        while True:
            head = stream.read(5)
            if len(head) < 5:
                return
            payload = stream.read(int.from_bytes(head[1:], "big"))
            if head[:1] == b"D":
                with self._lock:
                    self.output = (self.output + payload.decode("utf-8", "replace"))[-100_000:]

    def _packet(self, kind: bytes, payload: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(kind + len(payload).to_bytes(4, "big") + payload)
        self.proc.stdin.flush()

    def press(self, keys: bytes = b"\r") -> None:
        self._packet(b"D", keys)

    def quit(self) -> None:
        """What the server says when the tab is closed or reloaded."""
        self._packet(b"M", b'{"type": "quit"}')

    def wait_for(self, text: str) -> None:
        deadline = time.monotonic() + REACH
        while time.monotonic() < deadline and self.proc.poll() is None:
            with self._lock:
                if text in self.output:
                    self.output = ""
                    return
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never came; screen ends with {self.output[-800:]!r}")

    def ended_within(self, limit: float) -> int | None:
        try:
            return self.proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
            return None


@pytest.fixture
def tab(home: Path):  # type: ignore[no-untyped-def]
    tab = WebTab(home, "play", "--seed", "6", "--deals", "1", "--no-auto-play", "--speed",
                 "instant", "--difficulty", "easy")
    tab.wait_for("Your turn")
    tab.press()  # play a card: the game is saved from here
    tab.wait_for("Your turn")
    yield tab
    if tab.proc.poll() is None:
        tab.proc.kill()
        tab.proc.wait(timeout=10)


def test_a_closed_browser_tab_saves_the_game_and_ends(home: Path, tab: WebTab) -> None:
    tab.quit()
    assert tab.ended_within(LIMIT) == 129
    assert kept(home) == (True, False)
    assert tab.proc.stderr is not None and b"Traceback" not in tab.proc.stderr.read()


def test_a_browser_tab_whose_server_went_away_saves_the_game_and_ends(home: Path,
                                                                      tab: WebTab) -> None:
    assert tab.proc.stdin is not None
    tab.proc.stdin.close()  # the end of input: nobody sends keys any more
    assert tab.ended_within(LIMIT) == 129
    assert kept(home) == (True, False)


def test_a_browser_tab_terminated_saves_the_game(home: Path, tab: WebTab) -> None:
    """The web driver answers SIGTERM with a plain exit; here it saves first, as in a
    terminal."""
    tab.proc.send_signal(signal.SIGTERM)
    assert tab.ended_within(LIMIT) == 128 + signal.SIGTERM
    assert kept(home) == (True, False)
