"""Reading game record files: the one reader of ``.json`` and ``.jsonl`` files behind
``replay`` and ``analyse`` (docs/RECORDS.md).

A file is opened without blocking and must be a regular file, so a FIFO or a device never
hangs a command; a record is at most ``MAX_RECORD_BYTES`` (a ``.json`` file, or one line of
a ``.jsonl`` file, which may hold any number of records and is read a line at a time). What
cannot be read is a ``UsageError``: one line naming the file and the problem.

Imports nothing heavy: the engine is loaded only to check a record play by play.
"""

from __future__ import annotations

import json
import os
import stat
from typing import TYPE_CHECKING, Any, BinaryIO

from ..util.argtypes import UsageError, shown

if TYPE_CHECKING:
    from ..engine import Game

MAX_RECORD_BYTES = 10 * 1024 * 1024  # a record of 99 deals is about 100 kB (260 kB indented)


def reason(exc: BaseException) -> str:
    """Why an operation failed, in a few words (an OSError's own words)."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def _open(path: str) -> int:
    """A descriptor of the regular file ``path``, opened without blocking."""
    if not path:
        raise UsageError("expected a file name, got ''")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"{path}: is a folder, not a game record") from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"{path}: cannot read it ({reason(exc)})") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise UsageError(f"{path}: is a folder, not a game record")
        if not stat.S_ISREG(info.st_mode):
            raise UsageError(f"{path}: not a regular file (a device, a pipe or a socket)")
        if info.st_size > MAX_RECORD_BYTES and not path.endswith(".jsonl"):
            raise UsageError(f"{path}: too large for a game record ({info.st_size:,} bytes; "
                             f"the most is {MAX_RECORD_BYTES:,})")
    except BaseException:
        os.close(fd)
        raise
    return fd


def _whole(path: str, stream: BinaryIO) -> tuple[bytes, int]:
    """The bytes of a .json file (line 1 is where its JSON starts)."""
    data = stream.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:  # the file grew while it was read
        raise UsageError(f"{path}: too large for a game record (over {MAX_RECORD_BYTES:,} "
                         "bytes)")
    if not data.strip():
        raise UsageError(f"{path}: the file is empty")
    return data, 1


def _line(path: str, stream: BinaryIO, number: int) -> tuple[bytes, int]:
    """The ``number``-th non-blank line of a .jsonl file, and its line number in the file."""
    limit = MAX_RECORD_BYTES
    seen = 0
    lineno = 0
    while True:
        line = stream.readline(limit + 1)
        if not line:
            break
        lineno += 1
        if len(line) > limit and not line.endswith(b"\n"):
            where = f"record {seen + 1}" if seen or lineno > 1 else "its first record"
            raise UsageError(f"{path}: {where} (line {lineno}) is too large for a game "
                             f"record (over {limit:,} bytes)")
        if line.strip():
            seen += 1
            if seen == number:
                return line, lineno
    if not seen:
        if number == 1:
            raise UsageError(f"{path}: the file is empty")
        raise UsageError(f"{path}: holds no records, so there is no game {number}")
    raise UsageError(f"{path}: holds only {seen} record{'s' if seen > 1 else ''}, so there "
                     f"is no game {number}")


def _parse(path: str, data: bytes, lineno: int) -> dict[str, Any]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: not a JSON game record (not UTF-8 text: byte "
                         f"{exc.start})") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not a JSON game record ({exc.msg} at line "
                         f"{lineno + exc.lineno - 1}, column {exc.colno})") from None
    except RecursionError:
        raise UsageError(f"{path}: not a game record (its JSON is nested too deeply)") from None
    except ValueError:  # Python refuses to convert numbers of more than 4,300 digits
        raise UsageError(f"{path}: not a game record (it holds a number too long to "
                         "read)") from None
    if not isinstance(record, dict):
        raise UsageError(f"{path}: not a valid game record: a record must be a JSON object")
    return record


def read_record(path: str, number: int = 1) -> dict[str, Any]:
    """Record ``number`` (from 1) of a .json file (which holds one) or a .jsonl file (one per
    line, blank lines skipped), as a dict; UsageError when it cannot be read as JSON (the
    record's own checks come after, in ``load_game``)."""
    jsonl = path.endswith(".jsonl")
    if number != 1 and not jsonl:
        raise UsageError(f"{path}: a .json file holds one game record (--game {number} needs "
                         "a .jsonl file)")
    fd = _open(path)
    try:
        with os.fdopen(fd, "rb") as stream:
            data, lineno = _line(path, stream, number) if jsonl else _whole(path, stream)
    except OSError as exc:
        raise UsageError(f"{path}: cannot read it ({reason(exc)})") from None
    return _parse(path, data, lineno)


def load_game(path: str, number: int = 1) -> Game:
    """Game ``number`` of a record file, checked play by play by the engine; UsageError (one
    line naming the field) when it is not a valid record."""
    from ..engine import Game, RecordError

    record = read_record(path, number)
    where = path if number == 1 else f"{path} (game {number})"
    try:
        return Game.from_record(record)
    except RecordError as exc:
        raise UsageError(f"{where}: not a valid game record: {exc}") from None
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError,
            OverflowError) as exc:
        raise UsageError(f"{where}: not a valid game record ({type(exc).__name__}: "
                         f"{shown(str(exc))})") from None
