"""The words of a hint: every reason a hint gives is said here, and only here, in the look the
player chose (card faces with suit symbols, or letters with ``ascii``).

A reason arrives as a claim (:mod:`nil_tui.bots.advice`): the facts it states were taken from
the position, so these functions only put them into words and never add a fact of their own.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import SEAT_NAMES, Card, Suit
from .advice import Discard, Duck, Lead, OnlyCard, Overtake, Reason, Sweep

SUIT_ONE = ("club", "diamond", "heart", "spade")
"""A suit's card in the singular: "your highest heart"."""


def suit_word(suit: Suit | int, n: int = 2) -> str:
    """"heart" for one card, "hearts" for none or several."""
    one = SUIT_ONE[suit]
    return one if n == 1 else one + "s"


def count(n: int, noun: str) -> str:
    """"1 lower heart", "2 lower hearts", "no lower hearts"."""
    if n == 0:
        return f"no {noun}s"
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def is_are(n: int) -> str:
    return "is" if n == 1 else "are"


def names(seats: Sequence[int]) -> str:
    """"North", "North and East", "West, North and East"."""
    words = [SEAT_NAMES[s] for s in seats]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


class Say:
    """Words in one look: ``face`` writes a card as the rest of the screen does."""

    def __init__(self, ascii: bool = False) -> None:
        self.ascii = ascii

    def face(self, card: Card) -> str:
        return card.pretty(self.ascii)

    def owned(self, seat: int, card: Card) -> str:
        """"North's J♦"."""
        return f"{SEAT_NAMES[seat]}'s {self.face(card)}"


def words(reason: Reason, ascii: bool = False) -> str:
    """The reason as one sentence for the player."""
    say = Say(ascii)
    if isinstance(reason, OnlyCard):
        return f"{say.face(reason.card)} is your only legal card."
    if isinstance(reason, Sweep):
        return _sweep(say, reason)
    if isinstance(reason, Discard):
        return _discard(say, reason)
    if isinstance(reason, Duck):
        return _duck(say, reason)
    if isinstance(reason, Overtake):
        return _overtake(say, reason)
    if isinstance(reason, Lead):
        return _lead(say, reason)
    return f"Play {say.face(reason.card)}."


def _sweep(say: Say, r: Sweep) -> str:
    gain = "score 3"
    if r.perfect:
        gain = "win a perfect game: the other three crawl under the table"
    elif r.pool is not None:
        gain = f"collect the pool: {count(r.pool, 'point')}"
    return (f"Play {say.face(r.card)}: it takes this trick and every card you keep is the "
            f"highest left of its suit, so you take every trick from here and {gain}.")


def _takes(seat: int, clean: bool, last: bool) -> str:
    """"North, still clean, takes the trick" / "East is winning the trick"."""
    who = SEAT_NAMES[seat] + (", still clean," if clean else "")
    return f"{who} takes the trick" if last else f"{who} is winning the trick so far"


def _discard(say: Say, r: Discard) -> str:
    c = say.face(r.card)
    which = ""
    if r.highest_rank:
        which = ", your highest card"
    elif r.highest_of_suit:
        which = f", your highest {suit_word(r.card.suit, 1)}"
    if r.clean:
        return f"You have no {suit_word(r.led)}, so this trick cannot be yours: throw away " \
               f"{c}{which}."
    return f"You have no {suit_word(r.led)}: {_takes(r.winner, r.winner_clean, r.last)}, so " \
           f"get rid of {c}{which}."


def _duck(say: Say, r: Duck) -> str:
    c = say.face(r.card)
    top = say.owned(r.winner, r.top)
    suit = r.card.suit
    if r.clean:
        how = f" with your highest {suit_word(suit, 1)} below it" if r.highest_under else ""
        return f"Duck under {top}{how}: you are still clean."
    if r.winner_clean:
        return f"Stay under {top}: {_takes(r.winner, True, r.last)}."
    if r.higher_kept:
        return f"Play {c} under {top} and keep your higher {suit_word(suit, r.higher_kept)} " \
               "for later."
    return f"Play {c} under {top}: this trick is not yours."


def _overtake(say: Say, r: Overtake) -> str:
    c = say.face(r.card)
    top = say.owned(r.winner, r.top)
    one = suit_word(r.card.suit, 1)
    every = f"every {one} you hold beats {top}"
    if r.hunted and not r.clean:
        if r.sure:
            return f"Take this trick with {c}: you lead next, to hunt {names(r.hunted)}, " \
                   "still clean."
        return f"Go over {top} with {c}, for the lead to hunt {names(r.hunted)}, still clean."
    if r.clean and r.forced and r.all_sure:
        which = f", your highest {one}" if r.highest else ""
        after = " and nobody after you can beat them" if r.later else ""
        return f"You must take this trick ({every}{after}): take it with {c}{which}."
    if r.clean and r.forced and r.lowest and not r.sure:
        return f"You cannot duck {top}: {c}, your lowest {one}, is the likeliest to be " \
               "beaten by a player after you."
    if r.clean and r.forced:
        return f"You cannot duck: {every}."
    if r.lower_kept:
        return f"Go over {top} with {c} and keep your lower " \
               f"{suit_word(r.card.suit, r.lower_kept)} for later."
    return f"Go over {top} with {c}."


def _lead(say: Say, r: Lead) -> str:
    c = say.face(r.card)
    suit = r.card.suit
    hunt = f" to hunt {names(r.hunted)} (still clean)" if r.hunted and not r.clean else ""
    if r.higher == 0:
        if r.clean and r.all_sure:
            return f"Whatever you lead wins this trick (no card out beats any card you can " \
                   f"lead): lead {c}."
        if r.clean:
            return f"Lead {c}: no higher {suit_word(suit)} are out, so it wins this trick."
        keep = f", to hunt {names(r.hunted)}, still clean" if r.hunted else ""
        return f"Lead {c}: no higher {suit_word(suit)} are out, so you keep the lead{keep}."
    if r.lower == 0:
        return f"Lead {c}{hunt}: no lower {suit_word(suit)} are out, so whoever follows " \
               "suit must go over it."
    out = f"{count(r.lower, 'lower ' + SUIT_ONE[suit])} {is_are(r.lower)} out against " \
          f"{r.higher} higher"
    if r.clean and r.fewest_lower:
        return f"Lead {c}: {out}; no other card you can lead has fewer lower cards out."
    return f"Lead {c}{hunt}: {out}."


__all__ = ["SUIT_ONE", "count", "names", "suit_word", "words"]
