"""One table with people at it, whatever carries its messages: the game, the bots, the
players who dropped and the bots that stand in for them; who sits where is its seating's
(:mod:`.seating`).

The table runs on one asyncio loop. It decides everything: the seat of an action is the seat
its member was given (by its key), a card is checked by the engine (through the game
driver), and what each seat is told is built from that seat's view alone (:mod:`.values`).
It takes typed calls (:meth:`Table.sit`, :meth:`Table.act`, :meth:`Table.start_by`) and
tells its members typed values (:mod:`.member`); a carrier such as the WebSocket server
(``nil_tui.net``) reads and writes the wire. Bots think in worker threads, so a slow bot
never holds up the loop (other tables, other players).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from ...engine import SEAT_NAMES, Card, DealStarted, Game, IllegalPlay, Phase
from ...game.driver import BotIncident, Decision, DriverEvent, GameDriver, Opener
from .. import messages as session
from . import seat_keys as keys
from .clock import Clock
from .config import JSON, TableConfig
from .member import (
    STAND_IN,
    Back,
    Member,
    Notice,
    Parting,
    Seats,
    Started,
    TableRefusal,
    Update,
    Welcome,
)
from .seating import Seat, Seating
from .values import game_so_far, news_of, seat_states


# The table's classes are plain classes rather than dataclasses: a dataclass compiles its
# methods as its module loads, and a game played here loads this package before its first
# frame (benchmarks/startup.py).
class TableStats:
    """Figures the benchmark reads."""

    __slots__ = ("cards", "refusals", "views_sent")

    def __init__(self) -> None:
        self.cards = 0
        self.refusals = 0
        self.views_sent = 0


class Table:
    """One game and the people and bots at it (see the module)."""

    def __init__(self, config: TableConfig, *, secret: str | None = None,
                 seating: Seating | None = None,
                 save_game: Callable[[Game], object] | None = None,
                 save_table: Callable[[JSON], object] | None = None,
                 on_game_over: Callable[[Game], object] | None = None,
                 opener: Opener | None = None, game: Game | None = None,
                 driver: GameDriver | None = None) -> None:
        self.config = config
        self.secret = keys.new_secret() if secret is None else secret
        """The secret of the table's invite, kept with it (a carrier lets in only those who
        show it)."""
        self.seating = Seating() if seating is None else seating
        self.save_game = save_game
        """Called with the game after every card and every new deal (the host's store)."""
        self.save_table = save_table
        """Called with the table's seats and keys whenever they change (the host's table
        file)."""
        self.on_game_over = on_game_over
        self.opener = opener
        self.game = game
        self.driver = driver
        self.stats = TableStats()
        self.clock = Clock(self)
        self.seating.keep = self.keep
        self._finished = False
        self.told_the_end: set[int] = set()  # the seats sent the finished game's record

    # --- keeping the table ---------------------------------------------------------------
    def to_json(self) -> JSON:
        return {"secret": self.secret, "config": self.config.to_json(),
                "seats": self.seating.to_json(), "started": self.game is not None}

    @classmethod
    def restore(cls, data: JSON, game: Game | None, **kwargs: Any) -> Table:
        """The table as it was kept (its secret and seat keys), with its game if it had
        started; every person starts away, waiting for their ``join``."""
        table = cls(TableConfig.from_json(data["config"]), secret=str(data["secret"]),
                    seating=Seating.from_json(data["seats"]), **kwargs)
        if game is not None:
            table.game = game
            table._new_driver()
        return table

    def keep(self) -> None:
        if self.save_table is not None:
            self.save_table(self.to_json())

    # --- the table's work in time (.clock) --------------------------------------------------
    def begin(self) -> None:
        """Start the table's work on the running loop (bots, stand-ins, next deals)."""
        self.clock.begin()
        if self.game is None:
            self.seating.settle_owner()  # (nobody is here yet to be told)

    async def close(self) -> None:
        await self.clock.close()
        if self.driver is not None:
            self.driver.close()

    @property
    def held(self) -> Decision | None:
        """A bot's card decided as the last person left: it is played once someone is back
        (nothing moves at a table nobody sits at)."""
        return self.clock.held

    @property
    def turn(self) -> int:
        return self.driver.turn if self.driver is not None else 0

    # --- who sits where (.seating) ------------------------------------------------------------
    def sit(self, member: Member, *, key: str | None = None, name: str | None = None,
            seat: int | None = None) -> int:
        """Seat a member (one that may come to this table: the carrier checked its invite):
        back at the seat of its ``key``, or a newcomer at a free seat (``seat`` if it is
        free), named ``name``. Returns the seat; TableRefusal (fatal) when it may not sit."""
        if key is not None:
            found, notices = self.seating.come_back(key, name, member, lobby=self.game is None)
        elif self.game is not None:
            raise TableRefusal("started", "the game has started: only its players may come "
                               "back (with their seat key)", fatal=True)
        else:
            found, notices = self.seating.sit_new(name, seat, member)
        taken = self.seating[found]
        assert taken.key is not None
        # in a game under way, the game so far: the deals finished before this one
        so_far = game_so_far(self.game, found) if self.game is not None else None
        member.welcome(Welcome(found, taken.key, taken.owner, taken.name, so_far))
        self.tell([], notices=notices)
        start_when = self.config.start_when
        if self.game is None and start_when is not None and len(self.seating.here()) \
                >= start_when:
            self.start()
        self.clock.poke()
        return found

    def depart(self, member: Member) -> None:
        """A connection closed: its seat waits for its person (their key brings them back):
        in the lobby for the away timeout (then it is free), in a game until a stand-in
        plays for them."""
        now, wait = asyncio.get_running_loop().time(), self.config.away_timeout
        notices = self.seating.away(member, now, wait, lobby=self.game is None)
        if notices:
            self.tell([], notices=notices)
            self.clock.wake_at(now + wait)
            self.clock.poke()

    # --- the game --------------------------------------------------------------------------
    def start(self) -> None:
        """Deal: the seats nobody took get their bots."""
        if self.game is not None:
            raise TableRefusal("started", "the game has already started")
        players = self.seating.seat_bots(self.config.bots)
        self.game = Game(self.config.deals, self.config.seed, players=players,
                         scoring=self.config.scoring)
        self.config.seed = self.game.seed
        self._new_driver()
        self.keep()
        assert self.driver is not None
        self.driver.save()
        replaced = self.driver.open_bots()
        self.tell([DealStarted(1, self.game.deal.dealer), *replaced], notices=[Started()])
        self.clock.poke()

    def _new_driver(self) -> None:
        assert self.game is not None
        self.driver = driver_for(self.game, self.opener, self.save_game)

    def act(self, seat_number: int, action: session.Action, turn: int) -> bool:
        """An action of the person at ``seat_number`` (their seat from their key), answering
        position ``turn``; TableRefusal when refused. True when it was what the table waited
        for (a card on its turn, a go-on after a deal): a carrier's rate limit need not
        count those."""
        seat = self.seating[seat_number]
        if isinstance(action, session.Quit):
            self._quit(seat)
            return False
        game, driver = self.game, self.driver
        if game is None or driver is None:
            raise TableRefusal("not_started", "the game has not started yet")
        if seat.stand_in and seat.member is not None:
            # a silent player speaks again: they play their own cards from now on
            seat.stand_in = False
            self.tell([], notices=[Back(seat_number, seat.name)])
        if isinstance(action, session.GoOn):
            return self._go_on(game, seat)
        if isinstance(action, session.Undo):
            raise TableRefusal("no_help", "Undo is off at a shared table.")
        if not isinstance(action, session.PlayCard):
            raise TableRefusal("no_help", "Hints and the meter are off at a shared table.")
        self._play(driver, seat_number, action.card, turn)
        return True

    def start_by(self, seat_number: int) -> None:
        """The start asked by the person at ``seat_number``: only the table's owner starts
        the game, once (TableRefusal otherwise)."""
        if self.game is not None:
            raise TableRefusal("started", "the game has already started")
        self.seating.check_owner(seat_number)
        self.start()

    def _quit(self, seat: Seat) -> None:
        """A person leaves on purpose: in the lobby their seat is free at once (not the
        host's); the member is let go."""
        member = seat.member
        if self.game is None and not seat.hosts and member is not None:
            self.tell([], notices=self.seating.free([seat.number]))
        if member is not None:
            member.part(Parting.LEFT)

    def _go_on(self, game: Game, seat: Seat) -> bool:
        """A seat is ready for the next deal (the deal waits for all, or its pause)."""
        if game.phase is not Phase.DEAL_OVER or game.is_over:
            raise TableRefusal("no_pause", "no deal is over now: a go-on is for the pause "
                               "after a deal")
        if seat.ready:
            return False
        seat.ready = True
        self.clock.poke()
        return True

    def _play(self, driver: GameDriver, seat_number: int, card: Card, turn: int) -> None:
        """A card of ``seat_number``'s for position ``turn``: played when it is that seat's
        turn and legal."""
        if driver.phase is not Phase.PLAYING:
            raise TableRefusal("no_play_due", "no card is to be played now (the deal is "
                               "over)")
        if turn != driver.turn:
            raise TableRefusal("stale", f"that play answers position {turn}; the table is "
                               f"at position {driver.turn}")
        to_move = driver.to_move
        if to_move != seat_number:
            whose = self.seating[to_move].name if to_move is not None else "nobody"
            raise TableRefusal("not_your_turn", f"it is not your turn ({whose} to play)")
        try:
            self.play_card(card)
        except IllegalPlay as exc:
            self.stats.refusals += 1
            raise TableRefusal("illegal", f"{card} cannot be played: {exc.reason}") from None

    def play_card(self, card: Card) -> None:
        """The card of the person to move, told to every seat (IllegalPlay, from the engine,
        when it may not be played: nothing changes)."""
        driver = self.driver
        assert driver is not None
        events = driver.play(card)
        self.stats.cards += 1
        self.tell(list(events))
        self.clock.card_played()

    def play_bot(self, decision: Decision) -> bool:
        """A bot's decision, played and told to every seat when it still answers the
        position (False: the position is gone)."""
        driver = self.driver
        assert driver is not None
        events = driver.apply(decision)
        if events is None:
            return False
        self.stats.cards += 1
        self.tell(list(events))
        return True

    def play_stand_in(self, seat_number: int, card: Card) -> None:
        """The stand-in's card for the person at ``seat_number`` (away or silent), on their
        turn: the game records that it was played for them, and every seat is told why."""
        game, driver = self.game, self.driver
        assert game is not None and driver is not None
        reason = session.away_reason(self.seating[seat_number].name, STAND_IN)
        game.record_incident(seat_number, card, reason)
        events: list[DriverEvent] = [BotIncident(seat_number, card, reason)]
        events.extend(driver.play(card))
        self.stats.cards += 1
        self.tell(events)

    def deal_next(self) -> None:
        """Deal the next hand (the deal is over, the game is not), told to every seat."""
        assert self.driver is not None
        started = self.driver.next_deal()
        for seat in self.seating:
            seat.ready = False
        self.tell([started])

    # --- telling the seats ------------------------------------------------------------------
    def tell(self, events: list[DriverEvent], notices: list[Notice] | None = None) -> None:
        """Tell every seat present what happened (the session's news and, when they
        changed, who sits where: one Update, the same for all), with its own state."""
        game = self.game
        seats = self._seats_notice(notices) if notices or game is None else None
        if game is None:
            if seats is not None:
                lobby = Update(seats, (), None)
                for seat in self.seating:
                    if seat.member is not None:
                        seat.member.tell(lobby, None)
            return
        self.clock.time_the_deal_pause(game, events)
        present = [s.number for s in self.seating if s.member is not None]
        states = self.states(present)
        plays = next(iter(states.values())).plays if states else None
        news = tuple(n for e in events if (n := news_of(game, e, plays)) is not None)
        # the record goes to whoever is here once the game is over, a player who comes
        # back after the end included
        update = Update(seats, news, game.to_record() if game.is_over else None)
        for number in present:
            self.stats.views_sent += 1
            if update.record is not None:
                self.told_the_end.add(number)
            member = self.seating[number].member
            assert member is not None
            member.tell(update, states[number])  # what happened, then the seat's state
        if game.is_over and not self._finished:
            self._finished = True
            if self.on_game_over is not None:
                self.on_game_over(game)

    def _seats_notice(self, notices: list[Notice] | None) -> Seats:
        config = self.config
        return Seats(self.game is not None, tuple(s.view() for s in self.seating),
                     tuple(notices or ()), config.deals, tuple(config.bots), config.scoring,
                     self.seating.owner, config.away_timeout, config.turn_timeout)

    def state_of(self, seat: int) -> session.TableState:
        """What one seat may see now, as the session's value (from that seat's view)."""
        return self.states([seat])[seat]

    def states(self, seats: list[int]) -> dict[int, session.TableState]:
        """What each of these seats may see now (see :func:`.values.seat_states`)."""
        game, driver = self.game, self.driver
        assert game is not None and driver is not None
        levels = [driver.spec_of(s.number) if s.kind == "bot" else
                  (STAND_IN if s.stand_in else None) for s in self.seating]
        return seat_states(game, driver.turn, [s.name for s in self.seating], levels, seats)


def driver_for(game: Game, opener: Opener | None,
               save: Callable[[Game], object] | None) -> GameDriver:
    """The driver of a game with people at it (a shared table's, or one played here): its
    bots opened with ``opener``, the game handed to ``save`` at every position worth
    keeping. (A game of bots alone, simulated, runs its own.)"""
    return GameDriver(game, opener=opener, save=save)


def table_here(driver: GameDriver, member: Member) -> Table:
    """The table of a game played in this process: its person (the game's human seat, told
    through ``member``) and its bots. No clock runs there: the person's front end asks the
    bots (:meth:`Table.play_bot`) and deals on when they are ready (:meth:`Table.deal_next`);
    nobody is ever away."""
    game = driver.game
    specs = [driver.spec_of(s) or "" for s in range(4)]
    table = Table(TableConfig(deals=game.deals_planned, seed=game.seed,
                              bots=(specs[0], specs[1], specs[2], specs[3]),
                              scoring=game.scoring),
                  secret="", game=game, driver=driver)  # (nobody is invited here)
    for seat in table.seating:
        seat.name = SEAT_NAMES[seat.number]
        if driver.is_human(seat.number):
            seat.kind, seat.member, seat.hosts, seat.owner = "person", member, True, True
        else:
            seat.kind, seat.spec = "bot", specs[seat.number]
    return table


__all__ = ["Table", "TableStats", "driver_for", "table_here"]
