"""The daily duplicate challenge, without a screen.

Everyone who plays the challenge of a date gets the same deals (seeded from the date alone)
against the same three expert bots. When it ends, the player's points are compared deal by
deal with the expert's on the very same cards: the expert plays the player's seat against the
same three bots (same seeds, same budgets), and the difference says who played them better.

The expert's game (the *reference*) takes a minute or more of CPU, so the app computes it in a
process of its own while the player plays (:class:`ReferenceProcess`), at the lowest priority
(it takes only the CPU the table leaves), and keeps it, so each date is worked out once. It counts work, never time, so it is the same on every machine.
"""

from __future__ import annotations

import datetime
import hashlib
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine import SEAT_NAMES, Challenge, Game, Phase
from ..engine.deal import TRICKS_PER_DEAL as TRICKS  # progress counts tricks (an early end: 13)
from ..util.processes import start_resource_tracker

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from .driver import Opener

CHALLENGE_DEALS = 4
CHALLENGE_BOTS = ("expert", "expert", "expert")
REFERENCE_LEVEL = "expert"  # who plays the player's seat in the reference game
REFERENCE_VERSION = 1  # bump when the reference game changes (the release is in the key too)

_SEED_TEXT = "nil-tui daily duplicate challenge"


def today() -> str:
    """Today's date where the player is (the local calendar), written YYYY-MM-DD."""
    return datetime.date.today().isoformat()


def check_date(date: str) -> str:
    """The date itself when it is a real date written YYYY-MM-DD; ValueError otherwise."""
    from ..engine.records import is_date

    if not is_date(date):
        raise ValueError(f"expected a date written YYYY-MM-DD, got {date!r}")
    return date


def record_date(record: object) -> str | None:
    """The date of the daily challenge a game record (or saved game) is, or None when it is
    not one (or says so in a form that is not a date)."""
    found = record.get("challenge") if isinstance(record, dict) else None
    date = found.get("date") if isinstance(found, dict) else None
    try:
        return check_date(date) if isinstance(date, str) else None
    except ValueError:
        return None


def is_future(date: str) -> bool:
    """A date after today where the player is: its challenge is not open yet."""
    return check_date(date) > today()


