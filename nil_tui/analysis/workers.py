"""Worker processes for the analysis: one decision per task, spread over a few processes.

Processes are started with the "spawn" method (a fresh interpreter: the app that asks has
threads, which a fork would copy in whatever state they were in). A worker never outlives
the program that started it: it reads its tasks from a pipe whose other end only that program
holds, so it leaves at the end of the pipe; a thread watches for its parent's death while it
computes; and the program ends every worker when the tasks are done or it is told to stop.
Ctrl-C reaches the whole terminal's process group: workers ignore it, their parent decides.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection

from ..engine import PlayerView
from ..util.processes import WorkerGone, WorkerPool, serve_tasks, start_resource_tracker
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
    start_resource_tracker()  # inside the app, stderr has no file to hand it
    done = 0
    with WorkerPool(min(jobs, len(tasks)), "spawn", serve, (os.getpid(),),
                    name="nil-tui analysis") as pool:
        try:
            for k, result in pool.results(tasks, should_stop, POLL):
                if isinstance(result, str):
                    raise AnalysisFailed(f"the analysis failed in a worker:\n{result}")
                on_done(k, result)
                done += 1
        except WorkerGone:
            raise AnalysisFailed("an analysis worker stopped unexpectedly") from None
    return done == len(tasks)


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
    # A bug's traceback goes back to the parent.
    serve_tasks(conn, lambda task: evaluate(task[0], task[2], task[1]),
                lambda _exc: traceback.format_exc())
