"""What a shared table does by itself, in time: the bots' cards, the pause after a deal, the
stand-in bot for a person away or silent too long, and in the lobby the seats of those gone
too long freed. One task per table wakes when something may be due (a person acted, a
timer ran out) and does every step that is due, in order; the table (:mod:`.table`) takes
the players' requests and tells the seats.

One rule for a person the table waits for: away (their connection is gone), it waits the
away timeout; here but silent on their turn, the turn timeout; then the stand-in bot plays
for them until they are back or play again. A silent player still has a moment on each of
their turns (:data:`SILENT_GRACE`) to play their card themselves and so be back.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from ...engine import Card, DealEnded, Game, Phase
from ...game.driver import Decision, DriverEvent, GameDriver, Opener, default_opener
from .config import TableConfig
from .member import STAND_IN, Notice, StandIn
from .seating import Seat, Seating

if TYPE_CHECKING:
    from ...game.driver import Player


SILENT_GRACE = 10.0
"""Seconds the stand-in waits on each turn of a player who is connected but was silent
(the turn timeout, if shorter): the player can play that card and be back."""


class TimedTable(Protocol):
    """What the clock needs of the table it works for (:class:`.table.Table` is one): its
    settings, who sits where, the game and its driver, and the steps the clock has it take
    (each told to the seats by the table)."""

    @property
    def config(self) -> TableConfig: ...

    @property
    def seating(self) -> Seating: ...

    @property
    def game(self) -> Game | None: ...

    @property
    def driver(self) -> GameDriver | None: ...

    @property
    def opener(self) -> Opener | None: ...

    @property
    def turn(self) -> int: ...

    def tell(self, events: list[DriverEvent], notices: list[Notice] | None = None) -> None:
        ...

    def play_bot(self, decision: Decision) -> bool: ...

    def play_stand_in(self, seat_number: int, card: Card) -> None: ...

    def deal_next(self) -> None: ...


class Clock:
    """The work in time of one table (see the module)."""

    def __init__(self, table: TimedTable) -> None:
        self.table = table
        self.held: Decision | None = None
        """A bot's card decided as the last person left: played once someone is back."""
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._stand_ins: dict[int, Player] = {}
        self._timers: list[asyncio.TimerHandle] = []
        self._turn_wait: tuple[int, float] | None = None  # (turn, since) for a person here
        self._turn_timer: asyncio.TimerHandle | None = None
        self._closed = False
        self.deal_over_at: float | None = None

    def begin(self) -> None:
        """Start on the running loop; the people of a game brought back are away until they
        join again."""
        loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._task = loop.create_task(self._pump())
        now = loop.time()
        table = self.table
        for seat in table.seating:
            if seat.kind == "person" and seat.member is None and table.game is not None:
                seat.away_since = now
                self.wake_at(now + table.config.away_timeout)
        self.poke()

    async def close(self) -> None:
        self._closed = True
        for timer in self._timers:
            timer.cancel()
        if self._turn_timer is not None:
            self._turn_timer.cancel()
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        for player in self._stand_ins.values():
            player.close()

    @property
    def running(self) -> bool:
        """Whether the table's work in time has begun (a shared table's; a game played here
        has none)."""
        return self._task is not None

    def poke(self) -> None:
        """Something may be due now."""
        if self._wake is not None:
            self._wake.set()

    def wake_at(self, when: float) -> None:
        loop = asyncio.get_running_loop()
        self._timers = [t for t in self._timers if not t.cancelled() and t.when() > loop.time()]
        self._timers.append(loop.call_at(when + 0.01, self.poke))

    def card_played(self) -> None:
        """A person's card was played: when a person here is to play next, the table waits
        for them (their turn is timed); else it wakes for what is due."""
        table = self.table
        if self.running and waits_for_a_person_here(table.game, table.driver, table.seating):
            self.time_the_turn(asyncio.get_running_loop().time(), table.config.turn_timeout)
        else:
            self.poke()

    def time_the_deal_pause(self, game: Game, events: list[DriverEvent]) -> None:
        """When these events end a deal, the next one is dealt after the pause (or once all
        are ready)."""
        if self.running and game.phase is Phase.DEAL_OVER and any(
                isinstance(e, DealEnded) for e in events):
            self.deal_over_at = asyncio.get_running_loop().time()
            self.wake_at(self.deal_over_at + self.table.config.deal_pause)

    def time_the_turn(self, now: float, wait: float) -> float:
        """Since when the table waits for the card of the person to move (present): the turn
        timer starts with the position and wakes the table ``wait`` seconds later."""
        turn = self.table.turn
        if self._turn_wait is None or self._turn_wait[0] != turn:
            self._turn_wait = (turn, now)
            if self._turn_timer is not None:
                self._turn_timer.cancel()
            self._turn_timer = asyncio.get_running_loop().call_at(now + wait + 0.01,
                                                                  self.poke)
        return self._turn_wait[1]

    async def _pump(self) -> None:
        assert self._wake is not None
        while not self._closed:
            await self._wake.wait()
            self._wake.clear()
            try:
                while not self._closed and await self._step():
                    pass
            except Exception as exc:  # noqa: BLE001 - one bad step must not stop the table
                print(f"nil-tui host: the table stumbled ({type(exc).__name__}: {exc}); "
                      "it tries again", file=sys.stderr)
                await asyncio.sleep(1.0)
                self.poke()

    async def _step(self) -> bool:
        """Do the next thing the table does by itself; False when it must wait (a person's
        turn, or nobody at the table)."""
        table = self.table
        game, driver = table.game, table.driver
        now = asyncio.get_running_loop().time()
        if game is None:
            self._free_seats_left(now)
            return False
        if driver is None or game.is_over or not table.seating.people_here():
            return False
        if game.phase is Phase.DEAL_OVER:
            return self._next_deal(now)
        seat_number = driver.to_move
        assert seat_number is not None
        if table.seating[seat_number].kind == "bot":
            return await self._bot_plays()
        if not self._stand_in_due(seat_number, now):
            return False
        return await self._stand_in_plays(seat_number)

    def _next_deal(self, now: float) -> bool:
        """Deal the next hand once every person here is ready or the pause is over."""
        table = self.table
        assert table.driver is not None
        waiting = [s for s in table.seating.here() if not s.ready]
        due = (self.deal_over_at or now) + table.config.deal_pause
        if waiting and now < due:
            self.wake_at(due)
            return False
        table.deal_next()
        return True

    async def _bot_plays(self) -> bool:
        """The bot to move decides (in a thread) and its card is played; a card decided as
        the last person left is held until someone is back."""
        table, driver = self.table, self.table.driver
        assert driver is not None
        decision, self.held = self.held, None
        if decision is None:
            request = driver.request()
            if request is None:
                return False
            decision = await asyncio.to_thread(driver.decide, request)
            if not table.seating.people_here():  # everyone left meanwhile: the card waits
                self.held = decision
                return False
        table.play_bot(decision)
        return True

    def _stand_in_due(self, seat_number: int, now: float) -> bool:
        """Whether the stand-in plays for the person to move now: silent past the turn
        timeout (then a moment each turn), or away past the away timeout (said once)."""
        table, config = self.table, self.table.config
        seat = table.seating[seat_number]
        if seat.member is not None:  # silent: the turn timeout, then a moment each turn
            wait = min(SILENT_GRACE, config.turn_timeout) if seat.stand_in \
                else config.turn_timeout
            if now < self.time_the_turn(now, wait) + wait:
                return False
        elif not seat.stand_in:  # away: the away timeout
            since = seat.away_since if seat.away_since is not None else now
            if now < since + config.away_timeout:
                self.wake_at(since + config.away_timeout)
                return False
        if not seat.stand_in:
            seat.stand_in = True
            table.tell([], notices=[StandIn(seat_number, STAND_IN,
                                            "away" if seat.member is None else "silent")])
        return True

    async def _stand_in_plays(self, seat_number: int) -> bool:
        table = self.table
        game, driver = table.game, table.driver
        assert game is not None and driver is not None
        player = self._stand_ins.get(seat_number)
        if player is None:
            opener = table.opener or default_opener()
            from ...bots import seat_seed

            player = opener(STAND_IN, seat_seed(game.seed, seat_number))
            self._stand_ins[seat_number] = player
        turn = driver.turn
        choice = await asyncio.to_thread(player.decide, game.deal.view(seat_number))
        seat = table.seating[seat_number]
        if driver.turn != turn or driver.to_move != seat_number or not seat.stand_in:
            return True  # the person came back and played meanwhile
        table.play_stand_in(seat_number, choice.card)
        return True

    def _free_seats_left(self, now: float) -> None:
        """In the lobby: the seats of people gone longer than the away timeout are free
        again (their keys open nothing any more); the host's own seat is kept."""
        table = self.table
        gone: list[int] = []
        for seat in table.seating:
            if seat.kind != "person" or seat.member is not None or seat.hosts:
                continue
            since = seat.away_since if seat.away_since is not None else now
            if now >= since + table.config.away_timeout:
                gone.append(seat.number)
            else:
                self.wake_at(since + table.config.away_timeout)
        if gone:
            table.tell([], notices=table.seating.free(gone))


def waits_for_a_person_here(game: Game | None, driver: GameDriver | None,
                            seats: Sequence[Seat]) -> bool:
    """Whether a person at the table is to play now, so that the table has nothing to do by
    itself (its next step would only wait): no need to wake it after every card."""
    if game is None or driver is None or game.phase is not Phase.PLAYING:
        return False
    to_move = driver.to_move
    if to_move is None:
        return False
    seat = seats[to_move]
    return seat.kind == "person" and seat.member is not None and not seat.stand_in


__all__ = ["SILENT_GRACE", "Clock", "TimedTable", "waits_for_a_person_here"]
