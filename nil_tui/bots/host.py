"""The process a plugin bot runs in (``python -m nil_tui.bots.host``).

It imports the engine and the plugin, nothing of the game. Every game gets a fresh process,
forked from this one, that builds the bot and answers its decisions, and ends with the game, so
nothing a bot keeps in memory outlives its game. The next game's process is forked while a game
runs (so the fork is not on the way of the game), and waits until the one before it has ended
before it reads anything. Without ``os.fork`` the host serves one game and exits.

The messages (see :mod:`nil_tui.bots.plugin_wire`) travel on the host's standard input and on a
copy of its standard output; the plugin's own ``print`` and anything written to file
descriptor 1 go to standard error. The game names its log file (``plugins.log``); the
plugin's standard error is a pipe that the warden below copies there, never past the log's
limit (:mod:`nil_tui.bots.pluginlog`), however much the plugin writes.

Two processes make the host. The first (the *warden*) runs only this module's code: it puts
the second in a user and PID namespace of its own where Linux allows it (so that the
plugin's processes see only each other, with a ``/proc`` of their own, and all die with the
namespace), watches the game and ends everything as soon as the game or the second process
is gone. The second imports the plugin and forks the games' processes; after each game it
ends whatever that game's process left behind (a child that called ``setsid()`` included).
Where the system refuses the namespaces, the host says why in its first answer, and the
warden still ends every process below it (it is their subreaper), unless it is killed
first.
"""

from __future__ import annotations

import gc
import importlib
import os
import select
import signal
import sys
import time
from typing import Any

from ..engine import Card
from ..util import processes
from . import plugin_wire
from .pluginlog import Log

CLOSED = 87  # exit status of a game's process that found the game gone (the host ends too)
SANDBOX_ENV = "NIL_TUI_PLUGIN_SANDBOX"  # "off": no namespaces (the fallback, on purpose)


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
                        <= plugin_wire.MAX_MESSAGE:
                    return buffer[4:]
                if not buffer:
                    return None
            while True:
                body, rest = plugin_wire.split(buffer)
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
        return "broken", f"importing {module_name!r} failed ({plugin_wire.describe_error(exc)})"
    except BaseException as exc:  # noqa: BLE001 - whatever the import does is reported
        return "broken", f"importing {module_name!r} failed ({plugin_wire.describe_error(exc)})"
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
    if message is None or message[:1] != plugin_wire.NEW:
        return CLOSED
    seed = plugin_wire.load(message).get("seed")
    seed = seed if type(seed) is int else 0
    try:
        bot = factory(seed=seed)
        choose = bot.choose
        if not callable(choose):
            raise TypeError("it has no choose(view) method")
    except BaseException as exc:  # noqa: BLE001 - a bot that cannot be built is reported
        channel.write(plugin_wire.dump(plugin_wire.BROKEN, {
            "why": f"creating the bot failed ({plugin_wire.describe_error(exc)})"}))
        return 0
    try:
        raw_name = bot.name
    except BaseException:  # noqa: BLE001 - a name that cannot be read: the spec names it
        raw_name = None
    channel.write(plugin_wire.dump(plugin_wire.READY, {
        "name": plugin_wire.safe_name(raw_name, default_name)}))
    decoder = plugin_wire.Decoder()
    while True:
        message = channel.read()
        if message is None:
            return CLOSED
        if message[:1] != plugin_wire.DECIDE:
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
        return plugin_wire.answer_why(plugin_wire.ERROR, n, plugin_wire.describe_error(exc))
    try:
        if type(answer) is Card:
            return plugin_wire.answer_card(n, int(answer.index))
        if type(answer) is str:
            return plugin_wire.answer_card(n, Card.parse(answer).index)
    except BaseException:  # noqa: BLE001, S110 - anything odd is described below
        pass
    return plugin_wire.answer_why(plugin_wire.BAD, n, plugin_wire.describe(answer))


def _pidfd(pid: int) -> int | None:
    if hasattr(os, "pidfd_open"):
        try:
            return os.pidfd_open(pid)
        except OSError:
            return None
    return None


def _wait(pid: int, parent: int, spare: int | None) -> int:
    """Wait for a game's process to end, and return its exit status; if the warden goes away
    meanwhile (the kernel also ends this process then, where it can), end it, the next one
    and this host too (a hung bot must not outlive the game)."""
    pidfd = _pidfd(pid)
    pause = 0.001
    while True:
        if pidfd is not None:
            select.select([pidfd], [], [], 0.5)
        else:
            time.sleep(pause)
            pause = min(pause * 2, 0.1)
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            if pidfd is not None:
                os.close(pidfd)
            return os.waitstatus_to_exitcode(status)
        if os.getppid() != parent:
            for doomed in (pid, spare):
                if doomed is not None:
                    os.kill(doomed, 9)
            processes.end_children()
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
    host = os.getpid()
    pid = os.fork()
    if pid == 0:  # the game's own process: it holds gate_write until it ends
        code = 0
        try:
            if not processes.die_with_parent(host):
                os._exit(CLOSED)
            os.close(gate_read)
            if after is not None:
                while os.read(after, 64):
                    pass
                os.close(after)
                channel.write(plugin_wire.dump(plugin_wire.IDLE))
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


