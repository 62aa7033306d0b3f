"""What the table tells its seats of the game, as values: the news of an event of the game,
the state each seat may see, and the game so far for a seat that comes back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ...engine import Card, Game, Phase, Play
from .. import messages as session
from ..news import news_of


def pace_of(game: Game, seat: int) -> str:
    """Where play stands for a seat at a shared table."""
    phase = game.phase
    if phase is Phase.GAME_OVER:
        return "game_over"
    if phase is Phase.DEAL_OVER:
        return "deal_over"
    return "your_turn" if game.to_move == seat else "bot_waits"


def seat_states(game: Game, turn: int, names: Sequence[str],
                levels: Sequence[str | None], seats: Sequence[int]
                ) -> dict[int, session.TableState]:
    """What each of ``seats`` may see now. The first is the session's ``table_state``; the
    others differ from it only in what is each seat's own (its seat, hand, legal cards and
    pace), taken from that seat's own part of its view (``Deal.own_view``; a test compares every
    one with the session's)."""
    if not seats:
        return {}
    to_move = game.to_move if game.phase is Phase.PLAYING else None
    thinking = to_move if to_move is not None and levels[to_move] is not None else None
    first = session.table_state(game, seats[0], turn=turn, pace=pace_of(game, seats[0]),
                                names=names, levels=levels, thinking=thinking,
                                help_allowed=False)
    out = {seats[0]: first}
    deal = game.deal
    for seat in seats[1:]:
        hand, legal = deal.own_view(seat)  # the seat's own part of its view
        out[seat] = first._replace(seat=seat, hand=hand, legal=legal,
                                   pace=pace_of(game, seat))
    return out


class DealPlayed(NamedTuple):
    """A finished deal as one seat may know it: its dealer and its cards in play order
    (public once played), and that seat's own hand as dealt."""

    number: int
    dealer: int
    plays: tuple[Play, ...]
    hand: tuple[Card, ...]


class PlayedFor(NamedTuple):
    """A card the table played for a seat (a stand-in for someone away, a bot that failed):
    every seat was told of it as it came."""

    deal: int
    seat: int
    card: Card
    reason: str


class GameSoFar(NamedTuple):
    """What a seat that comes back mid-game is told of the deals before the one in play (its
    table shows the game so far: the scoreboard, the review); never another seat's hand."""

    deals: tuple[DealPlayed, ...]
    played_for: tuple[PlayedFor, ...]


def game_so_far(game: Game, seat: int) -> GameSoFar:
    """The game's finished deals as ``seat`` may know them, and the cards played for
    anyone."""
    deals = tuple(DealPlayed(number, deal.dealer, deal.plays, deal.dealt_hand(seat))
                  for number, deal in enumerate(game.deals, 1) if deal.is_over)
    played_for = tuple(PlayedFor(i["deal"], i["seat"], Card.parse(i["card"]), i["reason"])
                       for i in game.incidents)
    return GameSoFar(deals, played_for)


__all__ = ["DealPlayed", "GameSoFar", "PlayedFor", "game_so_far", "news_of", "pace_of",
           "seat_states"]
