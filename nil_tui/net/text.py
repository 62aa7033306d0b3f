"""A shared table in plain lines: what ``nil-tui join`` shows until the table screen draws a
remote seat. It prints each position from the seat's view and reads card codes typed on
standard input (``QH``, ``TC``; ``r`` or Enter after a deal for the next one)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable

from ..engine import SEAT_NAMES
from .protocol import JSON


def _names(view: JSON) -> list[str]:
    seats = view.get("seats") or []
    return [str(s.get("name") or SEAT_NAMES[i]) for i, s in enumerate(seats)] or \
        list(SEAT_NAMES)


def describe_event(event: JSON, names: list[str]) -> str | None:
    kind = event.get("kind")
    who = names[event["seat"]] if isinstance(event.get("seat"), int) else ""
    if kind == "card":
        return f"{who} plays {event['card']}"
    if kind == "trick":
        return f"{names[event['winner']]} wins the trick"
    if kind == "deal":
        return f"Deal {event['deal']}: {names[event['dealer']]} deals"
    if kind == "deal_over":
        return "Deal over: points " + ", ".join(
            f"{names[s]} {p}" for s, p in enumerate(event["points"]))
    if kind == "game_over":
        losers = event.get("losers") or []
        return "Game over: " + (", ".join(names[s] for s in losers) + " under the table"
                                if losers else "a draw")
    if kind == "played_for":
        return f"({event['reason']}: {event['card']})"
    if kind == "away":
        return f"{who} has left the table; it waits {event['wait']:g} s for them"
    if kind == "stand_in":
        return f"A {event['bot']} bot plays for {who} until they are back"
    if kind == "back":
        return f"{who} is back"
    if kind == "joined":
        return f"{event.get('name', who)} sits down at {SEAT_NAMES[event['seat']]}"
    if kind == "left":
        return f"{SEAT_NAMES[event['seat']]} is free again"
    if kind == "started":
        return "The game starts"
    return None


def describe_view(view: JSON) -> list[str]:
    """The position in a few lines (only what the seat was sent)."""
    names = _names(view)
    seat = int(view["seat"])
    lines = [text for e in view.get("events", []) if (text := describe_event(e, names))]
    if view["phase"] == "playing":
        leader = int(view["leader"])
        trick = "  ".join(f"{names[(leader + k) & 3]} {c}" for k, c in enumerate(view["trick"]))
        lines.append(f"Deal {view['deal_number']} of {view['deals_planned']} · trick: "
                     f"{trick or '(none yet)'}")
        lines.append("Tricks taken: " + ", ".join(
            f"{names[s]} {t}" for s, t in enumerate(view["taken"])))
        lines.append("Your hand: " + " ".join(view["hand"]))
        if view.get("to_move") == seat:
            lines.append("Your turn. Legal: " + " ".join(view["legal"]) + "  > ")
        elif view.get("to_move") is not None:
            lines.append(f"{names[int(view['to_move'])]} to play")
    elif view["phase"] == "deal_over":
        lines.append("Totals: " + ", ".join(f"{names[s]} {t}"
                                             for s, t in enumerate(view["totals"])))
        lines.append("Press Enter (or r) for the next deal  > ")
    return lines


def describe_lobby(lobby: JSON, owner: bool) -> list[str]:
    lines = [text for e in lobby.get("events", []) if (text := describe_event(
        e, [str(s.get("name") or SEAT_NAMES[i]) for i, s in enumerate(lobby["seats"])]))]
    for s in lobby["seats"]:
        who = s["name"] if s["kind"] == "person" else "(empty: a bot will play)"
        lines.append(f"  {SEAT_NAMES[s['seat']]:6} {who}")
    if owner:
        lines.append("Type s and Enter to start the game  > ")
    return lines


class LineInput:
    """Lines typed on standard input, read without blocking the loop."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        loop = asyncio.get_running_loop()
        self._fd = sys.stdin.fileno() if sys.stdin is not None else -1
        if self._fd >= 0:
            loop.add_reader(self._fd, self._read)

    def _read(self) -> None:
        line = sys.stdin.readline()
        if not line:
            asyncio.get_running_loop().remove_reader(self._fd)
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(line.strip())

    def close(self) -> None:
        if self._fd >= 0:
            try:
                asyncio.get_running_loop().remove_reader(self._fd)
            except (ValueError, OSError):
                pass


def out(lines: list[str], write: Callable[[str], object] = print) -> None:
    for line in lines:
        write(line)
    if sys.stdout is not None:
        sys.stdout.flush()


__all__ = ["LineInput", "describe_event", "describe_lobby", "describe_view"]
