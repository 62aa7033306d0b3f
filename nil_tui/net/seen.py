"""What a seat at a shared table knows of its game, as pure functions: the table turned so
that the seat comes at the bottom (seat 0, "you"), the person to its left next (seat 1), and
so on; the game rebuilt from the deals the seat was told of (its own hand only, until a deal
is over); and the news a seat missed while its link was lost, told as the table would have
told it. :mod:`.link` turns what it hears with these; :mod:`.remote` rebuilds its game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ..engine import Card, Deal, Game, Play, Trick
from ..engine.cards import mask_of
from ..engine.scoring import DealRule, first_rule
from ..session.frames import Frame
from ..session.messages import (
    BotFailed,
    DealBegun,
    DealOver,
    GameOver,
    News,
    Played,
    SeatReplaced,
    TableState,
    TrickTaken,
)


# --- turning the table so that the seat is at the bottom -------------------------------------
def _four(values: Sequence[Any], me: int) -> Any:
    return tuple(values[(i + me) & 3] for i in range(4))


def turn_seat(seat: int, me: int) -> int:
    """Seat ``seat`` as numbered with seat ``me`` at the bottom (seat 0)."""
    return (seat - me) & 3


def _opt_seat(seat: int | None, me: int) -> int | None:
    return None if seat is None else (seat - me) & 3


def turn_trick(trick: Trick, me: int) -> Trick:
    return Trick(turn_seat(trick.leader, me), trick.cards, turn_seat(trick.winner, me))


def turn_rule(rule: DealRule | None, me: int) -> DealRule | None:
    if rule is None or not rule.tiebreak:
        return rule
    return rule._replace(tiebreak=tuple(sorted(turn_seat(s, me) for s in rule.tiebreak)))


def turn_state(state: TableState, me: int) -> TableState:
    """A seat's state as drawn with that seat at the bottom."""
    if me == 0:
        return state
    hands = state.hands_dealt
    return state._replace(
        seat=0, names=_four(state.names, me), levels=_four(state.levels, me),
        dealer=turn_seat(state.dealer, me), totals=_four(state.totals, me),
        plays=tuple(Play(turn_seat(p.seat, me), p.card, p.forced) for p in state.plays),
        to_move=_opt_seat(state.to_move, me), thinking=_opt_seat(state.thinking, me),
        on_show=None if state.on_show is None else turn_trick(state.on_show, me),
        hands_dealt=None if hands is None else _four(hands, me),
        tiebreak=tuple(sorted(turn_seat(s, me) for s in state.tiebreak)))


def turn_news(news: News, me: int) -> News:
    """A piece of news as told with the seat at the bottom."""
    if me == 0:
        return news
    if isinstance(news, Played):
        return news._replace(seat=turn_seat(news.seat, me))
    if isinstance(news, TrickTaken):
        return news._replace(trick=turn_trick(news.trick, me))
    if isinstance(news, DealBegun):
        return news._replace(dealer=turn_seat(news.dealer, me))
    if isinstance(news, DealOver):
        return news._replace(taken=_four(news.taken, me), points=_four(news.points, me),
                             totals=_four(news.totals, me), rule=turn_rule(news.rule, me))
    if isinstance(news, GameOver):
        return news._replace(totals=_four(news.totals, me),
                             losers=tuple(sorted(turn_seat(s, me) for s in news.losers)))
    if isinstance(news, (BotFailed, SeatReplaced)):
        return news._replace(seat=turn_seat(news.seat, me))
    return news


# --- the game a seat knows -------------------------------------------------------------------
class DealSeen(NamedTuple):
    """A deal as the seat knows it: every hand once it is over, else only its own."""

    dealer: int
    plays: tuple[Play, ...]
    hands: tuple[tuple[Card, ...], ...] | None
    hand: tuple[Card, ...]


def build_game(deals: Sequence[DealSeen], *, planned: int, scoring: str,
               players: Sequence[dict[str, Any]], seed: int | None = None,
               incidents: Sequence[dict[str, Any]] = ()) -> Game:
    """A game from the deals a seat knows, in order from the first: each finished one from
    its hands as dealt and its plays; a deal in progress from the public plays and the seat's
    own hand (the others' cards are not known: their hands are left empty)."""
    built: list[Deal] = []
    game: Game | None = None
    for seen in deals:
        rule = first_rule(scoring) if game is None else game.next_rule()
        if seen.hands is not None:
            deal = Deal.from_hands(seen.hands, seen.dealer)
            deal.rule = rule
            for play in seen.plays:
                deal.play(play.card)
        else:
            state_like = _split(seen.plays, seen.dealer)
            hands = [mask_of(seen.hand), 0, 0, 0]
            deal = Deal.from_position(hands, seen.dealer, state_like[0], state_like[1],
                                      state_like[2], rule)
        built.append(deal)
        game = Game.from_parts(deals_planned=planned, seed=seed, players=players, cut=None,
                               first_dealer=built[0].dealer, deals=built,
                               incidents=incidents if len(built) == len(deals) else (),
                               scoring=scoring)
    if game is None:
        raise ValueError("no deal to build a game from")
    return game


