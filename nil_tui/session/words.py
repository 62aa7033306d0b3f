"""What happened at the table, in sentences: one place for the words the table's log says and
the line front end speaks (``nil-tui play --text``), so the two never say different things.

A sentence is a :class:`Said`: its parts (plain words, cards, and asides a screen may show
faintly) and its tone (what kind of news it is). Each front end only renders the parts: the
table draws a card as its coloured face, the line front end says it in words or codes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..engine import SEAT_NAMES, Card, Cut, describe_result
from .messages import (
    AWAY,
    FOR_THEM,
    BotFailed,
    DealOver,
    GameOver,
    Played,
    SeatReplaced,
    TakenBack,
    TrickTaken,
)

if TYPE_CHECKING:
    from ..engine.scoring import DealRule

SEAT_LABELS: tuple[str, str, str, str] = ("You", SEAT_NAMES[1], SEAT_NAMES[2], SEAT_NAMES[3])
"""How each seat is named to the person at South: "You"."""

Labels = tuple[str, str, str, str]


class Aside(str):
    """A part of a sentence said aside ("(forced)"): a screen may show it faintly."""

    __slots__ = ()


Part = str | Card


class Said(NamedTuple):
    """One sentence: its parts in order, and its tone: "" (a card played), "trick" (a trick
    won), "deal" (a deal's start or end), "end" (the game's end), "undo" (cards taken back),
    "warn" (a bot failed or was replaced), "note" (the cut), "resumed"."""

    parts: tuple[Part, ...]
    tone: str = ""

    def text(self, card: object = str) -> str:
        """The sentence as plain text, each card as ``card(card)`` says it (default: its
        code)."""
        say = card if callable(card) else str
        return "".join(say(p) if isinstance(p, Card) else str(p) for p in self.parts)


def seat_labels(home: int = 0) -> Labels:
    """The seats as named to the person who truly sits at ``home`` (0: South) and is drawn
    at the bottom: "You", then the true seats to their left, across and right."""
    return ("You", SEAT_NAMES[(home + 1) & 3], SEAT_NAMES[(home + 2) & 3],
            SEAT_NAMES[(home + 3) & 3])


def count(n: int, noun: str) -> str:
    """"1 trick", "2 tricks", "0 games"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def seat_subject(seat: int, labels: Labels = SEAT_LABELS) -> str:
    """The seat as the subject of a sentence: "You", "West"."""
    return labels[seat]


def verb(seat: int, plain: str, third: str) -> str:
    """The verb agreeing with the seat: "You play", "West plays"."""
    return plain if seat == 0 else third


def says(seat: int, plain: str, third: str, *, start: bool = True,
         labels: Labels = SEAT_LABELS) -> str:
    """Subject and verb: "You win", "North wins" ("you win" within a sentence); a seat
    named otherwise than "You" (South in a replay) takes the third person."""
    you = labels[seat] == "You"
    subject = "you" if you and not start else seat_subject(seat, labels)
    return f"{subject} {plain if you else third}"


def object_name(seat: int, labels: Labels = SEAT_LABELS) -> str:
    """The seat within a sentence: "you", "West"."""
    return "you" if labels[seat] == "You" else labels[seat]


def percent(chance: float) -> str:
    """A chance as the screens show it: "62%", and "<1%" / ">99%" near the ends (small is
    not nothing)."""
    if 0 < chance < 0.005:
        return "<1%"
    if 0.995 <= chance < 1:
        return ">99%"
    return f"{round(chance * 100)}%"


def resume_point(record: dict[str, Any]) -> str:
    """Where a saved game goes on, read by the engine: "deal 2 of 4" when deal 1 was
    finished (its summary was on screen when the game was saved), "deal 1 of 4" in the
    middle of deal 1."""
    from ..engine import Game, RecordError

    planned = record.get("deals_planned", "?")
    try:
        game = Game.from_record(record)
    except (RecordError, ValueError, TypeError, KeyError):
        # Resume says why it cannot go on; here only the count of deals is known.
        deals = record.get("deals")
        return f"deal {len(deals) if isinstance(deals, list) and deals else 1} of {planned}"
    if game.is_over:
        return "finished"
    if game.deal.is_over:
        return f"deal {len(game.deals) + 1} of {game.deals_planned}"
    return f"deal {len(game.deals)} of {game.deals_planned}"


def describe_saved(record: dict[str, Any]) -> str:
    """The saved game in a few words: "deal 3 of 8, started 2026-11-30" (the deal it goes
    on with)."""
    created = str(record.get("created", ""))[:10]
    return resume_point(record) + (f", started {created}" if created else "")


