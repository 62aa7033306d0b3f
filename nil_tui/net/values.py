"""What the table tells its seats, as the session's values: the news of an event of the game,
and the state each seat may see."""

from __future__ import annotations

from collections.abc import Sequence

from ..driver import BotIncident, BotReplaced, DriverEvent
from ..engine import (
    CardPlayed,
    DealEnded,
    DealStarted,
    Game,
    GameEnded,
    Phase,
    Play,
    TrickWon,
)
from ..session import messages as session


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


def finished_deals(game: Game, seat: int) -> dict[str, object]:
    """What a seat that comes back mid-game is told of the deals before the one in play
    (its table shows the game so far: the scoreboard, the review): each deal's dealer and
    cards in play order, public once played, and the seat's own hand as dealt; never another
    seat's hand; and the cards a bot played for someone. Card codes as in the records; seats
    as the table numbers them."""
    deals = []
    for number, deal in enumerate(game.deals, 1):
        if not deal.is_over:
            continue
        deals.append({"deal_number": number, "dealer": deal.dealer,
                      "plays": [{"seat": p.seat, "card": p.card.code, "forced": p.forced}
                                for p in deal.plays],
                      "hand": [c.code for c in deal.dealt_hand(seat)]})
    # the cards the table played for a seat (a stand-in for someone away, a bot that failed):
    # every seat was told of them as they came
    stood_in = [{"deal": i["deal"], "seat": i["seat"], "card": i["card"], "reason": i["reason"]}
                for i in game.incidents]
    return {"type": "deals", "deals": deals, "incidents": stood_in}


__all__ = ["finished_deals", "news_of", "pace_of", "seat_states"]
