"""Mouse, ASCII suits, the four-colour deck and themes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from tui_helpers import settle, table

from nil_tui.engine import Card
from nil_tui.game.options import PlayOptions
from nil_tui.tui.app import NilApp
from nil_tui.tui.widgets.cards import BLUE, GREEN, RED, CardLook
from nil_tui.tui.widgets.hand import Hand


async def test_clicking_a_legal_card_plays_it(quick_options: PlayOptions) -> None:
    app = NilApp("play", options=quick_options)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        hand = screen.query_one(Hand)
        legal = screen.game.deal.legal_moves()
        target = legal[-1]
        index = hand.cards.index(target)
        x = hand._left() + index * 5 + 2  # the middle of the card's face
        await pilot.click(Hand, offset=(x, 2))
        await settle(app, pilot)
        assert target not in screen.game.deal.hand(0)
        played = [c for t in screen.game.deal.tricks for c in t.cards] + list(
            screen.game.deal.trick)
        assert target in played


async def test_clicking_an_illegal_card_says_why(quick_options: PlayOptions) -> None:
    for seed in range(100):
        app = NilApp("play", options=replace(quick_options, seed=seed))
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(app, pilot)
            screen = table(app)
            hand = screen.query_one(Hand)
            illegal = [c for c in hand.cards if c not in hand.legal]
            if not illegal:
                continue
            x = hand._left() + hand.cards.index(illegal[0]) * 5 + 2
            await pilot.click(Hand, offset=(x, 2))
            await pilot.pause()
            assert illegal[0] in screen.game.deal.hand(0)
            assert "You must follow" in str(screen.query_one("#status").render())
            return
    raise AssertionError("no seed gave an illegal card")


async def test_ascii_suits_on_the_table(quick_options: PlayOptions) -> None:
    app = NilApp("play", options=replace(quick_options, ascii=True))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        drawn = str(table(app).query_one(Hand).render())
        assert not any(glyph in drawn for glyph in "♣♦♥♠")
        assert any(f"{suit}║" in drawn or f"{suit}│" in drawn for suit in "CDHS")


def test_four_colour_deck() -> None:
    two = CardLook()
    four = CardLook(four_color=True)
    clubs, diamonds, hearts = Card.parse("2C"), Card.parse("2D"), Card.parse("2H")
    assert two.colour(diamonds.suit) == two.colour(hearts.suit) == RED
    assert four.colour(clubs.suit) == GREEN
    assert four.colour(diamonds.suit) == BLUE
    assert four.colour(hearts.suit) == RED
    assert CardLook(ascii=True).face(Card.parse("TS")) == "10S"


async def test_theme_option(quick_options: PlayOptions) -> None:
    app = NilApp("play", options=replace(quick_options, theme="nord"))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        assert app.theme == "nord"


async def test_hint_moves_the_cursor_to_a_legal_card(quick_options: PlayOptions) -> None:
    app = NilApp("play", options=quick_options)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        screen = table(app)
        before = screen.game.to_record()["deals"]
        await pilot.press("h", "y")  # (y: the question before a game's first help)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "Hint:" in str(screen.query_one("#status").render())
        hand = screen.query_one(Hand)
        assert hand.current in screen.game.deal.legal_moves()
        assert screen.game.to_record()["deals"] == before  # a hint plays nothing


async def test_losers_crawl_under_the_table_animated() -> None:
    import random
    from pathlib import Path

    from nil_tui.engine import Game
    from nil_tui.tui.screens.gameover import GameOverScreen, UnderTable

    rng = random.Random(1)
    game = Game(1, seed=1)
    while not game.is_over:
        game.play(rng.choice(game.deal.legal_moves()))
    options = PlayOptions(deals=1, bots=("easy",) * 3, speed="fast")
    app = NilApp("setup", options=options)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(GameOverScreen(game, options, Path("game.json")))
        await pilot.pause()
        art = app.screen.query_one(UnderTable)
        assert art.step < art.steps
        for _ in range(100):  # 12 steps of 0.12 s; a busy machine may take longer
            if art.step == art.steps:
                break
            await pilot.pause(0.1)
        assert art.step == art.steps
        drawn = str(art.render())
        for seat in game.losers:
            assert ("You", "West", "North", "East")[seat] in drawn


async def test_with_ascii_suits_the_footer_keys_are_ascii_too() -> None:
    from textual.binding import Binding

    from nil_tui.game.options import PlayOptions
    from nil_tui.tui.app import NilApp

    plain = NilApp("play", options=PlayOptions(seed=3, speed="instant"))
    ascii = NilApp("play", options=PlayOptions(seed=3, speed="instant", ascii=True))
    enter = Binding("enter", "close", "Back")
    assert not plain.get_key_display(enter).isascii()  # the return symbol
    assert ascii.get_key_display(enter) == "enter"
    async with ascii.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert ascii.has_class("-ascii")


async def test_the_hand_is_drawn_again_when_it_or_the_terminal_changes(
        quick_options: PlayOptions) -> None:
    """The hand's lines are kept between frames: a move of the cursor and a wider terminal
    each draw them again (centred for the new width)."""
    app = NilApp("play", options=replace(quick_options, auto_play=False))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        hand = table(app).query_one(Hand)

        def top_line() -> str:
            return hand.render_line(0).text

        before = top_line()
        assert before.index("╔") == hand._left() + hand.cursor * 5  # the raised card
        hand.cursor = (hand.cursor + 1) % len(hand.cards)
        await pilot.pause()
        assert top_line() != before
        assert top_line().index("╔") == hand._left() + hand.cursor * 5
        left = hand._left()
        await pilot.resize_terminal(120, 32)
        await settle(app, pilot)
        assert hand._left() == left + 10
        assert top_line().index("╔") == hand._left() + hand.cursor * 5
        assert len(top_line()) == hand.size.width


async def test_the_cursor_wraps_round_the_hand_and_home_end_go_to_its_ends(
        quick_options: PlayOptions) -> None:
    app = NilApp("play", options=quick_options)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        hand = table(app).query_one(Hand)
        stops = hand.stops()  # the cards you may play: the cursor stops only there
        first, last = stops[0], stops[-1]
        cards = len(hand.cards)
        hand.cursor = first
        await pilot.press("left")
        assert hand.cursor == last  # round from the first card to the last
        await pilot.press("right")
        assert hand.cursor == first  # and back
        await pilot.press("end")
        assert hand.cursor == last
        await pilot.press("home")
        assert hand.cursor == first
        await pilot.press("d", "end", "a", "home")
        assert hand.cursor == first
        assert len(hand.cards) == cards  # nothing was played


def screen_words(app: NilApp, region: object) -> str:
    rows = app.screen._compositor.render_strips()
    r = region  # a Region
    return " ".join(rows[y].text[r.x:r.right] for y in range(r.y, r.bottom)).split()  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", [(100, 32), (80, 24)], ids=["100x32", "80x24"])
async def test_a_hints_reason_is_on_the_status_line_at_100_columns(
        quick_options: PlayOptions, size: tuple[int, int], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At 100 columns the whole hint, reason too, is on screen (two rows if need be); at
    80x24, where no row is spare, the status line says the reason is in the log."""
    long_seen = False
    kinds: set[str] = set()  # hints seen: one row at 80 (short), one at 100 (mid), two (long)
    for seed in range(8):
        if kinds == {"short", "mid", "long"}:
            break  # every case checked
        (tmp_path / str(seed)).mkdir()
        monkeypatch.setenv("NIL_TUI_HOME", str(tmp_path / str(seed)))  # no saved game
        app = NilApp("play", options=replace(quick_options, seed=seed))
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            screen = table(app)
            await pilot.press("h", "y")  # (y: the question before a game's first help)
            await app.workers.wait_for_complete()
            await pilot.pause()
            status = screen.query_one("#status")
            said = str(status.render())
            hint = [line for line in screen.query_one("#log").history if line.startswith("Hint")]
            assert hint, "the log keeps the hint"
            if "Hint:" not in said:
                continue  # your only card, played for you at once
            shown = screen_words(app, status.region)
            if size == (100, 32):
                assert "why: in the log" not in said
                assert shown == hint[-1].split(), (shown, hint[-1])
            elif len(hint[-1]) > 77:
                assert "(why: in the log)" in " ".join(shown)
            long_seen |= len(hint[-1]) > 98
            kinds.add("long" if len(hint[-1]) > 98 else "mid" if len(hint[-1]) > 77
                      else "short")
    assert long_seen, "no hint needed two rows"


