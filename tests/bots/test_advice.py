"""Every reason a hint gives is true: over 3,000 positions reached by random legal play, the
claim made for each legal card is checked, fact by fact, by a checker written here apart from
the code that makes the claims. The checker reads the position through the engine's rules
(legal cards, trick winner) and card masks; the claims' words are checked to say nothing that
their facts do not hold."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import fields, replace
from typing import Any

import pytest

from nil_tui.bots import advise
from nil_tui.bots.advice import (
    Discard,
    Duck,
    Lead,
    OnlyCard,
    Overtake,
    Reason,
    Sweep,
    explain,
)
from nil_tui.bots.hint_words import words
from nil_tui.engine import (
    DECK,
    Card,
    Deal,
    PlayerView,
    Trick,
    cards_of,
    legal_mask_of,
    mask_of,
    trick_winner,
)
from nil_tui.engine.cards import SUIT_CODES, SUIT_MASKS, SUIT_SYMBOLS

POSITIONS = 3_000


def strong_deal(rng: random.Random) -> Deal:
    """A deal in which one seat holds most of the high cards (ranks drawn with a tilt), so
    positions where a player can take every trick left come up often enough to check."""
    deck = sorted(DECK, key=lambda c: c.rank + rng.uniform(0, 6), reverse=True)
    strong = rng.randrange(4)
    hands: list[list[Card]] = [[], [], [], []]
    hands[strong] = deck[:13]
    rest = deck[13:]
    rng.shuffle(rest)
    others = [s for s in range(4) if s != strong]
    for k, seat in enumerate(others):
        hands[seat] = rest[13 * k:13 * k + 13]
    return Deal.from_hands(hands, dealer=rng.randrange(4))


def positions(count: int, seed: int) -> Iterator[PlayerView]:
    """``count`` views of the seat to move, from deals played by random legal cards (one deal
    in four a strong hand against three weak ones)."""
    rng = random.Random(seed)
    made = 0
    deals = 0
    while True:
        deals += 1
        deal = strong_deal(rng) if deals % 4 == 0 else Deal.new(rng.randrange(4), rng)
        while not deal.is_over and deal.to_move is not None:
            yield deal.view(deal.to_move)
            made += 1
            if made == count:
                return
            deal.play(rng.choice(deal.legal_moves()))


# --- the checker: the facts of each kind of claim, read from the position ------------------

def suit_mask(card: Card) -> int:
    return int(SUIT_MASKS[card.suit])


def below(card: Card) -> int:
    """The cards of the card's suit lower than it, as a mask."""
    return suit_mask(card) & (card.bit - 1)


def above(card: Card) -> int:
    return suit_mask(card) & ~(card.bit | (card.bit - 1))


def best_out(view: PlayerView, card: Card) -> Card | None:
    """The highest card of the card's suit in the other hands."""
    out = cards_of(view.unseen_mask & suit_mask(card))
    return out[-1] if out else None


def takes(view: PlayerView, card: Card) -> bool:
    """The card takes the trick even if the next player to follow has the highest card of
    the suit that is out (the worst the others can do)."""
    cards = (*view.trick, card)
    if len(cards) < 4:
        worst = best_out(view, cards[0])
        if worst is not None:
            cards = (*cards, worst)
    return trick_winner(view.leader, cards) == view.seat


def legal_of(view: PlayerView) -> list[Card]:
    led = view.trick[0].suit if view.trick else None
    return cards_of(legal_mask_of(view.hand_mask, led))


def clean_others(view: PlayerView) -> tuple[int, ...]:
    return tuple(s for s in (0, 1, 2, 3) if s != view.seat and view.taken[s] == 0)


def check_only(view: PlayerView, r: OnlyCard) -> None:
    assert legal_mask_of(view.hand_mask, view.trick[0].suit if view.trick else None) == r.card.bit


