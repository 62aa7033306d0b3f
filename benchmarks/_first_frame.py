"""Run a program until its first frame: the bare Textual app of ``startup.py``, or nil-tui, in
this process, ended the moment Textual has written a text holding the marker. ``startup.py
--instructions`` runs each program so under valgrind, to count the instructions to the first
frame. It imports as little as it can: whatever it loads is counted for both programs.

    python benchmarks/_first_frame.py MARKER bare
    python benchmarks/_first_frame.py MARKER nil-tui play --seed 1
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import os
import re
import sys

BARE_APP = """
from textual.app import App
from textual.widgets import Static

class Bare(App):
    def compose(self):
        yield Static("bare-app-ready")

Bare().run()
"""

ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[a-zA-Z]")  # styles between the words of a line


def end_at(marker: bytes) -> None:
    """Once Textual's terminal driver is imported (not before: the programs import Textual
    when and as they do), make it end the process as soon as the text written so far holds
    ``marker``."""
    seen: list[bytes] = []

    def patch(driver: type) -> None:
        write = driver.write  # type: ignore[attr-defined]

        def write_then_end(self: object, data: str) -> None:
            write(self, data)
            seen.append(data.encode("utf-8", "replace"))
            if marker in ESCAPES.sub(b"", b"".join(seen)):
                os._exit(0)

        driver.write = write_then_end  # type: ignore[attr-defined]

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):  # type: ignore[no-untyped-def]
            if name != "textual.drivers.linux_driver":
                return None
            sys.meta_path.remove(self)
            spec = importlib.util.find_spec(name)
            load = spec.loader.exec_module

            def load_then_patch(module):  # type: ignore[no-untyped-def]
                load(module)
                patch(module.LinuxDriver)

            spec.loader.exec_module = load_then_patch
            return spec

    sys.meta_path.insert(0, Finder())


def main() -> int:
    marker, program, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    end_at(marker.encode("utf-8"))
    if program == "bare":
        exec(BARE_APP, {"__name__": "__main__"})  # noqa: S102 - the text timed by startup.py
        return 0
    from nil_tui.commands import main as nil_tui

    sys.argv = ["nil-tui", *args]
    return nil_tui()


if __name__ == "__main__":
    raise SystemExit(main())
