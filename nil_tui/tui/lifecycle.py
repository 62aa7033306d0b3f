"""How the full-screen app ends, whatever happens: a hang-up, a termination signal, a lost
terminal or a crash. In every case the game in progress is saved first and the process is
gone within about a second and a half.

What could go wrong before, and what stops it here:

* Textual writes to the terminal from a thread fed through a queue of 30 writes. When the
  terminal goes away, that thread dies on the first write error (EIO), the queue fills and the
  next write blocks the app for ever (and with it every signal handler that would end it).
  :class:`TerminalOutput` turns a write error into "the terminal is gone": writes are dropped
  from then on and the app is told to end.
* A hang-up also sends SIGCONT, and Textual answers any SIGCONT by starting application mode
  again (a second output thread and a second input thread that nothing stops). The guarded
  driver resumes only after a suspension it saw.
* A closed terminal that nobody writes to (the app waiting for a key) only shows as a hang-up
  on the file descriptors: a watcher thread polls for it.
* Bots think in worker threads, which cannot be interrupted; ``asyncio.run`` waited for them
  before returning. The app runs on a loop whose worker threads never hold up the exit.
* SIGHUP, SIGTERM and SIGINT save the game and end the app in order; a watchdog ends the
  process anyway (``os._exit``) when the orderly exit has not finished in time.
* An unexpected error saves the game, writes a crash report in the data folder, and the
  process ends with status 1 and one line saying where the report is.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import datetime as _dt
import os
import platform
import select
import signal
import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import IO, TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from textual.app import App

EXIT_CRASH = 1
EXIT_NO_TERMINAL = 2
GRACE = 1.5  # seconds the orderly exit may take after a signal or a hang-up
ENDING_SIGNALS = ("SIGHUP", "SIGTERM", "SIGINT")
_ATTRIBUTE = "_nil_tui_ending"

_T = TypeVar("_T")


# --- no terminal at all ---------------------------------------------------------------------
def missing_terminal(command: str) -> str | None:
    """The line to print when the full-screen ``command`` cannot run here (stdin, stdout or
    stderr is not a terminal), else None."""
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        try:
            if stream is not None and os.isatty(stream.fileno()):
                continue
        except (AttributeError, OSError, ValueError):
            pass
        return (f"{command} needs a terminal; for games without one, see "
                "nil-tui simulate")
    return None


# --- the terminal's output --------------------------------------------------------------------
class TerminalOutput:
    """The file Textual's output thread writes to. The first write error means the terminal
    is gone: ``on_lost`` is called once, and later writes are dropped instead of failing."""

    def __init__(self, file: IO[str], on_lost: Callable[[str], None]) -> None:
        self._file = file
        self._on_lost = on_lost
        self.gone = False

    def _lose(self, exc: BaseException) -> None:
        if not self.gone:
            self.gone = True
            self._on_lost(f"the terminal cannot be written to ({exc})")

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                self._file.write(text)
            except (OSError, ValueError) as exc:
                self._lose(exc)
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self._file.flush()
            except (OSError, ValueError) as exc:
                self._lose(exc)

    def fileno(self) -> int:
        return self._file.fileno()

    def isatty(self) -> bool:
        return True


class HangupWatch:
    """A thread that notices the terminal closing (POLLHUP or POLLERR on its file
    descriptors) while nothing is written to it."""

    def __init__(self, fds: list[int], on_lost: Callable[[str], None]) -> None:
        self._fds = fds
        self._on_lost = on_lost
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="nil-tui-hangup",
                                        daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _watch(self) -> None:
        poller = select.poll()
        for fd in self._fds:
            poller.register(fd, 0)  # only POLLHUP, POLLERR and POLLNVAL are reported
        while not self._stop.is_set():
            try:
                events = poller.poll(250)
            except (InterruptedError, OSError):
                continue
            if events and not self._stop.is_set():
                self._on_lost("the terminal was closed")
                return


_DRIVER: type[Any] | None = None


def guarded_driver_class() -> type[Any]:
    """Textual's Linux driver, made safe against a terminal that goes away."""
    global _DRIVER
    if _DRIVER is not None:
        return _DRIVER
    from textual.drivers.linux_driver import LinuxDriver

    class GuardedLinuxDriver(LinuxDriver):
        def __init__(self, app: App[Any], **kwargs: Any) -> None:
            super().__init__(app, **kwargs)
            self._suspended = False
            self._watch: HangupWatch | None = None
            file: Any = self._file
            self._output = TerminalOutput(file, self._lost)
            self._file = self._output  # type: ignore[assignment]

        def _lost(self, why: str) -> None:
            ending = ending_of(self._app)
            if ending is not None:
                ending.terminal_lost(why)

        def write(self, data: str) -> None:
            if not self._output.gone:  # a lost terminal takes nothing more, never blocks
                super().write(data)

        def _sigtstp_application(self, *args: Any) -> None:
            self._suspended = True
            super()._sigtstp_application(*args)

        def _sigcont_application(self, *args: Any) -> None:
            # A hang-up sends SIGCONT too: resume only what was suspended, and only on a
            # terminal that is still there.
            if self._suspended and not self._output.gone:
                self._suspended = False
                super()._sigcont_application(*args)

        def start_application_mode(self) -> None:
            super().start_application_mode()  # type: ignore[no-untyped-call]
            ending = ending_of(self._app)
            if ending is not None:
                ending.restore_terminal = self._restore_now
            if self._watch is None and self._writer_thread is not None:
                self._watch = HangupWatch(sorted({self.fileno, self._output.fileno()}),
                                          self._lost)
                self._watch.start()

        def stop_application_mode(self) -> None:
            if self._watch is not None:
                self._watch.stop()
                self._watch = None
            super().stop_application_mode()

        def _restore_now(self) -> None:
            """The terminal as it was, straight away (the watchdog's last act)."""
            import termios

            if self.attrs_before is not None:
                termios.tcsetattr(self.fileno, termios.TCSANOW, self.attrs_before)
            os.write(self._output.fileno(), b"\x1b[<u\x1b[?1049l\x1b[?25h\x1b[?1004l"
                     b"\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?2004l\x1b[?7h")

        def close(self) -> None:
            if self._output.gone:
                return  # the output thread may be stuck on a dead terminal: leave it
            closing = threading.Thread(target=super().close, daemon=True)
            closing.start()
            closing.join(GRACE / 2)

    _DRIVER = GuardedLinuxDriver
    return _DRIVER


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


