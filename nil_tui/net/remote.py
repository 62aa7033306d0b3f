"""A seat at a shared table as a session the table screen can show
(:class:`~nil_tui.session.seat.SeatSession`), from what its :class:`~.link.SeatLink` hears.

The table decides everything; this session only shows it, at the pace of a game played here:
another seat's card waits a moment before the next one lands, a trick just won stays on show
(until a key, if the player chose so), the deal's summary comes once its last trick is put
away, and the game's end once its record has come. The link turns every value from the
network as it arrives, so that the seat comes at the bottom (seat 0, "you"), the person to
its left next (seat 1), and so on: the screens, the summary and the record kept in the
player's history all see the player at seat 0.

Undo is off at a shared table: the session says so at once. Hints and the meter are the
player's own, worked out here from the seat's view (:class:`~nil_tui.session.help.SeatHelp`): the game
in their history counts as assisted. A lost link is said on the table, and once the link
has taken the seat back, what the seat missed meanwhile is told as the table told it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..session import game_session as gs
from ..session.frames import Frame, FrameSeat, seat_view
from ..session.help import OwnHelp, SeatHelp, help_words
from ..session.messages import (
    Action,
    AskHint,
    GoOn,
    PlayCard,
    Quit,
    Refused,
    SetMeter,
    TableState,
    Undo,
)
from .link import (
    STILL_LOST,
    Away,
    DealsTold,
    LinkBack,
    LinkNews,
    RecordCame,
    SeatsChanged,
    TableRefused,
    Told,
)
from .seen import KnownGame

if TYPE_CHECKING:
    from pathlib import Path

    from ..engine import Card, Game, PlayerView
    from ..game.driver import Decision, DriverEvent, Request
    from ..game.options import PlayOptions
    from .link import SeatLink

REFUSALS: dict[str, str] = {
    "undo": "Undo is off at a shared table.",
}


class NoBotsHere:
    """What only a game played here has (its bots): nothing at a shared table, whose bots
    play at the table."""

    def decide(self, request: Request) -> Decision:
        raise TypeError("the bots of a shared table play at the table")

    def bot_decided(self, decision: Decision) -> list[gs.Out]:
        return []

    def bot_lost(self, request: Request) -> list[gs.Out]:
        return []


class NoUndoHere:
    """What only a game played here has of help (undo, a daily challenge): nothing at a
    shared table, which takes no card back. Hints and the meter are the player's own
    (:class:`~nil_tui.session.help.OwnHelp`)."""

    _help: SeatHelp
    challenge: str | None = None
    help_allowed = True  # hints and the meter (undo: never)

    def help_used(self) -> str:
        return help_words(False, self._help.assists)

    def help_refused(self, what: str) -> str | None:
        return REFUSALS.get(what)

    def can_undo(self) -> bool:
        return False


class RemoteSession(FrameSeat, OwnHelp, NoUndoHere, NoBotsHere):
    """A seat at a shared table, for the table screen (see the module's docstring).

    ``link`` is the seat's link to the table, its client connected and seated;
    ``on_finished`` is called once with the finished game (turned: the player at seat 0,
    with the help they used) and gives where its record went; ``assists``: the help already
    used in this game (the player came back), and ``on_assist`` is told the help used each
    time it grows."""

    def __init__(self, link: SeatLink, options: PlayOptions, *,
                 on_finished: Callable[[Game], Path | None] | None = None,
                 assists: Sequence[str] = (),
                 on_assist: Callable[[list[str]], None] | None = None) -> None:
        FrameSeat.__init__(self, options, on_finished=on_finished)
        self.link = link
        self.home_seat = link.me
        self.leave: Callable[[], None] | None = None  # set by the screen that shows the seat
        self._known = KnownGame(link.me)  # the deals seen and told, the record
        self._went_on = 0  # the deal after which the table was asked for the next one
        self._away: Away = ("", "", "", "")
        self._help = SeatHelp(options.meter, assists)
        self._on_assist = on_assist
        for value in link.kept():  # read before the seat's table was shown (the lobby's)
            self._know(value)

    # --- what the seat may see ------------------------------------------------------------
    async def ready(self, timeout: float = 30.0) -> bool:
        """Read until the table has sent the seat's first state (the game has started);
        False when the link went first."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self._shown is None:
            value = await self.link.heard(max(0.1, end - loop.time()))
            if isinstance(value, LinkNews):
                return False
            self._know(value)
        return True

    def state(self) -> TableState:
        help_ = self._help
        return super().state()._replace(help_allowed=True, meter_on=help_.meter.on,
                                        assisted=bool(help_.assists))

    @property
    def game(self) -> Game:
        """The game so far as this seat knows it (rebuilt from its finished deals and the
        deal in progress; the record's game once it is over)."""
        return self._known.game(self.state())

    def view(self) -> PlayerView:
        return seat_view(self.state())

    @property
    def thinking(self) -> int | None:
        """The seat whose card the table waits for, when it is not yours: a bot thinking, or
        a person (the table's messages name only bots as thinking); not a person who is away
        while the table waits for them (nobody thinks there)."""
        if self.on_show is not None:
            return None
        state = self.state()
        if state.thinking is not None:
            return state.thinking
        to_move = state.to_move
        if to_move is None or to_move == state.seat or self._away[to_move] == "away":
            return None
        return to_move

    @property
    def away(self) -> Away:
        """For each seat (turned), whether its person is away: "" (here, or not a person),
        "away" (the table waits for them) or "stand_in" (a bot plays for them meanwhile)."""
        return self._away

    # --- play ---------------------------------------------------------------------------------
    def told_so_far(self, notes: Sequence[DriverEvent] = ()) -> list[gs.Out]:
        """The deal so far, as news (the seat sat down, or came back, in the middle of it)."""
        return [*self._known.so_far(self.state())]

    def act(self, action: Action) -> list[gs.Out]:
        if isinstance(action, (PlayCard, GoOn)):
            return self.act_on_table(action)
        if isinstance(action, Undo):
            return [Refused("undo", REFUSALS["undo"])]
        if isinstance(action, (AskHint, SetMeter)):
            return self.ask_help(action)
        if isinstance(action, Quit):
            self.link.send(action, self.state().turn)
            return []
        raise TypeError(f"not an action: {action!r}")

    def _send_card(self, card: Card, state: TableState) -> list[gs.Out]:
        if self.link.lost:  # kept for when the seat is back
            return [STILL_LOST]
        self._sent_turn = state.turn
        self.link.send(PlayCard(card), state.turn)
        return []

    def _send_go_on(self, state: TableState) -> list[gs.Out]:
        if self._went_on < state.deal_number:
            self._went_on = state.deal_number
            self.link.send(GoOn(), state.turn)
        return self._release()

    def _end_known(self) -> bool:
        return self._known.record is not None

    def _game_to_keep(self) -> Game:
        game = self.game
        game.assists = list(self._help.assists)  # this player's own help
        return game

    def _shown_again(self) -> list[gs.Out]:
        out: list[gs.Out] = []
        if self._help.meter.on:
            out.extend(self._help.now(self.state(), self.view()))
        if self.link.lost:  # the status line keeps saying so until the seat is back
            out.append(STILL_LOST)
        return out

    def _apply(self, frame: Frame) -> list[gs.Out]:
        out = super()._apply(frame)
        self._known.shown(frame.state)
        return out

    # --- what the table says ------------------------------------------------------------------
    async def pushed(self) -> list[gs.Out] | None:
        """What the table said by itself, shown at the table's pace; None once the game is
        over (its record came) or the seat is gone from the table."""
        while not self.link.closed:
            value = await self.link.heard()
            if isinstance(value, LinkNews):
                return self._link_news(value)
            out = self._heard(value)
            if out or self._changed:
                self._changed = False
                return out  # (drawn even when empty: the position shown changed)
        return None

    def _heard(self, value: Told) -> list[gs.Out]:
        if isinstance(value, Frame):  # (the first after a lost link: what was missed)
            return self.heard(self._known.news_of(value))
        if isinstance(value, TableRefused):
            return [Refused("play", f"The table refused: {value.reason}")]
        self._know(value)
        if isinstance(value, RecordCame):
            return self._release()
        if isinstance(value, SeatsChanged):
            self._changed = True  # the seats drawn change with who is away
            return list(value.notes)
        return []

    def _know(self, value: Told) -> None:
        """Keep what the table said: the seat's first state, who is away, the deals
        finished, the record."""
        if isinstance(value, Frame):
            self._shown = value.state
        elif isinstance(value, SeatsChanged):
            self._away = value.away
        elif isinstance(value, DealsTold):
            self._known.told(value.deals, value.played_for)
        elif isinstance(value, RecordCame):
            self._known.record = value.record

    def _link_news(self, value: LinkNews) -> list[gs.Out] | None:
        """The link lost (said), the seat back (what it missed is told with the next
        state), the seat gone (why; None once the game is over)."""
        if isinstance(value, LinkBack):
            self._known.back(self._queue[-1].state if self._queue else self._shown)
            self._sent_turn = -1  # a card sent as the link went may be lost: it may go again
            self._pacer.forget_turn()
        return None if value.note is None else [value.note]


__all__ = ["REFUSALS", "NoBotsHere", "NoUndoHere", "RemoteSession"]
