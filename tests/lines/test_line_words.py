"""The words of plain lines: one parser for every way of typing a card, and the same
sentences as the table's log (one place says them both)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nil_tui.engine import DECK, Card, Game
from nil_tui.lines.cards import CardWords, choose, parse_card
from nil_tui.session import words
from nil_tui.session.messages import BotFailed, DealOver, Played, TakenBack, TrickTaken
from nil_tui.tui.screens.table_words import cut_line, news_line
from nil_tui.tui.widgets.cards import CardLook

cards = st.sampled_from(DECK)


@given(cards, st.sampled_from(["words", "codes", "symbols"]), st.booleans())
def test_a_card_said_any_way_is_read_back(card: Card, style: str, upper: bool) -> None:
    said = CardWords(style).card(card)
    typed = said.upper() if upper else said
    assert parse_card(typed) == card
    assert parse_card(f"  {typed}  ") == card


@given(cards)
def test_every_spelling_of_a_card(card: Card) -> None:
    rank, suit = card.name.split(" of ")
    code = card.pretty(ascii=True)
    for typed in (code, code.lower(), str(card), f"{rank} {suit}", f"{suit} {rank}",
                  f"the {rank} of {suit.removesuffix('s')}", f"{rank_letter(card)} of {suit}"):
        assert parse_card(typed) == card, typed


def rank_letter(card: Card) -> str:
    return card.rank_label.lower()


@pytest.mark.parametrize("typed", ["", "hand", "queen", "hearts", "11h", "1h", "queen of",
                                   "queen of queens", "QQ", "Q H S", "1S", "0C"])
def test_what_is_not_a_card(typed: str) -> None:
    assert parse_card(typed) is None


def test_a_number_chooses_from_what_may_be_played() -> None:
    hand = tuple(Card.parse(c) for c in ("2C", "5C", "QH", "AS"))
    legal = hand[:2]
    assert choose("2", hand, legal) == (Card.parse("5C"), "")
    assert choose("3", hand, legal) == (None, "There is no card 3: you may play 1 to 2.")
    assert choose("1", hand, ()) == (None, "It is not your turn to play.")
    assert choose("KD", hand, legal) == (None, "The king of diamonds is not in your hand.")
    assert choose("QH", hand, legal) == (Card.parse("QH"), "")  # illegal: the game says why
    assert choose("score", hand, legal) is None


def test_cards_by_suit() -> None:
    hand = [Card.parse(c) for c in ("2C", "TC", "QH", "AS", "3S")]
    assert CardWords().by_suit(hand) == ("clubs: 2, 10; diamonds: none; hearts: queen; "
                                         "spades: 3, ace")
    assert CardWords("codes").by_suit(hand) == ("clubs: 2, 10; diamonds: none; hearts: Q; "
                                                "spades: 3, A")


def test_the_log_and_the_lines_say_the_same_sentences() -> None:
    """Each piece of news: the table's log line is the shared sentence, its cards drawn as
    faces (ASCII here) where the lines say them in words."""
    game = Game(1, seed=4)
    deal = game.deal
    trick_cards = []
    for _ in range(4):
        card = deal.legal_moves()[0]
        trick_cards.append(card)
        deal.play(card)
    trick = deal.tricks[0]
    news = [Played(1, trick_cards[0], False), Played(0, trick_cards[1], True),
            TrickTaken(trick, True), TakenBack(deal.plays[:2]),
            DealOver(1, (0, 2, 5, 6), (10, -2, -5, -6), False, (10, -2, -5, -6), None),
            BotFailed(2, trick_cards[2], "the bot failed (it took too long)")]
    look = CardLook(ascii=True)
    for item in news:
        sentence = words.news(item)
        assert sentence is not None
        logged = news_line(item, look)
        assert logged is not None
        assert logged.plain.removeprefix("⚠ ") == sentence.text(look.face), item
        spoken = sentence.text(CardWords().card)
        assert not any(ch in spoken for ch in "♠♥♦♣⚠"), spoken
    assert game.cut is not None
    assert cut_line(game.cut, look).plain == words.cut(game.cut).text(look.face)


def test_cards_in_a_hint_are_said_as_the_others() -> None:
    reason = "lead the 2C: the 10H and AS are still out"
    assert CardWords().in_text(reason) == ("lead the 2 of clubs: the 10 of hearts and ace of "
                                           "spades are still out")
    assert CardWords("codes").in_text(reason) == reason


def test_the_line_front_end_loads_no_textual_and_no_rich() -> None:
    """Plain lines start without the full screen's libraries (a quick start, and nothing of
    them can draw)."""
    import os
    import subprocess
    import sys
    import tempfile

    code = ("import sys; from nil_tui.commands.cli import main; "
            "main(['play', '--text', '--deals', '1', '--speed', 'instant', '--seed', '1']); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')))")
    with tempfile.TemporaryDirectory() as home:
        done = subprocess.run([sys.executable, "-c", code], input="1\nquit\n",
                              capture_output=True, text=True, check=True, timeout=60,
                              env=dict(os.environ, NIL_TUI_HOME=home))
    assert done.stdout.splitlines()[-1] == "[]"
