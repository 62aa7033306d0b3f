"""The process a plugin bot runs in (``python -m nil_tui.bots.host``).

It imports the engine and the plugin, nothing of the game. For every game the game asks
for ("new"), a fresh process is forked from this one to build the bot and answer its
decisions, and it ends with the game, so nothing a bot keeps in memory outlives its game. Without
``os.fork`` the host serves one game and exits.

The messages (see :mod:`nil_tui.bots.protocol`) travel on the host's standard input and on a
copy of its standard output; the plugin's own ``print`` and anything written to file
descriptor 1 go to standard error, which the game sends to a log file.
"""

from __future__ import annotations

import gc
import importlib
import os
import select
import sys
import time
from typing import IO, Any

from ..engine import Card
from . import protocol


class _Channel:
    """The message pipes, moved off file descriptors 0 and 1 so that a plugin reading
    stdin or printing cannot touch them."""

    def __init__(self) -> None:
        self.reader: IO[bytes] = os.fdopen(os.dup(0), "rb")
        self.writer: IO[bytes] = os.fdopen(os.dup(1), "wb")
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        os.dup2(2, 1)  # stray output of the plugin goes where stderr goes
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - for the process's life
        sys.stdout = sys.stderr

    def read(self) -> dict[str, Any] | None:
        """The next message, or None at the end (the game closed the pipe or broke it)."""
        line = self.reader.readline(protocol.MAX_LINE + 1)
        if not line:
            return None
        return protocol.load(line) or {"t": "garbage"}

    def write(self, message: dict[str, Any]) -> None:
        self.writer.write(protocol.dump(message))
        self.writer.flush()


def _load(target: str) -> tuple[str, object]:
    """("loaded", factory), or ("missing" | "broken", reason)."""
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if missing and (module_name == missing or module_name.startswith(missing + ".")):
            return "missing", f"no module named {missing!r}"
        return "broken", f"importing {module_name!r} failed ({protocol.describe_error(exc)})"
    except BaseException as exc:  # noqa: BLE001 - whatever the import does is reported
        return "broken", f"importing {module_name!r} failed ({protocol.describe_error(exc)})"
    obj: object = module
    try:
        for part in attr.split("."):
            obj = getattr(obj, part)
    except BaseException:  # noqa: BLE001
        return "broken", f"module {module_name!r} has no {attr!r}"
    if not callable(obj):
        return "broken", f"{attr!r} is not a class or factory"
    return "loaded", obj


def _play(channel: _Channel, factory: Any, seed: int, reuse: bool, default_name: str) -> None:
    """One game: build the bot, answer its decisions until "end" (or the pipe closes)."""
    try:
        bot = factory(seed=seed)
        choose = bot.choose
        if not callable(choose):
            raise TypeError("it has no choose(view) method")
    except BaseException as exc:  # noqa: BLE001 - a bot that cannot be built is reported
        channel.write({"t": "broken", "why": "creating the bot failed "
                       f"({protocol.describe_error(exc)})"})
        return
    try:
        raw_name = bot.name
    except BaseException:  # noqa: BLE001 - a name that cannot be read: the spec names it
        raw_name = None
    channel.write({"t": "ready", "name": protocol.safe_name(raw_name, default_name),
                   "reuse": reuse})
    while True:
        message = channel.read()
        if message is None or message["t"] != "decide":
            return
        n = message.get("n")
        try:
            view = protocol.decode_view(message["v"])
        except (KeyError, ValueError):
            return
        channel.write(_answer(choose, view, n))


def _answer(choose: Any, view: Any, n: object) -> dict[str, Any]:
    try:
        answer = choose(view)
    except BaseException as exc:  # noqa: BLE001 - SystemExit and friends included
        return {"t": "error", "n": n, "why": protocol.describe_error(exc)}
    try:
        if type(answer) is Card:
            return {"t": "card", "n": n, "i": int(answer.index)}
        if type(answer) is str:
            return {"t": "card", "n": n, "i": Card.parse(answer).index}
    except BaseException:  # noqa: BLE001, S110 - anything odd is described below
        pass
    return {"t": "bad", "n": n, "why": protocol.describe(answer)}


def _wait(pid: int, game_pid: int) -> None:
    """Wait for a game's process to end; if the game itself goes away meanwhile, end it and
    this host too (a hung bot must not outlive the game)."""
    pidfd: int | None = None
    if hasattr(os, "pidfd_open"):
        try:
            pidfd = os.pidfd_open(pid)
        except OSError:
            pidfd = None
    pause = 0.001
    while True:
        if pidfd is not None:
            select.select([pidfd], [], [], 1.0)
        else:
            time.sleep(pause)
            pause = min(pause * 2, 0.1)
        done, _status = os.waitpid(pid, os.WNOHANG)
        if done:
            if pidfd is not None:
                os.close(pidfd)
            return
        if os.getppid() != game_pid:
            os.kill(pid, 9)
            os._exit(0)


def main() -> None:
    channel = _Channel()
    game_pid = os.getppid()
    hello = channel.read()
    if hello is None or hello["t"] != "hello":
        return
    path = hello.get("path")
    if isinstance(path, list) and all(isinstance(p, str) for p in path):
        sys.path[:] = path
    target = str(hello.get("target", ""))
    status, loaded = _load(target)
    if status != "loaded":
        channel.write({"t": status, "why": str(loaded)})
        return
    channel.write({"t": "loaded"})
    default_name = target.partition(":")[2].rpartition(".")[2] or target
    fork = getattr(os, "fork", None)
    while True:
        message = channel.read()
        if message is None or message["t"] != "new":
            return
        seed = message.get("seed")
        seed = seed if type(seed) is int else 0
        if fork is None:
            _play(channel, loaded, seed, False, default_name)
            return
        sys.stdout.flush()
        sys.stderr.flush()
        gc.freeze()  # the game's process leaves the host's objects (and their pages) alone
        pid = fork()
        if pid == 0:  # the game's own process
            code = 0
            try:
                _play(channel, loaded, seed, True, default_name)
            except BaseException:  # noqa: BLE001 - the pipe broke: just end
                code = 1
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(code)
        _wait(pid, game_pid)
        channel.write({"t": "idle"})


if __name__ == "__main__":
    main()
