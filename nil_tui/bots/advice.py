"""Hints for a human player: the expert's card and one line in plain words saying why.

A reason is a claim: a small record of its kind and the facts it states (who is winning the
trick, how many lower cards of the suit are out, whether every card you could play beats the
trick...). :func:`explain` reads each fact from the position with the engine's rules and keeps
only what holds, so a stronger claim that does not hold here gives way to a weaker true one.
:mod:`nil_tui.bots.hint_words` puts a claim into words, in the player's look.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from ..engine import DECK, Card, PlayerView, Suit, trick_winner
from .easy import decision_rng
from .expert import EXPERT
from .search import Searcher

# A hint must come back in well under a second: the expert's search on fewer layouts (a work
# budget, so the same position always gets the same hint), with a safety cap in seconds that
# only a very slow or busy machine reaches.
ADVICE = replace(EXPERT, worlds=80, max_worlds=160, max_nodes=200_000)
ADVICE_SAFETY_CAP = 2.0


@dataclass(frozen=True)
class OnlyCard:
    """The card is the only one the rules allow."""

    card: Card


@dataclass(frozen=True)
class Sweep:
    """You have taken a trick, the other three have not, and after this card you win every
    trick left whatever they hold (so you score 3; under the pool scoring you collect the
    pool, ``pool``, or in the first deal win a perfect game, ``perfect``)."""

    card: Card
    pool: int | None = None
    perfect: bool = False


@dataclass(frozen=True)
class Discard:
    """You hold no card of the led suit, so this card cannot win the trick."""

    card: Card
    led: Suit
    clean: bool  # you have taken no trick yet
    winner: int  # the seat winning the trick so far
    winner_clean: bool  # ...which has taken no trick yet
    last: bool  # you play the trick's last card, so ``winner`` takes it
    highest_of_suit: bool  # no card of its suit in your hand is higher
    highest_rank: bool  # every other card in your hand has a lower rank


@dataclass(frozen=True)
class Duck:
    """The card follows suit under the card winning the trick, so it does not take it."""

    card: Card
    top: Card  # the card winning the trick so far
    winner: int  # who played it
    clean: bool
    winner_clean: bool
    last: bool
    highest_under: bool  # no card of yours between this one and ``top``
    higher_kept: int  # how many cards of the suit above this one you keep


@dataclass(frozen=True)
class Overtake:
    """The card follows suit above the card winning the trick so far."""

    card: Card
    top: Card
    winner: int
    clean: bool
    forced: bool  # none of your legal cards goes under ``top``
    all_sure: bool  # every legal card of yours wins the trick whatever the others play
    sure: bool  # this card wins the trick whatever the others play
    later: int  # players still to play to this trick after you
    lowest: bool  # your lowest card of the suit
    highest: bool  # your highest card of the suit
    lower_kept: int  # cards of the suit below this one that you keep
    hunted: tuple[int, ...]  # the other seats still clean


@dataclass(frozen=True)
class Lead:
    """You lead this card to the trick."""

    card: Card
    clean: bool
    lower: int  # cards of its suit out (not played, not yours) below it
    higher: int  # ...and above it
    all_sure: bool  # no legal lead of yours has a higher card of its suit out
    fewest_lower: bool  # no other legal lead has fewer lower cards of its suit out
    hunted: tuple[int, ...]  # the other seats still clean that have not shown out of its suit


Reason = OnlyCard | Sweep | Discard | Duck | Overtake | Lead
"""A claim about the position: its kind and its facts."""


def _suit_out(view: PlayerView, card: Card) -> tuple[int, int]:
    """How many cards of the card's suit are out (in the other hands) below and above it."""
    lower = higher = 0
    for x in view.unseen:
        if x.suit == card.suit:
            if x.rank < card.rank:
                lower += 1
            else:
                higher += 1
    return lower, higher


def _wins_for_sure(view: PlayerView, card: Card) -> bool:
    """Playing this card takes the trick whatever the players after you hold."""
    if view.trick:
        led = view.trick[0].suit
        top = view.trick[(trick_winner(view.leader, view.trick) - view.leader) & 3].rank
        if card.suit != led or card.rank < top:
            return False
        if len(view.trick) == 3:
            return True
    return _suit_out(view, card)[1] == 0