def _split(plays: Sequence[Play], dealer: int) -> tuple[tuple[Trick, ...], tuple[Card, ...],
                                                         int]:
    state = TableState(seat=0, names=("", "", "", ""), levels=(None, None, None, None),
                       deal_number=1, deals_planned=1, dealer=dealer, totals=(0, 0, 0, 0),
                       hand=(), legal=(), plays=tuple(plays), to_move=None, turn=0,
                       pace="bot_waits")
    return state.tricks, state.trick, state.leader


def turn_game(game: Game, me: int) -> Game:
    """A finished (or any) game as seen from seat ``me``: that seat becomes seat 0."""
    if me == 0:
        return game
    deals = [DealSeen(turn_seat(d.dealer, me),
                      tuple(Play(turn_seat(p.seat, me), p.card, p.forced) for p in d.plays),
                      _four([d.dealt_hand(s) for s in range(4)], me), ())
             for d in game.deals]
    incidents = [{**i, "seat": turn_seat(int(i["seat"]), me)} for i in game.incidents]
    return build_game(deals, planned=game.deals_planned, scoring=game.scoring,
                      players=_four(game.players, me), seed=game.seed, incidents=incidents)


def seen_game(state: TableState, deals: dict[int, DealSeen],
              record: dict[str, Any] | None, me: int) -> Game:
    """The game so far as seat ``me`` knows it (turned): the record's game once it came,
    else rebuilt from the finished deals it was told of and the deal in progress."""
    if record is not None:
        try:
            return turn_game(Game.from_record(record), me)
        except (ValueError, KeyError, TypeError):
            pass  # rebuilt from what was seen, below
    players = [{"name": state.names[s], "kind": "human" if state.levels[s] is None
                else "bot", **({"bot": state.levels[s]} if state.levels[s] else {})}
               for s in range(4)]
    known = [deals.get(n) for n in range(1, state.deal_number)]
    if any(d is None for d in known):  # joined again: the earlier deals were not seen
        known = []
    seen = [d for d in known if d is not None]
    seen.append(DealSeen(state.dealer, state.plays, state.hands_dealt, state.hand))
    return build_game(seen, planned=state.deals_planned, scoring=state.scoring,
                      players=players)


class Seen(NamedTuple):
    """Where what a seat was shown of the game stops: the deal, how many of its cards, and
    whether it saw that deal's end."""

    deal_number: int
    plays: int
    over: bool


def seen_of(state: TableState) -> Seen:
    return Seen(state.deal_number, len(state.plays), state.pace in ("deal_over", "game_over"))


def caught_up(before: Seen, state: TableState, deals: dict[int, DealSeen],
              played_for: dict[tuple[int, int, Card], str]) -> list[News]:
    """What happened between the position a seat last saw (``before``) and ``state``, as the
    news it would have heard had its link stayed up: each card played (a card a bot played
    for someone away, the seat itself included, said first, as ``BotFailed``), each trick
    taken, each deal's result and the next deal's beginning, the game's end. The deals
    finished meanwhile come from ``deals`` (as the table tells a seat that comes back); all in
    the same frame (turned or not) as ``state``. Nothing when the table is behind what the
    seat saw (a host that came back from its last save)."""
    if (state.deal_number, len(state.plays)) < (before.deal_number, before.plays):
        return []
    try:
        game: Game | None = seen_game(state, deals, None, 0)
    except (ValueError, KeyError, IndexError):
        game = None
    news: list[News] = []
    for number in range(before.deal_number, state.deal_number + 1):
        known = deals.get(number)
        if number == state.deal_number:
            dealer, plays = state.dealer, state.plays
        elif known is not None:
            dealer, plays = known.dealer, known.plays
        else:
            continue  # a deal this seat was not told of: its news cannot be told
        if number > before.deal_number:
            news.append(DealBegun(number, dealer))
        start = before.plays if number == before.deal_number else 0
        news += plays_news(number, dealer, plays, start, played_for)
        over = number < state.deal_number or state.pace in ("deal_over", "game_over")
        told = number == before.deal_number and before.over
        if over and not told and game is not None and number <= len(game.deals):
            news.append(_deal_over(game, number))
    if state.pace == "game_over" and game is not None and game.is_over and not (
            before.over and before.deal_number == state.deal_number):
        news.append(GameOver(game.totals, game.losers))
    return news