def check_sweep(view: PlayerView, r: Sweep) -> None:
    rule = view.rule
    assert r.pool == (rule.pool if rule.is_pool else None)
    assert r.perfect == (rule.is_pool and rule.first)
    assert view.taken[view.seat] > 0
    assert len(clean_others(view)) == 3
    assert takes(view, r.card)
    for mine in view.hand:
        if mine != r.card:
            worst = best_out(view, mine)
            assert worst is None or trick_winner(view.seat, (mine, worst)) == view.seat


def check_discard(view: PlayerView, r: Discard) -> None:
    led = view.trick[0].suit
    assert r.led == led and r.card.suit != led
    assert view.hand_mask & SUIT_MASKS[led] == 0
    winner = trick_winner(view.leader, view.trick)
    assert trick_winner(view.leader, (*view.trick, r.card)) == r.winner == winner
    assert r.clean == (view.taken[view.seat] == 0)
    assert r.winner_clean == (view.taken[winner] == 0)
    assert r.last == (len(view.trick) == 3)
    assert r.highest_of_suit == (view.hand_mask & above(r.card) == 0)
    assert r.highest_rank == (max(c.rank for c in view.hand) == r.card.rank
                              and sum(c.rank == r.card.rank for c in view.hand) == 1)


def check_duck(view: PlayerView, r: Duck) -> None:
    winner = trick_winner(view.leader, view.trick)
    assert r.winner == winner and r.top == view.trick[(winner - view.leader) % 4]
    assert r.card.suit == view.trick[0].suit
    assert trick_winner(view.leader, (*view.trick, r.card)) == winner
    assert r.clean == (view.taken[view.seat] == 0)
    assert r.winner_clean == (view.taken[winner] == 0)
    assert r.last == (len(view.trick) == 3)
    ducks = [c for c in legal_of(view)
             if trick_winner(view.leader, (*view.trick, c)) != view.seat]
    assert r.highest_under == (r.card == max(ducks))
    assert r.higher_kept == (view.hand_mask & above(r.card)).bit_count()


def check_overtake(view: PlayerView, r: Overtake) -> None:
    winner = trick_winner(view.leader, view.trick)
    assert r.winner == winner and r.top == view.trick[(winner - view.leader) % 4]
    assert trick_winner(view.leader, (*view.trick, r.card)) == view.seat
    legal = legal_of(view)
    assert r.forced == all(trick_winner(view.leader, (*view.trick, c)) == view.seat
                           for c in legal)
    assert r.sure == takes(view, r.card)
    assert r.all_sure == all(takes(view, c) for c in legal)
    assert r.later == 3 - len(view.trick)
    assert r.clean == (view.taken[view.seat] == 0)
    assert r.lowest == (view.hand_mask & below(r.card) == 0)
    assert r.highest == (view.hand_mask & above(r.card) == 0)
    assert r.lower_kept == (view.hand_mask & below(r.card)).bit_count()
    assert r.hunted == (() if r.clean else clean_others(view))


def check_lead(view: PlayerView, r: Lead) -> None:
    assert not view.trick
    out = view.unseen_mask
    assert r.lower == (out & below(r.card)).bit_count()
    assert r.higher == (out & above(r.card)).bit_count()
    legal = legal_of(view)
    assert r.all_sure == all(takes(view, c) for c in legal)
    assert r.fewest_lower == all(r.lower <= (out & below(c)).bit_count() for c in legal)
    assert r.clean == (view.taken[view.seat] == 0)
    assert r.hunted == (() if r.clean else tuple(
        s for s in clean_others(view) if not shown_out(view, s, r.card.suit)))


KINDS = (OnlyCard, Sweep, Discard, Duck, Overtake, Lead)


def check(view: PlayerView, card: Card, reason: Reason) -> None:
    """Every fact of the claim holds in this position (an AssertionError says which not)."""
    assert reason.card == card and card.bit & legal_mask_of(
        view.hand_mask, view.trick[0].suit if view.trick else None)
    if isinstance(reason, OnlyCard):
        check_only(view, reason)
        return
    assert len(legal_of(view)) > 1
    if isinstance(reason, Sweep):
        check_sweep(view, reason)
    elif isinstance(reason, Discard):
        check_discard(view, reason)
    elif isinstance(reason, Duck):
        check_duck(view, reason)
    elif isinstance(reason, Overtake):
        check_overtake(view, reason)
    else:
        check_lead(view, reason)


