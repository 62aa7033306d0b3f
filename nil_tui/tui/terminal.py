"""The terminal's side of the app's end: refusing to start without a terminal, and Textual's
Linux driver made safe against a terminal that goes away.

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

In a browser tab (``nil-tui serve``) there is no terminal: see :mod:`.browser`.
"""

from __future__ import annotations

import os
import select
import sys
import threading
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any

from .ending import GRACE, ending_of
from .textual_private import swap_output_file, writes_started

if TYPE_CHECKING:
    from textual.app import App

EXIT_NO_TERMINAL = 2


# --- no terminal at all ---------------------------------------------------------------------
def missing_terminal(command: str) -> str | None:
    """The line to print when the full-screen ``command`` cannot run here (stdin, stdout or
    stderr is not a terminal), else None. A browser tab's app (Textual's web driver, as
    ``nil-tui serve`` runs it) talks through pipes and needs none."""
    from .browser import in_browser

    if in_browser():
        return None
    missing = [name for name, stream in (("input", sys.stdin), ("output", sys.stdout),
                                         ("error", sys.stderr)) if not _is_terminal(stream)]
    if not missing:
        return None
    which = (missing[0] if len(missing) == 1 else
             ", ".join(missing[:-1]) + " and " + missing[-1])
    verb = "is" if len(missing) == 1 else "are"
    drawn = " (the screen is drawn there)" if missing == ["error"] else ""
    return (f"{command} needs a terminal: its standard {which} {verb} not one{drawn}; "
            "for games without one, see nil-tui simulate")


def _is_terminal(stream: IO[str] | None) -> bool:
    try:
        return stream is not None and os.isatty(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return False


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
            import signal

            super().__init__(app, **kwargs)
            self.owner = app
            self._suspended = False
            self._watch: HangupWatch | None = None
            self._output: TerminalOutput = swap_output_file(
                self, lambda file: TerminalOutput(file, self._lost))
            # Textual's handlers of SIGTSTP and SIGCONT (set just now), wrapped: see below.
            suspend, resume = signal.getsignal(signal.SIGTSTP), signal.getsignal(signal.SIGCONT)
            if callable(suspend) and callable(resume):
                signal.signal(signal.SIGTSTP, lambda *args: self._on_suspend(suspend, args))
                signal.signal(signal.SIGCONT, lambda *args: self._on_resume(resume, args))

        def _lost(self, why: str) -> None:
            ending = ending_of(self.owner)
            if ending is not None:
                ending.terminal_lost(why)

        def write(self, data: str) -> None:
            if not self._output.gone:  # a lost terminal takes nothing more, never blocks
                super().write(data)

        def _on_suspend(self, handler: Callable[..., object], args: tuple[Any, ...]) -> None:
            self._suspended = True
            handler(*args)

        def _on_resume(self, handler: Callable[..., object], args: tuple[Any, ...]) -> None:
            # A hang-up sends SIGCONT too: resume only what was suspended, and only on a
            # terminal that is still there.
            if self._suspended and not self._output.gone:
                self._suspended = False
                handler(*args)

        def start_application_mode(self) -> None:
            super().start_application_mode()  # type: ignore[no-untyped-call]
            ending = ending_of(self.owner)
            if ending is not None:
                ending.restore_terminal = self._restore_now
            if self._watch is None and writes_started(self):
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
