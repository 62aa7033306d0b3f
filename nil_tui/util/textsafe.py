"""Text made safe for a terminal, and the command line's standard output.

A text that comes from a record, a plugin or the store may hold bytes a terminal obeys: ESC
starts a sequence that can set the window's title, clear the screen or move the cursor, BEL
rings, CR and a newline break a line apart, NUL and DEL are invisible. Before such text
reaches a terminal, each of these characters is shown as its escape (``\\x1b``, ``\\n``,
``\\u202e``): the text stays readable and one line, and nothing in it is obeyed.

What counts (``unsafe()``): the C0 controls (U+0000-U+001F), DEL and the C1 controls
(U+007F-U+009F), the line and paragraph separators (U+2028, U+2029), the marks that turn the
direction of text (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), and lone surrogates
(which no terminal encoding can write). The record reader escapes the same characters in the
texts it reads (``nil_tui.engine.records.CONTROL``; a test keeps the two equal).

Imports only the standard library: the command line uses it before anything else is loaded.
"""

from __future__ import annotations

import errno
import functools
import re
import sys
from typing import Any, TextIO

UNSAFE_CLASS = ("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
                "\u2066-\u2069\ud800-\udfff]")
"""The unsafe characters, as a regular expression's class."""


@functools.cache
def unsafe() -> re.Pattern[str]:
    """``UNSAFE_CLASS`` compiled, the first time it is needed (compiling it takes about a
    millisecond, and a game's first frame shows no text that needs it)."""
    return re.compile(UNSAFE_CLASS)


_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    code = ord(ch)
    return _SHORT.get(ch) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def has_control(text: str) -> bool:
    """Whether ``text`` holds a character a terminal would obey (or cannot write)."""
    return unsafe().search(text) is not None


def one_line(text: object) -> str:
    """``text`` (made a string if it is not one) on one line with nothing a terminal obeys:
    each unsafe character, a newline and a tab included, written as its escape."""
    text = text if isinstance(text, str) else str(text)
    return unsafe().sub(_escape, text)


def lines(text: str) -> str:
    """``text`` with its newlines and tabs kept and every other unsafe character escaped:
    for output of several lines (a table, a JSON document) whose parts are already one line
    each. Within a JSON string an escape it writes is not valid JSON; ``json.dumps`` leaves
    none there (it writes every character below U+0020 as ``\\u00XX``) but DEL, which it
    writes raw: so a DEL is written ``\\u007f`` here, the same character in JSON."""
    return unsafe().sub(_keep_lines_json, text)


def _keep_lines_json(match: re.Match[str]) -> str:
    ch = match.group()
    if ch in "\n\t":
        return ch
    return f"\\u{ord(ch):04x}"


class OutputError(Exception):
    """Standard output cannot be written (a full disk, a closed descriptor): one line, exit
    status 2. A reader that went away (a broken pipe) is not an error and prints nothing."""

    def __init__(self, exc: OSError) -> None:
        self.exc = exc
        super().__init__(f"cannot write the output ({exc.strerror or exc})")


def write_out(text: str) -> None:
    """Write ``text`` to standard output and flush it; OutputError (or BrokenPipeError) if
    it cannot be written, so the failure is reported here and not at exit. Nothing a
    terminal obeys gets through (``lines``): what a command prints may come from a record,
    a plugin or the store."""
    out = sys.stdout
    if out is None:  # started with standard output closed
        raise OutputError(OSError(errno.EBADF, "standard output is closed"))
    try:
        out.write(lines(text))
        out.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(exc) from None


class SafeStream:
    """A text stream that writes through another with every unsafe character escaped but
    newlines, tabs and carriage returns (a progress line rewrites itself with CR): for the
    standard error of a command whose messages quote a file name or a plugin's words."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(layout(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _keep_layout(match: re.Match[str]) -> str:
    ch = match.group()
    return ch if ch in "\n\t\r" else _escape(match)


def layout(text: str) -> str:
    """``text`` with its newlines, tabs and carriage returns kept and every other unsafe
    character escaped as ``one_line`` does (``\x1b``): messages of several lines."""
    return unsafe().sub(_keep_layout, text)


def write_err(line: str) -> None:
    """One line on standard error, made safe (``one_line``); nothing if it cannot be written
    (there is nowhere left to say so)."""
    err = sys.stderr
    if err is None:
        return
    try:
        err.write(one_line(line) + "\n")
        err.flush()
    except (OSError, ValueError):
        pass
