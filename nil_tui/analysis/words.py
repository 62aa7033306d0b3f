"""What an analysis says in words, the same for the analysis command and the plain lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..engine import Game
    from .model import DealAnalysis


def deal_headline(game: Game, a: DealAnalysis, you: bool) -> str:
    """The line above a deal's analysis: who dealt, and what the seat took and scored."""
    from ..engine import SEAT_NAMES

    deal = game.deals[a.deal - 1]
    who = "you" if you else SEAT_NAMES[a.seat]
    taken = deal.taken[a.seat]
    tricks = f"{taken} trick" if taken == 1 else f"{taken} tricks"
    head = f"Deal {a.deal} of {game.deals_planned}, dealt by {SEAT_NAMES[deal.dealer]}"
    if deal.is_over:
        points = deal.points[a.seat]
        return f"{head}: {who} took {tricks} and scored {points} point" + \
            ("." if points == 1 else "s.")
    if not a.decisions:
        return f"{head} (unfinished): {who} had not played a card yet."
    return f"{head} (unfinished, analysed up to trick {a.decisions[-1].trick}): {who} " \
        f"had taken {tricks}."


__all__ = ["deal_headline"]
