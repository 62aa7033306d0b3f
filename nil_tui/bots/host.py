"""The process a plugin bot runs in (``python -m nil_tui.bots.host``).

It imports the engine and the plugin, nothing of the game. Every game gets a fresh process,
forked from this one, that builds the bot and answers its decisions, and ends with the game, so
nothing a bot keeps in memory outlives its game. The next game's process is forked while a game
runs (so the fork is not on the way of the game), and waits until the one before it has ended
before it reads anything. Without ``os.fork`` the host serves one game and exits.

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
from typing import Any

from ..engine import Card
from . import protocol

CLOSED = 87  # exit status of a game's process that found the game gone (the host ends too)


class _Channel:
    """The message pipes, moved off file descriptors 0 and 1 so that a plugin reading
    stdin or printing cannot touch them."""

    def __init__(self) -> None:
        self.rfd = os.dup(0)
        self.wfd = os.dup(1)
        self._buffer = b""
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        os.dup2(2, 1)  # stray output of the plugin goes where stderr goes
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - for the process's life
        sys.stdout = sys.stderr

    def read(self) -> bytes | None:
        """The next message, or None at the end (the game closed the pipe, broke it, or wrote
        something that is not a message)."""
        buffer = self._buffer
        try:
            if not buffer:  # the usual way: one read, one whole message
                buffer = os.read(self.rfd, 1 << 16)
                if len(buffer) > 4 and int.from_bytes(buffer[:4], "little") == len(buffer) - 4 \
                        <= protocol.MAX_MESSAGE:
                    return buffer[4:]
                if not buffer:
                    return None
            while True:
                body, rest = protocol.split(buffer)
                if body is not None:
                    self._buffer = rest
                    return body
                chunk = os.read(self.rfd, 1 << 16)
                if not chunk:
                    return None
                buffer += chunk
        except (OSError, ValueError):
            return None

    def write(self, data: bytes) -> None:
        done = os.write(self.wfd, data)
        if done < len(data):
            view = memoryview(data)[done:]
            while view:
                view = view[os.write(self.wfd, view):]


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


def _play(channel: _Channel, factory: Any, default_name: str) -> int:
    """One game: wait for "new", build the bot, answer its decisions until "end" (or the pipe
    closes). The exit status of the game's process."""
    message = channel.read()
    if message is None or message[:1] != protocol.NEW:
        return CLOSED
    seed = protocol.load(message).get("seed")
    seed = seed if type(seed) is int else 0
    try:
        bot = factory(seed=seed)
        choose = bot.choose
        if not callable(choose):
            raise TypeError("it has no choose(view) method")
    except BaseException as exc:  # noqa: BLE001 - a bot that cannot be built is reported
        channel.write(protocol.dump(protocol.BROKEN, {
            "why": f"creating the bot failed ({protocol.describe_error(exc)})"}))
        return 0
    try:
        raw_name = bot.name
    except BaseException:  # noqa: BLE001 - a name that cannot be read: the spec names it
        raw_name = None
    channel.write(protocol.dump(protocol.READY, {
        "name": protocol.safe_name(raw_name, default_name)}))
    decoder = protocol.Decoder()
    while True:
        message = channel.read()
        if message is None:
            return CLOSED
        if message[:1] != protocol.DECIDE:
            return 0
        try:
            n, view = decoder.decide(message)
        except ValueError:
            return 0
        channel.write(_answer(choose, view, n))


def _answer(choose: Any, view: Any, n: int) -> bytes:
    try:
        answer = choose(view)
    except BaseException as exc:  # noqa: BLE001 - SystemExit and friends included
        return protocol.answer_why(protocol.ERROR, n, protocol.describe_error(exc))
    try:
        if type(answer) is Card:
            return protocol.answer_card(n, int(answer.index))
        if type(answer) is str:
            return protocol.answer_card(n, Card.parse(answer).index)
    except BaseException:  # noqa: BLE001, S110 - anything odd is described below
        pass
    return protocol.answer_why(protocol.BAD, n, protocol.describe(answer))


def _wait(pid: int, game_pid: int, spare: int | None) -> int:
    """Wait for a game's process to end, and return its exit status; if the game itself goes
    away meanwhile, end it, the next one and this host too (a hung bot must not outlive the
    game)."""
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
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            if pidfd is not None:
                os.close(pidfd)
            return os.waitstatus_to_exitcode(status)
        if os.getppid() != game_pid:
            for doomed in (pid, spare):
                if doomed is not None:
                    os.kill(doomed, 9)
            os._exit(0)


def _fork_game(channel: _Channel, factory: Any, default_name: str,
               after: int | None) -> tuple[int, int]:
    """Fork the process of a coming game: (its pid, the read end of a pipe that reaches its
    end when the process has read its last message or has ended). It waits first until the
    pipe ``after`` of the process before it reaches its end, then says "idle" (unless it is
    the first) and plays."""
    gate_read, gate_write = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    gc.freeze()  # the game's process leaves the host's objects (and their pages) alone
    pid = os.fork()
    if pid == 0:  # the game's own process: it holds gate_write until it ends
        code = 0
        try:
            os.close(gate_read)
            if after is not None:
                while os.read(after, 64):
                    pass
                os.close(after)
                channel.write(protocol.dump(protocol.IDLE))
            code = _play(channel, factory, default_name)
            os.close(gate_write)  # it reads no more: the next one may (before this one ends)
        except BaseException:  # noqa: BLE001 - the pipe broke: just end
            code = CLOSED
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code)
    os.close(gate_write)
    if after is not None:
        os.close(after)
    return pid, gate_read


def main() -> None:
    channel = _Channel()
    game_pid = os.getppid()
    hello = channel.read()
    if hello is None or hello[:1] != protocol.HELLO:
        return
    message = protocol.load(hello)
    path = message.get("path")
    if isinstance(path, list) and all(isinstance(p, str) for p in path):
        sys.path[:] = path
    target = str(message.get("target", ""))
    status, loaded = _load(target)
    if status != "loaded":
        kind = protocol.MISSING if status == "missing" else protocol.BROKEN
        channel.write(protocol.dump(kind, {"why": str(loaded)}))
        return
    channel.write(protocol.dump(protocol.LOADED))
    default_name = target.partition(":")[2].rpartition(".")[2] or target
    if not hasattr(os, "fork"):
        _play(channel, loaded, default_name)
        return
    pid, gate = _fork_game(channel, loaded, default_name, None)
    while True:  # one game's process plays while the next one waits
        spare, next_gate = _fork_game(channel, loaded, default_name, gate)
        if _wait(pid, game_pid, spare) == CLOSED:
            _wait(spare, game_pid, None)  # it finds the game gone too
            return
        pid, gate = spare, next_gate


if __name__ == "__main__":
    main()
