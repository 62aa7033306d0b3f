"""App-level messages, named after what happened."""

from __future__ import annotations

from textual.message import Message

from ..engine import Card


class BotChose(Message):
    """A bot (in its worker thread) chose a card. ``turn`` ties the answer to the position
    it was asked about, so a late answer can never be played twice or in the wrong place."""

    def __init__(self, turn: int, seat: int, card: Card, incident: str | None) -> None:
        super().__init__()
        self.turn = turn
        self.seat = seat
        self.card = card
        self.incident = incident


class BotFailed(Message):
    """A bot could not even be built; the game carries on with a fallback."""

    def __init__(self, seat: int, reason: str) -> None:
        super().__init__()
        self.seat = seat
        self.reason = reason


class HintReady(Message):
    def __init__(self, turn: int, card: Card, reason: str) -> None:
        super().__init__()
        self.turn = turn
        self.card = card
        self.reason = reason
