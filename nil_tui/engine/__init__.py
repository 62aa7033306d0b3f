"""The rules of Zero (Nil), pure Python. Nothing here imports Textual or Rich."""

from .cards import DECK, Card, InvalidCard, Suit, cards_of, mask_of
from .deal import (
    SEAT_NAMES,
    Deal,
    IllegalPlay,
    NothingToUndo,
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
from .records import RecordError
from .view import PlayerView

__all__ = [
    "DECK", "SEAT_NAMES", "Card", "CardPlayed", "Cut", "Deal", "DealEnded", "DealStarted",
    "Event", "Game", "GameEnded", "IllegalPlay", "InvalidCard", "NothingToUndo", "Phase",
    "PlayerView", "RecordError", "Suit", "Trick", "TrickWon", "cards_of", "describe_result",
    "legal_mask_of", "lowest", "mask_of", "score", "trick_winner", "voids_mask",
]