# --- the words say only what the facts hold ---------------------------------------------------

def said_facts(reason: Reason, text: str) -> None:
    """Each strong phrase appears only when the claim holds the fact it states."""
    r = reason
    if "must take this trick" in text:
        assert isinstance(r, Overtake) and r.forced and r.all_sure
    if "cannot duck" in text:
        assert isinstance(r, Overtake) and r.forced
    if "likeliest to be beaten" in text:
        assert isinstance(r, Overtake) and r.lowest and r.later > 0 and not r.sure
    if "take every trick" in text or "highest left" in text:
        assert isinstance(r, Sweep)
    if "takes the trick" in text:
        assert isinstance(r, (Discard, Duck)) and r.last
    if "Take this trick" in text:
        assert isinstance(r, Overtake) and r.sure
    if "you keep the lead" in text or "so it wins this trick" in text:
        assert isinstance(r, Lead) and r.higher == 0
    if "no lower" in text:
        assert isinstance(r, Lead) and r.lower == 0
    if "still clean" in text:
        assert not isinstance(r, (OnlyCard, Sweep))
    if "you are still clean" in text:
        assert isinstance(r, Duck) and r.clean
    if "highest card" in text:
        assert isinstance(r, Discard) and r.highest_rank
    if "your lowest" in text:
        assert isinstance(r, Overtake) and r.lowest


# --- the words checked against the position itself, not against the claim's record ---------

SEAT_WORDS = ("South", "West", "North", "East")
SUIT_WORDS = ("club", "diamond", "heart", "spade")
NAMES = r"(?:South|West|North|East)(?:(?:, | and )(?:South|West|North|East))*"


def named(text: str) -> list[int]:
    return [SEAT_WORDS.index(w) for w in re.findall(r"South|West|North|East", text)]


def shown_out(view: PlayerView, seat: int, suit: int) -> bool:
    """The seat failed to follow the suit at some trick of this deal (read from the plays)."""
    done = [(t.leader, t.cards) for t in view.tricks] + [(view.leader, view.trick)]
    for leader, cards in done:
        for k, c in enumerate(cards):
            if k and (leader + k) % 4 == seat and c.suit != cards[0].suit == suit:
                return True
    return False


def out_count(view: PlayerView, card: Card, mask: int) -> int:
    return (view.unseen_mask & mask).bit_count()


