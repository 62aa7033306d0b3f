"""The rules of Zero (Nil), pure Python. Nothing here imports Textual or Rich."""

from .cards import DECK, InvalidCard, Suit, Card, cards_of, mask_of
from .deal import SEAT_NAMES, Deal, IllegalPlay, Trick, score, trick_winner
from .game import (CardPlayed, Cut, DealEnded, DealStarted, Event, Game, GameEnded, Phase,
                   TrickWon, describe_result, lowest)
from .records import RecordError
from .view import PlayerView

__all__ = [
    "DECK", "InvalidCard", "Suit", "Card", "cards_of", "mask_of", "SEAT_NAMES", "Deal",
    "IllegalPlay", "Trick", "score", "trick_winner", "CardPlayed", "Cut", "DealEnded",
    "DealStarted", "Event", "Game", "GameEnded", "Phase", "TrickWon", "describe_result",
    "lowest", "RecordError", "PlayerView",
]
