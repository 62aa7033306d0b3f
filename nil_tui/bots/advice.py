"""Hints for a human player: the expert's card and one line in plain words saying why."""

from __future__ import annotations

from dataclasses import replace

from ..engine import DECK, SEAT_NAMES, Card, PlayerView, trick_winner
from .easy import decision_rng
from .expert import EXPERT
from .heuristic import FULL, can_sweep
from .search import Searcher

# A hint must come back in well under a second: the expert's search on fewer layouts.
ADVICE = replace(EXPERT, worlds=80, max_worlds=160, time_cap=0.8)


def _names(seats: list[int]) -> str:
    names = [SEAT_NAMES[s] for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def reason_for(view: PlayerView, card: Card) -> str:
    """Why a card is a sound play here, in one line."""
    seat = view.seat
    clean = view.taken[seat] == 0
    others_clean = [s for s in range(4) if s != seat and view.taken[s] == 0]
    hand = view.hand_mask
    unseen = FULL & ~view.played_mask & ~hand
    c = card.pretty()
    if len(view.legal) == 1:
        return f"{c} is your only legal card."
    if not clean and len(others_clean) == 3 and can_sweep(hand, unseen):
        return f"Play {c}: your cards are all the highest left, so you can take every trick " \
               "and turn 0 into 3."
    if view.trick:
        led = view.trick[0].suit
        winner = trick_winner(view.leader, view.trick)  # winning so far
        top = view.trick[(winner - view.leader) & 3]
        who = SEAT_NAMES[winner]
        if card.suit != led:
            if clean:
                return f"You have no {led.label}: throw away {c}, your most dangerous card."
            return f"You have no {led.label}: get rid of {c} while {who} takes the trick."
        if card.rank < top.rank:
            if clean:
                return f"Duck under {who}'s {top.pretty()}: you are still clean."
            if view.taken[winner] == 0:
                return f"Stay under {top.pretty()}: let {who}, still clean, take this trick."
            return f"Play {c} under {top.pretty()} and keep your higher cards for later."
        last = len(view.trick) == 3
        if clean and last:
            return f"You must win this trick anyway: take it with {c}, your biggest " \
                   f"{led.label}."
        if clean:
            return f"You cannot duck {top.pretty()}: {c} is the card most likely to be beaten."
        if others_clean:
            return f"Take the lead with {c} to hunt {_names(others_clean)}, still clean."
        return f"Play {c}: every player has a trick, nothing is lost by taking this one."
    # leading
    suit_name = card.suit.label
    out = [x for x in DECK if unseen & x.bit and x.suit == card.suit]
    lower = sum(1 for x in out if x.rank < card.rank)
    higher = len(out) - lower
    if clean:
        if higher == 0:
            return f"Lead {c}: every card you hold could win a trick; this one costs least."
        if lower == 0:
            return f"Lead {c}: no lower {suit_name} is left, so whoever follows must beat it."
        return f"Lead {c}: only {lower} lower {suit_name} out and {higher} higher, the " \
               "safest lead you have."
    if others_clean:
        return f"Lead {c} to force {_names(others_clean)} (still clean) to take a trick."
    return f"Lead {c}: it keeps your options open."


def advise(view: PlayerView) -> tuple[Card, str]:
    """The expert's card for this view and a one-line reason in plain words."""
    if not view.legal:
        raise ValueError("it is not this seat's turn: there is no card to advise")
    if len(view.legal) == 1:
        card = view.legal[0]
    else:
        best, _ = Searcher(ADVICE).best(view, decision_rng(0, view, "advice"))
        card = DECK[best]
    return card, reason_for(view, card)
