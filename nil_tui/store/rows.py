"""What the store gives back, as typed, immutable values (named tuples: compared by value,
quick to define as the app loads). A field can also be read by its name (``row["id"]``,
``row.get("id")``), as when these were dicts; new code reads attributes."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple, SupportsIndex

from .summaries import JSONObject

Saved = tuple[JSONObject, JSONObject]  # (record, options) of a game in progress


def _get(row: tuple[Any, ...], key: str | SupportsIndex | slice) -> Any:
    if isinstance(key, str):
        if key not in row._fields:  # type: ignore[attr-defined]
            raise KeyError(key)
        return getattr(row, key)
    return tuple.__getitem__(row, key)


class HistoryRow(NamedTuple):
    """A game in history (``Store.history``), newest first."""

    id: int
    path: Path | None  # its record file (None for unfinished games)
    finished_at: str  # when it entered history
    finished: bool  # False: set aside unfinished when a new game replaced it
    deals: int  # complete deals
    result: str
    opponents: str
    totals: list[int]
    lost: bool
    losers: list[int]
    difficulty: str
    seed: int | None
    clean_deals: int
    points: int
    challenge: str | None  # the date of the daily challenge it is
    challenge_diff: int | None  # South's points minus the expert's, once known

    def __getitem__(self, key: str | SupportsIndex | slice) -> Any:
        return _get(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key, default)


class ChallengeFound(NamedTuple):
    """Where the game of a daily challenge is (``Store.find_challenge``)."""

    where: str  # "current" (the saved game) or "history"
    id: int | None  # its history id (None for the saved game, or while it waits)
    finished: bool

    def __getitem__(self, key: str | SupportsIndex | slice) -> Any:
        return _get(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key, default)


class Shares(NamedTuple):
    """Games played and lost, deals kept clean and points, with their shares."""

    games: int
    lost: int
    deals: int
    clean_deals: int
    points: int
    points_per_deal: float
    clean_share: float
    lost_share: float

    def __getitem__(self, key: str | SupportsIndex | slice) -> Any:
        return _get(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key, default)


class SeriesPoint(NamedTuple):
    """One finished game in the statistics' series, oldest first."""

    finished_at: str
    difficulty: str
    deals: int
    points: int
    points_per_deal: float
    lost: bool
    clean_deals: int

    def __getitem__(self, key: str | SupportsIndex | slice) -> Any:
        return _get(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key, default)


class ChallengeResult(NamedTuple):
    """A finished daily challenge in the statistics, oldest first."""

    date: str
    finished_at: str
    points: int  # South's
    reference: int | None  # the expert's points from South's seat, once known
    diff: int | None  # points minus reference, once known

    def __getitem__(self, key: str | SupportsIndex | slice) -> Any:
        return _get(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key, default)


class Stats(NamedTuple):
    """Finished games only (``Store.stats``)."""

    by_difficulty: dict[str, Shares]
    overall: Shares
    series: list[SeriesPoint]
    challenges: list[ChallengeResult]

    def __getitem__(self, key: str | SupportsIndex | slice) -> Any:
        return _get(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key, default)


class Finished(NamedTuple):
    """What became of a finished game (``Store.keep_finished``)."""

    stored: bool
    """True only when the game is durably in history (and its statistics)."""
    record_file: Path | None
    """Its record file, if one could be written (maybe in the temporary folder)."""
    problem: str | None
    """Why it is not stored yet (it waits and is tried again), or None when stored."""
