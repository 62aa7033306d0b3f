"""A game of Zero: the cut for the first dealer, deals in turn, totals, losers.

``Game`` is also the state machine the app, the simulator and the records follow: it is always
in one ``Phase``, and every change (``play``, ``next_deal``) returns the events it caused.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, NamedTuple, cast

from .cards import DECK, Card
from .deal import SEAT_NAMES, Deal, Trick
from .meta import Challenge, Incident, PlayerEntry, Undone
from .scoring import DEFAULT_SCORING, DealRule, Settlement, check_scoring, describe_pool, first_rule
from .scoring import losers as _losers

MAX_DEALS = 99
DEFAULT_DEALS = 8


class Phase(Enum):
    """Where a game stands."""

    PLAYING = "playing"        # a seat must play a card (``Game.to_move``)
    DEAL_OVER = "deal_over"    # the deal is scored; ``next_deal()`` starts the next one
    GAME_OVER = "game_over"    # every planned deal is played; ``losers`` is final


class Cut(NamedTuple):
    """The draw for the first dealer: one row per round (None for seats that sat out)."""

    draws: tuple[tuple[Card | None, ...], ...]
    dealer: int


# --- events --------------------------------------------------------------------------------
class DealStarted(NamedTuple):
    deal_number: int
    dealer: int


class CardPlayed(NamedTuple):
    deal_number: int
    trick_number: int  # 1-based, the trick this card belongs to
    seat: int
    card: Card


class TrickWon(NamedTuple):
    deal_number: int
    trick_number: int
    trick: Trick
    first_trick_for_winner: bool  # the winner was clean until now

    @property
    def winner(self) -> int:
        return self.trick.winner


class DealEnded(NamedTuple):
    deal_number: int
    taken: tuple[int, int, int, int]
    points: tuple[int, int, int, int]
    early: bool
    totals: tuple[int, int, int, int]
    # the deal's full result (the pool after it, who collected, a tie-break to come)
    settled: Settlement | None = None
    rule: DealRule | None = None

    def summary(self, names: Sequence[str] = SEAT_NAMES) -> str:
        """The result in plain words."""
        return describe_result(self.taken, self.points, names, self.rule)


class GameEnded(NamedTuple):
    totals: tuple[int, int, int, int]
    losers: tuple[int, ...]


Event = DealStarted | CardPlayed | TrickWon | DealEnded | GameEnded


def describe_result(taken: Sequence[int], points: Sequence[int],
                    names: Sequence[str] = SEAT_NAMES, rule: DealRule | None = None) -> str:
    """How a deal ended, in the player's words; the points are the deal's score (``score``),
    never worked out again here. Under the pool scoring (``rule``), what happened to the pool
    ("East stayed clean and collects the pool: 7 points")."""
    if rule is not None and rule.is_pool:
        # (whether the deal ended early changes nothing the pool's words say)
        return describe_pool(rule.settle(taken, False), taken, names)
    clean = [s for s in range(4) if taken[s] == 0]
    if not clean:
        return f"Everyone took a trick: {_points(points[0])} each."
    if len(clean) == 1:
        return f"{names[clean[0]]} stayed clean: {_points(points[clean[0]])}."
    if len(clean) == 2:
        return (f"{names[clean[0]]} and {names[clean[1]]} stayed clean: "
                f"{_points(points[clean[0]])} each.")
    sweeper = next(s for s in range(4) if taken[s])
    return f"{names[sweeper]} took every trick: {_points(points[sweeper])}."


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _check_planned(deals_planned: object) -> None:
    if isinstance(deals_planned, bool) or not isinstance(deals_planned, int) or not (
            1 <= deals_planned <= MAX_DEALS):
        raise ValueError(f"deals_planned must be a whole number from 1 to {MAX_DEALS}, "
                         f"not {deals_planned!r}")


def lowest(totals: Sequence[int]) -> tuple[int, ...]:  # (scoring.lowest is the same rule)
    """Seats with the lowest total; empty when all four are level (a draw)."""
    low = min(totals)
    seats = tuple(s for s in range(4) if totals[s] == low)
    return () if len(seats) == 4 else seats


def cut_for_dealer(rng: random.Random) -> Cut:
    """Each seat draws a card; the lowest rank deals. Tied lowest seats redraw from a fresh
    shuffle until one is lowest (suits do not break ties)."""
    drawing = [0, 1, 2, 3]
    rows: list[tuple[Card | None, ...]] = []
    while True:
        deck = list(DECK)
        rng.shuffle(deck)
        row: list[Card | None] = [None, None, None, None]
        for i, seat in enumerate(drawing):
            row[seat] = deck[i]
        rows.append(tuple(row))
        low = min(c.rank for c in row if c is not None)
        drawing = [s for s in drawing if row[s].rank == low]  # type: ignore[union-attr]
        if len(drawing) == 1:
            return Cut(tuple(rows), drawing[0])


def deal_rng(seed: int | None, deal_number: int) -> random.Random:
    """The shuffle of deal k depends only on the game seed and k (so a resumed game deals the
    same cards as the uninterrupted one)."""
    if seed is None:
        return random.Random()
    return random.Random(f"nil-tui:{seed}:deal:{deal_number}")


def default_players() -> list[PlayerEntry]:
    return [{"name": name, "kind": "human" if s == 0 else "bot"}
            for s, name in enumerate(SEAT_NAMES)]


class Game:
    """A whole game: ``deals_planned`` deals, dealer passing clockwise after the cut.

    ``scoring`` ("classic" or "pool", see ``scoring.py``) is a rule of the game: under the pool
    a tie-break deal may follow the agreed ones, and a perfect first deal ends the game."""

    def __init__(self, deals_planned: int = DEFAULT_DEALS, seed: int | None = None, *,
                 players: Sequence[Mapping[str, Any]] | None = None,
                 dealer: int | None = None, scoring: str = DEFAULT_SCORING) -> None:
        _check_planned(deals_planned)
        check_scoring(scoring)
        if seed is None:
            seed = random.SystemRandom().randrange(2**53)
        cut: Cut | None = None
        first = dealer
        if first is None:
            cut = cut_for_dealer(random.Random(f"nil-tui:{seed}:cut"))
            first = cut.dealer
        self._assign(deals_planned, seed, players or default_players(), cut, first, (), (),
                     scoring)
        self._start_deal()

    def _assign(self, deals_planned: int, seed: int | None, players: Sequence[Mapping[str, Any]],
                cut: Cut | None, first_dealer: int, incidents: Sequence[Mapping[str, Any]],
                undone: Sequence[Mapping[str, Any]],
                scoring: str = DEFAULT_SCORING) -> None:
        """Set every field; no deal yet (the callers add them)."""
        self.deals_planned = deals_planned
        self.scoring: str = scoring
        self.seed: int | None = seed
        # The record's objects, copied (their fields as they came, typed where known).
        self.players: list[PlayerEntry] = [cast(PlayerEntry, dict(p)) for p in players]
        if len(self.players) != 4:
            raise ValueError("a game needs exactly 4 players")
        self.cut: Cut | None = cut
        self.first_dealer = first_dealer
        self.incidents: list[Incident] = [cast(Incident, dict(i)) for i in incidents]
        self.undone: list[Undone] = [cast(Undone, dict(u)) for u in undone]  # plays taken back
        # help the player had beyond undo ("hint", "meter"), in the order first used; any of
        # it, or undo, makes the game "assisted"
        self.assists: list[str] = []
        self._challenge: Challenge | None = None
        self.deals: list[Deal] = []

    @classmethod
    def from_parts(cls, *, deals_planned: int, seed: int | None,
                   players: Sequence[Mapping[str, Any]], cut: Cut | None, first_dealer: int,
                   deals: Sequence[Deal], incidents: Sequence[Mapping[str, Any]] = (),
                   undone: Sequence[Mapping[str, Any]] = (),
                   scoring: str = DEFAULT_SCORING) -> Game:
        """A game in progress (or over) from its parts, e.g. as a record describes it.

        ``deals`` are the deals played so far, in order (the game takes them over: do not
        change them afterwards other than through the game); every one but the last must be
        over, each is dealt by the seat whose turn it was and played under the rule the
        scoring gives it (``Game.next_rule``: the pool, a tie-break). ValueError when the
        parts do not fit together.
        """
        _check_planned(deals_planned)
        check_scoring(scoring)
        if first_dealer not in (0, 1, 2, 3):
            raise ValueError(f"first_dealer must be a seat 0..3, not {first_dealer!r}")
        if cut is not None and cut.dealer != first_dealer:
            raise ValueError(f"the cut makes seat {cut.dealer} the first dealer, not "
                             f"seat {first_dealer}")
        if not deals:
            raise ValueError(f"a game of {deals_planned} deals holds 1 to {deals_planned} "
                             f"deals, not {len(deals)}")
        game = cls.__new__(cls)
        game._assign(deals_planned, seed, players, cut, first_dealer, incidents, undone,
                     scoring)
        for number, deal in enumerate(deals, 1):
            if number > 1 and game.is_over:
                more = " (and tie-break deals)" if scoring != DEFAULT_SCORING else ""
                raise ValueError(f"a game of {deals_planned} deals holds 1 to {deals_planned} "
                                 f"deals{more}, not {len(deals)}: it is over after deal "
                                 f"{number - 1}")
            if deal.dealer != game.dealer_of(number):
                raise ValueError(f"deal {number} must be dealt by seat "
                                 f"{game.dealer_of(number)}, not seat {deal.dealer}")
            if number < len(deals) and not deal.is_over:
                raise ValueError(f"deal {number} is not over, but a later deal follows")
            rule = game.next_rule()
            if deal.rule != rule:
                raise ValueError(f"deal {number} must be played under {rule}, not {deal.rule}")
            game._add_deal(deal)
        return game

    # --- the state machine --------------------------------------------------------------
    @property
    def deal(self) -> Deal:
        """The live deal (the last one, once the game is over)."""
        return self.deals[-1]

    @property
    def deal_number(self) -> int:
        return len(self.deals)

    @property
    def phase(self) -> Phase:
        deal = self.deal
        if not deal.is_over:
            return Phase.PLAYING
        if deal.rule.is_pool:
            settled = deal.settle()
            if settled.perfect is not None:
                return Phase.GAME_OVER
            if settled.tiebreak:
                return Phase.DEAL_OVER
        return Phase.GAME_OVER if self.agreed_deals >= self.deals_planned else Phase.DEAL_OVER

    @property
    def agreed_deals(self) -> int:
        """The deals played (or being played) that count among the agreed ones: every deal
        but the pool's tie-break deals."""
        return sum(1 for d in self.deals if not d.rule.tiebreak)

    def next_rule(self) -> DealRule:
        """The rule of the deal that comes next (the first one in a game with no deal yet):
        the scoring, the pool it starts with, the seats of a tie-break."""
        if not self.deals:
            return first_rule(self.scoring)
        last = self.deals[-1]
        return last.rule.after(last.settle())

    @property
    def pool(self) -> int:
        """The pool now: after the last finished deal (0 under the classic scoring)."""
        deal = self.deal
        return deal.settle().pool if deal.is_over else deal.rule.pool

    @property
    def perfect(self) -> int | None:
        """The seat whose clean deal (or sweep) in the first deal of a pool game ended it at
        once, else None."""
        first = self.deals[0]
        return first.settle().perfect if first.is_over else None

    def settlements(self) -> list[Settlement]:
        """The full result of every finished deal, in order."""
        return [d.settle() for d in self.deals if d.is_over]

    @property
    def to_move(self) -> int | None:
        return self.deal.to_move

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def dealer_of(self, deal_number: int) -> int:
        return (self.first_dealer + deal_number - 1) & 3

    def _start_deal(self, rng: random.Random | None = None) -> DealStarted:
        number = len(self.deals) + 1
        dealer = self.dealer_of(number)
        deal = Deal.new(dealer, rng or deal_rng(self.seed, number))
        deal.rule = self.next_rule()  # (before any card: a tie-break ends differently)
        self._add_deal(deal)
        return DealStarted(number, dealer)

    def _add_deal(self, deal: Deal) -> None:
        # the agreed deals after this one (a tie-break deal is not one of them)
        left = self.deals_planned - self.agreed_deals - (0 if deal.rule.tiebreak else 1)
        deal.context = (len(self.deals) + 1, self.deals_planned, self.totals, max(0, left))
        self.deals.append(deal)

    def play(self, card: Card | str) -> list[Event]:
        """Play a card for the seat to move; returns what happened. IllegalPlay (ValueError)
        and no change when the card may not be played."""
        deal = self.deal
        seat = deal.to_move
        trick_number = deal.trick_number
        clean = deal.clean
        done = deal.play(card)
        number = len(self.deals)
        events: list[Event] = [CardPlayed(number, trick_number, seat, Card.parse(card))]  # type: ignore[arg-type]
        if done is not None:
            events.append(TrickWon(number, trick_number, done, clean[done.winner]))
            if deal.is_over:
                events.append(DealEnded(number, deal.taken, deal.points, deal.ended_early,
                                        self.totals, deal.settle(), deal.rule))
                if self.is_over:
                    events.append(GameEnded(self.totals, self.losers))
        return events

    def next_deal(self) -> DealStarted:
        """Deal the next hand once the current deal is over."""
        if self.phase is not Phase.DEAL_OVER:
            raise ValueError("the next deal can start only once the current deal is over "
                             "and the game is not")
        return self._start_deal()

    def take_back(self, plays: int) -> tuple[Card, ...]:
        """Take back the last ``plays`` cards of the deal being played (an undo), returned in
        the order they were played. The record keeps them under ``undone``, with the incidents
        of those plays. ValueError, and no change, unless the deal is still being played and
        has that many cards played."""
        deal = self.deal
        played = len(deal.tricks) * 4 + len(deal.trick)
        if self.phase is not Phase.PLAYING or not 1 <= plays <= played:
            raise ValueError(f"cannot take back {plays} plays: the deal being played has "
                             f"{played}" if self.phase is Phase.PLAYING else
                             "cannot take back plays: the deal is over")
        cards = [deal.undo() for _ in range(plays)][::-1]
        first_trick = deal.trick_number
        number = len(self.deals)
        gone = [i for i in self.incidents if i.get("deal") == number
                and isinstance(i.get("trick"), int) and self._after(i, first_trick)]
        self.incidents = [i for i in self.incidents if i not in gone]
        entry: Undone = {"deal": number, "trick": first_trick,
                         "cards": [str(c) for c in cards]}
        if gone:
            entry["incidents"] = gone
        self.undone.append(entry)
        return tuple(cards)

    def _after(self, incident: Incident, first_trick: int) -> bool:
        """Whether an incident of this deal was for a card no longer on the table."""
        trick = int(incident["trick"])
        if trick > first_trick:
            return True
        if trick < first_trick:
            return False
        deal = self.deal
        on_table = len(deal.trick)
        seats = {play.seat for play in deal.plays[len(deal.plays) - on_table:]} if on_table \
            else set()
        return incident.get("seat") not in seats

    def add_assist(self, kind: str) -> bool:
        """Note that the player used ``kind`` of help ("hint", "meter"); True if it is
        new to this game. ValueError in a daily challenge under way: it is played without
        help."""
        if self.challenge_under_way:
            raise ValueError(f"no {kind} in the daily challenge: it is played without help")
        if kind in self.assists:
            return False
        self.assists.append(kind)
        return True

    @property
    def human_seats(self) -> tuple[int, ...]:
        """The seats a person plays (``players[k]["kind"] == "human"``)."""
        return tuple(s for s, p in enumerate(self.players) if p.get("kind") == "human")

    @property
    def challenge(self) -> Challenge | None:
        """The daily challenge this game is (its date, and the expert's points per deal from
        seat 0 on the same deals once known), or None."""
        return self._challenge

    @challenge.setter
    def challenge(self, value: Challenge | Mapping[str, Any] | None) -> None:
        """A challenge, or a record's ``challenge`` object (read as one)."""
        self._challenge = (value if value is None or isinstance(value, Challenge)
                           else Challenge.from_dict(value))

    @property
    def challenge_under_way(self) -> bool:
        """A daily challenge not yet over: it is played without help, so nothing may advise
        the player (hints, undo, the meter, the analysis) until it is."""
        return self.challenge is not None and not self.is_over

    @property
    def assisted(self) -> bool:
        """Whether the player had help: undo, hints or the clean-chance meter."""
        return bool(self.undone or self.assists)

    def record_incident(self, seat: int, card: Card, reason: str) -> None:
        """Note that a card was played for a seat (a bot that failed), for the log and record."""
        self.incidents.append({"deal": len(self.deals), "trick": self.deal.trick_number,
                               "seat": seat, "card": str(card), "reason": reason})

    # --- scores -------------------------------------------------------------------------
    @property
    def totals(self) -> tuple[int, int, int, int]:
        """Points of every finished deal, added up."""
        t = [0, 0, 0, 0]
        for d in self.deals:
            if d.is_over:
                p = d.points
                for s in range(4):
                    t[s] += p[s]
        return (t[0], t[1], t[2], t[3])

    @property
    def losers(self) -> tuple[int, ...]:
        """Seats with the lowest total (final once the game is over, "so far" before);
        empty when all four are level. After a perfect game (pool scoring), the other
        three."""
        return _losers(self.totals, self.perfect)

    @property
    def names(self) -> list[str]:
        return [str(p.get("name", SEAT_NAMES[s])) for s, p in enumerate(self.players)]

    # --- records ------------------------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        from .records import to_record

        return to_record(self)

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Game:
        from .records import from_record

        return from_record(record)

    def __repr__(self) -> str:
        return (f"<Game deal {self.deal_number}/{self.deals_planned} phase={self.phase.value} "
                f"totals={self.totals}>")


