"""What the player may ask in plain lines, between cards: their hand, the trick so far, the
scores, who is clean, the last trick, the cards still out, the help and the rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..engine import DECK
from ..session import words
from .cards import CardWords

if TYPE_CHECKING:
    from ..session.seat import SeatSession

HELP = (
    ("On your turn, type a card: a code such as QH or 10H, words such as queen of hearts, "
     "or its number, counting the cards as your turn or your hand says them."),
    ("Commands: hand, table (the trick so far), score, clean (who has taken no trick), last "
     "(the last trick), out (the cards still out), hint, meter, undo, cards words or codes "
     "or symbols (how cards are said), long or short (whole sentences, or the fewest "
     "words), rules, help, quit (the game is saved)."),
    "Enter alone says the prompt again.",
)


class Answers:
    """The answers to the player's questions (the base of the line front end)."""

    session: SeatSession
    cards: CardWords
    labels: words.Labels
    rules: Callable[[], str] | None

    def say(self, text: str) -> None:
        raise NotImplementedError

    def say_hand(self) -> None:
        hand = self.session.state().hand
        self.say(f"Your hand, {words.count(len(hand), 'card')}: {self.cards.by_suit(hand)}.")

    def say_table(self) -> None:
        state = self.session.state()
        trick = state.trick
        if not trick:
            lead = words.says(state.leader, "lead", "leads", labels=self.labels)
            self.say(f"No card in this trick yet. {lead}.")
            return
        plays = state.plays[len(state.plays) - len(trick):]
        cards = ", ".join(f"{words.object_name(p.seat, self.labels)} {self.cards.card(p.card)}"
                          for p in plays)
        led = words.says(state.leader, "lead", "led", labels=self.labels)
        nxt = ""
        if state.to_move is not None:
            nxt = f" {words.object_name(state.to_move, self.labels).capitalize()} to play."
        self.say(f"{led}: {cards}.{nxt}")

    def say_score(self) -> None:
        state = self.session.state()
        scores = ", ".join(f"{words.object_name(s, self.labels)} {t}"
                           for s, t in enumerate(state.totals))
        taken = ", ".join(f"{words.object_name(s, self.labels)} {t}"
                          for s, t in enumerate(state.taken))
        line = (f"Deal {state.deal_number} of {state.deals_planned}. Scores: {scores}. "
                f"Tricks this deal: {taken}.")
        if state.scoring == "pool":
            line += f" In the pool: {words.count(state.pool, 'point')}."
        self.say(line)

    def say_clean(self) -> None:
        self.say(words.still_clean(self.session.state().taken, self.labels))

    def say_last(self) -> None:
        trick = self.session.last_trick()
        if trick is None:
            self.say("No trick has been played yet.")
            return
        cards = ", ".join(f"{words.object_name(trick.player_of(k), self.labels)} "
                          f"{self.cards.card(c)}" for k, c in enumerate(trick.cards))
        won = words.says(trick.winner, "win", "wins", start=False, labels=self.labels)
        self.say(f"Last trick: {cards}; {won} it.")

    def say_out(self) -> None:
        state = self.session.state()
        seen = set(state.hand) | {p.card for p in state.plays}
        out = [c for c in DECK if c not in seen]
        self.say(f"Still out, {words.count(len(out), 'card')}: "
                 f"{self.cards.by_suit(out)}.")

    def say_help(self) -> None:
        for line in HELP:
            self.say(line)
        if not self.session.help_allowed:
            self.say("In the daily challenge, hints, undo and the meter are off.")

    def say_rules(self) -> None:
        if self.rules is None:
            self.say("The rules: nil-tui rules --text.")
            return
        for line in self.rules().splitlines():
            self.say(line)


__all__ = ["HELP", "Answers"]
