"""The table's slow work, each in a worker thread: a bot deciding, a hint worked out, the
meter's estimate. Each answer is handed to the game's session, whose output the table then
carries out (:meth:`TableWork.carry_out`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, on, work
from textual.message import Message

from ...engine import PlayerView
from ...session.messages import Refused, SetMeter
from ..messages import BotDecided, BotLost, HintReady
from .base import NilScreen

if TYPE_CHECKING:
    from collections.abc import Callable

    from ...game.driver import Request
    from ...session import game_session as gs
    from ...session.game_session import MeterKey
    from ...session.messages import Hint
    from ...session.seat import SeatSession
    from ..widgets.cards import CardLook
    from ..words import Labels


def meter_chance(view: PlayerView, seed: int) -> float:
    """The chance the seat of ``view`` takes no trick for the rest of the deal, estimated
    from the view alone (blocking: called from a thread)."""
    from ...analysis import clean_chance

    return float(clean_chance(view, seed=seed))


class MeterReady(Message):
    """The meter's estimate for a position (``key``); dropped if the table has moved on."""

    def __init__(self, key: MeterKey, chance: float | None) -> None:
        super().__init__()
        self.key = key
        self.chance = chance


class TableWork(NilScreen):
    """The worker threads of the table screen (its base class)."""

    # A note (a hint's reason, say) comes down from the top right, over the scores, never
    # over your hand.
    DEFAULT_CSS = """
    TableWork ToastRack { dock: top; align: right top; }
    """

    session: SeatSession
    look: CardLook
    labels: Labels
    _resumed_once = False

    @on(events.ScreenResume)
    def _first_resume(self, event: events.ScreenResume) -> None:
        """The table's first resume comes right after its mount, where each widget was
        styled (the hand's focus and the seats' classes restyled their own): Textual would
        style them all once more before the first frame, for nothing (the frame is the same,
        byte for byte). Later resumes are Textual's own. (This runs before the Screen's
        handler, which reads the flag.)"""
        if not self._resumed_once:
            self._resumed_once = True
            event.refresh_styles = False

    def _carry_out(self, out: list[gs.Out], draw: bool = True) -> None:
        raise NotImplementedError

    _help_agreed = False  # the player said yes to the question before a first help

    def _with_help(self, what: str, go: Callable[[], None], ask: bool = True) -> None:
        """``go``; before a game's first help (``ask``: turning the meter off is none), once
        it has said what the help does and the player agreed (see help_question)."""
        state = self.session.state()
        if not ask or not state.help_allowed or state.assisted or self._help_agreed:
            go()
            return
        from .help_question import AskHelp

        def answered(answer: str | None) -> None:
            if answer == "yes":
                self._help_agreed = True
                go()

        self.app.push_screen(AskHelp(what), answered)

    @work(group="pushed", exclusive=True)
    async def listen(self) -> None:
        """What the session hears by itself (a shared table's news), carried out as it
        comes; a game played here hears nothing and this ends at once."""
        while True:
            out = await self.session.pushed()
            if out is None:
                return
            if self.is_attached:
                self._carry_out(out)

    @work(thread=True, group="bots")
    def ask_bot(self, request: Request) -> None:
        """In a thread: the driver asks the seat's bot (isolated); the answer is posted."""
        try:
            decision = self.session.decide(request)
        except Exception:  # noqa: BLE001 - the session asks again or the game ends
            self.post_message(BotLost(request))
            return
        self.post_message(BotDecided(decision))

    def on_bot_decided(self, message: BotDecided) -> None:
        self._carry_out(self.session.bot_decided(message.decision))

    def on_bot_lost(self, message: BotLost) -> None:
        self._carry_out(self.session.bot_lost(message.request))

    @work(thread=True, group="hint", exclusive=True)
    def find_hint(self, turn: int, view: PlayerView) -> None:
        from ...bots import advise

        try:
            card, reason = advise(view, ascii=self.look.ascii)
        except Exception as exc:  # noqa: BLE001 - a failing hint must not stop the game
            card, reason = view.legal[0], f"no hint available ({type(exc).__name__})"
        self.post_message(HintReady(turn, card, reason))

    def _show_hint(self, hint: Hint) -> None:
        """The hint's card under the cursor; the log keeps the whole hint (it wraps), the
        status line shows it when it fits; when neither shows its reason (the log a row high
        beside the card tracker), a note does, for a while."""
        from ..widgets.gamelog import GameLog
        from ..widgets.hand import Hand
        from . import table_words as words

        hand = self.query_one(Hand)
        if hint.card in hand.cards:
            hand.cursor = hand.cards.index(hint.card)
        width = self.query_one("#status").size.width
        logged, _ = words.hint_lines(hint, self.look, width, tall=self.size.height > 24)
        in_log = self.query_one(GameLog).shows_whole(logged)
        logged, shown = words.hint_lines(hint, self.look, width, tall=self.size.height > 24,
                                         in_log=in_log)
        self.log_line(logged)
        self.status(shown)
        if shown.plain != logged.plain and not in_log:
            self.notify(hint.reason, title=shown.plain.partition(" (")[0], timeout=12)

    def _turn_meter(self) -> None:
        """Show or hide the chance to stay clean on your seat line (this game only)."""
        on = not self.session.meter_on
        out = self.session.act(SetMeter(on))
        if not any(isinstance(item, Refused) for item in out):
            self.status(Text("Meter on: your chance to stay clean this deal, from what you "
                             "see (m hides it)." if on else "Meter off (m shows it again).",
                             style="dim"))
        self._carry_out(out)

    _trick_row = -1  # the short log's line of the trick being played (-1: none yet)

    def _short_log(self, item: object) -> bool:
        """In a terminal of SHORT_LOG_ROWS rows or fewer, the log is short: each trick on a
        line of its own, the cards only ("W: 8♣ 9♣ 10♣ Q♣ → you"); who is no
        longer clean is in the seat boxes. True when ``item`` was logged so."""
        from ...session.messages import Played, TrickTaken
        from ..widgets.gamelog import GameLog
        from . import table_words as words

        if self.app.size.height > words.SHORT_LOG_ROWS or not isinstance(
                item, (Played, TrickTaken)):
            return False
        log = self.query_one(GameLog)
        on_line = self._trick_row >= 0 and self._trick_row == len(log.history) - 1
        if isinstance(item, Played):
            line = words.short_card(item, self.look, self.labels, first=not on_line)
            if on_line:
                log.amend_last(line)
            else:
                log.add(line)
                self._trick_row = len(log.history) - 1
            return True
        end = words.short_trick_end(item, self.labels)
        if on_line:
            log.amend_last(end)
        else:
            log.add(end)
        self._trick_row = -1
        return True

    def log_line(self, line: Text) -> None:
        raise NotImplementedError

    def status(self, message: str | Text, warn: bool = False) -> None:
        raise NotImplementedError

    def on_hint_ready(self, message: HintReady) -> None:
        self._carry_out(self.session.hint_found(message.turn, message.card, message.reason))

    @work(thread=True, exclusive=True, group="meter")
    def estimate_clean(self, key: MeterKey, view: PlayerView, seed: int) -> None:
        """In a thread: the chance to stay clean from your view; posted with its position."""
        try:
            chance: float | None = meter_chance(view, seed)
        except Exception:  # noqa: BLE001 - the meter must never stop the game
            chance = None
        self.post_message(MeterReady(key, chance))

    def on_meter_ready(self, message: MeterReady) -> None:
        self._carry_out(self.session.meter_estimated(message.key, message.chance),
                        draw=False)