# --- the news of play ---------------------------------------------------------------------------
def incident_words(seat: int, reason: str, labels: Labels = SEAT_LABELS) -> str:
    """What is said of a card a bot played for a seat (its reason as the table wrote it:
    "Bo was away: the normal bot played for them"), told to you when the seat is yours."""
    name, away, rest = reason.partition(AWAY)
    if seat == 0 and away and name and rest.endswith(FOR_THEM):
        return f"You were away: {rest.removesuffix(FOR_THEM)} for you"
    return f"{labels[seat]}: {reason}"


def played(seat: int, card: Card, forced: bool, labels: Labels = SEAT_LABELS, *,
           brief: bool = False) -> Said:
    """"West plays Q♥" ("You play 2♣ (forced)"); ``brief``: "West Q♥", as a card is
    called at the table."""
    said = labels[seat] if brief else says(seat, "play", "plays", labels=labels)
    parts: tuple[Part, ...] = (f"{said} ", card)
    if forced and seat == 0:
        parts += (Aside(" (forced)"),)
    return Said(parts)


def trick_won(winner: int, card: Card, first_for_winner: bool,
              labels: Labels = SEAT_LABELS, *, brief: bool = False) -> Said:
    """"North wins the trick with Q♥ — North is no longer clean"; ``brief``: "North wins."
    or "North wins, no longer clean." (the card was just said; only a change in who is
    clean is said)."""
    if brief:
        won = says(winner, "win", "wins", labels=labels)
        return Said((won + (", no longer clean." if first_for_winner else "."),), "trick")
    parts: tuple[Part, ...] = (f"{says(winner, 'win', 'wins', labels=labels)} the trick with ",
                               card)
    if first_for_winner:
        parts += (" — " + ("you are no longer clean" if labels[winner] == "You" else
                           f"{labels[winner]} is no longer clean"),)
    return Said(parts, "trick")


def still_clean(taken: Sequence[int], labels: Labels = SEAT_LABELS) -> str:
    """Who has taken no trick yet: "Still clean: you and West." ("Nobody is clean.")."""
    clean = [object_name(s, labels) for s in range(4) if taken[s] == 0]
    if not clean:
        return "Nobody is clean."
    names = clean[0] if len(clean) == 1 else ", ".join(clean[:-1]) + " and " + clean[-1]
    return f"Still clean: {names}."


def deal_over(deal_number: int, taken: Sequence[int], points: Sequence[int],
              rule: DealRule | None, labels: Labels = SEAT_LABELS) -> Said:
    """"Deal 2: West stayed clean: 10 points."."""
    return Said((f"Deal {deal_number}: {describe_result(taken, points, labels, rule)}",),
                "deal")


