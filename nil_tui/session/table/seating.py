"""Who sits where at a table with people at it: its four seats, each person's key and name,
the order in which people sat down, the owner who may start the game, the seat a newcomer
takes in the lobby, and the seats as the table's file keeps them.

The seating decides who may sit where and says what changed, as notices (:mod:`.member`);
it knows nothing of the game and tells nobody: the table (:mod:`.table`) asks it, keeps its
file when the seating says the seats changed, and tells its members the notices.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import overload

from ...engine import SEAT_NAMES
from . import seat_keys as keys
from .config import JSON
from .member import (
    STAND_IN,
    Away,
    Back,
    Joined,
    Left,
    Member,
    Notice,
    OwnerMoved,
    Parting,
    SeatView,
    TableRefusal,
)

MAX_NAME = 24
"""The longest player name, in characters."""


class Seat:
    """One seat of a table: who sits there, and how they are doing."""

    __slots__ = ("away_since", "hosts", "joined", "key", "kind", "member", "name", "number",
                 "owner", "ready", "spec", "stand_in")

    def __init__(self, number: int) -> None:
        self.number = number
        self.kind = "empty"  # "empty", "person", "bot"
        self.name = ""
        self.key: str | None = None
        self.owner = False  # the person who may start the game (see Seating.settle_owner)
        self.hosts = False  # the host's own seat (kept for them, the owner whenever present)
        self.joined = 0  # the order in which people sat down: the longest seated is owner next
        self.spec: str | None = None  # the bot of a bot seat
        self.member: Member | None = None
        self.away_since: float | None = None
        self.stand_in = False  # a bot plays for this person while they are away
        self.ready = False  # asked for the next deal

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


class Seating(Sequence[Seat]):
    """The four seats of one table, by number (see the module)."""

    def __init__(self) -> None:
        self._seats = [Seat(s) for s in range(4)]
        self._joins = 0
        self.keep: Callable[[], object] = lambda: None
        """Called whenever what is kept of the seats changed (the table keeps its file)."""

    @overload
    def __getitem__(self, number: int) -> Seat: ...

    @overload
    def __getitem__(self, number: slice) -> Sequence[Seat]: ...

    def __getitem__(self, number: int | slice) -> Seat | Sequence[Seat]:
        return self._seats[number]

    def __iter__(self) -> Iterator[Seat]:
        return iter(self._seats)

    def __len__(self) -> int:
        return len(self._seats)

    # --- kept in the table's file ----------------------------------------------------------
    def to_json(self) -> list[JSON]:
        return [s.kept() for s in self._seats]

    @classmethod
    def from_json(cls, kept: Sequence[JSON]) -> Seating:
        """The seats as kept (their keys, names and owner); nobody is connected."""
        seating = cls()
        for seat, data in zip(seating, kept):
            seat.kind, seat.name = str(data["kind"]), str(data["name"])
            seat.key, seat.owner, seat.spec = data.get("key"), bool(data.get("owner")), \
                data.get("spec")
            # (a table kept before the host's seat was marked: the owner's was the host's)
            seat.hosts = bool(data.get("host", seat.owner))
        return seating

    # --- who is here, who owns the table ---------------------------------------------------
    def here(self) -> list[Seat]:
        """The seats of the people connected now."""
        return [s for s in self._seats if s.kind == "person" and s.member is not None]

    def people_here(self) -> bool:
        return any(s.kind == "person" and s.member is not None for s in self._seats)

    @property
    def owner(self) -> int | None:
        """The seat of the person who may start the game (None: nobody may now)."""
        return next((s.number for s in self._seats if s.owner), None)

    def settle_owner(self) -> list[Notice]:
        """Who may start the game (asked in the lobby, after every change there): the host's
        own seat when its person is here; else the owner so far when present; else the
        person here who sat down first (the owner's right passes on when they are away, and
        comes back to the host's seat). A notice when it moved (and the seats kept)."""
        here = self.here()
        current = next((s for s in self._seats if s.owner), None)
        new = self._next_owner(here, current)
        if new is current:
            return []
        for seat in self._seats:
            seat.owner = seat is new
        self.keep()
        return [OwnerMoved(new.number if new is not None else None)]

    def check_owner(self, seat: int) -> None:
        """Only the owner starts the game: TableRefusal for anyone else."""
        if not self._seats[seat].owner:
            owner = self.owner
            who = self._seats[owner].name if owner is not None else "the host"
            raise TableRefusal("not_owner", f"only {who} starts the game")

    def _next_owner(self, here: list[Seat], current: Seat | None) -> Seat | None:
        """The seat that owns the table now (see :meth:`settle_owner`)."""
        host = next((s for s in self._seats if s.hosts and s.kind == "person"), None)
        if host is not None and (host.member is not None or not here):
            return host
        if current is not None and current.kind == "person" and (
                current.member is not None or not here):
            return current
        return min(here, key=lambda s: s.joined) if here else None

    # --- sitting down, going away ------------------------------------------------------------
    def seat_host(self, seat: int, name: str | None) -> str:
        """Reserve a seat for the host's own player, the owner; returns its key."""
        s = self._seats[seat]
        for other in self._seats:
            other.owner = False
        s.kind, s.owner, s.hosts, s.name = "person", True, True, name or "Host"
        s.key = s.key or keys.new_secret()
        self.keep()
        return s.key

    def come_back(self, key: str, name: str | None, member: Member, *,
                  lobby: bool) -> tuple[int, list[Notice]]:
        """A person back with their seat key (an older connection of theirs is closed): the
        seat and what changed; TableRefusal (fatal) when the key opens no seat."""
        found = keys.find_key(key, [s.key for s in self._seats])
        if found is None:
            raise TableRefusal("unknown_key", "this seat key opens no seat at this table",
                               fatal=True)
        seat = self._seats[found]
        old = seat.member
        seat.member = member
        if old is not None:
            old.part(Parting.ELSEWHERE)
        if name:  # a new name is made unique as a newcomer's is
            seat.name = self._unique_name(name, found)
        back = seat.away_since is not None or seat.stand_in
        seat.away_since, seat.stand_in = None, False
        notice = (Back if back else Joined)(found, seat.name)
        return found, [notice, *self.settle_owner()] if lobby else [notice]

    def sit_new(self, name: str | None, wanted: int | None,
                member: Member) -> tuple[int, list[Notice]]:
        """A newcomer in the lobby takes a free seat (``wanted`` if it is free) and gets its
        key: the seat and what changed; TableRefusal (fatal) when there is no such seat."""
        found = self._free_seat(wanted)
        seat = self._seats[found]
        seat.kind, seat.key, seat.member = "person", keys.new_secret(), member
        self._joins += 1
        seat.joined = self._joins
        seat.name = self._unique_name(name or SEAT_NAMES[found], found)
        self.keep()
        return found, [Joined(found, seat.name), *self.settle_owner()]

    def away(self, member: Member, now: float, wait: float, *, lobby: bool) -> list[Notice]:
        """``member``'s connection closed: its seat waits ``wait`` seconds from ``now`` for
        its person (their key brings them back). What changed (nothing when the member sits
        nowhere)."""
        for seat in self._seats:
            if seat.member is member:
                seat.member, seat.away_since = None, now
                notices: list[Notice] = [Away(seat.number, wait)]
                return notices + self.settle_owner() if lobby else notices
        return []

    def free(self, numbers: list[int]) -> list[Notice]:
        """In the lobby, the people of these seats are gone for good (they left, or were
        away too long): their seats are free (their keys open nothing). What changed."""
        for number in numbers:
            self._seats[number].free()
        self.keep()
        return [*(Left(n) for n in numbers), *self.settle_owner()]

    def seat_bots(self, bots: Sequence[str]) -> list[JSON]:
        """The game is dealt: the seats nobody took get their bots (``bots`` by seat). The
        game's players, by seat."""
        players: list[JSON] = []
        for seat in self._seats:
            if seat.kind != "person":
                seat.kind, seat.spec = "bot", bots[seat.number]
                seat.name = f"{SEAT_NAMES[seat.number]} ({seat.spec})"
            if seat.kind == "person":
                players.append({"name": seat.name, "kind": "human"})
            else:
                players.append({"name": seat.name, "kind": "bot", "bot": seat.spec})
        return players

    def _free_seat(self, wanted: int | None) -> int:
        """The seat a newcomer takes: the one asked for when it is empty, else the first
        empty one; TableRefusal (fatal) when there is none."""
        if wanted is not None:
            if self._seats[wanted].kind != "empty":
                raise TableRefusal("seat_taken", f"{SEAT_NAMES[wanted]} is taken", fatal=True)
            return wanted
        for seat in self._seats:
            if seat.kind == "empty":
                return seat.number
        raise TableRefusal("table_full", "every seat at this table is taken", fatal=True)

    def _unique_name(self, name: str, seat: int) -> str:
        """``name``, or ``name 2``, ``name 3``... when another person at the table has it
        (the name cut so that the whole stays within MAX_NAME characters)."""
        taken = {s.name for s in self._seats if s.number != seat and s.kind == "person"}
        candidate, n = name, 2
        while candidate in taken:
            suffix = f" {n}"
            candidate = name[:MAX_NAME - len(suffix)].rstrip() + suffix
            n += 1
        return candidate


__all__ = ["MAX_NAME", "Seat", "Seating"]