def challenge_seed(date: str) -> int:
    """The game seed of the challenge of ``date``: the same on every machine and every Python
    (a SHA-256 of a fixed text and the date, 48 bits)."""
    digest = hashlib.sha256(f"{_SEED_TEXT}:{check_date(date)}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def reference_key(date: str) -> str:
    """Where the store keeps the reference of a date (see ``Store.remember``). It names the
    release too: the bots of another release may play the same deals differently, and the
    reference must be what the player's opponents would have done in the player's seat."""
    from .. import __version__

    return f"challenge-reference:v{REFERENCE_VERSION}:{__version__}:{check_date(date)}"


def challenge_players(first: dict[str, Any]) -> list[dict[str, Any]]:
    return [first] + [{"name": SEAT_NAMES[seat], "kind": "bot", "bot": spec}
                      for seat, spec in zip((1, 2, 3), CHALLENGE_BOTS)]


def challenge_game(date: str) -> Game:
    """The challenge of ``date`` as the player plays it: a person in seat 0 against three
    experts, the deals fixed by the date; the reference is not known yet."""
    game = Game(CHALLENGE_DEALS, challenge_seed(date),
                players=challenge_players({"name": SEAT_NAMES[0], "kind": "human"}))
    game.challenge = Challenge(date)
    return game


def reference_game(date: str) -> Game:
    """The same game with the expert in seat 0: each seat's bot gets the seed it gets in the
    player's game (the driver derives it from the game's seed and the seat), so the three
    opponents are the very same bots."""
    return Game(CHALLENGE_DEALS, challenge_seed(date),
                players=challenge_players({"name": SEAT_NAMES[0], "kind": "bot",
                                           "bot": REFERENCE_LEVEL}))


def reference_points(date: str, progress: Callable[[int, int], object] | None = None,
                     should_stop: Callable[[], bool] | None = None, *,
                     opener: Opener | None = None,
                     deals: int | None = None) -> list[int] | None:
    """The expert's points from seat 0 on each deal of the challenge of ``date``, playing
    against the same three experts as the player. Blocking and CPU heavy (about a minute);
    deterministic: the bots are built without a wall-clock cap, so only their work budgets
    decide, and every run on every machine gives the same list.

    ``progress(done, total)`` is told the tricks played so far out of ``13 * deals`` (a deal
    that ends early counts its 13); ``should_stop()`` is asked before each card: when it says
    so, None is returned. ``opener`` (tests) opens the bots instead of the built-in levels
    without a cap; ``deals`` (tests) plays only the first deals."""
    from ..engine import DealEnded, TrickWon
    from .driver import GameDriver, default_opener

    game = reference_game(date)
    planned = CHALLENGE_DEALS if deals is None else max(1, min(deals, CHALLENGE_DEALS))
    total = TRICKS * planned
    points: list[int] = []

    def heard(event: object) -> None:
        if isinstance(event, TrickWon) and progress is not None:
            progress(len(points) * TRICKS + (
                TRICKS if game.deal.is_over else len(game.deal.tricks)), total)
        elif isinstance(event, DealEnded):
            points.append(event.points[0])

    with GameDriver(game, opener=opener or default_opener(time_cap=None)) as driver:
        if progress is not None:
            progress(0, total)
        driver.run(heard, deals=planned, should_stop=should_stop)
    return None if game.phase is Phase.PLAYING else points


def valid_reference(value: object, deals: int = CHALLENGE_DEALS) -> list[int] | None:
    """The reference in ``value`` (a list of points, or a store entry ``{"points": [...]}``)
    when it is well formed (the records' rule); None otherwise."""
    from ..engine.records import RecordError, read_reference

    if isinstance(value, dict):
        value = value.get("points")
    try:
        return read_reference(value, deals)
    except RecordError:
        return None


# --- the comparison ------------------------------------------------------------------------
@dataclass(frozen=True)
class DealComparison:
    deal: int  # 1-based
    yours: int | None  # None: the deal was not played (yet)
    expert: int | None  # None: the reference is not known yet

    @property
    def difference(self) -> int | None:
        if self.yours is None or self.expert is None:
            return None
        return self.yours - self.expert


def player_points(game: Game) -> list[int | None]:
    """Seat 0's points on each planned deal of the game (None for a deal not finished)."""
    out: list[int | None] = [None] * game.deals_planned
    for k, deal in enumerate(game.deals):
        if deal.is_over:
            out[k] = deal.points[0]
    return out


def compare(game: Game, reference: list[int] | None) -> list[DealComparison]:
    """Deal by deal: the player's points, the expert's from the same seat."""
    yours = player_points(game)
    return [DealComparison(k + 1, yours[k],
                           None if reference is None or k >= len(reference) else reference[k])
            for k in range(game.deals_planned)]


def totals(rows: list[DealComparison]) -> tuple[int, int | None, int | None]:
    """The player's total, the expert's (None until known) and the difference."""
    yours = sum(r.yours or 0 for r in rows)
    if any(r.expert is None for r in rows):
        return yours, None, None
    expert = sum(r.expert or 0 for r in rows)
    return yours, expert, yours - expert


def verdict(difference: int) -> str:
    """What the total difference means, in the player's words."""
    if difference > 0:
        unit = "point" if difference == 1 else "points"
        return f"You beat the expert by {difference} {unit} on the same cards."
    if difference < 0:
        unit = "point" if difference == -1 else "points"
        return f"The expert scored {-difference} {unit} more than you on the same cards."
    return "You scored as many points as the expert on the same cards: a tie."


# --- the reference in a process of its own -----------------------------------------------
@dataclass(frozen=True)
class Progress:
    done: int
    total: int

    @property
    def deal(self) -> int:
        """The deal being played (1-based), or the last one when all are done."""
        return min(self.done // TRICKS + 1, max(1, self.total // TRICKS))

    @property
    def deals(self) -> int:
        return max(1, self.total // TRICKS)


@dataclass(frozen=True)
class Finished:
    points: list[int]


@dataclass(frozen=True)
class Failed:
    reason: str


ReferenceNews = Progress | Finished | Failed


_REFERENCE = "nil_tui.game.daily_challenge:reference_points"  # what the process calls ("module:name")


def _child(date: str, target: str, results: Connection, lifeline: Connection) -> None:
    """The reference's process: works it out, telling the parent how far it got. It ends as
    soon as its lifeline breaks (the parent closed it, or ended in any way, even killed)."""

    def watch() -> None:
        try:
            lifeline.recv()
        except (EOFError, OSError):
            pass
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()
    try:  # nothing it writes may reach the player's terminal (the app draws there)
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 1)
        os.dup2(quiet, 2)
        os.close(quiet)
    except OSError:
        pass
    lowest_priority(0)  # (set by the parent too: once more, should that have failed)
    try:
        import importlib

        module, _, name = target.partition(":")
        work = getattr(importlib.import_module(module), name)
        points = work(date, lambda done, total: results.send(("progress", done, total)))
        results.send(("done", points))
    except Exception as exc:  # noqa: BLE001 - the parent is told, in a few words
        from .driver import short_text

        results.send(("failed", short_text(exc)))
    finally:
        results.close()


def lowest_priority(pid: int) -> None:
    """Run process ``pid`` (0: this one) only on what the player's table leaves: the lowest
    niceness (19) and, on Linux, the idle scheduling class (a CPU time slice only when no
    other process wants one). The reference is work the player did not ask for: it must
    never slow the bots at the table."""
    try:
        os.setpriority(os.PRIO_PROCESS, pid, 19)
    except (AttributeError, OSError):
        pass
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is not None:
        try:
            os.sched_setscheduler(pid, idle, os.sched_param(0))
        except OSError:
            pass


class ReferenceProcess:
    """The reference of one date, worked out in a process of its own (started with "spawn":
    the app has threads, so never forked). ``news()`` yields what the process says, ending
    with :class:`Finished` or :class:`Failed`; ``stop()`` ends the process at once. The
    process also ends by itself whenever its parent does."""

    def __init__(self, date: str) -> None:
        self.date = check_date(date)
        start_resource_tracker()
        context = multiprocessing.get_context("spawn")
        self._results, child_results = context.Pipe(duplex=False)
        child_lifeline, self._lifeline = context.Pipe(duplex=False)
        self._process = context.Process(target=_child, name=f"nil-tui reference {date}",
                                        args=(date, _REFERENCE, child_results,
                                              child_lifeline),
                                        daemon=True)
        self._process.start()
        if self._process.pid is not None:  # at once, before it has even imported the game
            lowest_priority(self._process.pid)
        child_results.close()  # the child holds its own ends: EOF comes when it is gone
        child_lifeline.close()
        self._stopped = False

    @property
    def pid(self) -> int | None:
        return self._process.pid

    @property
    def alive(self) -> bool:
        return self._process.is_alive()

    def news(self, should_stop: Callable[[], bool] | None = None,
             poll: float = 0.25) -> Iterator[ReferenceNews]:
        """What the process says, until it has finished (or failed, or ``should_stop()``)."""
        while not self._stopped:
            if should_stop is not None and should_stop():
                return
            try:
                if not self._results.poll(poll):
                    continue
                message = self._results.recv()
            except (EOFError, OSError):
                if not self._stopped:
                    code = self._process.exitcode
                    yield Failed("the expert's process ended early"
                                 + (f" (exit status {code})" if code else ""))
                return
            kind = message[0] if isinstance(message, tuple) and message else None
            if kind == "progress":
                yield Progress(int(message[1]), int(message[2]))
            elif kind == "done":
                points = valid_reference(message[1])
                yield Finished(points) if points is not None else Failed(
                    f"the expert's process answered {message[1]!r}")
                return
            else:
                yield Failed(str(message[1]) if kind == "failed" else
                             f"the expert's process answered {message!r}")
                return

    def stop(self) -> None:
        """End the process now (idempotent; never waits long)."""
        if self._stopped:
            return
        self._stopped = True
        for conn in (self._lifeline, self._results):
            try:
                conn.close()
            except OSError:
                pass
        process = self._process
        if process.is_alive():
            process.terminate()
        process.join(1.0)
        if process.is_alive():
            process.kill()
            process.join(1.0)


__all__ = ["CHALLENGE_BOTS", "CHALLENGE_DEALS", "DealComparison", "Failed", "Finished",
           "Progress", "ReferenceProcess", "challenge_game", "challenge_seed", "compare",
           "is_future", "record_date", "reference_key", "reference_points", "today", "totals",
           "valid_reference", "verdict"]
