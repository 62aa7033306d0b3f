"""A seat at a shared table as a session the table screen can show
(:class:`~nil_tui.session.seat.SeatSession`), from what a :class:`~.client.TableClient` hears.

The table decides everything; this session only shows it, at the pace of a game played here:
another seat's card waits a moment before the next one lands, a trick just won stays on show
(until a key, if the player chose so), the deal's summary comes once its last trick is put
away, and the game's end once its record has come. The table is turned so that the seat
comes at the bottom (seat 0, "you"), the person to its left next (seat 1), and so on: every
value from the network is turned as it arrives, so the screens, the summary and the record
kept in the player's history all see the player at seat 0.

Undo is off at a shared table: the session says so at once. Hints and the meter are the
player's own, worked out here from the seat's view (:class:`~nil_tui.session.help.SeatHelp`): the game
in their history counts as assisted. A lost link is said on the table, and the seat taken
back with its key.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..engine import SEAT_NAMES, Card, Deal, Game, Play, PlayerView, Trick
from ..engine.cards import mask_of
from ..engine.scoring import DealRule, first_rule
from ..session import game_session as gs
from ..session.frames import Frame, FrameSeat, seat_view
from ..session.help import OwnHelp, SeatHelp, help_words
from ..session.messages import (
    Action,
    AskHint,
    BotFailed,
    DealBegun,
    DealOver,
    GameOver,
    GoOn,
    News,
    PlayCard,
    Played,
    Quit,
    Refused,
    SeatReplaced,
    SetMeter,
    TableState,
    TrickTaken,
    Undo,
)

if TYPE_CHECKING:
    from pathlib import Path

    from ..game.driver import Decision, DriverEvent, Request
    from ..game.options import PlayOptions
    from .client import TableClient

REFUSALS: dict[str, str] = {
    "undo": "Undo is off at a shared table.",
}

LOST = "Connection lost, rejoining..."


# --- turning the table so that the seat is at the bottom -------------------------------------
def _four(values: Sequence[Any], me: int) -> Any:
    return tuple(values[(i + me) & 3] for i in range(4))


def _seat(seat: int, me: int) -> int:
    return (seat - me) & 3


def _opt_seat(seat: int | None, me: int) -> int | None:
    return None if seat is None else (seat - me) & 3


def turn_trick(trick: Trick, me: int) -> Trick:
    return Trick(_seat(trick.leader, me), trick.cards, _seat(trick.winner, me))


def turn_rule(rule: DealRule | None, me: int) -> DealRule | None:
    if rule is None or not rule.tiebreak:
        return rule
    return rule._replace(tiebreak=tuple(sorted(_seat(s, me) for s in rule.tiebreak)))


def turn_state(state: TableState, me: int) -> TableState:
    """A seat's state as drawn with that seat at the bottom."""
    if me == 0:
        return state
    hands = state.hands_dealt
    return state._replace(
        seat=0, names=_four(state.names, me), levels=_four(state.levels, me),
        dealer=_seat(state.dealer, me), totals=_four(state.totals, me),
        plays=tuple(Play(_seat(p.seat, me), p.card, p.forced) for p in state.plays),
        to_move=_opt_seat(state.to_move, me), thinking=_opt_seat(state.thinking, me),
        on_show=None if state.on_show is None else turn_trick(state.on_show, me),
        hands_dealt=None if hands is None else _four(hands, me),
        tiebreak=tuple(sorted(_seat(s, me) for s in state.tiebreak)))


def turn_news(news: News, me: int) -> News:
    """A piece of news as told with the seat at the bottom."""
    if me == 0:
        return news
    if isinstance(news, Played):
        return news._replace(seat=_seat(news.seat, me))
    if isinstance(news, TrickTaken):
        return news._replace(trick=turn_trick(news.trick, me))
    if isinstance(news, DealBegun):
        return news._replace(dealer=_seat(news.dealer, me))
    if isinstance(news, DealOver):
        return news._replace(taken=_four(news.taken, me), points=_four(news.points, me),
                             totals=_four(news.totals, me), rule=turn_rule(news.rule, me))
    if isinstance(news, GameOver):
        return news._replace(totals=_four(news.totals, me),
                             losers=tuple(sorted(_seat(s, me) for s in news.losers)))
    if isinstance(news, (BotFailed, SeatReplaced)):
        return news._replace(seat=_seat(news.seat, me))
    return news


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
    deals = [DealSeen(_seat(d.dealer, me),
                      tuple(Play(_seat(p.seat, me), p.card, p.forced) for p in d.plays),
                      _four([d.dealt_hand(s) for s in range(4)], me), ())
             for d in game.deals]
    incidents = [{**i, "seat": _seat(int(i["seat"]), me)} for i in game.incidents]
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
        news += _plays_news(number, dealer, plays, start, played_for)
        over = number < state.deal_number or state.pace in ("deal_over", "game_over")
        told = number == before.deal_number and before.over
        if over and not told and game is not None and number <= len(game.deals):
            news.append(_deal_over(game, number))
    if state.pace == "game_over" and game is not None and game.is_over and not (
            before.over and before.deal_number == state.deal_number):
        news.append(GameOver(game.totals, game.losers))
    return news


