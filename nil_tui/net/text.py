"""A shared table in plain lines: what ``nil-tui join`` shows until the table screen draws a
remote seat. It prints what happened and the seat's state, from the session's values the
table sent, and reads card codes typed on standard input (``QH``, ``TC``; Enter after a deal
for the next one)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence

from ..engine import SEAT_NAMES
from ..session import protocol as session
from .protocol import JSON


def describe_news(news: session.Message, names: Sequence[str]) -> str | None:
    if isinstance(news, session.Played):
        return f"{names[news.seat]} plays {news.card}" + (" (forced)" if news.forced else "")
    if isinstance(news, session.TrickTaken):
        return f"{names[news.trick.winner]} wins the trick"
    if isinstance(news, session.DealBegun):
        return f"Deal {news.deal_number}: {names[news.dealer]} deals"
    if isinstance(news, session.DealOver):
        return "Deal over: points " + ", ".join(
            f"{names[s]} {p}" for s, p in enumerate(news.points))
    if isinstance(news, session.GameOver):
        losers = news.losers
        return "Game over: " + (", ".join(names[s] for s in losers) + " under the table"
                                if losers else "a draw")
    if isinstance(news, session.BotFailed):
        return f"({news.reason}: {news.card})"
    if isinstance(news, session.SeatReplaced):
        return f"({names[news.seat]}: {news.reason})"
    return None


def describe_notice(event: JSON, names: Sequence[str]) -> str | None:
    kind = event.get("kind")
    seat = event.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat <= 3 else ""
    if kind == "away":
        return f"{who} has left the table; it waits {event['wait']:g} s for them"
    if kind == "stand_in":
        return f"A {event['bot']} bot plays for {who} until they are back"
    if kind == "back":
        return f"{who} is back"
    if kind == "joined":
        return f"{event.get('name', who)} sits down at {SEAT_NAMES[seat or 0]}"
    if kind == "left":
        return f"{SEAT_NAMES[seat or 0]} is free again"
    if kind == "started":
        return "The game starts"
    return None


def describe_state(state: session.TableState) -> list[str]:
    """The position in a few lines (only what the seat was sent)."""
    names = state.names
    lines: list[str] = []
    if state.pace in ("your_turn", "bot_waits"):
        leader = state.leader
        trick = "  ".join(f"{names[(leader + k) & 3]} {c}" for k, c in enumerate(state.trick))
        lines.append(f"Deal {state.deal_number} of {state.deals_planned} · trick: "
                     f"{trick or '(none yet)'}")
        lines.append("Tricks taken: " + ", ".join(
            f"{names[s]} {t}" for s, t in enumerate(state.taken)))
        lines.append("Your hand: " + " ".join(str(c) for c in state.hand))
        if state.pace == "your_turn":
            lines.append("Your turn. Legal: " + " ".join(str(c) for c in state.legal) + "  > ")
        elif state.to_move is not None:
            lines.append(f"{names[state.to_move]} to play")
    elif state.pace == "deal_over":
        lines.append("Totals: " + ", ".join(f"{names[s]} {t}"
                                             for s, t in enumerate(state.totals)))
        lines.append("Press Enter for the next deal  > ")
    return lines


def describe_seats(message: JSON, owner: bool) -> list[str]:
    seats = message.get("seats", [])
    names = [str(s.get("name") or SEAT_NAMES[i]) for i, s in enumerate(seats)]
    lines = [text for e in message.get("events", []) if (text := describe_notice(e, names))]
    if message.get("type") == "lobby":
        for s in seats:
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


def out(lines: list[str]) -> None:
    for line in lines:
        print(line)
    if sys.stdout is not None:
        sys.stdout.flush()


__all__ = ["LineInput", "describe_news", "describe_seats", "describe_state"]