def names_list(seats: Sequence[int], labels: Labels = SEAT_LABELS) -> str:
    """"You", "You and West", "You, West and North" (you first when among them)."""
    names = [object_name(seat, labels) if k else labels[seat] for k, seat in enumerate(seats)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def under_the_table(losers: Sequence[int], labels: Labels = SEAT_LABELS) -> str:
    """Who crawls under the table at the game's end (the lowest total), as game over says."""
    if not losers:
        return "A draw, all four are level! Nobody goes under the table."
    who = names_list(losers, labels)
    if any(labels[seat] == "You" for seat in losers):
        return f"{who} crawl under the table!"
    verb = "crawl" if len(losers) > 1 else "crawls"
    return f"{who} {verb} under the table; you stay on your chair."


def game_over() -> Said:
    return Said(("The game is over.",), "end")


def taken_back(plays: Sequence[tuple[int, Card]], labels: Labels = SEAT_LABELS) -> Said:
    """"Taken back: your Q♥, West's 2♥."."""
    parts: list[Part] = ["Taken back: "]
    for n, (seat, card) in enumerate(plays):
        if n:
            parts.append(", ")
        parts.append("your " if labels[seat] == "You" else f"{labels[seat]}'s ")
        parts.append(card)
    parts.append(".")
    return Said(tuple(parts), "undo")


def deal_begun(deal_number: int, deals_planned: int, dealer: int, first: int,
               labels: Labels = SEAT_LABELS) -> Said:
    """"Deal 1 of 8: West deals; North leads."."""
    dealt = deals(dealer, labels)
    leads = says(first, "lead", "leads", start=False, labels=labels)
    return Said((f"Deal {deal_number} of {deals_planned}: {dealt}; {leads}.",), "deal")


def deals(seat: int, labels: Labels = SEAT_LABELS) -> str:
    """"you deal" (your seat, named "You"), "West deals", "South deals" (a replay's)."""
    return "you deal" if labels[seat] == "You" else f"{labels[seat]} deals"


def cut(drawn: Cut, labels: Labels = SEAT_LABELS) -> Said:
    """The cut for the first dealer: each seat's card, each redraw of the seats tied
    lowest, who deals."""
    parts: list[Part] = ["The cut for the first dealer: "]
    for k, row in enumerate(drawn.draws):
        drew = [(seat, card) for seat, card in enumerate(row) if card is not None]
        if k:
            tied = " and ".join(object_name(seat, labels) for seat, _ in drew)
            parts.append(f"; {tied} tie and draw again: ")
        for n, (seat, card) in enumerate(drew):
            parts.append(("" if n == 0 else ", ") + f"{object_name(seat, labels)} ")
            parts.append(card)
    parts.append(f"; {deals(drawn.dealer, labels)} (the lowest card).")
    return Said(tuple(parts), "note")


def resumed(deal_number: int, deals_planned: int, help_used: str | None) -> Said:
    """A game resumed: where it is, and the help had so far."""
    parts: tuple[Part, ...] = (f"Game resumed: deal {deal_number} of {deals_planned}.",)
    if help_used is not None:
        parts += (Aside(f" Used so far: {help_used}; the game counts as assisted."),)
    return Said(parts, "resumed")


def news(item: object, labels: Labels = SEAT_LABELS, *, brief: bool = False) -> Said | None:
    """The sentence for a piece of news (None for news that is not told this way);
    ``brief``: a card and a trick in the fewest words."""
    if isinstance(item, (BotFailed, SeatReplaced)):
        return Said((incident_words(item.seat, item.reason, labels),), "warn")
    if isinstance(item, Played):
        return played(item.seat, item.card, item.forced, labels, brief=brief)
    if isinstance(item, TrickTaken):
        w = item.trick.winner
        return trick_won(w, item.trick.card_of(w), item.first_for_winner, labels,
                         brief=brief)
    if isinstance(item, DealOver):
        return deal_over(item.deal_number, item.taken, item.points, item.rule, labels)
    if isinstance(item, GameOver):
        return game_over()
    if isinstance(item, TakenBack):
        return taken_back([(p.seat, p.card) for p in item.plays], labels)
    return None


def record_place(path: object, problem: str | None, what: str = "game") -> str:
    """Where a finished game's record went, or the plain truth that it is not saved: why
    (and whether saving is tried again), and the record file wherever it was written."""
    if path is not None and problem is None:
        return f"The record is kept in {path}."
    why = problem or "the data folder could not be written."
    text = f"This {what} is not saved: {why}"
    return text + (f" Its record was written as {path}." if path is not None else "")


# --- the seats of a shared table ------------------------------------------------------------
def table_notice(event: Mapping[str, Any], names: Sequence[str],
                 in_game: bool = False) -> str | None:
    """What a shared table said of its seats, in a line (the lobby, the table screen and a
    seat played in plain lines say the same): a person came, left, dropped, came back, a bot
    plays for one away or silent on their turn, the game starts, who may start it now.
    ``names``: the four seats' names, in the table's order; ``in_game``: said during the
    game (a person who drops is then played for by a bot, where the lobby frees their
    seat)."""
    kind = event.get("kind")
    number = event.get("seat")
    seat = number if isinstance(number, int) and 0 <= number <= 3 else None
    known = seat is not None
    who = names[seat] if seat is not None and seat < len(names) else ""
    where = SEAT_NAMES[seat] if seat is not None else ""
    if kind == "owner":
        return f"{who} may start the game now" if known else None
    if kind == "started":
        return "The game starts"
    if not known:
        return None
    if kind == "away":
        wait = event.get("wait")
        waits = f"{wait:g} s" if isinstance(wait, (int, float)) else "a while"
        if in_game:
            return (f"{who} lost the link: the table waits for them {waits}, then a bot "
                    "plays for them")
        return f"{who} has left the table; it waits {waits} for them"
    if kind == "stand_in":
        if event.get("why") == "silent":
            return (f"{who} has not played for a while: a {event.get('bot')} bot plays for "
                    "them until they play again")
        return f"A {event.get('bot')} bot plays for {who} until they are back"
    if kind == "back":
        return f"{who} is back at the table" if in_game else f"{who} is back"
    if kind == "joined":
        return f"{event.get('name') or who} sits down at {where}"
    if kind == "left":
        return f"{where} is free again"
    return None


def assisted(what: str) -> str:
    """The game has just started to count as assisted."""
    return f"{what}: this game now counts as assisted in history and statistics."


__all__ = [
    "AWAY", "FOR_THEM", "SEAT_LABELS", "Aside", "Labels", "Part", "Said", "assisted", "count",
    "cut", "deal_begun", "deal_over", "deals", "describe_saved", "game_over", "incident_words",
    "names_list", "news", "object_name", "percent", "played", "record_place", "resume_point",
    "resumed", "says",
    "seat_labels", "seat_subject", "still_clean", "table_notice", "taken_back", "trick_won",
    "under_the_table", "verb",
]
