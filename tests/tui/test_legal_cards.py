"""The cards you may play, told apart from the others at a glance: by the characters drawn
(without colour, and in ASCII), and by the cursor, which stops only on them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tui_helpers import settle, table

from nil_tui.game.options import PlayOptions
from nil_tui.tui.app import NilApp
from nil_tui.tui.widgets.cards import CARD_WIDTH
from nil_tui.tui.widgets.hand import Hand


async def must_follow(pilot: Any, app: NilApp) -> Hand | None:
    """The hand when it is your turn and you hold cards you may not play, else None."""
    await settle(app, pilot)
    screen = table(app)
    hand = screen.query_one(Hand)
    if not hand.active or not hand.legal or len(hand.legal) == len(hand.cards):
        return None
    return hand


def boxes_on_screen(app: NilApp, hand: Hand) -> list[list[str]]:
    """Each card of the hand as the screen shows it: its column of text, top to bottom, as
    plain characters (no colour, no style)."""
    lines = [strip.text for strip in app.screen._compositor.render_strips()]
    region = hand.region
    rows = lines[region.y:region.y + region.height]
    left = region.x + hand._left()
    return [[row[left + i * CARD_WIDTH:left + (i + 1) * CARD_WIDTH] for row in rows]
            for i in range(len(hand.cards))]


def looks_playable(box: list[str]) -> bool:
    """Read from the characters alone: a card you may play has a whole frame."""
    frame = next(line for line in box if line.strip())  # the top of the frame
    return frame[1:4] in ("───", "═══", "---", "===")


async def test_cards_you_may_not_play_differ_in_characters_with_and_without_ascii(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for ascii_look in (False, True):
        for seed in range(60):
            monkeypatch.setenv("NIL_TUI_HOME", str(tmp_path / f"{ascii_look}-{seed}"))
            options = PlayOptions(deals=1, bots=("easy",) * 3, seed=seed, speed="instant",
                                  ascii=ascii_look)
            app = NilApp("play", options=options)
            async with app.run_test(size=(100, 32)) as pilot:
                hand = await must_follow(pilot, app)
                if hand is None:
                    continue
                boxes = boxes_on_screen(app, hand)
                said = [looks_playable(box) for box in boxes]
                assert said == [card in hand.legal for card in hand.cards], boxes
                if ascii_look:
                    assert all(line.isascii() for box in boxes for line in box)
                break
        else:
            raise AssertionError("no seed gave a hand with cards you may not play")


async def test_the_cursor_stops_only_on_cards_you_may_play(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in range(60):
        monkeypatch.setenv("NIL_TUI_HOME", str(tmp_path / str(seed)))
        app = NilApp("play", options=PlayOptions(deals=1, bots=("easy",) * 3, seed=seed,
                                                 speed="instant"))
        async with app.run_test(size=(100, 32)) as pilot:
            hand = await must_follow(pilot, app)
            if hand is None or len(hand.legal) < 2:
                continue
            legal = [i for i, card in enumerate(hand.cards) if card in hand.legal]
            assert hand.cursor == legal[0]
            seen = []
            for _ in range(len(hand.cards)):
                await pilot.press("right")
                seen.append(hand.cursor)
            assert set(seen) == set(legal)
            assert seen[:len(legal)] == legal[1:] + legal[:1]  # round the end to the first
            hand.cursor = legal[0]
            await pilot.press("left")  # from the first one, round to the last you may play
            assert hand.cursor == legal[-1]
            await pilot.press("home")
            assert hand.cursor == legal[0]
            await pilot.press("end")
            assert hand.cursor == legal[-1]
            return
    raise AssertionError("no seed gave a hand with two cards to play and one not")