def _quietly(call: Callable[[], None]) -> None:
    try:
        call()
    except Exception:  # noqa: BLE001, S110 - closing must never fail the exit
        pass


def close_in_background(close: Callable[[], None]) -> None:
    """Call ``close`` (stopping bots, plugin processes) in a daemon thread: the app's exit
    never waits for it."""
    threading.Thread(target=_quietly, args=(close,), name="nil-tui-close",
                     daemon=True).start()


# --- crash reports ----------------------------------------------------------------------------
def data_folder() -> Path | None:
    try:
        from ..paths import default_home

        return Path(default_home())
    except Exception:  # noqa: BLE001 - a report goes to the temporary folder instead
        return None


def write_crash_report(text: str, folder: Path | None = None) -> Path | None:
    """Write ``text`` to ``crash-<stamp>.log`` in the data folder (else the temporary
    folder); the file's path, or None when it could not be written anywhere."""
    import tempfile

    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    folders = [f for f in (folder or data_folder(), Path(tempfile.gettempdir())) if f]
    for place in folders:
        try:
            place.mkdir(parents=True, exist_ok=True)
            for n in range(100):
                path = place / (f"crash-{stamp}.log" if n == 0 else f"crash-{stamp}-{n}.log")
                try:
                    with open(path, "x", encoding="utf-8") as fh:
                        fh.write(text)
                    return path
                except FileExistsError:
                    continue
        except OSError:
            continue
    return None


