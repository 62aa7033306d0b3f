"""Crash reports: an unexpected error's traceback, the versions and what became of the game,
written to ``crash-<stamp>.log`` in the data folder (else the temporary folder), so the
terminal (or the browser tab) gets one line saying where it is, not a screenful."""

from __future__ import annotations

import datetime as _dt
import platform
import sys
import traceback
from pathlib import Path


def data_folder() -> Path | None:
    try:
        from ..util.paths import default_home

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


def versions() -> str:
    from .. import __version__

    try:
        from importlib.metadata import version

        textual = version("textual")
    except Exception:  # noqa: BLE001 - the report is written without it
        textual = "?"
    return (f"nil-tui {__version__}, Textual {textual}, Python {platform.python_version()} "
            f"on {platform.platform()}")


def describe(error: BaseException) -> tuple[str, str]:
    """The traceback of ``error`` (of the error a failed worker wraps) and its one-line
    summary."""
    inner = getattr(error, "error", None)
    cause = inner if isinstance(inner, BaseException) else error
    text = "".join(traceback.format_exception(type(cause), cause, cause.__traceback__))
    return text, f"{type(cause).__name__}: {cause}".strip().rstrip(":")


def report_text(crash: str, saved: str) -> str:
    """A report's contents: when, the command, the versions, the game, the traceback."""
    return (f"nil-tui crash report, {_dt.datetime.now().isoformat(timespec='seconds')}\n"
            f"Command: {' '.join(['nil-tui', *sys.argv[1:]])}\n"
            f"{versions()}\n"
            f"Game in progress: {saved}\n\n{crash}")


def crash_line(command: str, summary: str, report: Path | None, saved: str) -> str:
    """The one line a crash leaves on stderr."""
    first = summary.splitlines()[0][:200] if summary else "error"
    where = (f"the full report is in {report}" if report is not None
             else "no report could be written")
    line = f"{command}: stopped by an unexpected error ({first}); {where}."
    if saved == "saved":
        line += " Your game is saved: nil-tui resume continues it."
    return line