def plays_news(number: int, dealer: int, plays: Sequence[Play], start: int,
                played_for: dict[tuple[int, int, Card], str]) -> list[News]:
    """The news of deal ``number``'s plays after the first ``start``: each card (a card a
    bot played for someone away said first), each trick taken."""
    tricks = _split(plays, dealer)[0]
    clean = [True] * 4
    news: list[News] = []
    for n, play in enumerate(plays, 1):
        trick = tricks[n // 4 - 1] if n % 4 == 0 and n // 4 <= len(tricks) else None
        if n > start:
            why = played_for.get((number, play.seat, play.card))
            if why is not None:
                news.append(BotFailed(play.seat, play.card, why))
            news.append(Played(play.seat, play.card, play.forced))
            if trick is not None:
                news.append(TrickTaken(trick, clean[trick.winner]))
        if trick is not None:
            clean[trick.winner] = False
    return news


def _deal_over(game: Game, number: int) -> DealOver:
    deal = game.deals[number - 1]
    totals = [0, 0, 0, 0]
    for d in game.deals[:number]:
        totals = [t + p for t, p in zip(totals, d.points)]
    return DealOver(number, deal.taken, deal.points, deal.ended_early,
                    (totals[0], totals[1], totals[2], totals[3]), deal.rule)


# --- what a seat knows, kept -----------------------------------------------------------------
class KnownGame:
    """What seat ``me`` (its true number) knows of its game, in the turned frame: the deals
    it saw finished (every hand, once over) or was told of on coming back (its own hand),
    why a bot played a card for someone away, the record once it came, and where it stood
    when its link was lost; the game rebuilt from them (kept until they change)."""

    def __init__(self, me: int) -> None:
        self.me = me
        self.deals: dict[int, DealSeen] = {}  # finished deals, by number
        self.played_for: dict[tuple[int, int, Card], str] = {}  # (deal, seat, card): why
        self.record: dict[str, Any] | None = None
        self._missed_from: Seen | None = None  # back after a lost link: what it last saw
        self._game: tuple[tuple[int, int, int], Game] | None = None

    def told(self, deals: dict[int, DealSeen],
             played_for: dict[tuple[int, int, Card], str]) -> None:
        """The deals finished before the seat came back (a deal seen whole is kept)."""
        for number, deal in deals.items():
            self.deals.setdefault(number, deal)
        self.played_for.update(played_for)
        self._game = None

    def shown(self, state: TableState) -> None:
        """A position shown: a deal over is known whole (every hand as dealt)."""
        self._game = None
        if state.hands_dealt is not None:
            self.deals[state.deal_number] = DealSeen(state.dealer, state.plays,
                                                     state.hands_dealt, ())

    def game(self, state: TableState) -> Game:
        """The game so far, ``state`` the position shown (the record's game once it came)."""
        key = (state.deal_number, len(state.plays), len(self.deals))
        if self._game is not None and self._game[0] == key:
            return self._game[1]
        game = seen_game(state, self.deals, self.record, self.me)
        self._game = (key, game)
        return game

    def so_far(self, state: TableState) -> list[News]:
        """The deal of ``state`` so far, as news (a card a bot played for someone away said
        first)."""
        return plays_news(state.deal_number, state.dealer, state.plays, 0, self.played_for)

    def back(self, last: TableState | None) -> None:
        """The seat is back after a lost link; ``last``: the last position it heard."""
        self._missed_from = seen_of(last) if last is not None else None

    def news_of(self, frame: Frame) -> Frame:
        """A frame heard, as told to the seat: the first after it came back tells what it
        missed since (as the table told it to the others)."""
        before, self._missed_from = self._missed_from, None
        if before is None:
            return frame
        return frame._replace(news=tuple(caught_up(before, frame.state, self.deals,
                                                   self.played_for)))


__all__ = ["DealSeen", "KnownGame", "Seen", "build_game", "caught_up", "plays_news", "seen_game",
           "seen_of", "turn_game", "turn_news", "turn_seat", "turn_state", "turn_trick"]
