"""One table with people at it, whatever carries its messages: who sits where, the game, the
bots, the players who dropped and the bots that stand in for them.

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...engine import SEAT_NAMES, Card, DealEnded, DealStarted, Game, IllegalPlay, Phase
from ...game.driver import Decision, DriverEvent, GameDriver, Opener
from .. import messages as session
from . import seat_keys as keys
from .clock import STAND_IN, Clock
from .member import (
    Away,
    Back,
    Joined,
    Left,
    Member,
    Notice,
    OwnerMoved,
    Parting,
    Seats,
    SeatView,
    Started,
    TableRefusal,
    Update,
    Welcome,
)
from .values import game_so_far, news_of, seat_states

JSON = dict[str, Any]
"""The table as it is kept (its file), and its settings."""

MAX_NAME = 24
"""The longest player name, in characters."""


@dataclass
class TableConfig:
    deals: int = 8
    seed: int | None = None
    bots: tuple[str, str, str, str] = ("normal", "normal", "normal", "normal")
    """The bot for each seat nobody takes (the host's own seat's entry is used only when it
    plays without a local player)."""
    away_timeout: float = 60.0
    """How long the table waits for a person whose connection is gone, before the stand-in
    plays for them (in the lobby: before their seat is freed)."""
    turn_timeout: float = 120.0
    """How long the table waits for the card of a person who is connected but silent, before
    the stand-in plays for them as for one away."""
    deal_pause: float = 30.0
    start_when: int | None = None
    """Start by itself once this many people are seated (else the owner sends ``start``)."""
    scoring: str = "classic"  # or "pool" (engine/scoring.py)

    def to_json(self) -> JSON:
        return {"deals": self.deals, "seed": self.seed, "bots": list(self.bots),
                "away_timeout": self.away_timeout, "turn_timeout": self.turn_timeout,
                "deal_pause": self.deal_pause,
                "start_when": self.start_when, "scoring": self.scoring}

    @classmethod
    def from_json(cls, data: JSON) -> TableConfig:
        bots = data.get("bots") or ["normal"] * 4
        return cls(deals=int(data["deals"]), seed=data.get("seed"),
                   bots=(str(bots[0]), str(bots[1]), str(bots[2]), str(bots[3])),
                   away_timeout=float(data.get("away_timeout", 60.0)),
                   turn_timeout=float(data.get("turn_timeout", 120.0)),
                   deal_pause=float(data.get("deal_pause", 30.0)),
                   start_when=data.get("start_when"),
                   scoring=str(data.get("scoring", "classic")))


@dataclass
class Seat:
    number: int
    kind: str = "empty"  # "empty", "person", "bot"
    name: str = ""
    key: str | None = None
    owner: bool = False  # the person who may start the game (see Table.settle_owner)
    hosts: bool = False  # the host's own seat (kept for them, the owner whenever present)
    joined: int = 0  # the order in which people sat down: the longest seated is owner next
    spec: str | None = None  # the bot of a bot seat
    member: Member | None = None
    away_since: float | None = None
    stand_in: bool = False  # a bot plays for this person while they are away
    ready: bool = False  # asked for the next deal

    def view(self) -> SeatView:
        """What every seat may know of this one."""
        return SeatView(self.number, self.kind, self.name,
                        self.spec if self.kind == "bot" else (STAND_IN if self.stand_in else
                                                              None),
                        self.kind == "bot" or self.member is not None, self.stand_in)

    def free(self) -> None:
        """Nobody sits here any more (its key opens nothing)."""
        self.kind, self.key, self.name, self.owner = "empty", None, "", False
        self.away_since, self.member = None, None

    def kept(self) -> JSON:
        return {"kind": self.kind, "name": self.name, "key": self.key, "owner": self.owner,
                "host": self.hosts, "spec": self.spec}


@dataclass
class TableStats:
    """Figures the benchmark reads."""

    cards: int = 0
    refusals: int = 0
    views_sent: int = 0


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


@dataclass
class Table:
    config: TableConfig
    secret: str = field(default_factory=keys.new_secret)
    """The secret of the table's invite, kept with it (a carrier lets in only those who show
    it)."""
    seats: list[Seat] = field(default_factory=lambda: [Seat(s) for s in range(4)])
    save_game: Callable[[Game], object] | None = None
    """Called with the game after every card and every new deal (the host's store)."""
    save_table: Callable[[JSON], object] | None = None
    """Called with the table's seats and keys whenever they change (the host's table file)."""
    on_game_over: Callable[[Game], object] | None = None
    opener: Opener | None = None
    game: Game | None = None
    driver: GameDriver | None = None
    stats: TableStats = field(default_factory=TableStats)

    def __post_init__(self) -> None:
        self.clock = Clock(self)
        self._finished = False
        self._joins = 0
        self.told_the_end: set[int] = set()  # the seats sent the finished game's record

    # --- keeping the table ---------------------------------------------------------------
    def to_json(self) -> JSON:
        return {"secret": self.secret, "config": self.config.to_json(),
                "seats": [s.kept() for s in self.seats], "started": self.game is not None}

    @classmethod
    def restore(cls, data: JSON, game: Game | None, **kwargs: Any) -> Table:
        """The table as it was kept (its secret and seat keys), with its game if it had
        started; every person starts away, waiting for their ``join``."""
        table = cls(TableConfig.from_json(data["config"]), secret=str(data["secret"]),
                    **kwargs)
        for seat, kept in zip(table.seats, data["seats"]):
            seat.kind, seat.name = str(kept["kind"]), str(kept["name"])
            seat.key, seat.owner, seat.spec = kept.get("key"), bool(kept.get("owner")), \
                kept.get("spec")
            # (a table kept before the host's seat was marked: the owner's was the host's)
            seat.hosts = bool(kept.get("host", seat.owner))
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
        self.settle_owner()

    async def close(self) -> None:
        await self.clock.close()
        if self.driver is not None:
            self.driver.close()

    def _poke(self) -> None:
        self.clock.poke()

    @property
    def held(self) -> Decision | None:
        """A bot's card decided as the last person left: it is played once someone is back
        (nothing moves at a table nobody sits at)."""
        return self.clock.held

    @property
    def turn(self) -> int:
        return self.driver.turn if self.driver is not None else 0

    def people_here(self) -> bool:
        return any(s.kind == "person" and s.member is not None for s in self.seats)

    def settle_owner(self) -> OwnerMoved | None:
        """Who may start the game: the host's own seat when its person is here; else the
        owner so far when present; else the person here who sat down first (the owner's
        right passes on when they are away, and comes back to the host's seat). A notice
        when it moved."""
        if self.game is not None:
            return None
        here = [s for s in self.seats if s.kind == "person" and s.member is not None]
        current = next((s for s in self.seats if s.owner), None)
        new = self._next_owner(here, current)
        if new is current:
            return None
        for seat in self.seats:
            seat.owner = seat is new
        self.keep()
        return OwnerMoved(new.number if new is not None else None)

    def _next_owner(self, here: list[Seat], current: Seat | None) -> Seat | None:
        """The seat that owns the table now (see :meth:`settle_owner`)."""
        host = next((s for s in self.seats if s.hosts and s.kind == "person"), None)
        if host is not None and (host.member is not None or not here):
            return host
        if current is not None and current.kind == "person" and (
                current.member is not None or not here):
            return current
        return min(here, key=lambda s: s.joined) if here else None

    def owner_seat(self) -> int | None:
        return next((s.number for s in self.seats if s.owner), None)

    # --- seats -----------------------------------------------------------------------------
    def seat_owner(self, seat: int, name: str | None) -> str:
        """Reserve a seat for the host's own player; returns its key."""
        s = self.seats[seat]
        for other in self.seats:
            other.owner = False
        s.kind, s.owner, s.hosts, s.name = "person", True, True, name or "Host"
        s.key = s.key or keys.new_secret()
        self.keep()
        return s.key

    def sit(self, member: Member, *, key: str | None = None, name: str | None = None,
            seat: int | None = None) -> int:
        """Seat a member (one that may come to this table: the carrier checked its invite):
        back at the seat of its ``key``, or a newcomer at a free seat (``seat`` if it is
        free), named ``name``. Returns the seat; TableRefusal (fatal) when it may not sit."""
        if key is not None:
            found, notice = self._seat_again(key, name, member)
        else:
            found, notice = self._seat_new(name, seat, member)
        taken = self.seats[found]
        notices: list[Notice] = [notice]
        moved = self.settle_owner()
        if moved is not None:
            notices.append(moved)
        assert taken.key is not None
        # in a game under way, the game so far: the deals finished before this one
        so_far = game_so_far(self.game, found) if self.game is not None else None
        member.welcome(Welcome(found, taken.key, taken.owner, taken.name, so_far))
        self.tell([], notices=notices)
        if self.game is None and self.config.start_when is not None and sum(
                1 for s in self.seats if s.kind == "person" and s.member) \
                >= self.config.start_when:
            self.start()
        self._poke()
        return found

    def _seat_again(self, key: str, name: str | None, member: Member) -> tuple[int, Notice]:
        """A person back with their seat key (an older connection of theirs is closed)."""
        found = keys.find_key(key, [s.key for s in self.seats])
        if found is None:
            raise TableRefusal("unknown_key", "this seat key opens no seat at this table",
                               fatal=True)
        seat = self.seats[found]
        old = seat.member
        seat.member = member
        if old is not None:
            old.part(Parting.ELSEWHERE)
        if name:  # a new name is made unique as a newcomer's is
            seat.name = unique_name(self.seats, name, found)
        back = seat.away_since is not None or seat.stand_in
        seat.away_since, seat.stand_in = None, False
        return found, (Back if back else Joined)(found, seat.name)

    def _seat_new(self, name: str | None, wanted: int | None,
                  member: Member) -> tuple[int, Notice]:
        """A newcomer takes a free seat (in the lobby only) and gets its key."""
        if self.game is not None:
            raise TableRefusal("started", "the game has started: only its players may come "
                               "back (with their seat key)", fatal=True)
        found = free_seat(self.seats, wanted)
        seat = self.seats[found]
        seat.kind, seat.key, seat.member = "person", keys.new_secret(), member
        self._joins += 1
        seat.joined = self._joins
        seat.name = unique_name(self.seats, name or SEAT_NAMES[found], found)
        self.keep()
        return found, Joined(found, seat.name)

    def depart(self, member: Member) -> None:
        """A connection closed: its seat waits for its person (a bot stands in later)."""
        for seat in self.seats:
            if seat.member is member:
                # the seat waits for its person (their key brings them back): in the lobby
                # for the away timeout (then it is free), in a game until a stand-in plays
                seat.member = None
                now = asyncio.get_running_loop().time()
                seat.away_since = now
                notices: list[Notice] = [Away(seat.number, self.config.away_timeout)]
                moved = self.settle_owner()
                if moved is not None:
                    notices.append(moved)
                self.tell([], notices=notices)
                self.clock.wake_at(now + self.config.away_timeout)
                self._poke()

    # --- the game --------------------------------------------------------------------------
    def start(self) -> None:
        """Deal: the seats nobody took get their bots."""
        if self.game is not None:
            raise TableRefusal("started", "the game has already started")
        players: list[dict[str, Any]] = []
        for seat in self.seats:
            if seat.kind != "person":
                seat.kind, seat.spec = "bot", self.config.bots[seat.number]
                seat.name = f"{SEAT_NAMES[seat.number]} ({seat.spec})"
            if seat.kind == "person":
                players.append({"name": seat.name, "kind": "human"})
            else:
                players.append({"name": seat.name, "kind": "bot", "bot": seat.spec})
        self.game = Game(self.config.deals, self.config.seed, players=players,
                         scoring=self.config.scoring)
        self.config.seed = self.game.seed
        self._new_driver()
        self.keep()
        assert self.driver is not None
        self.driver.save()
        replaced = self.driver.open_bots()
        self.tell([DealStarted(1, self.game.deal.dealer), *replaced], notices=[Started()])
        self._poke()

    def _new_driver(self) -> None:
        assert self.game is not None
        self.driver = driver_for(self.game, self.opener, self.save_game)

    def act(self, seat_number: int, action: session.Action, turn: int) -> bool:
        """An action of the person at ``seat_number`` (their seat from their key), answering
        position ``turn``; TableRefusal when refused. True when it was what the table waited
        for (a card on its turn, a go-on after a deal): a carrier's rate limit need not
        count those."""
        seat = self.seats[seat_number]
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
        if not self.seats[seat_number].owner:
            owner = self.owner_seat()
            who = self.seats[owner].name if owner is not None else "the host"
            raise TableRefusal("not_owner", f"only {who} starts the game")
        self.start()

    def _quit(self, seat: Seat) -> None:
        """A person leaves on purpose: in the lobby their seat is free at once (not the
        host's); the member is let go."""
        member = seat.member
        if self.game is None and not seat.hosts and member is not None:
            seat.free()
            self.keep()
            notices: list[Notice] = [Left(seat.number)]
            moved = self.settle_owner()
            if moved is not None:
                notices.append(moved)
            self.tell([], notices=notices)
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
        self._poke()
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
            whose = self.seats[to_move].name if to_move is not None else "nobody"
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
        if self.clock.running and waits_for_a_person_here(self.game, driver, self.seats):
            self.clock.time_the_turn(asyncio.get_running_loop().time(),
                                     self.config.turn_timeout)
        else:
            self._poke()

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

    def deal_next(self) -> None:
        """Deal the next hand (the deal is over, the game is not), told to every seat."""
        assert self.driver is not None
        started = self.driver.next_deal()
        for seat in self.seats:
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
                for seat in self.seats:
                    if seat.member is not None:
                        seat.member.tell(lobby, None)
            return
        self._time_the_deal_pause(game, events)
        present = [s.number for s in self.seats if s.member is not None]
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
            member = self.seats[number].member
            assert member is not None
            member.tell(update, states[number])  # what happened, then the seat's state
        if game.is_over and not self._finished:
            self._finished = True
            if self.on_game_over is not None:
                self.on_game_over(game)

    def _time_the_deal_pause(self, game: Game, events: list[DriverEvent]) -> None:
        """A deal just ended: the next one is dealt after the pause (or once all are
        ready)."""
        if self.clock.running and game.phase is Phase.DEAL_OVER and any(
                isinstance(e, DealEnded) for e in events):
            self.clock.deal_over_at = asyncio.get_running_loop().time()
            self.clock.wake_at(self.clock.deal_over_at + self.config.deal_pause)

    def _seats_notice(self, notices: list[Notice] | None) -> Seats:
        config = self.config
        return Seats(self.game is not None, tuple(s.view() for s in self.seats),
                     tuple(notices or ()), config.deals, tuple(config.bots), config.scoring,
                     self.owner_seat(), config.away_timeout, config.turn_timeout)

    def state_of(self, seat: int) -> session.TableState:
        """What one seat may see now, as the session's value (from that seat's view)."""
        return self.states([seat])[seat]

    def states(self, seats: list[int]) -> dict[int, session.TableState]:
        """What each of these seats may see now (see :func:`.values.seat_states`)."""
        game, driver = self.game, self.driver
        assert game is not None and driver is not None
        levels = [driver.spec_of(s.number) if s.kind == "bot" else
                  (STAND_IN if s.stand_in else None) for s in self.seats]
        return seat_states(game, driver.turn, [s.name for s in self.seats], levels, seats)



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
                              scoring=game.scoring), game=game, driver=driver)
    for seat in table.seats:
        seat.name = SEAT_NAMES[seat.number]
        if driver.is_human(seat.number):
            seat.kind, seat.member, seat.hosts, seat.owner = "person", member, True, True
        else:
            seat.kind, seat.spec = "bot", specs[seat.number]
    return table


def free_seat(seats: list[Seat], wanted: int | None) -> int:
    """The seat a newcomer takes: the one asked for when it is empty, else the first empty
    one; TableRefusal (fatal) when there is none."""
    if wanted is not None:
        if seats[wanted].kind != "empty":
            raise TableRefusal("seat_taken", f"{SEAT_NAMES[wanted]} is taken", fatal=True)
        return wanted
    for seat in seats:
        if seat.kind == "empty":
            return seat.number
    raise TableRefusal("table_full", "every seat at this table is taken", fatal=True)


def unique_name(seats: list[Seat], name: str, seat: int) -> str:
    """``name``, or ``name 2``, ``name 3``... when another person at the table has it (the
    name cut so that the whole stays within MAX_NAME characters)."""
    taken = {s.name for s in seats if s.number != seat and s.kind == "person"}
    candidate, n = name, 2
    while candidate in taken:
        suffix = f" {n}"
        candidate = name[:MAX_NAME - len(suffix)].rstrip() + suffix
        n += 1
    return candidate


__all__ = ["JSON", "MAX_NAME", "STAND_IN", "Seat", "Table", "TableConfig", "TableStats",
           "driver_for", "table_here"]