def said_true(view: PlayerView, card: Card, text: str) -> list[str]:
    """What the sentence says that the position does not hold (empty when every phrase is
    true). Each phrase is read from the words and checked on the cards, so a claim whose
    record is right but whose words say more is caught too."""
    wrong: list[str] = []
    me = view.seat
    clean = [view.taken[s] == 0 for s in range(4)]
    leading = not view.trick
    for m in re.finditer(rf"hunt ({NAMES})", text):
        for seat in named(m.group(1)):
            if seat == me or not clean[seat]:
                wrong.append(f"hunts {SEAT_WORDS[seat]}, who is not a clean opponent")
            if leading and shown_out(view, seat, card.suit):
                wrong.append(f"hunts {SEAT_WORDS[seat]} with a {SUIT_WORDS[card.suit]} lead, "
                             "but they have shown out of the suit")
    if "you are still clean" in text and not clean[me]:
        wrong.append("says you are clean")
    m = re.search(r"(\d+|no) lower (\w+?)s? (?:is|are) out against (\d+) higher", text)
    if m:
        lower = 0 if m.group(1) == "no" else int(m.group(1))
        if (lower != out_count(view, card, below(card))
                or int(m.group(3)) != out_count(view, card, above(card))):
            wrong.append("counts the cards out wrongly")
    if re.search(r"no higher \w+ are out", text) and out_count(view, card, above(card)):
        wrong.append("says no higher card is out")
    if re.search(r"no lower \w+ are out", text) and out_count(view, card, below(card)):
        wrong.append("says no lower card is out")
    m = re.search(r"You have no (\w+?)s\b", text)
    if m and any(c.suit == SUIT_WORDS.index(m.group(1)) for c in view.hand):
        wrong.append("says you have none of a suit you hold")
    m = re.search(rf"({NAMES})(, still clean,)? (takes the trick|is winning the trick)", text)
    if m:
        seat = named(m.group(1))[0]
        if view.trick and trick_winner(view.leader, view.trick) != seat:
            wrong.append("names the wrong winner")
        if m.group(2) and not clean[seat]:
            wrong.append("calls the winner clean")
        if m.group(3) == "takes the trick" and len(view.trick) != 3:
            wrong.append("says the trick is decided")
    for m in re.finditer(r"(South|West|North|East)'s (\w+?)(?=[ :.,])", text):
        seat = SEAT_WORDS.index(m.group(1))
        if not view.trick or trick_winner(view.leader, view.trick) != seat:
            wrong.append(f"calls {m.group(0)} the card winning the trick")
    if "your highest card" in text and any(c.rank >= card.rank for c in view.hand if c != card):
        wrong.append("says your highest card")
    if "whatever you lead wins" in text.lower() and not all(takes(view, c) for c in view.legal):
        wrong.append("says every lead wins")
    if "you take every trick from here" in text:
        try:
            check_sweep(view, Sweep(card))
        except AssertionError:
            wrong.append("claims a sweep")
    return wrong


def test_the_words_checker_catches_a_hunt_of_a_player_void_in_the_led_suit() -> None:
    # East showed out of hearts on the first trick; South leads a heart with East still clean.
    view = view_of("6H 9C KS", taken=(1, 1, 0, 0),
                   played="2H 3H 4H 5C 7H 8H 9H TH")
    # the first trick (led by South) had East (seat 3) play 5C; the second was all hearts
    assert shown_out(view, 3, 0 + 2)
    text = "Lead 6♥ to hunt North and East (still clean): 1 lower heart is out against 1 higher"
    assert any("shown out" in w for w in said_true(view, Card.parse("6H"), text))
    # the hint itself never names East as hunted by a heart lead
    said = words(explain(view, Card.parse("6H")))
    assert "East" not in said and said_true(view, Card.parse("6H"), said) == []


def test_hints_name_no_void_player_as_hunted_over_2000_positions() -> None:
    """Every legal card's hint read as words, against the position: nothing untrue."""
    wrong = []
    for view in positions(2000, seed=19):
        for card in view.legal:
            text = words(explain(view, card))
            wrong += [(text, w) for w in said_true(view, card, text)]
    assert wrong == [], wrong[:5]


def test_every_claim_for_every_legal_card_holds_over_3000_positions() -> None:
    kinds: dict[str, int] = {}
    n = 0
    for view in positions(POSITIONS, seed=12):
        n += 1
        for card in view.legal:
            reason = explain(view, card)
            check(view, card, reason)
            kinds[type(reason).__name__] = kinds.get(type(reason).__name__, 0) + 1
            text = words(reason)
            plain = words(reason, ascii=True)
            assert plain == text.translate(str.maketrans(SUIT_SYMBOLS, SUIT_CODES)), plain
            assert not any(s in plain for s in SUIT_SYMBOLS), plain
            said_facts(reason, text)
            assert said_true(view, card, text) == [], (text, said_true(view, card, text))
    assert n == POSITIONS
    # every kind of claim was met, each many times
    assert set(kinds) == {k.__name__ for k in KINDS}, kinds
    assert min(kinds.values()) >= 100, kinds


