"""The slow work of a game in lines, each in a thread: a bot deciding, a hint worked out, the
meter's estimate. Each answer comes back to the loop as an event, handed to the session, whose
output the line front end then carries out (the base of :class:`.front.LineFront`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from ..engine import Card
from ..session import game_session as gs

if TYPE_CHECKING:
    from ..engine import PlayerView
    from ..game.driver import Decision, Request
    from ..session.meter import MeterKey
    from ..session.seat import SeatSession


class Outs(NamedTuple):
    """What the session said by itself (a shared table's news)."""

    out: list[gs.Out]


class Timer(NamedTuple):
    token: tuple[str, int]


class BotAnswer(NamedTuple):
    decision: Decision


class BotGone(NamedTuple):
    request: Request


class HintAnswer(NamedTuple):
    turn: int
    card: Card
    reason: str


class MeterAnswer(NamedTuple):
    key: MeterKey
    chance: float | None


Event = Outs | Timer | BotAnswer | BotGone | HintAnswer | MeterAnswer
_WORK = (BotAnswer, BotGone, HintAnswer, MeterAnswer)  # answers of work in threads

class Work:
    """The events of work done in threads, and what the session says to them."""

    session: SeatSession
    events: asyncio.Queue[Event]
    pending: int
    _tasks: set[asyncio.Task[None]]

    def carry_out(self, out: list[gs.Out]) -> None:
        raise NotImplementedError

    def handle_event(self, event: Event) -> None:
        session = self.session
        if isinstance(event, _WORK):
            self.pending -= 1
        if isinstance(event, Outs):
            self.carry_out(event.out)
        elif isinstance(event, Timer):
            self.carry_out(session.timer_done(event.token))
        elif isinstance(event, BotAnswer):
            self.carry_out(session.bot_decided(event.decision))
        elif isinstance(event, BotGone):
            self.carry_out(session.bot_lost(event.request))
        elif isinstance(event, HintAnswer):
            self.carry_out(session.hint_found(event.turn, event.card, event.reason))
        else:
            self.carry_out(session.meter_estimated(event.key, event.chance))

    def _in_thread(self, work: Callable[[], Event], failed: Callable[[], Event]) -> None:
        """``work`` in a thread; its answer (or ``failed()``) comes back as an event."""
        self.pending += 1

        async def go() -> None:
            try:
                answer = await asyncio.to_thread(work)
            except Exception:  # noqa: BLE001 - the session asks again or goes without
                answer = failed()
            self.events.put_nowait(answer)

        task = asyncio.ensure_future(go())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _ask_bot(self, request: Request) -> None:
        session = self.session

        def decide() -> Event:
            return BotAnswer(session.decide(request))

        self._in_thread(decide, lambda: BotGone(request))

    def _find_hint(self, turn: int, view: PlayerView) -> None:
        def find() -> Event:
            from ..bots import advise

            try:
                card, reason = advise(view, ascii=True)
            except Exception as exc:  # noqa: BLE001 - a failing hint must not stop the game
                card, reason = view.legal[0], f"no hint available ({type(exc).__name__})"
            return HintAnswer(turn, card, reason)

        self._in_thread(find, lambda: HintAnswer(turn, view.legal[0], "no hint available"))

    def _estimate(self, item: gs.EstimateMeter) -> None:
        def estimate() -> Event:
            from ..analysis import clean_chance

            return MeterAnswer(item.key, float(clean_chance(item.view, seed=item.seed)))

        self._in_thread(estimate, lambda: MeterAnswer(item.key, None))


__all__ = ["BotAnswer", "BotGone", "Event", "HintAnswer", "MeterAnswer", "Outs", "Timer", "Work"]