def _versions() -> str:
    from .. import __version__

    try:
        from importlib.metadata import version

        textual = version("textual")
    except Exception:  # noqa: BLE001 - the report is written without it
        textual = "?"
    return (f"nil-tui {__version__}, Textual {textual}, Python {platform.python_version()} "
            f"on {platform.platform()}")


# --- the app's end ----------------------------------------------------------------------------
def ending_of(app: object) -> Ending | None:
    ending = getattr(app, _ATTRIBUTE, None)
    return ending if isinstance(ending, Ending) else None


class Ending:
    """Watches one run of the app and ends it cleanly: see the module's docstring."""

    def __init__(self, app: App[Any], command: str) -> None:
        self.app = app
        self.command = command
        self.loop: asyncio.AbstractEventLoop | None = None
        self.code: int | None = None  # the exit status asked for by a signal or a hang-up
        self.reason: str | None = None
        self.crash: str | None = None  # the traceback of an unexpected error
        self.crash_summary = ""
        self.report: Path | None = None
        self.saved: str = "no game in progress"
        self.terminal_gone = False
        self._ended = False
        self._alarm: tuple[int, int] | None = None  # a pipe: one byte arms the watchdog
        self._finished = threading.Event()
        self._previous: dict[int, Any] = {}
        self._watchdog: threading.Thread | None = None
        self.restore_terminal: Callable[[], None] | None = None  # set by the guarded driver
        setattr(app, _ATTRIBUTE, self)
        original = app._handle_exception

        def handle_exception(error: Exception) -> None:
            self._on_exception(error, original)

        setattr(app, "_handle_exception", handle_exception)  # noqa: B010 - on this app only

    # --- signals and the watchdog ---------------------------------------------------------
    def install_signals(self) -> None:
        """Catch SIGHUP, SIGTERM and SIGINT from now on (main thread only), and start the
        watchdog that ends the process when an orderly exit takes too long."""
        if threading.current_thread() is not threading.main_thread() or self._previous:
            return
        for name in ENDING_SIGNALS:
            number = getattr(signal, name, None)
            if number is None:
                continue
            try:
                self._previous[number] = signal.signal(number, self._on_signal)
            except (OSError, ValueError):
                continue
        # Armed through a pipe: a write takes no lock, so a signal that lands while another
        # signal's handler runs cannot deadlock it.
        read_end, write_end = os.pipe()
        os.set_blocking(write_end, False)
        self._alarm = (read_end, write_end)
        self._watchdog = threading.Thread(target=self._watch, args=(read_end,),
                                          name="nil-tui-watchdog", daemon=True)
        self._watchdog.start()

    def restore_signals(self) -> None:
        for number, handler in self._previous.items():
            try:
                signal.signal(number, handler)
            except (OSError, TypeError, ValueError):
                pass
        self._previous.clear()

    def _on_signal(self, number: int, frame: FrameType | None) -> None:
        # Runs in the main thread between two bytecodes: only set flags and wake the loop.
        self.request_end(128 + number, f"signal {signal.Signals(number).name}")

    def terminal_lost(self, why: str) -> None:
        """From any thread: the terminal went away."""
        self.terminal_gone = True
        self.request_end(128 + getattr(signal, "SIGHUP", 1), why)

    def request_end(self, code: int, reason: str) -> None:
        """Safe from a signal handler and any thread: save and end the app soon."""
        if self.code is None:
            self.code, self.reason = code, reason
        if self._alarm is not None:
            try:
                os.write(self._alarm[1], b"!")
            except OSError:  # full of earlier alarms, or closed: armed already
                pass
        loop = self.loop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(self.end_now)
            except RuntimeError:  # the loop is closed: the app has already ended
                pass

    def _watch(self, alarm: int) -> None:
        try:
            os.read(alarm, 1)
        except OSError:
            return
        if self._finished.wait(GRACE):
            return
        restore = self.restore_terminal
        if restore is not None and not self.terminal_gone:
            # Leave a live terminal usable; a write that blocks does not stop the exit.
            restoring = threading.Thread(target=_quietly, args=(restore,), daemon=True)
            restoring.start()
            restoring.join(0.2)
        os._exit(self.code if self.code is not None else EXIT_CRASH)

    def finished(self) -> None:
        """The process is about to end by itself: the watchdog stands down."""
        self._finished.set()

    # --- the orderly end (on the app's loop) ----------------------------------------------
    def end_now(self) -> None:
        """Save the game and ask the app to exit (its unmount stops the bots)."""
        if self._ended:
            return
        self._ended = True
        self.saved = self._save()
        self.app.exit(return_code=self.code if self.code is not None else 0)

    def _save(self) -> str:
        """Save the game in progress; says how that went, for the crash report."""
        app = self.app
        save_now = getattr(app, "save_now", None)
        if not callable(save_now):
            return "not saved (this version cannot save on exit)"
        try:
            save_now()
        except Exception as exc:  # noqa: BLE001 - the end goes on
            return f"not saved ({type(exc).__name__}: {exc})"
        problem = getattr(app, "save_problem", None)
        if problem:
            return f"not saved ({problem})"
        driver = getattr(app, "driver", None)
        game = getattr(driver, "game", None)
        if game is None or getattr(game, "is_over", False):
            return "no game in progress"
        return "saved"

    # --- crashes ----------------------------------------------------------------------------
    def _on_exception(self, error: Exception, original: Callable[[Exception], None]) -> None:
        closing = self._ended or self.terminal_gone
        if not closing and self.crash is None:
            try:
                self._record_crash(error)
            except Exception:  # noqa: BLE001, S110 - the app still ends below
                pass
        original(error)
        if closing or self.report is not None:
            # Closing on a signal or a lost terminal, an error is an effect of that (a screen
            # mounted as the app closes), not a fault: nothing to report, and no terminal to
            # print on. After a crash the report holds the traceback: the terminal gets one
            # line, not a screenful.
            self.app._exit_renderables.clear()

    def _record_crash(self, error: BaseException, running: bool = True) -> None:
        inner = getattr(error, "error", None)  # a failed worker wraps the real error
        cause = inner if isinstance(inner, BaseException) else error
        self.crash = "".join(traceback.format_exception(type(cause), cause,
                                                         cause.__traceback__))
        self.crash_summary = f"{type(cause).__name__}: {cause}".strip().rstrip(":")
        self.saved = (self._save() if running
                      else "not saved at the crash (the app had already stopped)")
        self.report = write_crash_report(
            f"nil-tui crash report, {_dt.datetime.now().isoformat(timespec='seconds')}\n"
            f"Command: {' '.join(['nil-tui', *sys.argv[1:]])}\n"
            f"{_versions()}\n"
            f"Game in progress: {self.saved}\n\n{self.crash}")

    def crash_line(self) -> str:
        summary = self.crash_summary.splitlines()[0][:200] if self.crash_summary else "error"
        where = (f"the full report is in {self.report}" if self.report is not None
                 else "no report could be written")
        line = f"{self.command}: stopped by an unexpected error ({summary}); {where}."
        if self.saved == "saved":
            line += " Your game is saved: nil-tui resume continues it."
        return line

    def exit_status(self, result: object) -> int:
        if self.crash is not None:
            return EXIT_CRASH
        if self.code is not None:
            return self.code
        if isinstance(result, int):
            return result
        return self.app.return_code or 0


# --- running the app ------------------------------------------------------------------------
def run(app: App[Any], command: str, headless: bool = False) -> int:
    """Run ``app`` until it ends, however that happens; its exit status.

    ``command`` names it in messages ("nil-tui play"). A real run (not ``headless``) draws
    through the guarded driver and catches the ending signals.
    """
    ending = Ending(app, command)
    if not headless and sys.platform != "win32":
        from textual.drivers.linux_driver import LinuxDriver

        if app.driver_class is LinuxDriver:
            app.driver_class = guarded_driver_class()
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
                ending._record_crash(exc, running=False)
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
    return status


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
