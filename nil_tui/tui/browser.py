"""The browser tab's side of the app's end (``nil-tui serve``: Textual's web driver, one app
process per tab, its packets on standard input and output).

There is no terminal to check, and a tab ends in its own ways, each taking the same path as
a closed terminal (save the game, then exit, the watchdog behind it):

* the server says "quit" (the tab was closed or reloaded, or its connection lost);
* standard input ends (the server itself went away);
* a write to standard output fails (the same).

From the first of these on, nothing more is written: nobody is reading, and a full pipe
would block the app before it could save. The web driver catches SIGINT and SIGTERM for a
plain exit; the ending takes them back, so that they save the game as in a terminal.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .ending import ending_of

if TYPE_CHECKING:
    from textual.app import App

WEB_DRIVER = "textual.drivers.web_driver:WebDriver"  # what textual-serve sets TEXTUAL_DRIVER to


def in_browser() -> bool:
    """Whether this process draws in a browser tab (Textual's web driver), not a terminal."""
    return os.environ.get("TEXTUAL_DRIVER", "").strip() == WEB_DRIVER


_DRIVER: type[Any] | None = None


def guarded_driver_class() -> type[Any]:
    """Textual's web driver, ending the app through its :class:`~.ending.Ending`."""
    global _DRIVER
    if _DRIVER is not None:
        return _DRIVER
    import asyncio
    import signal

    from textual.drivers.web_driver import WebDriver

    class GuardedWebDriver(WebDriver):
        def __init__(self, app: App[Any], **kwargs: Any) -> None:
            super().__init__(app, **kwargs)
            self.owner = app
            self.gone = False

        def _guarded(self, write: Callable[[], object]) -> None:
            """A write to the server: nothing once it is gone, and its failure ends the app."""
            if self.gone:
                return
            try:
                write()
            except OSError as exc:
                self._lost(f"the server cannot be written to ({exc})")

        def write(self, data: str) -> None:
            self._guarded(lambda: super(GuardedWebDriver, self).write(data))

        def write_meta(self, data: dict[str, object]) -> None:
            self._guarded(lambda: super(GuardedWebDriver, self).write_meta(data))

        def write_binary_encoded(self, data: tuple[str | bytes, ...]) -> None:
            self._guarded(lambda: super(GuardedWebDriver, self).write_binary_encoded(data))

        def _lost(self, why: str) -> None:
            self.gone = True
            ending = ending_of(self.owner)
            if ending is not None:
                ending.terminal_lost(why)
            else:
                from textual import messages

                self.owner.post_message(messages.ExitApp())

        def on_meta(self, packet_type: str, payload: dict[str, object]) -> None:
            if packet_type == "quit":
                self._lost("the browser tab was closed")
            else:
                super().on_meta(packet_type, payload)

        def run_input_thread(self) -> None:
            super().run_input_thread()
            if not self.exit_event.is_set():  # the end of input, not the app's own stop
                self._lost("the server went away")

        def start_application_mode(self) -> None:
            self._guarded(super().start_application_mode)  # (its first line is a write)
            ending = ending_of(self.owner)
            if ending is not None and ending.catches_signals:
                loop = asyncio.get_running_loop()
                for number in (signal.SIGINT, signal.SIGTERM):
                    loop.remove_signal_handler(number)
                ending.take_back_signals()

    _DRIVER = GuardedWebDriver
    return _DRIVER
