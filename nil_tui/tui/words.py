"""The words the screens say: seat names, subjects and verbs, plurals. One place, so every
screen says the same thing the same way (the sentences themselves, shared with the line front
end, are in :mod:`nil_tui.session.words`)."""

from __future__ import annotations

from ..session.words import (
    SEAT_LABELS,
    Labels,
    count,
    describe_saved,
    percent,
    resume_point,
    says,
    seat_labels,
    seat_subject,
    verb,
)

BOT_SEATS: tuple[int, int, int] = (1, 2, 3)

__all__ = ["BOT_SEATS", "SEAT_LABELS", "Labels", "count", "describe_saved", "percent",
           "resume_point", "says", "seat_labels", "seat_subject", "verb"]
