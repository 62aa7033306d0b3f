"""Hints for a human player: the expert's card and one line in plain words saying why."""

from __future__ import annotations

import time
from dataclasses import replace

from ..engine import DECK, SEAT_NAMES, Card, PlayerView, trick_winner
from .easy import decision_rng
from .expert import EXPERT
from .heuristic import can_sweep
from .search import Searcher

# A hint must come back in well under a second: the expert's search on fewer layouts (a work
# budget, so the same position always gets the same hint), with a safety cap in seconds that
# only a very slow or busy machine reaches.
ADVICE = replace(EXPERT, worlds=80, max_worlds=160, max_nodes=200_000)
ADVICE_SAFETY_CAP = 2.0


def _names(seats: list[int]) -> str:
    names = [SEAT_NAMES[s] for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def reason_for(view: PlayerView, card: Card) -> str:
    """Why a card is a sound play here, in one line."""
    seat = view.seat
    others_clean = [s for s in range(4) if s != seat and view.taken[s] == 0]
    c = card.pretty()
    if len(view.legal) == 1:
        return f"{c} is your only legal card."
    if view.taken[seat] and len(others_clean) == 3 and can_sweep(view.hand_mask,
                                                                 view.unseen_mask):
        return f"Play {c}: your cards are all the highest left, so you can take every trick " \
               "and turn 0 into 3."
    if view.trick:
        return _following(view, card, others_clean)
    return _leading(view, card, others_clean)


def _following(view: PlayerView, card: Card, others_clean: list[int]) -> str:
    """Why to play this card to a trick in progress."""
    c = card.pretty()
    clean = view.taken[view.seat] == 0
    led = view.trick[0].suit
    winner = trick_winner(view.leader, view.trick)  # winning so far
    top = view.trick[(winner - view.leader) & 3]
    who = SEAT_NAMES[winner]
    if card.suit != led:
        if clean:
            return f"You have no {led.label}: throw away {c}, your most dangerous card."
        return f"You have no {led.label}: get rid of {c} while {who} takes the trick."
    if card.rank < top.rank:
        return _ducking(view, card, top, winner)
    if clean and len(view.trick) == 3:
        return f"You must win this trick anyway: take it with {c}, your biggest {led.label}."
    if clean:
        return f"You cannot duck {top.pretty()}: {c} is the card most likely to be beaten."
    if others_clean:
        return f"Take the lead with {c} to hunt {_names(others_clean)}, still clean."
    return f"Play {c}: every player has a trick, nothing is lost by taking this one."


def _ducking(view: PlayerView, card: Card, top: Card, winner: int) -> str:
    """Why to play under the card winning the trick."""
    who = SEAT_NAMES[winner]
    if view.taken[view.seat] == 0:
        return f"Duck under {who}'s {top.pretty()}: you are still clean."
    if view.taken[winner] == 0:
        return f"Stay under {top.pretty()}: let {who}, still clean, take this trick."
    return f"Play {card.pretty()} under {top.pretty()} and keep your higher cards for later."


def _leading(view: PlayerView, card: Card, others_clean: list[int]) -> str:
    """Why to lead this card."""
    c = card.pretty()
    if view.taken[view.seat] == 0:
        suit_name = card.suit.label
        out = [x for x in DECK if view.unseen_mask & x.bit and x.suit == card.suit]
        lower = sum(1 for x in out if x.rank < card.rank)
        higher = len(out) - lower
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
        deadline = time.perf_counter() + ADVICE_SAFETY_CAP
        best, _ = Searcher(ADVICE).best(view, decision_rng(0, view, "advice"), None, deadline)
        card = DECK[best]
    return card, reason_for(view, card)
