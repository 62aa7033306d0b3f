"""The words the screens say: seat names, subjects and verbs, plurals. One place, so every
screen says the same thing the same way."""

from __future__ import annotations

from ..engine import SEAT_NAMES

SEAT_LABELS: tuple[str, str, str, str] = ("You", SEAT_NAMES[1], SEAT_NAMES[2], SEAT_NAMES[3])
"""How the screens name each seat: the person at South is "You"."""

BOT_SEATS: tuple[int, int, int] = (1, 2, 3)


def count(n: int, noun: str) -> str:
    """"1 trick", "2 tricks", "0 games"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def seat_subject(seat: int) -> str:
    """The seat as the subject of a sentence: "You", "West"."""
    return SEAT_LABELS[seat]


def verb(seat: int, plain: str, third: str) -> str:
    """The verb agreeing with the seat: "You play", "West plays"."""
    return plain if seat == 0 else third


def says(seat: int, plain: str, third: str, *, start: bool = True) -> str:
    """Subject and verb: "You win", "North wins" ("you win" within a sentence)."""
    subject = seat_subject(seat) if start or seat != 0 else "you"
    return f"{subject} {verb(seat, plain, third)}"


def percent(chance: float) -> str:
    """A chance as the screens show it: "62%", and "<1%" / ">99%" near the ends (small is
    not nothing)."""
    if 0 < chance < 0.005:
        return "<1%"
    if 0.995 <= chance < 1:
        return ">99%"
    return f"{round(chance * 100)}%"
