"""The processes a command starts, and how they end with it.

Worker processes started from inside the full-screen app (the analysis, the challenge's
reference) need multiprocessing's resource tracker started quietly; a pool of worker processes
(:class:`WorkerPool`) serves both ``nil-tui simulate`` and the analysis. Every process a command
starts must end with it, whatever ends the command (SIGKILL included): the Linux calls for that
(``prctl``, ``unshare``, ``mount``) are here, through ``ctypes``, each returning an error
instead of raising where the system refuses.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

PR_SET_PDEATHSIG = 1
PR_GET_DUMPABLE = 3
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 2, 4, 8, 0x4000, 1 << 18


def start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (every "spawn" process needs it) with its
    output going nowhere, once (later calls return at once). Python starts it with
    ``sys.stderr``, which a full-screen app replaces with an object that has no file (the
    process would not start: "bad value(s) in fds_to_keep"); and nothing it says may reach
    the terminal the app draws on. It ends when the program does (its pipe closes)."""
    from multiprocessing import resource_tracker

    saved = sys.stderr
    try:
        with open(os.devnull, "w") as quiet:
            sys.stderr = quiet
            resource_tracker.ensure_running()
    finally:
        sys.stderr = saved


def _libc() -> object | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True)
    except (OSError, ImportError):
        return None


def _call(name: str, *args: object) -> str | None:
    """Call a libc function; None when it worked, else why not (one line)."""
    libc = _libc()
    if libc is None:
        return "not on Linux"
    import ctypes

    function = getattr(libc, name, None)
    if function is None:
        return f"no {name}() here"
    converted = [ctypes.c_char_p(a.encode()) if isinstance(a, str) else
                 ctypes.c_ulong(a) if isinstance(a, int) else a for a in args]
    if function(*converted) == 0:
        return None
    errno = ctypes.get_errno()
    return f"{name}: {os.strerror(errno)}" if errno else f"{name} failed"


def prctl(option: int, value: int) -> str | None:
    """``prctl(option, value)``; None when it worked, else why not."""
    return _call("prctl", option, value, 0, 0, 0)


def die_with_parent(parent: int | None, sig: int = signal.SIGKILL) -> bool:
    """Have the kernel send ``sig`` to this process when the thread that started it ends
    (only for processes started from their parent's main thread). False when the parent
    (``parent``, when given) is already gone: the caller should end at once."""
    prctl(PR_SET_PDEATHSIG, int(sig))
    return parent is None or os.getppid() == parent


def become_subreaper() -> bool:
    """Processes orphaned below this one become its children (so it can end them)."""
    return prctl(PR_SET_CHILD_SUBREAPER, 1) is None


def not_dumpable() -> bool:
    """Mark this process not dumpable: other processes of the same user (a plugin's among
    them) may not read its memory through /proc/<pid>/mem or attach to it. Once."""
    global _protected
    if not _protected:
        _protected = prctl(PR_SET_DUMPABLE, 0) is None
    return _protected


_protected = False


def dumpable() -> bool | None:
    """Whether this process is dumpable (None: cannot tell, not on Linux)."""
    libc = _libc()
    if libc is None:
        return None
    return bool(libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0))  # type: ignore[attr-defined]


def unshare(flags: int) -> str | None:
    return _call("unshare", flags)


def mount(source: str, target: str, kind: str | None, flags: int) -> str | None:
    import ctypes

    libc = _libc()
    if libc is None:
        return "not on Linux"
    function = libc.mount  # type: ignore[attr-defined]
    result = function(source.encode(), target.encode(),
                      None if kind is None else kind.encode(), ctypes.c_ulong(flags), None)
    if result == 0:
        return None
    errno = ctypes.get_errno()
    return f"mount {target}: {os.strerror(errno)}"


def map_own_ids(uid: int, gid: int) -> str | None:
    """In a user namespace just made: this process keeps the user and group ids it had
    before (``os.getuid()`` and ``os.getgid()`` taken then)."""
    try:
        with open("/proc/self/setgroups", "w", encoding="ascii") as f:
            f.write("deny")
    except FileNotFoundError:
        pass
    except OSError as exc:
        return f"setgroups: {exc.strerror}"
    for name, value in (("uid_map", uid), ("gid_map", gid)):
        try:
            with open(f"/proc/self/{name}", "w", encoding="ascii") as f:
                f.write(f"{value} {value} 1")
        except OSError as exc:
            return f"{name}: {exc.strerror}"
    return None


def children(pid: int | None = None) -> list[int]:
    """The living children of a process (this one by default), as /proc shows them."""
    pid = os.getpid() if pid is None else pid
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
        for tid in tasks:
            with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as f:
                found += [int(p) for p in f.read().split()]
        return found
    except (OSError, ValueError):
        pass
    try:  # no "children" files here: every process's parent
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as f:
                    fields = f.read().rpartition(")")[2].split()
                if int(fields[1]) == pid:
                    found.append(int(name))
            except (OSError, ValueError, IndexError):
                continue
    return found


