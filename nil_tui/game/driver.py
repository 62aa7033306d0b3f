"""A game in progress, without a screen: whose turn it is, asking the bots, recording what
went wrong, playing cards, saving, and the events that come out.

The table screen, ``simulate`` and any other front end run a game through one
:class:`GameDriver`. The driver never draws and never waits on a clock; a front end asks it
for the next bot's :class:`Request` (a snapshot taken where the game lives), lets the bot
decide wherever it likes (the app does it in a worker thread), and hands the
:class:`Decision` back to :meth:`GameDriver.apply`, which plays it only if the position is
still the one the bot was asked about.

Bots are opened through the isolation layer (:func:`nil_tui.bots.open_player`): built-in
levels are called directly, plugins run in their own processes. Only the engine and the
standard library are imported at the top, so ``simulate`` and the app's first frame stay
light.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple, Protocol

from ..engine import (
    Card,
    CardPlayed,
    DealEnded,
    DealStarted,
    Event,
    Game,
    GameEnded,
    IllegalPlay,
    Phase,
    PlayerView,
    TrickWon,
)
from ..util.textsafe import one_line

if TYPE_CHECKING:
    from ..engine import Deal

HUMAN = None  # the spec of a seat a person plays
SUBSTITUTE = "normal"  # the built-in level that takes over a bot that cannot play at all


class Choice(Protocol):
    """What the isolation layer answers: a legal card, and why it was played for the bot."""

    @property
    def card(self) -> Card: ...

    @property
    def incident(self) -> str | None: ...


class Player(Protocol):
    """One bot seat as the isolation layer presents it (see ``nil_tui.bots.open_player``)."""

    @property
    def spec(self) -> str: ...

    @property
    def name(self) -> str: ...

    def decide(self, view: PlayerView,
               perfect: Callable[[], Deal] | None = None) -> Choice: ...

    def close(self) -> None: ...


Opener = Callable[[str, int], Player]
"""Opens the bot of a spec with a seed; raises ``BotSpecError`` when it cannot."""


class Request(NamedTuple):
    """A bot's turn, as a snapshot: the position it must answer and the turn it is for."""

    turn: int
    seat: int
    view: PlayerView
    perfect: Callable[[], Deal] | None


class Decision(NamedTuple):
    """A bot's answer to one :class:`Request` (the card is legal; ``incident`` says why it was
    played for the bot, when the bot failed)."""

    turn: int
    seat: int
    card: Card
    incident: str | None = None


class BotIncident(NamedTuple):
    """A card was played for a bot that failed (raised, answered wrongly, ran too long)."""

    seat: int
    card: Card
    reason: str


class BotReplaced(NamedTuple):
    """A seat's bot could not play at all and another took its place for the rest of the
    game (the record notes it under ``players[seat]["replaced"]``)."""

    seat: int
    spec: str
    substitute: str
    reason: str


DriverEvent = Event | BotIncident | BotReplaced


def seat_specs(game: Game) -> tuple[str | None, ...]:
    """The spec of each seat from the game's players: None for a person."""
    specs: list[str | None] = []
    for player in game.players:
        bot = player.get("bot")
        specs.append(str(bot) if player.get("kind") == "bot" and bot else HUMAN)
    return tuple(specs)


CONFIGURED_CAP = -1.0
"""The time cap of :func:`default_opener` that means: the configured one (environment)."""


def default_opener(time_cap: float | None = CONFIGURED_CAP) -> Opener:
    """Open bots through the isolation layer with this time cap in seconds (None: no cap;
    CONFIGURED_CAP: ``NIL_TUI_BOT_TIME_CAP`` or the default)."""
    from ..bots import open_player

    def opener(spec: str, seed: int) -> Player:
        if time_cap == CONFIGURED_CAP:
            return open_player(spec, seed)
        return open_player(spec, seed, time_cap=time_cap)

    return opener


