"""A shared table in plain lines: what ``nil-tui join`` shows until the table screen draws a
remote seat. It prints what happened and the seat's state, from the session's values the
table sent, and reads card codes typed on standard input (``QH``, ``TC``; Enter after a deal
for the next one)."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Sequence

from ..engine import SEAT_NAMES, Card
from ..session import protocol as session
from .protocol import JSON
from .remote import DealSeen, Seen, caught_up, read_deals, seen_of, turn_state


def describe_news(news: session.Message, names: Sequence[str],
                  me: int | None = None) -> str | None:
    """A piece of news in one line (``me``: the seat it is told to, "you")."""
    if isinstance(news, session.BotFailed) and news.seat == me:
        return f"Played for you: {news.card} ({news.reason})"
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
    """Lines from standard input, read without blocking the loop.

    A terminal or a pipe is read as its lines come (``live``). A file, or ``/dev/null``,
    cannot be watched by the loop (epoll refuses them, EPERM) and has every line ready: it
    is read one line each time the game asks for one (:meth:`want`), as a person types at
    each prompt. ``ended`` once there is nothing more to read (or no standard input at all);
    the queue then gets None."""

    def __init__(self, fd: int | None = None) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.ended = False
        self.live = False
        self._asked: object = None
        self._buffer = b""
        self._fd = _stdin_fd() if fd is None else fd
        if self._fd < 0:
            self._end()
            return
        try:
            asyncio.get_running_loop().add_reader(self._fd, self._readable)
            self.live = True
        except PermissionError:
            pass  # a file: read at each prompt

    def want(self, prompt: object) -> None:
        """The game waits for a line at ``prompt`` (any value naming it): from a file, the
        next line is read now, once for each prompt (again after :meth:`again`)."""
        if prompt == self._asked:
            return
        self._asked = prompt
        if not self.live:
            while not self.ended and b"\n" not in self._buffer:
                self._take()
            self._pass_lines(1)

    def again(self) -> None:
        """The last line did nothing (refused, or not understood): the same prompt reads
        another."""
        self._asked = None

    def _readable(self) -> None:
        self._take()
        self._pass_lines()

    def _take(self) -> None:
        try:
            chunk = os.read(self._fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if chunk:
            self._buffer += chunk
            return
        if self._buffer:  # the last line had no newline
            self._buffer += b"\n"
        self._pass_lines()
        self._end()

    def _pass_lines(self, most: int = -1) -> None:
        while b"\n" in self._buffer and most != 0:
            line, self._buffer = self._buffer.split(b"\n", 1)
            self.queue.put_nowait(line.decode("utf-8", "replace").strip())
            most -= 1

    def _end(self) -> None:
        if self.ended:
            return
        self.ended = True
        self.close()
        self.queue.put_nowait(None)

    def close(self) -> None:
        if self.live:
            self.live = False
            try:
                asyncio.get_running_loop().remove_reader(self._fd)
            except (ValueError, OSError, RuntimeError):
                pass


def _stdin_fd() -> int:
    try:
        return sys.stdin.fileno() if sys.stdin is not None else -1
    except (OSError, ValueError):  # closed, or not a file
        return -1


class Missed:
    """What a seat played in plain lines missed while its link was down (the cards a bot
    played for it, the tricks, the deals' results), told in lines once it is back, from the
    position it comes back to and the deals the table tells it of."""

    def __init__(self, me: int) -> None:
        self.me = me
        self.deals: dict[int, DealSeen] = {}
        self.played_for: dict[tuple[int, int, Card], str] = {}
        self.last: session.TableState | None = None
        self.since: Seen | None = None

    def lost(self) -> None:
        """The link is down: what was heard so far is what the seat saw."""
        if self.last is not None and self.since is None:
            self.since = seen_of(self.last)

    def heard(self, message: object) -> list[str]:
        """Lines to print before ``message`` is shown: the news missed, once back."""
        if isinstance(message, dict) and message.get("type") == "deals":
            read_deals(message, self.me, self.deals, self.played_for)
            return []
        if not isinstance(message, session.TableState):
            return []
        state = turn_state(message, self.me)
        self.last = state
        if state.hands_dealt is not None:
            self.deals[state.deal_number] = DealSeen(state.dealer, state.plays,
                                                      state.hands_dealt, ())
        since, self.since = self.since, None
        if since is None:
            return []
        lines = [text for news in caught_up(since, state, self.deals, self.played_for)
                 if (text := describe_news(news, state.names, 0))]
        return ["While you were away:", *lines] if lines else []


def out(lines: list[str]) -> None:
    for line in lines:
        print(line)
    if sys.stdout is not None:
        sys.stdout.flush()


__all__ = ["LineInput", "Missed", "describe_news", "describe_seats", "describe_state"]
