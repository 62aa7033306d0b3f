"""One seat's screen, fed with what the table decided and shown at the table's pace.

Whatever decides a game (the table of a game played here, in this process, or a shared table
over the network), a seat hears it as *frames*: after each change, its news (a card played, a
trick taken, a deal begun...) and the seat's :class:`~.messages.TableState` after it. The
authority never waits on the screen: a bot plays as soon as it has decided, and the next one
starts thinking at once. The seat shows the frames one after another at the pace of
:class:`.pacing.Pacer`: a card lands no sooner than its pause after the card before it, a
trick just won stays on show (the next card comes as it goes), the player's turn is said once
the last frame is shown (its only card played for it after a moment), the deal's summary and
the game's end come once.

A :class:`FrameSeat` is the part of every seat session that does this; a game played here
(:class:`~.game_session.GameSession`) and a seat of a shared table
(:class:`~nil_tui.net.remote.RemoteSession`) differ only in how a card or a go-on reaches
their table and where their frames come from.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, NamedTuple

from ..engine import Card, PlayerView, Trick
from ..engine.scoring import DealRule
from .messages import GoOn, News, PlayCard, Refused, TableState, TrickTaken
from .pacing import GameFinished, Out, Pacer

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from ..engine import Game
    from ..game.options import PlayOptions


class Frame(NamedTuple):
    """What the table said after one change: the news, then the seat's state."""

    news: tuple[News, ...]
    state: TableState


def seat_view(state: TableState) -> PlayerView:
    """The seat's view of the deal shown (the seat drawn at the bottom is seat 0)."""
    return PlayerView(
        seat=0, hand=state.hand, legal=state.legal, trick=state.trick,
        leader=state.leader, tricks=state.tricks, taken=state.taken,
        hand_sizes=state.hand_sizes, dealer=state.dealer, deal_number=state.deal_number,
        deals_planned=state.deals_planned, totals=state.totals, to_move=state.to_move,
        rule=DealRule(state.scoring, state.pool, state.tiebreak, state.deal_number == 1))


def not_legal(card: Card, state: TableState) -> Refused:
    """A card the seat may not play now, refused before it goes to the table (the table
    would refuse it too): it does not follow the suit led, or it is not in the hand."""
    led = state.trick[0].suit if state.trick else None
    if card in state.hand and led is not None:
        return Refused("play", "it does not follow the suit led", card, int(led))
    return Refused("play", "it is not in your hand", card)


