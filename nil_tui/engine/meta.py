"""A game's facts beyond its cards, as typed records: a daily challenge's date and reference,
the players, the incidents (a card played for a bot that failed) and the plays taken back.

Each is immutable and written to a record exactly as ``docs/RECORDS.md`` says
(``to_dict``), and read back from one (``from_dict``, once the record reader has checked it).
For the code that read these facts as the record's objects before, a record can still be read
like one (``challenge["date"]``, ``challenge.get("reference")``, equal to the same dict); it
is never changed in place: a new one replaces it (``game.challenge = c.with_reference(...)``).

The players, incidents and undone plays are the record's objects themselves, typed
(:class:`PlayerEntry`, :class:`Incident`, :class:`Undone`): a record keeps a player's other
fields as they came, in their order, so these stay plain dicts with their known keys typed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict


@dataclass(frozen=True, eq=False)
class Challenge(Mapping[str, Any]):
    """The daily challenge a game is: its date (``YYYY-MM-DD``) and the expert's points per
    deal from seat 0 on the same deals (``reference``: None until known)."""

    date: str
    reference: tuple[int, ...] | None = None

    def with_reference(self, points: Sequence[int] | None) -> Challenge:
        return Challenge(self.date, None if points is None else tuple(points))

    def to_dict(self) -> dict[str, Any]:
        """As the record's ``challenge`` object."""
        return {"date": self.date,
                "reference": None if self.reference is None else list(self.reference)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Challenge:
        """From a record's ``challenge`` object (checked by the record reader)."""
        ref = data.get("reference")
        return cls(str(data["date"]), None if ref is None else tuple(int(p) for p in ref))

    # --- read like the record's object --------------------------------------------------
    def __getitem__(self, key: str) -> Any:
        return self.to_dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(("date", "reference"))

    def __len__(self) -> int:
        return 2

    def __repr__(self) -> str:
        return f"Challenge(date={self.date!r}, reference={self.reference!r})"


class Replaced(TypedDict):
    """A bot that left a seat (``players[s].replaced[k]``): its spec, when and why."""

    bot: str
    deal: int
    trick: int
    reason: str


class _Player(TypedDict):
    name: str
    kind: str  # "human" or "bot"


class PlayerEntry(_Player, total=False):
    """A seat's player (``players[s]``): a name, a kind, the bot's spec (a bot's) and the bots
    replaced in that seat; a record's other fields are kept as they came."""

    bot: str
    replaced: list[Replaced]


class Incident(TypedDict):
    """A card played for a bot that failed: where, whose, which card and why."""

    deal: int
    trick: int
    seat: int
    card: str
    reason: str


class _Undone(TypedDict):
    deal: int
    trick: int
    cards: list[str]


class Undone(_Undone, total=False):
    """Plays taken back by an undo: where they started, the cards, and the incidents of those
    cards (then no longer in ``incidents``)."""

    incidents: list[Incident]


__all__ = ["Challenge", "Incident", "PlayerEntry", "Replaced", "Undone"]
