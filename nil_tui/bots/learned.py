"""A learned judge of positions inside the search, and the expert that uses it.

At the end of a trick, in one layout of the search (every hand known), :func:`predict` says
what the deal will be worth to each seat without playing it out: a small logistic model gives
each clean seat's chance of ending the deal clean, from a few counts of its cards against the
cards still out (worked out on bitmasks, as the rules of thumb are: what the seat itself knows,
so that :func:`view_features` reads them from its view), and the scoring turns those chances
into points (the seats taken to end clean or not independently of each other).
The model was fitted to the results of the hard level's own deals (``training/`` in the
repository says how, and trains it again); its weights are plain numbers in
``data/leaf.json``, read the first time a bot needs them.

``LearnedExpertBot`` is the expert whose playouts stop at the end of the trick in progress and
are judged by the model (``SearchConfig.leaf``); ``BlendedExpertBot`` plays them to the end and
averages the result with the model's figures at the end of that trick. Neither is a level:
specs for benchmarks, ``nil_tui.bots.learned:LearnedExpertBot``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import replace
from importlib import resources
from typing import Any

from ..engine import Deal, PlayerView
from ..engine.scoring import CLASSIC, classic_points
from .expert import EXPERT, ExpertBot
from .heuristic import FULL, SEG
from .search import SearchConfig, rollout

MODEL_FILE = "leaf.json"
FORMAT = "nil-tui-leaf"

# The features of one clean seat, in the order of the model's weights.
FEATURES = (
    "bias",
    "left",  # cards left in each hand / 13
    "second",  # it plays second to the next trick (the leader, who took the last one, is not
    # clean: a clean seat plays second, third or fourth)
    "fourth",  # it plays last to the next trick
    "hunters",  # seats that have taken a trick already (they hunt the clean ones)
    "clean_others",  # other seats still clean
    "voids",  # suits the seat holds none of
    "alone",  # its cards of suits nobody else holds: they win if it leads them
    "boss",  # its cards above every card out in their suit
    "boss_any",  # it holds at least one such card
    "low",  # its cards below every card out in their suit
    "stuck",  # suits in which its lowest card beats every card out
    "over",  # per suit, the share of the cards out below its lowest card (summed)
    "ducks",  # suits in which it holds a card below every card out (safe leads)
    "boss_left",  # boss x left: a boss card early is less of a danger than late
    "stuck_left",
    "over_left",
)
# The per-seat counts of :func:`seat_counts`, by name.
_VOIDS, _ALONE, _BOSS, _LOW, _STUCK, _OVER, _DUCKS = range(7)


def seat_counts(hand: int, out: int) -> tuple[float, ...]:
    """Counts of one hand against ``out``, the cards the other seats still hold (bitmasks):
    (voids, alone, boss, low, stuck, over, ducks) as in ``FEATURES``."""
    voids = alone = boss = low = stuck = ducks = 0
    over = 0.0
    for s in range(4):
        mine = (hand >> (13 * s)) & SEG
        if not mine:
            voids += 1
            continue
        rest = (out >> (13 * s)) & SEG
        if not rest:
            alone += mine.bit_count()
            continue
        lo_m = (mine & -mine).bit_length() - 1
        hi_o = rest.bit_length() - 1
        lo_o = (rest & -rest).bit_length() - 1
        boss += (mine >> (hi_o + 1)).bit_count()
        under = rest & ((1 << lo_m) - 1)
        if under:
            over += under.bit_count() / rest.bit_count()
        else:
            ducks += 1
            low += (mine & ((1 << lo_o) - 1)).bit_count()
        if lo_m > hi_o:
            stuck += 1
    return (voids, alone, boss, low, stuck, over, ducks)


def seat_features(hand: int, out: int, taken: Sequence[int], leader: int, seat: int
                  ) -> list[float] | None:
    """One seat's features (``FEATURES``) if it is still clean, else None, at the end of a trick:
    from its own cards and the cards the others still hold between them (bitmasks), the tricks
    each seat has taken and the seat to lead: what the seat itself knows, nothing of where the
    cards out lie."""
    if taken[seat]:
        return None
    c = seat_counts(hand, out)
    left = hand.bit_count() / 13  # every hand holds as many cards at the end of a trick
    n_clean = (taken[0] == 0) + (taken[1] == 0) + (taken[2] == 0) + (taken[3] == 0)
    place = (seat - leader) & 3
    return [
        1.0, left, float(place == 1), float(place == 3),
        4.0 - n_clean, n_clean - 1.0,
        c[_VOIDS], c[_ALONE], c[_BOSS], float(c[_BOSS] > 0), c[_LOW], c[_STUCK], c[_OVER],
        c[_DUCKS], c[_BOSS] * left, c[_STUCK] * left, c[_OVER] * left,
    ]


def features(hands: Sequence[int], taken: Sequence[int], leader: int
             ) -> list[list[float] | None]:
    """Per seat, its features (:func:`seat_features`), from a position at the end of a trick:
    the cards each seat holds (bitmasks), the tricks each has taken and the seat to lead."""
    live = hands[0] | hands[1] | hands[2] | hands[3]
    return [seat_features(h, live & ~h, taken, leader, s) for s, h in enumerate(hands)]


def view_features(view: PlayerView) -> list[float] | None:
    """The features of the seat of ``view`` (None when it has taken a trick), read from its view
    alone, between two tricks: its hand, the cards not yet played, the tricks taken and the
    leader are all it takes, the same figures as :func:`features` of the full position."""
    if view.trick:
        raise ValueError("the model judges a position between two tricks")
    hand = 0
    for card in view.hand:
        hand |= card.bit
    out = FULL & ~view.played_mask & ~hand
    return seat_features(hand, out, view.taken, view.leader, view.seat)


def clean_chances(weights: Sequence[float], hands: Sequence[int], taken: Sequence[int],
                  leader: int) -> list[float]:
    """Per seat, the model's chance that it ends the deal clean (0 for a seat that is not)."""
    chances = []
    for f in features(hands, taken, leader):
        if f is None:
            chances.append(0.0)
            continue
        z = sum(w * x for w, x in zip(weights, f))
        z = max(-30.0, min(30.0, z))
        chances.append(1.0 / (1.0 + math.exp(-z)))
    return chances