def test_the_checker_can_fail() -> None:
    """A claim with one fact changed is refused: every fact of every kind, 20 times each."""
    facts = {(k.__name__, f.name) for k in KINDS for f in fields(k) if f.name != "card"}
    facts |= {("OnlyCard", "kind"), ("Sweep", "kind")}
    refused: dict[tuple[str, str], int] = {}
    for view in positions(3000, seed=5):
        if all(refused.get(fact, 0) >= 20 for fact in facts):
            break  # every fact refused 20 times: the positions left would check nothing
        for card in view.legal:
            reason = explain(view, card)
            for f in fields(reason):
                key = (type(reason).__name__, f.name)
                value = getattr(reason, f.name)
                if refused.get(key, 0) >= 20 or f.name == "card":
                    continue
                change: dict[str, Any] = {}
                if isinstance(value, bool):
                    change[f.name] = not value
                elif isinstance(value, Card):
                    change[f.name] = DECK[(value + 1) % 52]
                elif isinstance(value, int):
                    change[f.name] = (value + 1) % 4
                else:  # the seats still clean
                    change[f.name] = value[1:] if value else (view.seat,)
                wrong = replace(reason, **change)
                with pytest.raises(AssertionError):
                    check(view, card, wrong)
                refused[key] = refused.get(key, 0) + 1
            for kind in (OnlyCard, Sweep):
                key = (kind.__name__, "kind")
                if not isinstance(reason, kind) and refused.get(key, 0) < 20:
                    with pytest.raises(AssertionError):
                        check(view, card, kind(card))
                    refused[key] = refused.get(key, 0) + 1
    assert {k for k, n in refused.items() if n == 20} == facts, refused


# --- the positions the old hints got wrong ----------------------------------------------------

def view_of(hand: str, trick: str = "", leader: int = 0, taken: tuple[int, ...] = (0, 0, 0, 0),
            played: str = "") -> PlayerView:
    """South's view: ``hand`` and ``trick`` as card codes, ``played`` the cards of the tricks
    before (only which cards are gone matters to a reason)."""
    cards = tuple(Card.parse(c) for c in hand.split())
    now = tuple(Card.parse(c) for c in trick.split())
    gone = [Card.parse(c) for c in played.split()]
    tricks = tuple(Trick(0, tuple(gone[i:i + 4]), 0) for i in range(0, len(gone), 4))
    led = now[0].suit if now else None
    legal = tuple(cards_of(legal_mask_of(mask_of(cards), led)))
    return PlayerView(seat=0, hand=tuple(sorted(cards)), legal=legal, trick=now, leader=leader,
                      tricks=tricks, taken=(taken[0], taken[1], taken[2], taken[3]),
                      hand_sizes=(len(cards),) * 4, dealer=3, to_move=0)


def test_a_card_over_the_trick_is_not_called_forced_when_a_lower_card_ducks() -> None:
    view = view_of("5D JD AD 2C", "4D TD 2D", leader=1)
    reason = explain(view, Card.parse("AD"))
    check(view, Card.parse("AD"), reason)
    text = words(reason)
    assert "must" not in text and "cannot duck" not in text
    assert text == "Go over North's 10♦ with A♦ and keep your lower diamonds for later."


def test_only_the_lowest_card_is_the_likeliest_to_be_beaten() -> None:
    view = view_of("8H JH QH 2C", "4H 6H", leader=2)
    jack = explain(view, Card.parse("JH"))
    check(view, Card.parse("JH"), jack)
    assert words(jack) == "You cannot duck: every heart you hold beats East's 6♥."
    eight = explain(view, Card.parse("8H"))
    assert words(eight) == ("You cannot duck East's 6♥: 8♥, your lowest heart, is the "
                            "likeliest to be beaten by a player after you.")


def test_a_lead_that_wins_its_trick_does_not_claim_to_force_anyone() -> None:
    view = view_of("KD 5C 9S", taken=(1, 1, 0, 1), played="AD 2D 3D 4D 2S 3S 4S 5S 6H 7H 8H 9H")
    reason = explain(view, Card.parse("KD"))
    check(view, Card.parse("KD"), reason)
    assert words(reason) == ("Lead K♦: no higher diamonds are out, so you keep the lead, to "
                             "hunt North, still clean.")
    assert "force" not in words(reason)


