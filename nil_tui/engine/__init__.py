"""The rules of Zero (Nil), pure Python. Nothing here imports Textual or Rich."""

from typing import TYPE_CHECKING

from .cards import DECK, Card, InvalidCard, Suit, cards_of, mask_of
from .deal import (
    SEAT_NAMES,
    Deal,
    IllegalPlay,
    NothingToUndo,
    Play,
    Trick,
    legal_mask_of,
    score,
    trick_winner,
    voids_mask,
)
from .game import (
    CardPlayed,
    Cut,
    DealEnded,
    DealStarted,
    Event,
    Game,
    GameEnded,
    Phase,
    TrickWon,
    describe_result,
    lowest,
)
from .meta import Challenge, Incident, PlayerEntry, Replaced, Undone
from .view import PlayerView

if TYPE_CHECKING:
    from .records import RecordError

__all__ = [
    "DECK", "SEAT_NAMES", "Card", "CardPlayed", "Challenge", "Cut", "Deal", "DealEnded",
    "DealStarted", "Event", "Game", "GameEnded", "IllegalPlay", "Incident", "InvalidCard",
    "NothingToUndo", "Phase", "Play", "PlayerEntry", "PlayerView", "RecordError", "Replaced",
    "Suit", "Trick", "TrickWon", "Undone", "cards_of", "describe_result", "legal_mask_of",
    "lowest", "mask_of", "score", "trick_winner", "voids_mask",
]


def __getattr__(name: str) -> object:
    """``RecordError`` comes from the records module, which is loaded only when it is first
    needed (a game to read or write), not for every program that plays."""
    if name == "RecordError":
        from .records import RecordError

        return RecordError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