def _plays_news(number: int, dealer: int, plays: Sequence[Play], start: int,
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


def away_of(message: dict[str, Any], me: int) -> tuple[str, str, str, str]:
    """Who is away (turned), from the table's list of its seats: "" (here, or not a
    person), "away" (the table waits for them) or "stand_in" (a bot plays for them)."""
    away = ["", "", "", ""]
    seats = message.get("seats")
    for seat in seats if isinstance(seats, list) else []:
        number = seat.get("seat") if isinstance(seat, dict) else None
        if not isinstance(number, int) or not 0 <= number <= 3 or number == me \
                or seat.get("kind") != "person" or seat.get("present", True):
            continue
        away[_seat(number, me)] = "stand_in" if seat.get("stand_in") else "away"
    return away[0], away[1], away[2], away[3]


def read_deals(message: dict[str, Any], me: int, deals: dict[int, DealSeen],
               played_for: dict[tuple[int, int, Card], str]) -> None:
    """The game's finished deals, as the table tells a seat that comes back, added to
    ``deals`` (turned): each one's dealer and plays (all public) and this seat's own hand,
    no other seat's hand; and the cards a bot played for someone who was away, added to
    ``played_for``. A message that cannot be read leaves the earlier deals unknown until
    the record comes."""
    try:
        for deal in message.get("deals") or []:
            number = int(deal["deal_number"])
            if number in deals:
                continue  # seen whole already
            plays = tuple(Play(_seat(int(p["seat"]), me), Card.parse(p["card"]),
                               bool(p.get("forced"))) for p in deal["plays"])
            played = {p.card for p in plays if p.seat == 0}
            left = tuple(c for c in map(Card.parse, deal["hand"]) if c not in played)
            deals[number] = DealSeen(_seat(int(deal["dealer"]), me), plays, None, left)
        for incident in message.get("incidents") or []:
            key = (int(incident["deal"]), _seat(int(incident["seat"]), me),
                   Card.parse(incident["card"]))
            played_for[key] = str(incident["reason"])
    except (KeyError, TypeError, ValueError):
        pass


# --- the session ------------------------------------------------------------------------------
Reconnect = Callable[[], Awaitable[bool]]


class NoBotsHere:
    """What only a game played here has (its bots): nothing at a shared table, whose bots
    play at the table."""

    def decide(self, request: Request) -> Decision:
        raise TypeError("the bots of a shared table play at the table")

    def bot_decided(self, decision: Decision) -> list[gs.Out]:
        return []

    def bot_lost(self, request: Request) -> list[gs.Out]:
        return []


def seat_note(event: dict[str, Any], message: dict[str, Any], me: int) -> gs.TableNote | None:
    """What the table said of a seat (another person came, dropped, came back)."""
    seat = event.get("seat")
    if not isinstance(seat, int) or not 0 <= seat <= 3 or seat == me:
        return None
    seats = message.get("seats") or []
    where = SEAT_NAMES[seat]  # the true seat, as the table screen names it
    name = str(seats[seat].get("name") if seat < len(seats) else "") or where
    kind = event.get("kind")
    if kind == "away":
        return gs.TableNote(f"{name} ({where}) lost the link: the table waits for them "
                            f"{event.get('wait', 60):g} s, then a bot plays for them.",
                            warn=True, status=True)
    if kind == "stand_in":
        return gs.TableNote(f"A {event.get('bot')} bot plays for {name} ({where}) until "
                            "they are back.", warn=True)
    if kind == "back":
        return gs.TableNote(f"{name} ({where}) is back at the table.")
    if kind == "joined":
        return gs.TableNote(f"{name} sits at {where}.")
    return None


class RemoteSession(FrameSeat, OwnHelp, NoBotsHere):
    """A seat at a shared table, for the table screen (see the module's docstring).

    ``client`` is connected and seated; ``on_finished`` is called once with the finished game
    (turned: the player at seat 0, with the help they used) and gives where its record went;
    ``reconnect`` takes the seat back after a lost link (True once seated again);
    ``assists``: the help already used in this game (the player came back), and
    ``on_assist`` is told the help used each time it grows."""

    def __init__(self, client: TableClient, options: PlayOptions, *,
                 on_finished: Callable[[Game], Path | None] | None = None,
                 reconnect: Reconnect | None = None, assists: Sequence[str] = (),
                 on_assist: Callable[[list[str]], None] | None = None) -> None:
        FrameSeat.__init__(self, options, on_finished=on_finished)
        self.client = client
        self.me = client.seat or 0
        self.home_seat = self.me
        self.leave: Callable[[], None] | None = None  # set by the screen that shows the seat
        self._reconnect = reconnect
        self._news: list[News] = []  # the news of the frame being read
        self._deals: dict[int, DealSeen] = {}  # finished deals, by number
        self._went_on = 0  # the deal after which the table was asked for the next one
        self._record: dict[str, Any] | None = None
        self._closed = False
        self._lost = False
        self._missed_from: Seen | None = None  # back after a lost link: what it last heard
        self._game: tuple[tuple[int, int, int], Game] | None = None
        self._outbox: deque[tuple[Action, int]] = deque()
        self._sender: asyncio.Task[None] | None = None
        self._away: tuple[str, str, str, str] = ("", "", "", "")
        self._played_for: dict[tuple[int, int, Card], str] = {}  # (deal, seat, card): why
        self._help = SeatHelp(options.meter, assists)
        self._on_assist = on_assist
        if client.state is not None:
            self._shown = turn_state(client.state, self.me)
        if client.seats is not None:
            self._away = away_of(client.seats, self.me)
        if client.deals is not None:
            read_deals(client.deals, self.me, self._deals, self._played_for)

    # --- what the seat may see ------------------------------------------------------------
    async def ready(self, timeout: float = 30.0) -> bool:
        """Read until the table has sent the seat's first state (the game has started);
        False when the connection closed first."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self._shown is None:
            message = await self.client.receive(max(0.1, end - loop.time()))
            if message is None:
                return False
            if isinstance(message, TableState):
                self._shown = turn_state(message, self.me)
                self._news = []
            elif isinstance(message, tuple):
                self._news.append(turn_news(message, self.me))  # type: ignore[arg-type]
            elif isinstance(message, dict) and message.get("type") == "deals":
                read_deals(message, self.me, self._deals, self._played_for)
            elif isinstance(message, dict) and message.get("type") == "seats":
                self._away = away_of(message, self.me)
        return True

    def state(self) -> TableState:
        help_ = self._help
        return super().state()._replace(help_allowed=True, meter_on=help_.meter.on,
                                        assisted=bool(help_.assists))

    @property
    def game(self) -> Game:
        """The game so far as this seat knows it (rebuilt from its finished deals and the
        deal in progress; the record's game once it is over)."""
        state = self.state()
        key = (state.deal_number, len(state.plays), len(self._deals))
        if self._game is not None and self._game[0] == key:
            return self._game[1]
        game = seen_game(state, self._deals, self._record, self.me)
        self._game = (key, game)
        return game

    def view(self) -> PlayerView:
        return seat_view(self.state())

    @property
    def thinking(self) -> int | None:
        """The seat whose card the table waits for, when it is not yours: a bot thinking, or
        a person (the table's messages name only bots as thinking); not a person who is away
        while the table waits for them (nobody thinks there)."""
        if self.on_show is not None:
            return None
        state = self.state()
        if state.thinking is not None:
            return state.thinking
        to_move = state.to_move
        if to_move is None or to_move == state.seat or self._away[to_move] == "away":
            return None
        return to_move

    @property
    def away(self) -> tuple[str, str, str, str]:
        """For each seat (turned), whether its person is away: "" (here, or not a person),
        "away" (the table waits for them) or "stand_in" (a bot plays for them meanwhile)."""
        return self._away

    challenge: str | None = None
    help_allowed = True  # hints and the meter (undo: never)

    def help_used(self) -> str:
        return help_words(False, self._help.assists)

    def help_refused(self, what: str) -> str | None:
        return REFUSALS.get(what)

    def can_undo(self) -> bool:
        return False

    # --- play ---------------------------------------------------------------------------------
    def told_so_far(self, notes: Sequence[DriverEvent] = ()) -> list[gs.Out]:
        """The deal so far, as news (the seat sat down, or came back, in the middle of it)."""
        state = self.state()
        return [*_plays_news(state.deal_number, state.dealer, state.plays, 0,
                             self._played_for)]

    def act(self, action: Action) -> list[gs.Out]:
        if isinstance(action, (PlayCard, GoOn)):
            return self.act_on_table(action)
        if isinstance(action, Undo):
            return [Refused("undo", REFUSALS["undo"])]
        if isinstance(action, (AskHint, SetMeter)):
            return self.ask_help(action)
        if isinstance(action, Quit):
            self._send(action)
            return []
        raise TypeError(f"not an action: {action!r}")

    def _send_card(self, card: Card, state: TableState) -> list[gs.Out]:
        if card not in state.legal:
            led = state.trick[0].suit if state.trick else None
            if card in state.hand and led is not None:
                return [Refused("play", "it does not follow the suit led", card, int(led))]
            return [Refused("play", "it is not in your hand", card)]
        if self._lost:  # kept for when the seat is back
            return [gs.TableNote(LOST, warn=True, status=True, log=False)]
        self._sent_turn = state.turn
        self._send(action=PlayCard(card), turn=state.turn)
        return []

    def _send_go_on(self, state: TableState) -> list[gs.Out]:
        if self._went_on < state.deal_number:
            self._went_on = state.deal_number
            self._send(GoOn(), state.turn)
        return self._release()

    def _end_known(self) -> bool:
        return self._record is not None

    def _game_to_keep(self) -> Game:
        game = self.game
        game.assists = list(self._help.assists)  # this player's own help
        return game

    def _shown_again(self) -> list[gs.Out]:
        out: list[gs.Out] = []
        if self._help.meter.on:
            out.extend(self._help.now(self.state(), self.view()))
        if self._lost:  # the status line keeps saying so until the seat is back
            out.append(gs.TableNote(LOST, warn=True, status=True, log=False))
        return out

    def _apply(self, frame: Frame) -> list[gs.Out]:
        out = super()._apply(frame)
        state = frame.state
        self._game = None
        if state.hands_dealt is not None:
            self._deals[state.deal_number] = DealSeen(state.dealer, state.plays,
                                                      state.hands_dealt, ())
        return out

    # --- the network ------------------------------------------------------------------------
    def _send(self, action: Action, turn: int | None = None) -> None:
        """Send an action (in order, one after another)."""
        self._outbox.append((action, self.state().turn if turn is None else turn))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        while self._outbox:
            action, turn = self._outbox.popleft()
            await self.client.act(action, turn)

    async def pushed(self) -> list[gs.Out] | None:
        """What the table said by itself, shown at the table's pace; None once the game is
        over (its record came) or the seat cannot be taken back."""
        from .client import JoinError

        while not self._closed:
            try:
                message = await self.client.receive()
            except JoinError as exc:
                self._closed = True
                return [gs.TableNote(exc.reason, warn=True, status=True)]
            if message is None:
                return await self._link_lost()
            out = self._heard(message)
            if out or self._changed:
                self._changed = False
                return out  # (drawn even when empty: the position shown changed)
        return None

    def _heard(self, message: object) -> list[gs.Out]:
        if isinstance(message, TableState):
            state = turn_state(message, self.me)
            news = self._news
            if self._missed_from is not None:  # back after a lost link: what happened since
                news = caught_up(self._missed_from, state, self._deals, self._played_for)
                self._missed_from = None
            self._queue.append(Frame(tuple(news), state))
            self._news = []
            return self._release()
        if isinstance(message, tuple):
            self._news.append(turn_news(message, self.me))  # type: ignore[arg-type]
            return []
        if not isinstance(message, dict):
            return []
        kind = message.get("type")
        if kind == "record":
            self._record = message.get("record")
            return self._release()
        if kind in ("refused", "error"):
            return [Refused("play", f"The table refused: {message.get('reason')}")]
        if kind == "deals":
            read_deals(message, self.me, self._deals, self._played_for)
            self._game = None
            return []
        if kind in ("seats", "lobby"):
            self._away = away_of(message, self.me)
            self._changed = True  # the seats drawn change with who is away
            return [note for event in message.get("events") or []
                    if (note := seat_note(event, message, self.me)) is not None]
        return []

    async def _link_lost(self) -> list[gs.Out] | None:
        """The connection closed: the game is over, the seat was taken from elsewhere, or
        the link is lost (say so, then take the seat back)."""
        if self._record is not None:
            self._closed = True
            return None
        ws = getattr(self.client, "ws", None)
        code = getattr(ws, "close_code", None)
        if code in (1000, 4000):
            self._closed = True
            return [gs.TableNote("You left the table: the same nil-tui join brings you back."
                                 if code == 1000 else "This seat was taken from another "
                                 "terminal.", warn=True, status=True)]
        if not self._lost:
            self._lost = True
            return [gs.TableNote(LOST, warn=True, status=True)]
        if self._reconnect is not None and await self._reconnect():
            self._lost = False
            last = self._queue[-1].state if self._queue else self._shown
            self._missed_from = seen_of(last) if last is not None else None
            self._sent_turn = -1  # a card sent as the link went may be lost: it may go again
            self._pacer.forget_turn()
            self._news = []
            return [gs.TableNote("Back at the table.", status=True)]
        from .client import REJOIN_WORDS

        self._closed = True
        return [gs.TableNote(f"The table could not be reached for {REJOIN_WORDS}: the same "
                             "nil-tui join brings you back.", warn=True, status=True)]


__all__ = ["REFUSALS", "DealSeen", "RemoteSession", "Seen", "away_of", "build_game",
           "caught_up", "read_deals", "seat_view", "seen_game", "seen_of", "turn_game",
           "turn_news", "turn_state"]
