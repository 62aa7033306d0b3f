"""A driver's event as the news every seat is told (:mod:`.messages`): one translation, for a
game played here and a shared table alike."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import CardPlayed, DealEnded, DealStarted, Game, GameEnded, Play, TrickWon
from ..game.driver import BotIncident, BotReplaced, DriverEvent
from . import messages as session


def news_of(game: Game | None, event: DriverEvent,
            plays: Sequence[Play] | None = None) -> session.News | None:
    """An event of the game as the session tells it (every card in it has been played).
    ``plays``: the deal's plays now, when the caller has them (they are costly to gather)."""
    if isinstance(event, CardPlayed):
        if game is not None and (plays is None or event.deal_number != game.deal_number):
            plays = game.deals[event.deal_number - 1].plays
        card = event.card  # most often the last play: looked for from the end
        forced = plays is not None and next(
            (p.forced for p in reversed(plays) if p.card is card or p.card == card), False)
        return session.Played(event.seat, event.card, forced)
    if isinstance(event, TrickWon):
        return session.TrickTaken(event.trick, event.first_trick_for_winner)
    if isinstance(event, DealStarted):
        return session.DealBegun(event.deal_number, event.dealer)
    if isinstance(event, DealEnded):
        return session.DealOver(event.deal_number, event.taken, event.points, event.early,
                                event.totals, event.rule)
    if isinstance(event, GameEnded):
        return session.GameOver(event.totals, event.losers)
    if isinstance(event, BotIncident):
        return session.BotFailed(event.seat, event.card, event.reason)
    if isinstance(event, BotReplaced):
        return session.SeatReplaced(event.seat, event.spec, event.substitute, event.reason)
    return None


__all__ = ["news_of"]
