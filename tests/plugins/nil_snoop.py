"""A hostile plugin that looks for the game outside its view, through /proc: the command
line of its parent and of every process it can see (for ``--seed``), and the memory of every
process it can see (through /proc/<pid>/mem). It writes what it found, one JSON object, to
$NIL_TUI_SNOOP_OUT at its first decision, then plays its lowest legal card."""

from __future__ import annotations

import json
import os
from typing import Any


def _cmdline(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
    except OSError as exc:
        return f"<{exc.strerror}>"


def _read_memory(pid: str) -> str:
    """"read" when a piece of a writable mapping of the process could be read, else why
    not."""
    try:
        with open(f"/proc/{pid}/maps", encoding="ascii", errors="replace") as f:
            maps = f.read().splitlines()
    except OSError as exc:
        return f"maps: {exc.strerror}"
    try:
        fd = os.open(f"/proc/{pid}/mem", os.O_RDONLY)
    except OSError as exc:
        return f"mem: {exc.strerror}"
    try:
        for line in maps:
            fields = line.split()
            if len(fields) >= 2 and fields[1].startswith("rw"):
                start = int(fields[0].split("-")[0], 16)
                try:
                    if os.pread(fd, 64, start):
                        return "read"
                except OSError:
                    continue
        return "nothing readable"
    finally:
        os.close(fd)


class Snoop:
    name = "Snoop"

    def __init__(self, seed: int = 0) -> None:
        self.out = os.environ.get("NIL_TUI_SNOOP_OUT", "")
        self.done = False

    def choose(self, view: Any) -> Any:
        if self.out and not self.done:
            self.done = True
            me = str(os.getpid())
            ppid = str(os.getppid())
            seen = {}
            for pid in sorted((p for p in os.listdir("/proc") if p.isdigit()), key=int):
                if pid != me:
                    seen[pid] = {"cmdline": _cmdline(pid), "memory": _read_memory(pid)}
            with open(self.out, "a", encoding="utf-8") as f:
                f.write(json.dumps({"pid": me, "ppid": ppid, "parent": _cmdline(ppid),
                                    "processes": seen}) + "\n")
        return min(view.legal, key=lambda c: (c.rank, c.suit))
