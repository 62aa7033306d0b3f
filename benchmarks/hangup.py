"""Closing the terminal under a running game: does the app always end, and keep the game?

Each close starts ``nil-tui play --seed S --deals 1`` on a real pseudo-terminal (100x32, a
fresh NIL_TUI_HOME), drives it with Enter to one moment of a game, and closes the terminal
there, at a random instant:

    first-frame    in the first 0.8 s after start (before, during or just after the first
                   frame)
    bot-playing    while a bot is thinking
    trick-pause    while a finished trick stays on the table
    deal-summary   on the deal's summary
    game-over      during the game-over animation

The terminal goes away in one of three ways: ``hangup`` (the pty is the app's controlling
terminal and its master is closed: SIGHUP, then EIO and EOF), ``no-ctty`` (the master is
closed but the pty is not the controlling terminal: no signal, only EIO and EOF) and
``tmux`` (``tmux kill-session`` on a tmux server of its own; left out when tmux is missing).
A fourth, ``web-tab``, is a browser tab of ``nil-tui serve`` closed: the app runs under
Textual's web driver with pipes for its packets, and gets the server's "quit" (SIGTERM if
it has drawn nothing yet, as the server does).

Printed: how many processes outlived 2 s after the close (the target is 0), the slowest
exits, the exit statuses (129 after a hang-up; -1 when SIGHUP came before the app had started;
none for tmux, whose server is the parent), the closes taken for a crash (target 0), and how
many closes left the game in the store (as the saved game, or in history when it had ended),
out of those made once the table was drawn.

    python benchmarks/hangup.py [--closes 50] [--seed 1] [--ways web-tab]
"""

from __future__ import annotations

import argparse
import collections
import fcntl
import os
import pty
import random
import select
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
from dataclasses import dataclass, field

MOMENTS = ("first-frame", "bot-playing", "trick-pause", "deal-summary", "game-over")
LIMIT = 2.0  # seconds a process may live after its terminal is closed
REACH = 90.0  # seconds to reach a moment before closing anyway
ROWS, COLS = 32, 100
MARKERS = {  # text on screen that says the moment has come
    "bot-playing": "is thinking",
    "trick-pause": "the trick",
    "deal-summary": "is over",
    "game-over": "Game over",
}
TABLE = "North"  # the table is drawn


def app_command(seed: int, speed: str, level: str | None = None) -> list[str]:
    return [sys.executable, "-m", "nil_tui", "play", "--seed", str(seed), "--deals", "1",
            "--speed", speed, *(["--difficulty", level] if level else [])]


def app_env(home: str) -> dict[str, str]:
    env = dict(os.environ, TERM="xterm-256color", NIL_TUI_HOME=home, COLUMNS=str(COLS),
               LINES=str(ROWS))
    env.pop("TEXTUAL", None)
    return env


class PtyRun:
    """The app on a pty of this process: its controlling terminal (``ctty``) or merely its
    standard streams."""

    def __init__(self, argv: list[str], env: dict[str, str], ctty: bool) -> None:
        self.screen = ""
        self.received = 0  # characters drawn so far
        if ctty:
            pid, master = pty.fork()
            if pid == 0:  # the child becomes the app
                try:
                    os.execvpe(argv[0], argv, env)
                finally:
                    os._exit(127)
            self.pid = pid
        else:
            master, slave = os.openpty()
            proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                                    start_new_session=True, close_fds=True)
            os.close(slave)
            self.pid = proc.pid
            self._proc = proc
        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        self.master: int | None = master
        self.status: int | None = None

    def pump(self, seconds: float) -> None:
        """Read what the app draws for ``seconds``."""
        end = time.monotonic() + seconds
        while self.master is not None:
            left = end - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                time.sleep(left)
                return
            text = chunk.decode("utf-8", "replace")
            self.received += len(text)
            self.screen = (self.screen + text)[-200_000:]

    def press_enter(self) -> None:
        if self.master is not None:
            try:
                os.write(self.master, b"\r")
            except OSError:
                pass

    def close(self) -> None:
        if self.master is not None:
            os.close(self.master)
            self.master = None

    def gone(self) -> bool:
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
        return self.status is not None

    def kill(self) -> None:
        if not self.gone():
            os.kill(self.pid, signal.SIGKILL)
            _, status = os.waitpid(self.pid, 0)
            self.status = os.waitstatus_to_exitcode(status)


