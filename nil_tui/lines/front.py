"""A game in plain lines: the line front end over one seat's session.

It drives a :class:`~nil_tui.session.seat.SeatSession` (a game played here, or a seat at a
shared table) as the table screen does, and says everything in lines: each piece of news one
line as it happens (in the words of the table's log, :mod:`nil_tui.session.words`), a prompt
on the player's turn naming what they may play, and commands typed on a line. Nothing
scrolls past: bots' cards come as lines at once, and the game waits for the player only at
their turn and after each deal. No colour, no drawing, no escape sequence.

The session's effects are carried out here: a bot decides, a hint or the meter's estimate is
worked out, each in a thread; a :class:`~nil_tui.session.game_session.Wait` is over at once
(the player reads at their own pace); a trick on show is put away at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..session import game_session as gs
from ..session import words
from ..session.messages import (
    AskHint,
    DealBegun,
    GameOver,
    GoOn,
    Hint,
    MeterReading,
    PlayCard,
    Played,
    Quit,
    Refused,
    SetMeter,
    TableState,
    TakenBack,
    TrickTaken,
    Undo,
)
from ..util.textsafe import one_line
from .answers import HELP, Answers
from .cards import CARD_STYLES, CardWords, choose
from .reader import Typed
from .work import Event, Outs, Timer, Work

if TYPE_CHECKING:
    from ..session.seat import SeatSession

HELP_WARNING = {
    "hint": "A hint makes this game count as assisted in history and statistics.",
    "undo": "Undo makes this game count as assisted in history and statistics.",
    "meter": "The meter makes this game count as assisted in history and statistics.",
}


DEFAULT_CARDS = CardWords()

NOTHING_MORE = "Nothing more to read on standard input."


class LineFront(Answers, Work):
    """One seat's game in lines (see the module's docstring). ``write`` says a line; lines
    typed come from ``reader``. :meth:`run` returns when the game is over, the player quits
    or the input ends (the game is saved either way)."""

    def __init__(self, session: SeatSession, reader: Typed,
                 write: Callable[[str], None], *, cards: CardWords = DEFAULT_CARDS,
                 labels: words.Labels = words.SEAT_LABELS,
                 rules: Callable[[], str] | None = None) -> None:
        self.session = session
        self.reader = reader
        self.write = write
        self.cards = cards
        self.labels = labels
        self.rules = rules
        self.events: asyncio.Queue[Event] = asyncio.Queue()
        self.pending = 0  # work out in threads (a bot, a hint, the meter)
        self.finished = False
        self.ended = False  # quit, or the input ended
        self.prompted: object = None  # the position the last prompt was said for
        self.last_prompt = ""
        self.confirm: tuple[str, Callable[[], None]] | None = None  # help waiting for "yes"
        self.told_assisted = session.state().assisted
        self.at_table = not isinstance(session, gs.GameSession)  # a seat of a shared table
        self.input_ended = False  # (at a shared table: the seat is left at its next turn)
        self.closed = False  # the shared table is gone for this seat (said why)
        self.played_at: tuple[int, int] | None = None  # the turn a card was played for
        self.went_on = 0  # the deal after which the next one was asked for
        self.in_trick = 0  # the cards said of the trick in play (as they were told)
        self.led: int | None = None  # the suit they follow
        self.brief = True  # cards and tricks in the fewest words ("long": the log's sentences)
        self._tasks: set[asyncio.Task[None]] = set()

    # --- saying things ------------------------------------------------------------------------
    def say(self, text: str) -> None:
        """One line (a name from a shared table included: nothing a terminal obeys)."""
        self.write(one_line(text))

    def said(self, sentence: words.Said) -> str:
        return sentence.text(self.cards.card)

    # --- the game from start to end ---------------------------------------------------------------
    def opening(self) -> None:
        """Where the game is: resumed, the cut, the deal's start, the deal so far."""
        session = self.session
        state = session.state()
        self.say("Type help for the commands.")
        if state.plays or state.deal_number > 1:
            self.say(self.said(words.resumed(
                state.deal_number, state.deals_planned,
                session.help_used() if state.assisted else None)))
        cut = session.game.cut
        if state.deal_number == 1 and cut is not None:
            self.say(self.said(words.cut(cut, self.labels)))
        self.say(self.deal_start(state))
        taken = [0, 0, 0, 0]  # who had taken a trick then, not now
        for item in session.told_so_far():
            if isinstance(item, TrickTaken):
                taken[item.trick.winner] += 1
            self.tell(item, taken)
        if session.challenge is not None:
            self.say(f"The daily challenge of {session.challenge}: hints, undo and the meter "
                     "are off.")

    async def run(self) -> None:
        self.opening()
        listening = asyncio.ensure_future(self._listen())
        try:
            self.carry_out(self.session.begin())
            self.carry_out(self.session.start())
            await self._loop()
        finally:
            listening.cancel()

    async def _loop(self) -> None:
        line_task: asyncio.Future[str | None] | None = None
        while not self.finished and not self.ended:
            if self.pending or not self.events.empty():
                self.handle_event(await self.events.get())
                continue
            if self.closed:
                break
            self.prompt()
            state = self.session.state()
            if self.input_ended and state.pace in ("your_turn", "forced"):
                self.quit(NOTHING_MORE)  # a seat of a shared table, its turn come
                break
            reading = not self.input_ended and (self.reader.live or self.waits_for_player(state))
            if line_task is None and reading:
                line_task = asyncio.ensure_future(self.reader.get())
            event_task = asyncio.ensure_future(self.events.get())
            waited: set[asyncio.Future[object]] = {event_task}  # type: ignore[arg-type]
            if line_task is not None:
                waited.add(line_task)  # type: ignore[arg-type]
            done, _ = await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
            if event_task in done:
                self.handle_event(event_task.result())
            else:
                event_task.cancel()
            if line_task is not None and line_task in done:
                line = line_task.result()
                line_task = None
                self.command(line)
        if line_task is not None:
            line_task.cancel()

    def waits_for_player(self, state: TableState) -> bool:
        """Whether the game waits for a line from the player now: their card, the next deal,
        an answer to a question (a file on standard input is read only then; not once the
        card or the next deal is asked of a shared table, which answers a moment later)."""
        if self.confirm is not None:
            return True
        if state.pace == "your_turn":  # (not once its card is on its way to the table)
            return (state.deal_number, state.turn) != self.played_at
        return state.pace == "deal_over" and state.deal_number != self.went_on

    async def _listen(self) -> None:
        """What the session hears by itself (a shared table's news)."""
        while True:
            out = await self.session.pushed()
            if out is None:
                if self.at_table:  # the table is gone for this seat (its last news said why)
                    self.closed = True
                    self.events.put_nowait(Outs([]))  # (wakes the loop)
                return
            self.events.put_nowait(Outs(out))

    # --- the session's output ----------------------------------------------------------------------
    def carry_out(self, out: list[gs.Out]) -> None:
        out = list(out)
        while out:
            item = out.pop(0)
            if isinstance(item, gs.AskBot):
                self._ask_bot(item.request)
            elif isinstance(item, gs.Wait):
                self.events.put_nowait(Timer(item.token))  # at once: the player reads
            elif isinstance(item, gs.ShowTrick):
                if item.seconds is None:  # the trick was said in its line: play goes on,
                    out.extend(self.session.act(GoOn()))  # after what is said with it
            elif isinstance(item, gs.FindHint):
                self._find_hint(item.turn, item.view)
            elif isinstance(item, gs.EstimateMeter):
                self._estimate(item)
            elif isinstance(item, gs.DealSummary):
                self.deal_summary()
            elif isinstance(item, gs.GameFinished):
                self.game_finished()
            elif isinstance(item, gs.AssistedNow):
                if not self.told_assisted:
                    self.told_assisted = True
                    self.say(words.assisted(item.what))
            elif isinstance(item, Refused):
                self.say(self.refusal(item))
            elif isinstance(item, Hint):
                reason = self.cards.in_text(item.reason)  # its cards said as the others
                self.say(f"Hint: {self.cards.card(item.card)} ({reason})")
            elif isinstance(item, (gs.YourTurn, gs.ForcedSoon, MeterReading)):
                pass  # the prompt says it
            else:
                self.tell(item)

    def tell(self, item: object, taken: Sequence[int] | None = None) -> None:
        """A line for a piece of news (``taken``: the tricks each seat had taken then, for
        news told again; default now)."""
        if isinstance(item, gs.TableNote):
            if item.text and item.log:
                self.say(item.text)
            return
        if isinstance(item, DealBegun):
            self.in_trick, self.led = 0, None
            self.say(self.deal_start(self.session.state()))
            return
        if isinstance(item, GameOver):
            return  # the game's end is said whole when it is finished
        if isinstance(item, Played):
            follows = self.in_trick % 4 != 0 and item.card.suit == self.led
            if self.in_trick % 4 == 0:
                self.led = item.card.suit
            self.in_trick += 1
            if follows and self.brief and self.cards.style == "words":
                # The suit led was just said: a card that follows it by its rank, "North 7".
                forced = " (forced)" if item.forced and self.labels[item.seat] == "You" else ""
                self.say(f"{self.labels[item.seat]} {self.cards.rank(item.card)}{forced}")
                return
        elif isinstance(item, (TakenBack, DealBegun)):
            trick = self.session.state().trick
            self.in_trick = len(trick)
            self.led = trick[0].suit if trick else None
        sentence = words.news(item, self.labels, brief=self.brief)
        if sentence is None:
            return
        line = self.said(sentence)
        if isinstance(item, TrickTaken) and not self.brief:  # (briefly: only a change)
            line += f". {words.still_clean(taken or self.session.state().taken, self.labels)}"
        self.say(line)

    def deal_start(self, state: TableState) -> str:
        first = state.plays[0].seat if state.plays else state.leader
        return self.said(words.deal_begun(state.deal_number, state.deals_planned,
                                          state.dealer, first, self.labels))

    def refusal(self, refused: Refused) -> str:
        if refused.card is None:
            return refused.reason
        if refused.reason.startswith("Wait:"):
            return refused.reason
        if refused.suit is not None:
            return f"You must follow {self.cards.suit(refused.suit)}."
        return f"You cannot play the {self.cards.card(refused.card)}: {refused.reason}."

    def deal_summary(self) -> None:
        state = self.session.state()
        self.say(self.totals(state))
        self.prompted = None

    def totals(self, state: TableState) -> str:
        scores = ", ".join(f"{words.object_name(s, self.labels)} {t}"
                           for s, t in enumerate(state.totals))
        line = f"Scores after deal {state.deal_number} of {state.deals_planned}: {scores}."
        if state.scoring == "pool":
            line += f" In the pool: {words.count(state.pool, 'point')}."
        return line

    def game_finished(self) -> None:
        self.finished = True
        state = self.session.state()
        scores = ", ".join(f"{words.object_name(s, self.labels)} {t}"
                           for s, t in enumerate(state.totals))
        self.say(f"The game is over. Final scores: {scores}.")
        self.say(words.under_the_table(state.losers, self.labels))
        if state.assisted:
            self.say(f"Help used: {self.session.help_used()}; the game counts as assisted.")
        path = self.session.record_path
        if path is not None or not self.at_table:  # (a table's own seat: the table keeps it)
            self.say(words.record_place(path, state.save_problem))

    # --- the prompt -----------------------------------------------------------------------------
    def prompt(self, again: bool = False) -> None:
        """Say what the player may do now, once for each position (``again``: said anew)."""
        state = self.session.state()
        key = (state.pace, state.turn, state.deal_number)
        if key == self.prompted and not again:
            return
        self.prompted = key
        text = self.prompt_text(state) or (self.last_prompt if again else "")
        if text:
            self.last_prompt = text
            self.say(text)

    def prompt_text(self, state: TableState) -> str:
        if state.pace == "your_turn":
            return self.your_turn(state)
        if state.pace == "deal_over":
            return f"Press Enter for deal {state.deal_number + 1} of {state.deals_planned}."
        if (state.to_move is not None and state.pace == "bot_waits"
                and state.levels[state.to_move] is None):  # a person at a shared table
            return f"Waiting for {state.names[state.to_move]}."
        return ""

    def your_turn(self, state: TableState) -> str:
        meter = ""
        if self.session.meter_on:
            meter = f" Meter: {meter_words(state.taken[state.seat], self.session.meter)}."
        return your_turn(state, self.cards, self.brief, meter)

    # --- what the player types -------------------------------------------------------------------
    def command(self, line: str | None) -> None:
        if line is None:
            self.input_ended = True
            state = self.session.state()
            if self.at_table and state.pace not in ("your_turn", "forced"):
                self.say(f"{NOTHING_MORE} You watch until your turn.")
                return
            self.quit(NOTHING_MORE if self.at_table else "End of input.")
            return
        text = line.strip()
        confirm, self.confirm = self.confirm, None
        if confirm is not None and text.lower() in ("y", "yes"):
            confirm[1]()
            return
        if confirm is not None and text.lower() in ("n", "no"):
            self.say("As you wish: no help.")
            return
        if not text and self.session.state().pace == "deal_over":
            self.went_on = self.session.state().deal_number  # (a table answers later)
            self.carry_out(self.session.act(GoOn()))
            return
        if not text:
            self.prompt(again=True)
            return
        word, _, rest = text.lower().partition(" ")
        commands: dict[str, Callable[[], None]] = {
            "hand": self.say_hand, "table": self.say_table, "score": self.say_score,
            "scores": self.say_score, "clean": self.say_clean, "last": self.say_last,
            "out": self.say_out, "hint": lambda: self.help_then("hint", AskHint()),
            "meter": self.turn_meter, "undo": lambda: self.help_then("undo", Undo()),
            "help": self.say_help, "rules": self.say_rules, "quit": lambda: self.quit(""),
            "cards": lambda: self.set_cards(rest.strip()),
            "short": lambda: self.set_brief(True), "long": lambda: self.set_brief(False),
        }
        if word in commands and (not rest or word == "cards"):
            commands[word]()
            return
        self.play(text)

    def play(self, text: str) -> None:
        state = self.session.state()
        if state.pace == "deal_over":
            self.say("The deal is over: press Enter for the next one.")
            return
        mine = state.pace in ("your_turn", "forced")
        chosen = choose(text, state.hand, state.legal if mine else (), self.cards)
        if chosen is None:
            self.say(f"Not understood: {text}. Type help for the commands.")
            return
        if chosen.card is None:
            self.say(chosen.problem)
            return
        if not mine:
            self.say("It is not your turn to play.")
            return
        out = self.session.act(PlayCard(chosen.card))
        if not any(isinstance(item, Refused) for item in out):
            self.played_at = (state.deal_number, state.turn)  # (a table answers later)
        self.carry_out(out)

    def help_then(self, what: str, action: object,
                  then: Callable[[], None] | None = None) -> None:
        """Ask for help: refused here (a challenge), or once the player agreed that the game
        then counts as assisted (``then``: after the help is had)."""
        refused = self.session.help_refused(what)
        if refused is not None:
            self.say(refused)
            return

        def go() -> None:
            self.carry_out(self.session.act(action))  # type: ignore[arg-type]
            if then is not None:
                then()

        if self.session.state().assisted:
            go()
            return
        self.confirm = (what, go)
        self.say(f"{HELP_WARNING[what]} Type yes to go on.")

    def turn_meter(self) -> None:
        on = not self.session.meter_on
        if not on:
            self.carry_out(self.session.act(SetMeter(False)))
            self.say("Meter off.")
            return
        def said_on() -> None:
            if self.session.meter_on:
                self.say("Meter on: the prompt says your chance to stay clean this deal.")
                self.prompted = None  # said again with the figure, once worked out

        self.help_then("meter", SetMeter(True), said_on)

    def set_cards(self, style: str) -> None:
        if style not in CARD_STYLES:
            self.say(f"Cards can be said as {', '.join(CARD_STYLES)}; now: {self.cards.style}.")
            return
        self.cards = CardWords(style)
        self.say(f"Cards are now said as {style}.")

    def set_brief(self, brief: bool) -> None:
        self.brief = brief
        self.say("Cards and tricks are now said in the fewest words." if brief else
                 "Cards and tricks are now said in whole sentences.")

    def quit(self, why: str) -> None:
        self.carry_out(self.session.act(Quit()))
        self.ended = True
        state = self.session.state()
        if not isinstance(self.session, gs.GameSession):  # a seat at a shared table
            self.say(f"{why} You have left the table.".strip())
        elif state.save_problem:
            self.say(f"{why} The game could not be saved: {state.save_problem}".strip())
        else:
            self.say(f"{why} The game is saved: nil-tui resume --text goes on with it."
                     .strip())


