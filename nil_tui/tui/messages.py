"""App-level messages, named after what happened."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message

from ..engine import Card
from ..game.driver import Decision, Request

if TYPE_CHECKING:
    from ..game.daily_challenge import ReferenceNews


class BotDecided(Message):
    """A bot (in its worker thread) decided. The decision names the turn it answers, so the
    driver plays it only if the position is still the one the bot was asked about."""

    def __init__(self, decision: Decision) -> None:
        super().__init__()
        self.decision = decision


class BotLost(Message):
    """A bot's thread failed without an answer (the session may ask it again)."""

    def __init__(self, request: Request) -> None:
        super().__init__()
        self.request = request


class HintReady(Message):
    def __init__(self, turn: int, card: Card, reason: str) -> None:
        super().__init__()
        self.turn = turn
        self.card = card
        self.reason = reason


class GameKept(Message):
    """A finished game that could not be kept at first is now in history, its record here."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path


class ReferenceNewsArrived(Message):
    """The process working out a challenge's reference said something (from its thread)."""

    def __init__(self, date: str, news: ReferenceNews) -> None:
        super().__init__()
        self.date = date
        self.news = news