class GameDriver:
    """Runs one :class:`Game`: the only place where cards are played and bots are asked.

    ``seeds`` gives each seat's bot its seed (default: derived from the game's seed and the
    seat, so a resumed game builds the same bots). ``save`` is called with the game whenever a position worth keeping is reached (a deal
    starts, a card is played); the front end decides where it goes. Nothing here is
    thread-safe except :meth:`decide`, which may run in another thread while the owner of the
    driver waits for its answer.
    """

    def __init__(self, game: Game, *, opener: Opener | None = None,
                 save: Callable[[Game], object] | None = None,
                 perfect_for: Sequence[str] = ("oracle",),
                 seeds: Sequence[int] | None = None) -> None:
        self.game = game
        self._seeds = tuple(seeds) if seeds is not None else None
        self.turn = 0  # counts plays and deals: an answer is for one turn only
        self._opener = opener
        self._save = save
        self._perfect_for = frozenset(perfect_for)
        self._players: dict[int, Player] = {}
        self._substituted: dict[int, str] = {}  # seat -> why, not yet in the record
        self._lock = threading.Lock()
        self._closed = False
        self._asked: Request | None = None  # the request out for the current turn

    # --- the position ---------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        return self.game.phase

    @property
    def to_move(self) -> int | None:
        return self.game.to_move if self.game.phase is Phase.PLAYING else None

    def spec_of(self, seat: int) -> str | None:
        return seat_specs(self.game)[seat]

    def is_human(self, seat: int) -> bool:
        return self.spec_of(seat) is HUMAN

    def bot_to_move(self) -> int | None:
        """The seat of the bot whose turn it is, or None (a person's turn, or no play due)."""
        seat = self.to_move
        return seat if seat is not None and not self.is_human(seat) else None

    def human_to_move(self) -> bool:
        seat = self.to_move
        return seat is not None and self.is_human(seat)

    # --- bots -----------------------------------------------------------------------------
    def request(self) -> Request | None:
        """A snapshot of the position for the bot to move; None when no bot is to move or
        the bot was already asked about this position (its answer is on its way)."""
        seat = self.bot_to_move()
        if seat is None or self.asking is not None:
            return None
        perfect = self.game.deal.copy if self.spec_of(seat) in self._perfect_for else None
        self._asked = Request(self.turn, seat, self.game.deal.view(seat), perfect)
        return self._asked

    @property
    def asking(self) -> int | None:
        """The seat whose bot is deciding the current position, if one was asked."""
        asked = self._asked
        return asked.seat if asked is not None and asked.turn == self.turn else None

    def decide(self, request: Request) -> Decision:
        """Ask the seat's bot (opening it first if need be). Never raises for anything a bot
        does: a failure becomes an incident and a safe legal card. May block (a bot thinks);
        safe to call from a worker thread."""
        player, _ = self._player(request.seat)
        choice = player.decide(request.view, request.perfect)
        return Decision(request.turn, request.seat, choice.card, choice.incident)

    def _player(self, seat: int) -> tuple[Player, str | None]:
        """The open bot of a seat, and a note when a substitute had to be opened now (the
        record learns of it when the seat's next card is applied, on the owner's thread)."""
        with self._lock:
            player = self._players.get(seat)
            if player is not None:
                return player, None
            if self._closed:
                raise RuntimeError("the game driver is closed")
            spec = self.spec_of(seat) or SUBSTITUTE
            seed = self._seed_of(seat)
            opener = self._opener or default_opener()
            note = None
            try:
                player = opener(spec, seed)
            except Exception as exc:  # noqa: BLE001 - a bot that cannot start must not stop the game
                note = f"{spec} could not start ({short_text(exc)}); {SUBSTITUTE} plays for it"
                player = opener(SUBSTITUTE, seed)
                self._substituted[seat] = note
            self._players[seat] = player
            return player, note

    def open_seat(self, seat: int) -> Exception | None:
        """Open a seat's bot now; the error, with nothing substituted, when it cannot start
        (the front end may then ask the player who plays instead: :meth:`replace_bot`)."""
        with self._lock:
            if seat in self._players or self.is_human(seat):
                return None
            spec = self.spec_of(seat) or SUBSTITUTE
            try:
                self._players[seat] = (self._opener or default_opener())(spec,
                                                                         self._seed_of(seat))
            except Exception as exc:  # noqa: BLE001 - reported to the caller
                return exc
            return None

    def _seed_of(self, seat: int) -> int:
        if self._seeds is not None:
            return self._seeds[seat]
        return _seat_seed(self.game.seed, seat)

    def player_name(self, seat: int) -> str:
        """The name of the bot in a seat (opening it if need be)."""
        player, _ = self._player(seat)
        return one_line(player.name)  # a plugin's name is shown and written in records

    def open_bots(self) -> list[DriverEvent]:
        """Open every bot seat now (plugin processes start here rather than at their first
        turn); returns a :class:`BotReplaced` for each seat that needed a substitute. Call it
        on the owner's thread."""
        for seat in range(4):
            if not self.is_human(seat):
                self._player(seat)
        return self._flush_substitutions()

    def replace_bot(self, seat: int, substitute: str, reason: str) -> BotReplaced:
        """Put another bot in a seat for the rest of the game (a plugin that is not installed
        any more, say), noting it in the record under ``players[seat]["replaced"]``."""
        spec = self._note_replacement(seat, substitute, reason)
        with self._lock:
            old = self._players.pop(seat, None)
            self._substituted.pop(seat, None)
        if old is not None:
            old.close()
        self.turn += 1  # an answer of the old bot is for a position that is gone
        return BotReplaced(seat, spec, substitute, reason)

    def _note_replacement(self, seat: int, substitute: str, reason: str) -> str:
        player = self.game.players[seat]
        spec = str(player.get("bot", ""))
        replaced = list(player.get("replaced", []))
        replaced.append({"bot": spec, "deal": self.game.deal_number,
                         "trick": len(self.game.deal.tricks) + 1, "reason": reason})
        player["replaced"] = replaced
        player["bot"] = substitute
        return spec

    def _flush_substitutions(self) -> list[DriverEvent]:
        with self._lock:
            pending, self._substituted = self._substituted, {}
        return [BotReplaced(seat, self._note_replacement(seat, SUBSTITUTE, why), SUBSTITUTE, why)
                for seat, why in sorted(pending.items())]

    # --- playing --------------------------------------------------------------------------
    def apply(self, decision: Decision) -> list[DriverEvent] | None:
        """Play a bot's decision; None (and nothing changes) when it answers a position that
        is gone (an undo, a replaced bot, a stale worker)."""
        if decision.turn != self.turn or self.bot_to_move() != decision.seat:
            return None
        events = self._flush_substitutions()
        if decision.incident:
            self.game.record_incident(decision.seat, decision.card, decision.incident)
            events.append(BotIncident(decision.seat, decision.card, decision.incident))
        events.extend(self._play(decision.card))
        return events

    def play(self, card: Card | str) -> list[DriverEvent]:
        """A person's card. IllegalPlay (nothing changes) when it may not be played now."""
        seat = self.to_move
        if seat is None or not self.is_human(seat):
            raise IllegalPlay(card, "it is not your turn")
        return self._play(Card.parse(card))

    def _play(self, card: Card) -> list[DriverEvent]:
        events: list[DriverEvent] = list(self.game.play(card))
        self.turn += 1
        self.save()
        return events

    def plays_to_undo(self) -> int:
        """How many cards an undo would take back: the person's last card in the deal being
        played and every card played after it (0 when there is none to take back)."""
        if self.phase is not Phase.PLAYING:
            return 0
        if self.game.challenge_under_way:
            return 0  # a daily challenge is played without help
        for back, play in enumerate(reversed(self.game.deal.plays), 1):
            if self.is_human(play.seat):
                return back
        return 0

    def undo(self) -> tuple[Card, ...]:
        """Take back the person's last card of this deal and every card played after it; the
        bots then decide again from the same seeds and views, so they answer as before.
        Returns the cards taken back, in play order. ValueError when there is nothing to take
        back, or in a daily challenge under way (it is played without help)."""
        if self.game.challenge_under_way:
            raise ValueError("there is no undo in the daily challenge: it is played without help")
        plays = self.plays_to_undo()
        if plays == 0:
            raise ValueError("there is no card of yours to take back in this deal")
        cards = self.game.take_back(plays)
        self.turn += 1  # a bot's answer on its way is for a position that is gone
        self.save()
        return cards

    def add_assist(self, kind: str) -> bool:
        """Note that the person had help (``"hint"``, ``"meter"``): the game then counts as
        assisted, and is saved so. True when it is new to this game; ValueError in a daily
        challenge under way (it is played without help)."""
        new = self.game.add_assist(kind)
        if new:
            self.save()
        return new

    def deal_so_far(self) -> list[DriverEvent]:
        """The events of the deal being played, rebuilt from the record: each card (after
        the incident that played it for a failed bot, if any) and each trick won. A front end
        that resumes a game tells the deal again from these; nothing is played or saved."""
        game = self.game
        deal = game.deal
        number = game.deal_number
        incidents = {(i.get("trick"), i.get("seat"), i.get("card")): str(i.get("reason", ""))
                     for i in game.incidents if i.get("deal") == number}
        events: list[DriverEvent] = []
        taken = [0, 0, 0, 0]
        tricks = deal.tricks
        for n, play in enumerate(deal.plays):
            index = n // 4 + 1
            reason = incidents.get((index, play.seat, str(play.card)))
            if reason is not None:
                events.append(BotIncident(play.seat, play.card, reason))
            events.append(CardPlayed(number, index, play.seat, play.card))
            if n % 4 == 3:
                trick = tricks[index - 1]
                events.append(TrickWon(number, index, trick, taken[trick.winner] == 0))
                taken[trick.winner] += 1
        return events

    def next_deal(self) -> DealStarted:
        """Deal the next hand (the current deal must be over and the game not)."""
        started = self.game.next_deal()
        self.turn += 1
        self.save()
        return started

    def save(self) -> None:
        """Hand the game to the saver (when the front end gave one)."""
        if self._save is not None:
            self._save(self.game)

    def run(self, on_event: Callable[[DriverEvent], object] | None = None, *,
            deals: int | None = None, should_stop: Callable[[], bool] | None = None) -> Game:
        """Play the game when every seat is a bot (``simulate``, the daily challenge's
        reference game): to its end, or to the end of deal ``deals``. ``on_event`` hears what
        happened; ``should_stop`` is asked before each card, and when it says so the game is
        left where it is (still in play)."""
        if any(self.is_human(s) for s in range(4)):
            raise ValueError("run() plays bots only; this game has a person at the table")
        game = self.game
        while True:
            while game.phase is Phase.PLAYING:
                if should_stop is not None and should_stop():
                    return game
                request = self.request()
                assert request is not None
                events = self.apply(self.decide(request))
                if on_event is not None and events:
                    for event in events:
                        on_event(event)
            if game.phase is Phase.GAME_OVER or (deals is not None and game.deal_number >= deals):
                return game
            self.next_deal()

    def close(self) -> None:
        """Stop every bot (plugin processes end here). Idempotent."""
        with self._lock:
            self._closed = True
            players, self._players = list(self._players.values()), {}
        for player in players:
            try:
                player.close()
            except Exception:  # noqa: BLE001, S110 - closing must never fail the caller
                pass

    def __enter__(self) -> GameDriver:  # noqa: PYI034
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _seat_seed(game_seed: int | None, seat: int) -> int:
    from ..bots import seat_seed

    return seat_seed(game_seed, seat)


def short_text(exc: BaseException, limit: int = 200) -> str:
    """A failure in a few words, whatever the exception does in ``__str__``."""
    try:
        text = f"{type(exc).__name__}: {exc}"
    except Exception:  # noqa: BLE001 - an exception whose __str__ raises
        text = type(exc).__name__
    text = one_line(text)  # it may come from a plugin: nothing in it reaches a terminal
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = ["SUBSTITUTE", "BotIncident", "BotReplaced", "CardPlayed", "DealEnded", "Decision",
           "DriverEvent", "GameDriver", "GameEnded", "Request", "TrickWon", "seat_specs",
           "short_text"]
