"""The command line, on top of everything: ``nil-tui`` and its commands (:mod:`.cli`), the
analysis command (:mod:`.analyse`), ``host`` and ``join`` (:mod:`.table`) and ``serve``
(:mod:`.serve`). Nothing in nil-tui imports this package: it imports the rest, lazily where
that keeps Textual out of the commands that do not draw."""

from __future__ import annotations

from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """``nil-tui``: run the command line (see :func:`nil_tui.commands.cli.main`). It starts
    quickly (``first_frame.quick_start``): most commands draw the app, and the imports before
    its first frame are most of the wait; one that does not draw it ends the quick start as
    soon as it is known (``cli._run``)."""
    from ..tui import first_frame

    first_frame.quick_start()
    try:
        from .cli import main as run

        return run(argv)
    finally:
        first_frame.quick_start_over()


__all__ = ["main"]