def your_turn(state: TableState, cards: CardWords, brief: bool, meter: str) -> str:
    """Briefly, "Your turn: 3, 8, king." (the cards to follow with) or "Your turn, you
    lead: any card."; in whole sentences, "Your turn, follow spades: 3, 8, king." or the
    cards by suit, "Your turn, you lead: clubs 2, 5; hearts 9." (a number counts the
    cards in the order said, the hand's order). ``meter``: the meter's words, or ""."""
    trick = state.trick
    legal = state.legal
    if trick and all(c.suit == trick[0].suit for c in legal):
        ranks = ", ".join(cards.rank(c) for c in legal)
        if brief:  # (the suit led was just said)
            return f"Your turn: {ranks}.{meter}"
        how = f"follow {cards.suit(trick[0].suit)}"
        said = ranks
    elif brief:
        how = "you lead" if not trick else f"no {cards.suit(trick[0].suit)}"
        return f"Your turn, {how}: any card.{meter}"
    else:
        how = "you lead" if not trick else f"no {cards.suit(trick[0].suit)}"
        groups: list[tuple[int, list[str]]] = []
        for card in legal:
            if not groups or groups[-1][0] != card.suit:
                groups.append((card.suit, []))
            groups[-1][1].append(cards.rank(card))
        said = "; ".join(f"{cards.suit(suit)} {', '.join(ranks)}" for suit, ranks in groups)
    return f"Your turn, {how}: {said}.{meter}"


def meter_words(tricks: int, reading: MeterReading | None) -> str:
    """The meter in words: "not clean", "clean chance 62%", "working it out"."""
    if tricks:
        return "not clean"
    if reading is None:
        return "working out your chance to stay clean"
    if reading.certain:
        return f"clean chance {round(reading.chance * 100)}%, certain"
    return f"clean chance about {words.percent(reading.chance)}"


__all__ = ["HELP", "LineFront", "meter_words"]