async def test_a_hints_reason_is_shown_when_the_card_tracker_leaves_the_log_a_row(
        quick_options: PlayOptions, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 80x24 with the card tracker open the log is a row or two high: the reason, too long
    for the status line, is in a note of its own, never only in a log that cannot show it."""
    from nil_tui.tui.widgets.gamelog import GameLog

    for seed in range(12):
        (tmp_path / str(seed)).mkdir()
        monkeypatch.setenv("NIL_TUI_HOME", str(tmp_path / str(seed)))
        app = NilApp("play", options=replace(quick_options, seed=seed))
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await settle(app, pilot)
            screen = table(app)
            await pilot.press("c", "h", "y")  # the tracker, a hint (y: the first asks)
            await app.workers.wait_for_complete()
            await pilot.pause()
            said = str(screen.query_one("#status").render())
            hint = [line for line in screen.query_one(GameLog).history
                    if line.startswith("Hint")]
            if "Hint:" not in said or "(why:" not in said:
                continue  # played for you, or short enough for the status line
            assert screen.query_one(GameLog).scrollable_content_region.height < 3
            assert "why: in the log" not in said
            reason = hint[-1].partition(" (")[2].removesuffix(")")
            notes = [str(n.message) for n in app._notifications]
            assert reason in notes, (reason, notes)
            words = " ".join(strip.text for strip in app.screen._compositor.render_strips())
            assert reason.split()[0] in words  # on screen now
            return
    raise AssertionError("no hint too long for the status line")
