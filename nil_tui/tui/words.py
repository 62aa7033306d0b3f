"""The words the screens say: seat names, subjects and verbs, plurals. One place, so every
screen says the same thing the same way."""

from __future__ import annotations

from typing import Any

from ..engine import SEAT_NAMES

SEAT_LABELS: tuple[str, str, str, str] = ("You", SEAT_NAMES[1], SEAT_NAMES[2], SEAT_NAMES[3])
"""How the screens name each seat: the person at South is "You"."""

BOT_SEATS: tuple[int, int, int] = (1, 2, 3)

Labels = tuple[str, str, str, str]


def seat_labels(home: int = 0) -> Labels:
    """The seats as named to the person who truly sits at ``home`` (0: South) and is drawn
    at the bottom: "You", then the true seats to their left, across and right."""
    return ("You", SEAT_NAMES[(home + 1) & 3], SEAT_NAMES[(home + 2) & 3],
            SEAT_NAMES[(home + 3) & 3])


def count(n: int, noun: str) -> str:
    """"1 trick", "2 tricks", "0 games"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def seat_subject(seat: int, labels: Labels = SEAT_LABELS) -> str:
    """The seat as the subject of a sentence: "You", "West"."""
    return labels[seat]


def verb(seat: int, plain: str, third: str) -> str:
    """The verb agreeing with the seat: "You play", "West plays"."""
    return plain if seat == 0 else third


def says(seat: int, plain: str, third: str, *, start: bool = True,
         labels: Labels = SEAT_LABELS) -> str:
    """Subject and verb: "You win", "North wins" ("you win" within a sentence)."""
    subject = seat_subject(seat, labels) if start or seat != 0 else "you"
    return f"{subject} {verb(seat, plain, third)}"


def percent(chance: float) -> str:
    """A chance as the screens show it: "62%", and "<1%" / ">99%" near the ends (small is
    not nothing)."""
    if 0 < chance < 0.005:
        return "<1%"
    if 0.995 <= chance < 1:
        return ">99%"
    return f"{round(chance * 100)}%"


def resume_point(record: dict[str, Any]) -> str:
    """Where a saved game goes on, read by the engine: "deal 2 of 4" when deal 1 was
    finished (its summary was on screen when the game was saved), "deal 1 of 4" in the
    middle of deal 1."""
    from ..engine import Game, RecordError

    planned = record.get("deals_planned", "?")
    try:
        game = Game.from_record(record)
    except (RecordError, ValueError, TypeError, KeyError):
        # Resume says why it cannot go on; here only the count of deals is known.
        deals = record.get("deals")
        return f"deal {len(deals) if isinstance(deals, list) and deals else 1} of {planned}"
    if game.is_over:
        return "finished"
    if game.deal.is_over:
        return f"deal {len(game.deals) + 1} of {game.deals_planned}"
    return f"deal {len(game.deals)} of {game.deals_planned}"


def describe_saved(record: dict[str, Any]) -> str:
    """The saved game in a few words: "deal 3 of 8, started 2026-11-30" (the deal it goes
    on with)."""
    created = str(record.get("created", ""))[:10]
    return resume_point(record) + (f", started {created}" if created else "")