def _sweeps(view: PlayerView, card: Card) -> bool:
    """This card and then every card left in the hand win their tricks whatever the others
    hold: after this trick you lead each time, and each card is the highest of its suit."""
    if not _wins_for_sure(view, card):
        return False
    for mine in view.hand:
        if mine != card and _suit_out(view, mine)[1]:
            return False
    return True


def explain(view: PlayerView, card: Card) -> Reason:
    """The strongest true claim for playing ``card`` (one of ``view.legal``) here."""
    if card not in view.legal:
        raise ValueError(f"{card} is not a legal card for this view")
    if len(view.legal) == 1:
        return OnlyCard(card)
    seat = view.seat
    clean = view.taken[seat] == 0
    hunted = tuple(s for s in range(4) if s != seat and view.taken[s] == 0)
    rule = view.rule
    if not clean and len(hunted) == 3 and not rule.tiebreak and _sweeps(view, card):
        return Sweep(card, rule.pool if rule.is_pool else None, rule.is_pool and rule.first)
    if view.trick:
        return _following(view, card, clean, hunted)
    return _leading(view, card, clean, hunted)


def _following(view: PlayerView, card: Card, clean: bool,
               hunted: tuple[int, ...]) -> Reason:
    led = view.trick[0].suit
    winner = trick_winner(view.leader, view.trick)
    top = view.trick[(winner - view.leader) & 3]
    last = len(view.trick) == 3
    mine = [c for c in view.hand if c.suit == card.suit]
    if card.suit != led:
        return Discard(card, led, clean, winner, view.taken[winner] == 0, last,
                       highest_of_suit=all(c.rank <= card.rank for c in mine),
                       highest_rank=all(c.rank < card.rank for c in view.hand if c != card))
    if card.rank < top.rank:
        return Duck(card, top, winner, clean, view.taken[winner] == 0, last,
                    highest_under=not any(card.rank < c.rank < top.rank for c in mine),
                    higher_kept=sum(1 for c in mine if c.rank > card.rank))
    return Overtake(card, top, winner, clean,
                    forced=all(c.rank > top.rank for c in view.legal),
                    all_sure=all(_wins_for_sure(view, c) for c in view.legal),
                    sure=_wins_for_sure(view, card), later=3 - len(view.trick),
                    lowest=all(c.rank >= card.rank for c in mine),
                    highest=all(c.rank <= card.rank for c in mine),
                    lower_kept=sum(1 for c in mine if c.rank < card.rank),
                    hunted=() if clean else hunted)


def _leading(view: PlayerView, card: Card, clean: bool, hunted: tuple[int, ...]) -> Reason:
    lower, higher = _suit_out(view, card)
    # a lead hunts only a clean player who may still have to follow its suit: one who has
    # shown out of it discards and cannot be made to take the trick
    voids = view.voids()
    hunted = tuple(s for s in hunted if card.suit not in voids[s])
    outs = [_suit_out(view, c) for c in view.legal]
    return Lead(card, clean, lower, higher,
                all_sure=all(h == 0 for _, h in outs),
                fewest_lower=all(lower <= lo for lo, _ in outs),
                hunted=() if clean else hunted)


def reason_for(view: PlayerView, card: Card, ascii: bool = False) -> str:
    """Why a card is a sound play here, in one line (card faces in letters with ``ascii``)."""
    from .hint_words import words

    return words(explain(view, card), ascii)


def expert_card(view: PlayerView) -> Card:
    """The card the hint suggests: the expert's search on a hint's budget."""
    if not view.legal:
        raise ValueError("it is not this seat's turn: there is no card to advise")
    if len(view.legal) == 1:
        return view.legal[0]
    deadline = time.perf_counter() + ADVICE_SAFETY_CAP
    best, _ = Searcher(ADVICE).best(view, decision_rng(0, view, "advice"), None, deadline)
    return DECK[best]


def advise(view: PlayerView, ascii: bool = False) -> tuple[Card, str]:
    """The expert's card for this view and a one-line reason in plain words, with card faces
    in letters ("QS") when ``ascii`` is set, as the rest of the screen draws them."""
    card = expert_card(view)
    return card, reason_for(view, card, ascii)

