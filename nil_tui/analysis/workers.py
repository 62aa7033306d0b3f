"""Worker processes for the analysis: one decision per task, spread over a few processes.

Processes are started with the "spawn" method (a fresh interpreter: the app that asks has
threads, which a fork would copy in whatever state they were in). A worker never outlives
the program that started it: it reads its tasks from a pipe whose other end only that program
holds, so it leaves at the end of the pipe; a thread watches for its parent's death while it
computes; and the program ends every worker when the tasks are done or it is told to stop.
Ctrl-C reaches the whole terminal's process group: workers ignore it, their parent decides.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, cast

from ..engine import PlayerView
from ..processes import start_resource_tracker
from .estimate import Budget, DecisionFigures, evaluate

# (the view of the seat to move, the index of the card it played, the budget)
Task = tuple[PlayerView, int, Budget]
POLL = 0.05  # seconds between two looks at should_stop while workers compute


class AnalysisFailed(RuntimeError):
    """A worker failed (a bug) or died (killed from outside)."""


def default_jobs() -> int:
    """Worker processes when the caller does not say: the cores, at most 4."""
    return max(1, min(4, os.cpu_count() or 1))


def run_tasks(tasks: Sequence[Task], jobs: int,
              on_done: Callable[[int, DecisionFigures], None],
              should_stop: Callable[[], bool] | None = None) -> bool:
    """Evaluate every task, calling ``on_done(index, figures)`` as each finishes (in any order),
    on ``jobs`` worker processes (0: in this process). False, with the workers ended, as soon
    as ``should_stop()`` says stop; True when every task is done."""
    if not tasks:
        return True
    if jobs <= 0:
        for k, (view, played, budget) in enumerate(tasks):
            figures = evaluate(view, budget, played, should_stop)
            if figures is None:
                return False
            on_done(k, figures)
        return True
    with _Pool(min(jobs, len(tasks))) as pool:
        return pool.run(tasks, on_done, should_stop)


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
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


class _Pool:
    """A few worker processes, each fed one task at a time through its own pipe."""

    def __init__(self, size: int) -> None:
        start_resource_tracker()  # inside the app, stderr has no file to hand it
        ctx = multiprocessing.get_context("spawn")
        self._workers: list[tuple[BaseProcess, Connection]] = []
        try:
            for _ in range(size):
                here, there = ctx.Pipe()
                proc = ctx.Process(target=serve, args=(there, os.getpid()),
                                   name="nil-tui analysis", daemon=True)
                with _sigint_blocked():
                    proc.start()
                there.close()
                self._workers.append((proc, here))
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> _Pool:  # noqa: PYI034 - a private class, never subclassed
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, tasks: Sequence[Task], on_done: Callable[[int, DecisionFigures], None],
            should_stop: Callable[[], bool] | None) -> bool:
        pending = deque(enumerate(tasks))
        idle = [conn for _proc, conn in reversed(self._workers)]
        busy: set[Connection] = set()
        while pending or busy:
            while idle and pending:
                conn = idle.pop()
                try:
                    conn.send(pending.popleft())
                except OSError:
                    raise AnalysisFailed("an analysis worker stopped unexpectedly") from None
                busy.add(conn)
            if should_stop is not None and should_stop():
                return False
            for ready in wait(list(busy), timeout=POLL):
                conn = cast(Connection, ready)
                try:
                    k, result = conn.recv()
                except (EOFError, OSError):
                    raise AnalysisFailed("an analysis worker stopped unexpectedly") from None
                if isinstance(result, str):
                    raise AnalysisFailed(f"the analysis failed in a worker:\n{result}")
                busy.discard(conn)
                idle.append(conn)
                on_done(k, result)
        return True

    def close(self) -> None:
        """End every worker now (a task in progress is dropped) and wait for them."""
        workers, self._workers = self._workers, []
        for _proc, conn in workers:
            conn.close()
        for proc, _conn in workers:
            if proc.is_alive():
                proc.terminate()
        for proc, _conn in workers:
            proc.join(2.0)
            if proc.is_alive():
                proc.kill()
                proc.join()


def _watch_parent(parent: int | None = None) -> None:
    """Leave at once if the parent (``parent``: its pid, as the parent gave it) dies while
    this worker computes (when idle, the end of the pipe says so first). The pid must come
    from the parent: a worker that asked for its parent's pid only once started (a fresh
    interpreter takes a while to start) would get init's if the parent had died meanwhile,
    and watch it for ever."""
    if parent is None:
        parent = os.getppid()
    if os.getppid() != parent:
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(0.25)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="parent watch", daemon=True).start()


def serve(conn: Connection, parent: int | None = None) -> None:
    """A worker's life: evaluate the tasks that come down the pipe until it closes (or its
    parent, whose pid is ``parent``, ends)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is not None:
        mask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _watch_parent(parent)
    while True:
        try:
            k, (view, played, budget) = conn.recv()
        except (EOFError, OSError):
            return
        result: Any
        try:
            result = evaluate(view, budget, played)
        except Exception:  # noqa: BLE001 - a bug: its traceback goes back to the parent
            result = traceback.format_exc()
        try:
            conn.send((k, result))
        except OSError:
            return