# --- the warden ---------------------------------------------------------------------------
def _namespaces() -> tuple[bool, str | None]:
    """Move this process into a new user and PID namespace (its next child is the first
    process of the PID namespace): (whether it moved, None or why the namespaces are not
    all they should be)."""
    if os.environ.get(SANDBOX_ENV, "").strip().lower() in ("off", "0", "no"):
        return False, f"turned off by {SANDBOX_ENV}"
    uid, gid = os.getuid(), os.getgid()
    why = processes.unshare(processes.CLONE_NEWUSER | processes.CLONE_NEWPID)
    if why is not None:
        return False, why
    return True, processes.map_own_ids(uid, gid)


def _own_proc() -> str | None:
    """In the PID namespace's first process: a mount namespace with a /proc of the new PID
    namespace (the game's processes are not in it), then a user namespace below the first so
    that the plugin cannot take that /proc away again. None when it worked, else why not."""
    uid, gid = os.getuid(), os.getgid()
    why = processes.unshare(processes.CLONE_NEWNS)
    if why is None:
        why = processes.mount("none", "/", None, processes.MS_REC | processes.MS_PRIVATE)
    if why is None:
        why = processes.mount("proc", "/proc", "proc", processes.MS_NOSUID
                              | processes.MS_NODEV | processes.MS_NOEXEC)
    if why is None:
        why = processes.unshare(processes.CLONE_NEWUSER)
        if why is None:
            why = processes.map_own_ids(uid, gid)
    return why


def _warden(inner: int, game_pid: int, output: int, log: Log) -> None:
    """Copy what the processes below write (``output``, their standard error) to the log
    until the game or the host's second process is gone, or a signal asks this process to
    end; then end every process below this one, copy what they left in the pipe, and
    leave."""
    woken, wake = os.pipe()
    os.set_blocking(wake, False)
    signal.set_wakeup_fd(wake)  # a signal makes ``woken`` readable
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, lambda signum, frame: None)
    try:
        watched = [fd for fd in (_pidfd(game_pid), _pidfd(inner)) if fd is not None]
        pause = 0.5 if len(watched) == 2 else 0.05
        watched += [woken, output]
        while os.getppid() == game_pid:
            ready = select.select(watched, [], [], pause)[0]
            if woken in ready:
                break
            if output in ready and not _copy(output, log):
                watched.remove(output)  # every process below has closed it
            if os.waitpid(inner, os.WNOHANG)[0]:
                break
    except OSError:
        pass
    finally:
        try:
            os.kill(inner, signal.SIGKILL)
        except OSError:
            pass
        processes.end_children()
        try:
            os.set_blocking(output, False)
            for _ in range(64):  # what is left in the pipe (bounded: a writer may be left)
                if not _copy(output, log):
                    break
        except OSError:
            pass
        log.close()
        os._exit(0)


def _copy(output: int, log: Log) -> bool:
    """Copy one read of the plugin's output to the log; False at its end (or when there is
    nothing more for now, on a pipe that does not block)."""
    try:
        chunk = os.read(output, 1 << 16)
    except BlockingIOError:
        return False
    except InterruptedError:
        return True
    if not chunk:
        return False
    log.append(chunk)
    return True


def main(log: str | None = None) -> None:
    """The host; ``log``: the file the plugin's output goes to (kept within its limit), else
    it goes to this process's standard error as it is."""
    game_pid = os.getppid()
    sandbox: str | None = "no os.fork here"
    if hasattr(os, "fork"):
        processes.become_subreaper()
        moved, sandbox = _namespaces()
        warden = os.getpid()
        output, output_end = os.pipe()
        inner = os.fork()
        if inner:
            os.close(output_end)
            quiet = os.open(os.devnull, os.O_RDWR)
            os.dup2(quiet, 0)  # the game sees the end of the pipes when the host's
            os.dup2(quiet, 1)  # second process ends
            os.close(quiet)
            _warden(inner, game_pid, output, Log(log, fd=2))
            return
        os.dup2(output_end, 2)  # the plugin's output goes through the warden
        os.close(output_end)
        os.close(output)
        # (the first process of a new PID namespace sees no parent: 0)
        if not processes.die_with_parent(None if moved else warden):
            os._exit(0)
        if sandbox is None:
            own = _own_proc()
            if own is not None:
                sandbox = f"no /proc of their own ({own})"
        processes.become_subreaper()
    _serve(sandbox)


def _serve(sandbox: str | None) -> None:
    parent = os.getppid()
    channel = _Channel()
    hello = channel.read()
    if hello is None or hello[:1] != plugin_wire.HELLO:
        return
    message = plugin_wire.load(hello)
    path = message.get("path")
    if isinstance(path, list) and all(isinstance(p, str) for p in path):
        sys.path[:] = path
    target = str(message.get("target", ""))
    status, loaded = _load(target)
    if status != "loaded":
        kind = plugin_wire.MISSING if status == "missing" else plugin_wire.BROKEN
        channel.write(plugin_wire.dump(kind, {"why": str(loaded), "sandbox": sandbox}))
        return
    channel.write(plugin_wire.dump(plugin_wire.LOADED, {"sandbox": sandbox}))
    default_name = target.partition(":")[2].rpartition(".")[2] or target
    if not hasattr(os, "fork"):
        _play(channel, loaded, default_name)
        return
    pid, gate = _fork_game(channel, loaded, default_name, None)
    while True:  # one game's process plays while the next one waits
        spare, next_gate = _fork_game(channel, loaded, default_name, gate)
        code = _wait(pid, parent, spare)
        processes.end_children(frozenset({spare}))  # what the game's process left behind
        if code == CLOSED:
            _wait(spare, parent, None)  # it finds the game gone too
            processes.end_children()
            return
        pid, gate = spare, next_gate


if __name__ == "__main__":
    main()