def end_children(keep: frozenset[int] = frozenset(), rounds: int = 50) -> None:
    """SIGKILL every child of this process but ``keep``, and the children they leave (a
    subreaper or a namespace's first process inherits them), until none is left (at most
    ``rounds`` looks, a few milliseconds apart)."""
    import time

    for _ in range(rounds):
        doomed = [p for p in children() if p not in keep]
        if not doomed:
            break
        for pid in doomed:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        for pid in doomed:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
            except OSError:
                pass
        time.sleep(0.002)
    reap(keep)


def reap(keep: frozenset[int] = frozenset()) -> None:
    """Collect the ended children (but those in ``keep``) that nobody waits for."""
    while True:
        try:
            info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except (ChildProcessError, OSError):
            return
        if info is None or info.si_pid in keep:
            return
        try:
            os.waitpid(info.si_pid, 0)
        except OSError:
            return


# --- a pool of worker processes ----------------------------------------------------------------
class WorkerGone(RuntimeError):
    """A worker process ended in the middle of its work (killed from outside)."""


@contextlib.contextmanager
def sigint_blocked() -> Iterator[None]:
    """Ctrl-C held back while a worker starts: the worker inherits the blocked signal and
    ignores it before it unblocks it, so a Ctrl-C during its start prints nothing."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None:
        yield
        return
    old = mask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, old)


class WorkerPool:
    """A few worker processes, each fed one task at a time through a pipe of its own: the
    worker runs ``target(conn, *args)``, which answers each ``(index, task)`` it reads with
    ``(index, result)`` (:func:`serve_tasks`). ``method`` is multiprocessing's start method:
    "fork" starts at once and shares what this process has loaded; "spawn" is a fresh
    interpreter (for a process with threads, as the app is). Ctrl-C is held back while a
    worker starts. How a worker ends with its parent is the target's business. At the end
    workers get SIGTERM, and SIGKILL if still there 2 s later; with ``kill``, SIGKILL at once
    (a forked worker has its parent's signal handlers, which SIGTERM would run)."""

    def __init__(self, size: int, method: str, target: Callable[..., None],
                 args: tuple[object, ...] = (), name: str = "nil-tui worker",
                 kill: bool = False) -> None:
        import multiprocessing

        context: Any = multiprocessing.get_context(method)  # (typeshed: no .Process here)
        self._kill = kill
        self._workers: list[tuple[Any, Any]] = []
        try:
            for _ in range(size):
                here, there = context.Pipe()
                proc = context.Process(target=target, args=(there, *args), name=name,
                                       daemon=True)
                with sigint_blocked():
                    proc.start()
                there.close()
                self._workers.append((proc, here))
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> WorkerPool:  # noqa: PYI034 - never subclassed
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def results(self, tasks: Sequence[object], should_stop: Callable[[], bool] | None = None,
                poll: float | None = None) -> Iterator[tuple[int, Any]]:
        """``(index, result)`` for each task as it is done, in any order. With
        ``should_stop``, looked at every ``poll`` seconds, it ends as soon as that says stop
        (the tasks under way are left to :meth:`close`). WorkerGone if a worker ends."""
        from multiprocessing.connection import wait

        pending = deque(enumerate(tasks))
        idle = [conn for _proc, conn in reversed(self._workers)]
        busy: set[Any] = set()
        while pending or busy:
            while idle and pending:
                conn = idle.pop()
                try:
                    conn.send(pending.popleft())
                except OSError:
                    raise WorkerGone("a worker process stopped unexpectedly") from None
                busy.add(conn)
            if should_stop is not None and should_stop():
                return
            for ready in wait(list(busy), timeout=poll):
                try:
                    k, result = cast(Any, ready).recv()
                except (EOFError, OSError):
                    raise WorkerGone("a worker process stopped unexpectedly") from None
                busy.discard(ready)
                idle.append(ready)
                yield k, result

    def close(self) -> None:
        """End every worker now (a task in progress is dropped) and wait for them."""
        kill = self._kill
        workers, self._workers = self._workers, []
        for _proc, conn in workers:
            conn.close()
        for proc, _conn in workers:
            if proc.is_alive() and proc.pid is not None:
                try:
                    os.kill(proc.pid, signal.SIGKILL if kill else signal.SIGTERM)
                except OSError:
                    pass
        for proc, _conn in workers:
            proc.join(5.0 if kill else 2.0)
            if proc.is_alive():
                proc.kill()
                proc.join()


def serve_tasks(conn: Any, work: Callable[[Any], Any],
                failed: Callable[[Exception], Any]) -> None:
    """A worker's loop: ``work(task)`` for each ``(index, task)`` read from ``conn``, its
    result (or ``failed(exc)`` if it raised) sent back with the index, until the pipe ends."""
    while True:
        try:
            k, task = conn.recv()
        except (EOFError, OSError):
            return
        result: Any
        try:
            result = work(task)
        except Exception as exc:  # noqa: BLE001 - a bug: ``failed`` says what goes back
            result = failed(exc)
        try:
            conn.send((k, result))
        except OSError:
            return
