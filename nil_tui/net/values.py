"""What the table tells its seats, as the session's values: the news of an event of the game,
and the state each seat may see."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import Game, Phase
from ..session import messages as session
from ..session.news import news_of


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