class FrameSeat:
    """The frames a seat heard and has not shown yet, the one shown, and its pace.

    A subclass says how the player's card and go-on reach the table (:meth:`_send_card`,
    :meth:`_send_go_on`), whether the game's end may be shown (:meth:`_end_known`), and the
    game to keep at its end (``game``)."""

    def __init__(self, options: PlayOptions, *,
                 on_finished: Callable[[Game], Path | None] | None = None) -> None:
        self.options = options
        self.record_path: Path | None = None  # where the finished game's record went
        self._on_finished = on_finished
        self._pacer = Pacer(options)  # a card landing, a trick on show, a forced card...
        self._queue: deque[Frame] = deque()  # frames heard, not shown yet
        self._shown: TableState | None = None  # the state of the last frame shown
        self._last_trick: Trick | None = None  # the last trick shown (kept over a new deal)
        self._sent_turn = -1  # the turn the player's card was sent for (sent once)
        self._changed = False  # a frame was shown since the screen last heard

    # --- to be given by the seat's kind --------------------------------------------------------
    @property
    def game(self) -> Game:
        raise NotImplementedError

    def _send_card(self, card: Card, state: TableState) -> list[Out]:
        """The player's card (on their turn) to the table."""
        raise NotImplementedError

    def _send_go_on(self, state: TableState) -> list[Out]:
        """The player is ready for the next deal (the deal shown is over)."""
        raise NotImplementedError

    def _end_known(self) -> bool:
        """Whether the finished game may be kept and shown (a shared table's record came)."""
        return True

    def _forced_card(self, state: TableState) -> Card | None:
        """The card to play for the player on their turn ``state``: their only one, when
        auto-play is on and no card of theirs went to the table for this turn."""
        if self.options.auto_play and len(state.legal) == 1 and self._sent_turn != state.turn:
            return state.legal[0]
        return None

    def _shown_again(self) -> list[Out]:
        """What the seat adds each time the frames shown moved on (the meter's figure...)."""
        return []

    # --- what the seat may see ----------------------------------------------------------------
    def _decorated(self, shown: TableState) -> TableState:
        """The state shown, with what the seat's pace adds: the trick on show, a forced card."""
        if self.on_show is not None:
            return shown._replace(pace="trick_on_show", on_show=self.on_show)
        if shown.pace == "your_turn" and self._pacer.forced_turn == shown.turn:
            return shown._replace(pace="forced", forced=shown.legal[0])
        return shown

    @property
    def on_show(self) -> Trick | None:
        return self._pacer.on_show

    def last_trick(self) -> Trick | None:
        """The last trick completed (of the previous deal before this one's first)."""
        shown = self._shown
        tricks = shown.tricks if shown is not None else ()
        return tricks[-1] if tricks else self._last_trick

    # --- frames in, effects out -----------------------------------------------------------
    def heard(self, frame: Frame) -> list[Out]:
        """A frame from the table: shown now, or once those before it are."""
        self._queue.append(frame)
        return self._release()

    def _release(self) -> list[Out]:
        """Show the frames heard, one after another at the table's pace, then whatever the
        position shown asks for (the player's turn, the deal's summary, the game's end)."""
        out: list[Out] = []
        pacer = self._pacer
        while self._queue and pacer.free and not pacer.landing:
            out.extend(self._apply(self._queue.popleft()))
        if not pacer.free or self._shown is None:
            return out
        if not self._queue:
            out.extend(self._next(self._shown))
        out.extend(self._shown_again())
        return out

    def _apply(self, frame: Frame) -> list[Out]:
        """Show one frame: its news, its state; a trick it ends goes on show, else the next
        card waits its pause."""
        out: list[Out] = list(frame.news)
        self._shown = frame.state
        self._changed = True
        won = [n.trick for n in frame.news if isinstance(n, TrickTaken)]
        if won:
            self._last_trick = won[-1]
            out.extend(self._pacer.show(won[-1]))
        elif frame.news:
            out.extend(self._pacer.land(self._pacer.pauses[0]))
        return out

    def _next(self, state: TableState) -> list[Out]:
        """What the position shown (the last heard) asks for: the game's end, the deal's
        summary, the player's turn (its only card played for it soon)."""
        if state.pace == "game_over":
            if not self._end_known() or not self._pacer.finish():
                return []
            if self._on_finished is not None:
                self.record_path = self._on_finished(self._game_to_keep())
            return [GameFinished()]
        if state.pace == "deal_over":
            return self._pacer.summary(state.deal_number)
        if state.pace != "your_turn":
            return []
        return self._pacer.your_turn(state.turn, self._forced_card(state), self._undone())

    def _game_to_keep(self) -> Game:
        return self.game

    def _undone(self) -> int:
        """Cards the last undo took back (said with the turn it reached)."""
        return 0

    def _put_away(self) -> list[Out]:
        """The trick on show is put away: the next card, decided meanwhile, lands at once
        (the trick's time on show was its pause)."""
        self._pacer.on_show = None
        return self._release()

    # --- what the player does ----------------------------------------------------------------
    def _play(self, card: Card) -> list[Out]:
        if self.on_show is not None:
            return self._put_away()
        state = self.state()
        if state.pace not in ("your_turn", "forced"):
            whose = state.to_move
            if whose is None:
                return []
            return [Refused("play", f"Wait: it is {state.names[whose]}'s turn.", card)]
        if self._sent_turn == state.turn:
            return []  # sent already: its answer is on the way
        if card not in state.legal:
            return [not_legal(card, state)]
        self._pacer.landing = False  # the table waits for this card: it shows at once
        out = self._send_card(card, state)
        if not any(isinstance(o, Refused) for o in out):
            self._pacer.forced_turn = None
        return out

    def _go_on(self) -> list[Out]:
        if self.on_show is not None:
            return self._put_away()
        shown = self._shown
        if shown is not None and shown.pace == "deal_over" and not self._queue:
            return self._send_go_on(shown)
        return self._release()

    def state(self) -> TableState:
        shown = self._shown
        if shown is None:
            raise RuntimeError("the table has sent no position yet")
        return self._decorated(shown)

    def start(self) -> list[Out]:
        """The table is drawn: what was heard is shown."""
        return self._release()

    def bot_to_move(self) -> bool:
        """Another seat's card is awaited by the position shown."""
        return self.state().pace == "bot_waits"

    def advance(self) -> list[Out]:
        """Whatever comes next now (the front end changed the options, say)."""
        return self._release()

    def set_watching(self, watching: bool) -> list[Out]:
        """Whether the table is in front (not under another screen, not showing the last
        trick): a card lands and a forced card is played only while it is."""
        self._pacer.watching = watching
        return self._release() if watching else []

    def timer_done(self, token: tuple[str, int]) -> list[Out]:
        """A :class:`~.pacing.Wait` is over."""
        kind, number = token
        pacer = self._pacer
        if kind == "trick" and pacer.trick_over(number):
            return self._put_away()
        if kind == "land" and pacer.landed(number):
            return self._release()
        if kind == "forced" and pacer.forced_due(number):
            state = self.state()
            if state.pace == "forced":
                return self._play(state.legal[0])
            pacer.forced_turn = None
        return []

    def act_on_table(self, action: PlayCard | GoOn) -> list[Out]:
        """A card or a go-on, as the player's."""
        return self._play(action.card) if isinstance(action, PlayCard) else self._go_on()


__all__ = ["Frame", "FrameSeat", "seat_view"]