def test_hint_words_agree_in_number_and_use_the_look() -> None:
    lead2 = view_of("2H 9H KS", played="3H 4H 5H 6C")
    assert words(explain(lead2, Card.parse("2H"))) == (
        "Lead 2♥: no lower hearts are out, so whoever follows suit must go over it.")
    lead9 = view_of("2H 9H KS", played="3H 4H 5H 6H 2C 3C 4C 7H")
    assert words(explain(lead9, Card.parse("9H")), ascii=True) == (
        "Lead 9H: 1 lower heart is out against 5 higher.")
    last = view_of("2C 3C KH", "AD 4D 5D", leader=1)
    assert words(explain(last, Card.parse("KH")), ascii=True) == (
        "You have no diamonds, so this trick cannot be yours: throw away KH, your highest "
        "card.")
    # A forced card is said in the look too.
    only = view_of("TD 2C", "4D", leader=3)
    assert words(explain(only, Card.parse("TD")), ascii=True) == "10D is your only legal card."


# --- advise end to end: the expert's card and a true reason in the player's look -----------

# The hints for the seeded positions below: the card is the search's (a work budget, so the
# same position always gets the same card), the reason is the claim for it in words.
ADVICE = [
    ("4S", "Play 4♠ under North's A♠ and keep your higher spades for later."),
    ("5H", ("Lead 5♥ to hunt South, North and East (still clean): 3 lower hearts are out "
            "against 9 higher.")),
    ("6D", "Duck under North's J♦ with your highest diamond below it: you are still clean."),
    ("JS", ("You have no hearts, so this trick cannot be yours: throw away J♠, your highest "
            "spade.")),
    ("7H", ("Lead 7♥ to hunt South and East (still clean): 3 lower hearts are out against 4 "
            "higher.")),
    ("AS", ("You have no diamonds: East, still clean, takes the trick, so get rid of A♠, your "
            "highest card.")),
    ("2H", ("Lead 2♥ to hunt South, North and East (still clean): no lower hearts are out, so "
            "whoever follows suit must go over it.")),
    ("6C", "Duck under East's 7♣ with your highest club below it: you are still clean."),
]


def test_advice_is_the_experts_legal_card_with_a_true_reason() -> None:
    rng = random.Random(6)
    advice = []
    for _ in range(8):
        deal = Deal.new(0, rng)
        for _ in range(rng.randrange(20)):
            if deal.is_over:
                break
            deal.play(rng.choice(deal.legal_moves()))
        if deal.to_move is None:
            continue
        view = deal.view(deal.to_move)
        card, reason = advise(view)
        assert card in view.legal
        check(view, card, explain(view, card))
        assert reason == words(explain(view, card))
        plain_card, plain = advise(view, ascii=True)
        assert plain_card == card and plain == words(explain(view, card), ascii=True)
        advice.append((str(card), reason))
    assert advice == ADVICE
    with pytest.raises(ValueError, match="not this seat's turn"):
        advise(deal.view((deal.to_move or 0) + 1 & 3) if not deal.is_over else deal.view(0))


def test_a_sweep_is_claimed_only_when_every_trick_left_is_yours() -> None:
    # South has a trick, the others none, and plays last to a spade trick; the king of
    # spades is still out.
    view = view_of("AS QS KH AC", "2S 3S 4S", leader=1, taken=(1, 0, 0, 0),
                   played="AH AD KD QD")
    assert words(explain(view, Card.parse("QS")), ascii=True) == (
        "Play QS: it takes this trick and every card you keep is the highest left of its "
        "suit, so you take every trick from here and score 3.")
    # after the ace the queen is left, and the king out beats it: no sweep
    assert not isinstance(explain(view, Card.parse("AS")), Sweep)
