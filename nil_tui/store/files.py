"""Files beside the database: record files written whole, damaged data set aside (kept, never
deleted), and JSON read without ever raising on hostile nesting."""

from __future__ import annotations

import datetime as _dt
import json
import os
import tempfile
import threading
from pathlib import Path
from typing import Any


class JSONDamage(ValueError):
    """Stored text that is not the JSON expected; the message says why in plain words."""


def now_utc() -> str:
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def stamp() -> str:
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d_%H-%M-%S")


def loads(text: object) -> Any:
    """``json.loads`` that raises only JSONDamage: for text that is not JSON, and for JSON
    nested too deeply to read (which would otherwise raise RecursionError)."""
    if not isinstance(text, (str, bytes)):
        raise JSONDamage("it is not text")
    try:
        return json.loads(text)
    except RecursionError:
        raise JSONDamage("it is nested too deeply to read") from None
    except ValueError as exc:
        raise JSONDamage(f"it is not readable JSON ({exc})") from None


def loads_object(text: object) -> dict[str, Any]:
    value = loads(text)
    if not isinstance(value, dict):
        raise JSONDamage("it is not a JSON object")
    return value


def loads_or(text: object, default: Any) -> Any:
    try:
        return loads(text)
    except JSONDamage:
        return default


def dumps(value: object) -> str:
    """Compact JSON; raises JSONDamage for what cannot be written (too deep, huge integers)."""
    try:
        return json.dumps(value, separators=(",", ":"))
    except RecursionError:
        raise JSONDamage("it is nested too deeply to write") from None
    except (TypeError, ValueError) as exc:
        raise JSONDamage(f"it cannot be written as JSON ({exc})") from None


def unique(path: Path) -> Path:
    if not path.exists():
        return path
    for n in range(2, 10_000):
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
        if not candidate.exists():
            return candidate
    raise OSError(f"too many files named like {path.name}")  # pragma: no cover


def _link_new(tmp: Path, path: Path) -> Path:
    for n in range(1, 10_000):
        target = path if n == 1 else path.with_name(f"{path.stem}-{n}{path.suffix}")
        try:
            os.link(tmp, target)
        except FileExistsError:
            continue
        except OSError:  # no hard links here: claim the name, then replace it
            try:
                os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
            except FileExistsError:
                continue
            os.replace(tmp, target)
        return target
    raise OSError(f"too many files named like {path.name}")  # pragma: no cover


def write_new(path: Path, text: str) -> Path:
    """Write a new file whole (a temporary file, then linked in under a name nobody has
    taken, even another instance at the same moment); returns the name it got."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        return _link_new(tmp, path)
    finally:
        try:
            tmp.unlink()
        except OSError:
            pass


def set_aside(folder: Path, name: str, content: dict[str, Any]) -> Path:
    """Keep data that cannot be used as a JSON file ``name`` in ``folder`` (beside the
    database); raises OSError when it cannot be written. Text that is not JSON is kept as
    text."""
    folder.mkdir(parents=True, exist_ok=True)
    return write_new(folder / name, json.dumps(content, indent=1) + "\n")


def keep_text(text: object) -> Any:
    """Stored JSON text as it will be kept in a set-aside file: parsed when that is safe,
    else the text itself."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    try:
        value = loads(text)
        json.dumps(value, indent=1)  # what set_aside will do with it
    except (JSONDamage, RecursionError, ValueError):
        return text
    return value


def move_aside(path: Path) -> Path | None:
    """Rename a damaged store (and its journal files) to ``<name>.damaged-<time>``."""
    target = unique(path.with_name(f"{path.name}.damaged-{stamp()}"))
    try:
        if path.exists():
            os.replace(path, target)
        for suffix in ("-wal", "-shm", "-journal"):
            side = path.with_name(path.name + suffix)
            if side.is_file() and not side.is_symlink():  # only SQLite's own files
                os.replace(side, target.with_name(target.name + suffix))
    except OSError:
        return None
    return target


def fallback_records_dir() -> Path:
    return Path(tempfile.gettempdir()) / "nil-tui-records"


def plain(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text[0].lower() + text[1:]