class TmuxRun:
    """The app in a window of a tmux server of its own; closed with ``kill-session``."""

    def __init__(self, argv: list[str], env: dict[str, str], name: str) -> None:
        self.socket = name
        self.screen = ""
        self.received = 0
        self.status: int | None = None
        inner = " ".join(shlex.quote(a) for a in argv)
        assignments = " ".join(f"{k}={shlex.quote(env[k])}" for k in
                               ("TERM", "NIL_TUI_HOME", "COLUMNS", "LINES"))
        self._tmux("new-session", "-d", "-x", str(COLS), "-y", str(ROWS),
                   f"exec env {assignments} {inner}")
        self.pid = int(self._tmux("display-message", "-p", "-t", "0", "#{pane_pid}").strip())

    def _tmux(self, *args: str) -> str:
        result = subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args],
                                capture_output=True, text=True, timeout=10, check=False)
        return result.stdout

    def pump(self, seconds: float) -> None:
        time.sleep(seconds)
        screen = self._tmux("capture-pane", "-p", "-t", "0")
        if screen != self.screen:
            self.received += len(screen)
            self.screen = screen

    def press_enter(self) -> None:
        self._tmux("send-keys", "-t", "0", "Enter")

    def close(self) -> None:
        self._tmux("kill-session", "-t", "0")

    def gone(self) -> bool:
        try:
            with open(f"/proc/{self.pid}/stat", encoding="ascii") as fh:
                state = fh.read().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return True
        return state in ("Z", "X")

    def kill(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
        except OSError:
            pass
        self._tmux("kill-server")


class WebRun:
    """The app as ``nil-tui serve`` runs it for a browser tab (Textual's web driver, packets
    on pipes); closed as the server does when the tab goes: a "quit" packet."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        env = dict(env, TEXTUAL_DRIVER="textual.drivers.web_driver:WebDriver",
                   ROWS=str(ROWS))
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env,
                                     start_new_session=True)
        self.pid = self.proc.pid
        self.screen = ""
        self.received = 0
        self.status: int | None = None
        self._buffer = b""
        self._started = False
        assert self.proc.stdout is not None
        os.set_blocking(self.proc.stdout.fileno(), False)

    def pump(self, seconds: float) -> None:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                time.sleep(max(0.0, end - time.monotonic()))
                return
            self._buffer += chunk
            if not self._started:
                if b"__GANGLION__\n" not in self._buffer:
                    continue
                self._buffer = self._buffer.split(b"__GANGLION__\n", 1)[1]
                self._started = True
            while len(self._buffer) >= 5:
                size = int.from_bytes(self._buffer[1:5], "big")
                if len(self._buffer) < 5 + size:
                    break
                kind, payload = self._buffer[:1], self._buffer[5:5 + size]
                self._buffer = self._buffer[5 + size:]
                if kind == b"D":
                    text = payload.decode("utf-8", "replace")
                    self.received += len(text)
                    self.screen = (self.screen + text)[-200_000:]

    def _packet(self, kind: bytes, payload: bytes) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(kind + len(payload).to_bytes(4, "big") + payload)
            self.proc.stdin.flush()
        except (OSError, ValueError):
            pass

    def press_enter(self) -> None:
        self._packet(b"D", b"\r")

    def close(self) -> None:
        """As the server does: "quit"; SIGTERM instead to an app that has drawn nothing yet
        (it reads no input before it draws)."""
        if self.received:
            self._packet(b"M", b'{"type": "quit"}')
        else:
            self.proc.send_signal(signal.SIGTERM)

    def gone(self) -> bool:
        if self.status is None and self.proc.poll() is not None:
            self.status = self.proc.returncode
        # The server keeps reading what a closing app writes.
        if self.status is None:
            self.pump(0.005)
        return self.status is not None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        self.status = self.proc.returncode


@dataclass
class Close:
    moment: str
    way: str
    speed: str
    reached: bool = False
    table: bool = False
    took: float | None = None  # seconds from the close until the process was gone
    status: int | None = None
    kept: bool = False
    notes: list[str] = field(default_factory=list)


def drive(run: PtyRun | TmuxRun | WebRun, moment: str, rng: random.Random) -> bool:
    """Bring the game to ``moment``; False when it did not come in time."""
    if moment == "first-frame":
        run.pump(rng.uniform(0.0, 0.8))
        return True
    marker = MARKERS[moment]
    # Enter when the game waits for the player: their turn, a trick on show, the summary;
    # or when the screen has been still for a while (nothing is moving: it is their turn).
    waiting = ("Your turn", "any key", "is over") if moment == "game-over" else (
        "Your turn", "any key") if moment == "deal-summary" else ("Your turn",)
    deadline = time.monotonic() + REACH
    still_since = time.monotonic()
    while time.monotonic() < deadline:
        before = run.received
        run.pump(0.1)
        drawn = run.received - before
        new = run.screen if isinstance(run, TmuxRun) else run.screen[-(drawn + 40):]
        if drawn:
            still_since = time.monotonic()
        if marker in new:
            run.pump(rng.uniform(0.0, 1.0 if moment == "game-over" else 0.4))
            return True
        if any(word in new for word in waiting) or time.monotonic() - still_since > 0.5:
            run.press_enter()
            still_since = time.monotonic()
        if run.gone():
            return False
    return False


def kept(home: str) -> bool:
    """The game is in the store: saved, or in history."""
    from nil_tui.store import Store

    store = Store.open(home)
    try:
        return store.load_current() is not None or bool(store.history())
    finally:
        store.close()


def one_close(index: int, moment: str, way: str, rng: random.Random, seed: int) -> Close:
    late = moment in ("deal-summary", "game-over")  # reached sooner against easy bots
    speed = rng.choice(("fast", "normal"))
    close = Close(moment, way, speed)
    home = tempfile.mkdtemp(prefix="nil-tui-hangup-")
    argv, env = app_command(seed + index, speed, "easy" if late else None), app_env(home)
    run: PtyRun | TmuxRun | WebRun
    if way == "tmux":
        run = TmuxRun(argv, env, f"nil-tui-hangup-{os.getpid()}-{index}")
    elif way == "web-tab":
        run = WebRun(argv, env)
    else:
        run = PtyRun(argv, env, ctty=way == "hangup")
    try:
        close.reached = drive(run, moment, rng)
        close.table = TABLE in run.screen
        if run.gone():
            close.notes.append("ended before the close")
        closed_at = time.monotonic()
        run.close()
        while time.monotonic() - closed_at < LIMIT * 5:
            if run.gone():
                close.took = time.monotonic() - closed_at
                break
            time.sleep(0.01)
        close.status = run.status
    finally:
        run.kill()
        if isinstance(run, TmuxRun):
            run.kill()
    close.kept = kept(home)
    for report in sorted(os.listdir(home)):
        if report.startswith("crash-"):  # a close must never look like a crash: keep it
            kept_at = os.path.join(tempfile.gettempdir(), f"hangup-{index + 1}-{report}")
            shutil.copyfile(os.path.join(home, report), kept_at)
            close.notes.append(f"crash report {kept_at}")
    shutil.rmtree(home, ignore_errors=True)
    return close


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--closes", type=int, default=50, help="terminals to close")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random moments")
    parser.add_argument("--ways", default=None, metavar="W,W",
                        help="only these ways of closing (hangup, no-ctty, tmux, web-tab)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    ways = ["hangup", "no-ctty"] + (["tmux"] if shutil.which("tmux") else []) + ["web-tab"]
    if args.ways:
        ways = [w for w in ways if w in args.ways.split(",")]
    closes: list[Close] = []
    for i in range(args.closes):
        moment, way = MOMENTS[i % len(MOMENTS)], ways[(i // len(MOMENTS)) % len(ways)]
        close = one_close(i, moment, way, rng, args.seed * 1000)
        closes.append(close)
        took = "still running" if close.took is None else f"{close.took * 1000:6.0f} ms"
        print(f"{i + 1:3d} {moment:12s} {way:8s} {close.speed:6s} "
              f"{'reached' if close.reached else 'NOT REACHED':11s} gone after {took:>13s}  "
              f"status {close.status}  {'kept' if close.kept else 'not kept'}"
              f"{'  ' + '; '.join(close.notes) if close.notes else ''}", flush=True)
    survivors = [c for c in closes if c.took is None or c.took > LIMIT]
    times = sorted(c.took for c in closes if c.took is not None)
    with_table = [c for c in closes if c.table]
    print()
    print(f"closes: {len(closes)} ({', '.join(ways)}); moments reached: "
          f"{sum(c.reached for c in closes)}")
    if times:
        print(f"time to exit: median {times[len(times) // 2] * 1000:.0f} ms, "
              f"slowest {times[-1] * 1000:.0f} ms")
    print("exit statuses: " + ", ".join(
        f"{k}: {v}" for k, v in sorted(collections.Counter(
            str(c.status) for c in closes).items())))
    print(f"game kept in the store: {sum(c.kept for c in with_table)} of {len(with_table)} "
          "closes made after the table was drawn")
    print(f"closes taken for a crash (status 1, a crash report): "
          f"{sum(c.status == 1 or any('crash' in n for n in c.notes) for c in closes)}")
    print(f"processes that outlived {LIMIT:.0f} s: {len(survivors)}   (target 0)")
    return 1 if survivors else 0


if __name__ == "__main__":
    raise SystemExit(main())