def classic_worth(chances: Sequence[float]) -> tuple[float, float, float, float]:
    """Expected points per seat under the classic scoring (the engine's ``classic_points``),
    each seat ending clean with its chance independently of the others."""
    worth = [0.0, 0.0, 0.0, 0.0]
    for pattern in range(15):  # all four clean cannot happen: someone takes the tricks
        prob = 1.0
        for s in range(4):
            prob *= chances[s] if pattern >> s & 1 else 1.0 - chances[s]
        if prob == 0.0:
            continue
        # a seat outside the pattern took a trick (with three clean, it took every trick)
        points = classic_points([0 if pattern >> s & 1 else 1 for s in range(4)], False)
        for s in range(4):
            worth[s] += points[s] * prob
    return (worth[0], worth[1], worth[2], worth[3])


_model: dict[str, Any] | None = None


def model() -> dict[str, Any]:
    """The shipped model (read once, then kept)."""
    global _model
    if _model is None:
        path = resources.files(__package__).joinpath("data").joinpath(MODEL_FILE)
        text = path.read_text("utf-8")
        data = json.loads(text)
        if data.get("format") != FORMAT or data.get("features") != list(FEATURES):
            raise ValueError(f"{MODEL_FILE}: not a model of these features")
        _model = data
    return _model


def predict_position(hands: Sequence[int], taken: Sequence[int], leader: int,
                     weights: Sequence[float] | None = None
                     ) -> tuple[float, float, float, float]:
    """What the deal will be worth to each seat (classic scoring), from a position at the end
    of a trick (see :func:`features`); ``weights`` default to the shipped model's."""
    if weights is None:
        weights = model()["weights"]
    return classic_worth(clean_chances(weights, hands, taken, leader))


def predict(deal: Deal) -> tuple[float, float, float, float]:
    """What a deal, at the end of a trick with every hand known, will be worth to each seat
    under the classic scoring (the deal's own scoring is not read)."""
    return predict_position([deal.hand_mask(s) for s in range(4)], deal.taken, deal.leader)


def _classic(deal: Deal) -> bool:
    """True when the model knows the deal's scoring (classic, not a tie-break)."""
    return deal.rule.scoring == CLASSIC and not deal.rule.tiebreak


def leaf(deal: Deal) -> Sequence[float]:
    """The search's judge of a position at the end of a trick: the model under the classic
    scoring; under another scoring (the pool, a tie-break) the rules of thumb play it out."""
    if not _classic(deal):
        return rollout(deal)
    return predict(deal)


def blended_leaf(deal: Deal) -> Sequence[float]:
    """The model's figures at the end of a trick averaged with a playout by the rules of thumb
    from there (with the model's ``blend`` weight, fitted with it): the two err apart."""
    if not _classic(deal):
        return rollout(deal)
    w = model()["blend"]
    guess = predict(deal)
    played = rollout(deal)
    return tuple(w * g + (1.0 - w) * p for g, p in zip(guess, played))


# The expert's search, each playout judged by the model at the end of the trick in progress;
# or played to the end and averaged with the model's figures at the end of that trick.
LEARNED_EXPERT = replace(EXPERT, leaf=leaf, leaf_after=0)
BLENDED_EXPERT = replace(EXPERT, leaf=blended_leaf, leaf_after=0)


class LearnedExpertBot(ExpertBot):
    """The expert with the learned judge of positions (for benchmarks; not a level). It
    draws the same layouts as the expert for the same seed and view."""

    name = "Learned expert"
    config: SearchConfig = LEARNED_EXPERT


class BlendedExpertBot(ExpertBot):
    """The expert whose playouts are judged half by the model, half played out (for
    benchmarks; not a level)."""

    name = "Blended expert"
    config: SearchConfig = BLENDED_EXPERT
