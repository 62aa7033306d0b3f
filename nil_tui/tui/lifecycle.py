"""How the full-screen app runs and ends, whatever happens: a hang-up, a termination signal,
a lost terminal or browser tab, or a crash. In every case the game in progress is saved first
and the process is gone within about a second and a half.

The parts: :mod:`.terminal` (no terminal at all; Textual's Linux driver made safe against a
terminal that goes away), :mod:`.browser` (the same for a browser tab, under Textual's web
driver), :mod:`.ending` (signals, saving, the watchdog) and :mod:`.crash` (crash reports).
Here: running the app on a loop whose worker threads never hold up the exit. Bots think in
worker threads, which cannot be interrupted; ``asyncio.run`` waited for them before
returning.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from . import browser, terminal
from .browser import in_browser
from .crash import data_folder, write_crash_report
from .ending import (
    ENDING_SIGNALS,
    EXIT_CRASH,
    GRACE,
    Ending,
    ending_of,
    quietly,
)
from .terminal import (
    EXIT_NO_TERMINAL,
    HangupWatch,
    TerminalOutput,
    guarded_driver_class,
    missing_terminal,
)

if TYPE_CHECKING:
    from textual.app import App

__all__ = [
    "ENDING_SIGNALS", "EXIT_CRASH", "EXIT_NO_TERMINAL", "GRACE", "DaemonExecutor", "Ending",
    "HangupWatch", "TerminalOutput", "app_started", "close_in_background", "data_folder",
    "ending_of", "guarded_driver_class", "in_browser", "missing_terminal", "run", "say",
    "write_crash_report",
]

_T = TypeVar("_T")


# --- worker threads that never hold up the exit ------------------------------------------------
class DaemonExecutor(concurrent.futures.ThreadPoolExecutor):
    """Runs each job in a daemon thread of its own. Bots think in these threads; they cannot
    be interrupted, so the process must be able to end while one is still thinking. (A
    subclass of the pool only because asyncio accepts nothing else as its default executor:
    the pool's own threads, joined at exit, are never started.)"""

    def submit(self, fn: Callable[..., _T], /, *args: Any,
               **kwargs: Any) -> concurrent.futures.Future[_T]:
        future: concurrent.futures.Future[_T] = concurrent.futures.Future()

        def work() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                result = fn(*args, **kwargs)
            except BaseException as exc:  # noqa: BLE001 - handed to whoever waits for it
                future.set_exception(exc)
            else:
                future.set_result(result)

        threading.Thread(target=work, name="nil-tui-worker", daemon=True).start()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Nothing to wait for: the jobs' threads end with the process."""


def close_in_background(close: Callable[[], None]) -> None:
    """Call ``close`` (stopping bots, plugin processes) in a daemon thread: the app's exit
    never waits for it."""
    threading.Thread(target=quietly, args=(close,), name="nil-tui-close",
                     daemon=True).start()


# --- running the app ------------------------------------------------------------------------
def run(app: App[Any], command: str, headless: bool = False) -> int:
    """Run ``app`` until it ends, however that happens; its exit status.

    ``command`` names it in messages ("nil-tui play"). A real run (not ``headless``) draws
    through the guarded driver and catches the ending signals.
    """
    ending = Ending(app, command)
    if not headless:
        guard_driver(app)
    loop = asyncio.new_event_loop()
    loop.set_default_executor(DaemonExecutor())
    ending.loop = loop
    if not headless:
        ending.install_signals()
    result: object = None
    try:
        asyncio.set_event_loop(loop)
        result = app.run(loop=loop, headless=headless)
    except Exception as exc:  # noqa: BLE001 - an error outside Textual's own handling
        if ending.crash is None and not (ending.code is not None or ending.terminal_gone):
            try:
                ending.record_crash(exc, running=False)
            except Exception:  # noqa: BLE001, S110 - the line below still says it crashed
                pass
    finally:
        _close_loop(loop)
        ending.restore_signals()
        if headless:
            ending.finished()
    status = ending.exit_status(result)
    if ending.crash is not None:
        say(ending.crash_line())
    kept = getattr(app, "unsaved_file", None)
    if kept is not None:
        say(f"{command}: a game could not be written to your data folder; it is kept in {kept}")
    return status


def guard_driver(app: App[Any]) -> None:
    """Draw through the guarded form of the driver Textual chose: the terminal's (Linux) or
    the browser tab's (web)."""
    if in_browser():
        from textual.drivers.web_driver import WebDriver

        if app.driver_class is WebDriver:
            app.driver_class = browser.guarded_driver_class()
    elif sys.platform != "win32":
        from textual.drivers.linux_driver import LinuxDriver

        if app.driver_class is LinuxDriver:
            app.driver_class = terminal.guarded_driver_class()


def say(line: str) -> None:
    """One line on stderr, unless the terminal it would go to is gone."""
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def _close_loop(loop: asyncio.AbstractEventLoop) -> None:
    """What ``asyncio.run`` does at its end, except waiting for the worker threads."""
    try:
        tasks = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
    except Exception:  # noqa: BLE001, S110 - closing must not fail the exit
        pass
    finally:
        asyncio.set_event_loop(None)
        loop.close()


def app_started(app: App[Any]) -> None:
    """Called when the app mounts: an app run some other way than :func:`run` (not
    headless) still ends cleanly on SIGHUP and SIGTERM."""
    if ending_of(app) is not None or app.is_headless:
        return
    ending = Ending(app, "nil-tui")
    try:
        ending.loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    ending.install_signals()
