"""How one run of the app ends, whatever happens: a hang-up, a termination signal, a lost
terminal or browser tab, or a crash. In every case the game in progress is saved first and the
process is gone within about a second and a half.

* SIGHUP, SIGTERM and SIGINT save the game and end the app in order; a watchdog ends the
  process anyway (``os._exit``) when the orderly exit has not finished in time.
* The front end going away (the terminal's driver, :mod:`.terminal`, or the browser's,
  :mod:`.browser`, says so) takes the same path as a hang-up.
* An unexpected error saves the game, writes a crash report (:mod:`.crash`), and the
  process ends with status 1 and one line saying where the report is.
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from . import crash as reports
from .textual_private import forget_exit_messages, wrap_exception_handler

if TYPE_CHECKING:
    from textual.app import App

EXIT_CRASH = 1
GRACE = 1.5  # seconds the orderly exit may take after a signal or a hang-up
ENDING_SIGNALS = ("SIGHUP", "SIGTERM", "SIGINT")
_ATTRIBUTE = "_nil_tui_ending"


def quietly(call: Callable[[], None]) -> None:
    try:
        call()
    except Exception:  # noqa: BLE001, S110 - closing must never fail the exit
        pass


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
        self.restore_terminal: Callable[[], None] | None = None  # set by the driver
        setattr(app, _ATTRIBUTE, self)
        wrap_exception_handler(app, self._on_exception)

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

    @property
    def catches_signals(self) -> bool:
        return bool(self._previous)

    def take_back_signals(self) -> None:
        """Catch the ending signals again, after something else set its own handlers for
        them (the web driver does); the handlers from before the app stay the ones that
        :meth:`restore_signals` puts back."""
        for number in self._previous:
            try:
                signal.signal(number, self._on_signal)
            except (OSError, ValueError):
                continue

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
        """From any thread: the terminal (or the browser tab) went away."""
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
            restoring = threading.Thread(target=quietly, args=(restore,), daemon=True)
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
                self.record_crash(error)
            except Exception:  # noqa: BLE001, S110 - the app still ends below
                pass
        original(error)
        if closing or self.report is not None:
            # Closing on a signal or a lost terminal, an error is an effect of that (a screen
            # mounted as the app closes), not a fault: nothing to report, and no terminal to
            # print on. After a crash the report holds the traceback: the terminal gets one
            # line, not a screenful.
            forget_exit_messages(self.app)

    def record_crash(self, error: BaseException, running: bool = True) -> None:
        """Write the crash report of ``error`` (``running``: the app can still save)."""
        self.crash, self.crash_summary = reports.describe(error)
        self.saved = (self._save() if running
                      else "not saved at the crash (the app had already stopped)")
        self.report = reports.write_crash_report(reports.report_text(self.crash, self.saved))

    def crash_line(self) -> str:
        return reports.crash_line(self.command, self.crash_summary, self.report, self.saved)

    def exit_status(self, result: object) -> int:
        if self.crash is not None:
            return EXIT_CRASH
        if self.code is not None:
            return self.code
        if isinstance(result, int):
            return result
        return self.app.return_code or 0
