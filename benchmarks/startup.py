"""Time to a playable table: ``nil-tui play --seed 1`` until your hand is drawn, against a bare
Textual app's first frame (one line).

Each program runs in a pseudo-terminal (100x32); the clock stops when the text it waits for
reaches the terminal. Runs alternate so that machine noise hits both alike. Target: median
ratio at most 1.3.

Both programs load compiled modules, as an installed nil-tui does (pip compiles them): the
bytecode goes to a temporary folder, whatever PYTHONDONTWRITEBYTECODE says, and the warm-up
run fills it. ``--source`` compiles nil-tui's modules from source on every run instead (as an
editable install does with PYTHONDONTWRITEBYTECODE set: about 100 ms more).

``--returning`` runs each game in a data folder that already holds a player's settings (the
store is opened and read before the table), instead of an empty one (a first run).

``--instructions`` counts instead the instructions each program runs until its first frame
(valgrind's cachegrind; Debian's ``valgrind`` package). A busy machine moves the times above
by several per cent from run to run; the counts stay within a fraction of one. Each program
then runs through ``_first_frame.py``, which ends it the moment Textual writes the marker, so
the count stops at the first frame. The ratio of counts is not the ratio of times (starting a
process and writing to the terminal cost time but few instructions): it tells two versions of
the code apart, on any machine.

    python benchmarks/startup.py [--runs 10] [--source] [--returning] [--instructions]
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time

from _first_frame import BARE_APP  # (the same app for both measures)

# Drawn with your hand, in the same frame as its cards: the table is ready for keys.
HAND_MARKER = b"You (South)"
ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[a-zA-Z]")  # styles between the words of a line


def fresh_home(returning: bool) -> str:
    """A data folder of its own for one run: empty (a first run), or, for a returning
    player, with the settings an earlier game kept (and no saved game)."""
    home = tempfile.mkdtemp(prefix="nil-tui-bench-")
    if returning:
        from nil_tui.store import Store

        store = Store.open(home)
        store.save_settings({"deals": 8, "bots": ["normal"] * 3, "speed": "normal"})
        store.close()
    return home


def first_frame(argv: list[str], marker: bytes, env: dict[str, str],
                timeout: float = 30.0, returning: bool = False) -> float:
    """Seconds from spawning ``argv`` until ``marker`` appears on its terminal."""
    env = dict(env, NIL_TUI_HOME=fresh_home(returning))
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: become the program
        os.execvpe(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
    seen = b""
    try:
        while True:
            left = timeout - (time.perf_counter() - start)
            if left <= 0:
                raise TimeoutError(f"no first frame from {argv} in {timeout} s")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                raise RuntimeError(f"{argv} ended before drawing: {seen[-300:]!r}") from None
            seen += chunk
            if marker in ESCAPES.sub(b"", seen):
                return time.perf_counter() - start
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


# --- counted instructions (--instructions) ----------------------------------------------------
COUNTED = re.compile(r"I\s+refs:\s+([\d,]+)")
FIRST_FRAME = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_first_frame.py")


def instructions(program: list[str], marker: bytes, env: dict[str, str],
                 timeout: float = 300.0, returning: bool = False) -> int:
    """The instructions ``program`` runs (under valgrind, in a pseudo-terminal) until its
    first frame shows ``marker``."""
    with tempfile.TemporaryDirectory(prefix="nil-tui-bench-count-") as tmp:
        log = os.path.join(tmp, "cachegrind.log")
        argv = ["valgrind", "--tool=cachegrind", "--cache-sim=no",
                "--cachegrind-out-file=/dev/null", f"--log-file={log}", sys.executable,
                FIRST_FRAME, marker.decode(), *program]
        env = dict(env, NIL_TUI_HOME=fresh_home(returning), PYTHONHASHSEED="0")
        start = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:
            os.execvpe(argv[0], argv, env)
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
        try:
            while time.perf_counter() - start < timeout:
                ready, _, _ = select.select([fd], [], [], 1.0)
                if ready:
                    try:
                        if not os.read(fd, 65536):
                            break
                    except OSError:  # the program ended
                        break
                elif os.waitpid(pid, os.WNOHANG) != (0, 0):
                    pid = 0
                    break
            else:
                raise TimeoutError(f"no first frame from {program} in {timeout} s")
        finally:
            if pid:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                os.waitpid(pid, 0)
            os.close(fd)
        with open(log, encoding="utf-8") as f:
            found = COUNTED.search(f.read())
    if found is None:
        raise RuntimeError(f"{program}: valgrind counted nothing (see its log)")
    return int(found.group(1).replace(",", ""))


def count_instructions(env: dict[str, str], runs: int, returning: bool) -> int:
    if shutil.which("valgrind") is None:
        print("--instructions needs valgrind (Debian: apt install valgrind)", file=sys.stderr)
        return 2
    programs = {"bare Textual app": (["bare"], b"bare-app-ready"),
                "play: hand drawn": (["nil-tui", "play", "--seed", "1"], HAND_MARKER)}
    counts: dict[str, list[int]] = {name: [] for name in programs}
    for name, (program, marker) in programs.items():
        instructions(program, marker, env, returning=returning)  # (writes the bytecode)
        for _ in range(runs):
            counts[name].append(instructions(program, marker, env, returning=returning))
    for name, values in counts.items():
        print(f"{name:19s} {statistics.median(values) / 1e6:9.1f} million instructions "
              f"(runs: {', '.join(f'{v / 1e6:.1f}' for v in values)})")
    ratio = statistics.median(counts["play: hand drawn"]) / statistics.median(
        counts["bare Textual app"])
    print(f"playable table / bare app's first frame, in instructions: {ratio:.3f}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="runs of each program")
    parser.add_argument("--source", action="store_true",
                        help="leave PYTHONDONTWRITEBYTECODE as it is (no compiled modules)")
    parser.add_argument("--returning", action="store_true",
                        help="a data folder with settings kept, as a returning player has")
    parser.add_argument("--instructions", action="store_true",
                        help="count the instructions to each first frame (valgrind) instead "
                        "of timing it (at most 3 runs: the counts hardly vary)")
    args = parser.parse_args()
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="100", LINES="32")
    if not args.source:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="nil-tui-bench-bytecode-")
    if args.instructions:
        return count_instructions(env, max(1, min(args.runs, 3)), args.returning)
    # The command a player types (the installed script), else the module.
    script = os.path.join(os.path.dirname(sys.executable), "nil-tui")
    nil = ([script] if os.access(script, os.X_OK) else [sys.executable, "-m", "nil_tui"]) + [
        "play", "--seed", "1"]
    bare = [sys.executable, "-c", BARE_APP]
    # Warm the file cache for both before timing.
    first_frame(nil, HAND_MARKER, env, returning=args.returning)
    first_frame(bare, b"bare-app-ready", env)
    times: dict[str, list[float]] = {"bare Textual app": [], "play: hand drawn": []}
    for _ in range(args.runs):
        times["bare Textual app"].append(first_frame(bare, b"bare-app-ready", env))
        times["play: hand drawn"].append(first_frame(nil, HAND_MARKER, env,
                                                     returning=args.returning))
    for name, values in times.items():
        print(f"{name:19s} median {statistics.median(values) * 1000:7.1f} ms   "
              f"min {min(values) * 1000:7.1f} ms   max {max(values) * 1000:7.1f} ms")
    ratios = [a / b for a, b in zip(times["play: hand drawn"], times["bare Textual app"])]
    ratio = statistics.median(times["play: hand drawn"]) / statistics.median(
        times["bare Textual app"])
    print(f"playable table / bare app's first frame: ratio of medians {ratio:.2f}   "
          f"(per-pair median {statistics.median(ratios):.2f}; target at most 1.30)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
