"""The command line, on top of everything: ``nil-tui`` and its commands (:mod:`.cli`), the
analysis command (:mod:`.analyse`), ``host`` and ``join`` (:mod:`.table`) and ``serve``
(:mod:`.serve`). Nothing in nil-tui imports this package: it imports the rest, lazily where
that keeps Textual out of the commands that do not draw."""

from __future__ import annotations

from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """``nil-tui``: run the command line (see :func:`nil_tui.commands.cli.main`)."""
    from .cli import main as run

    return run(argv)


__all__ = ["main"]
