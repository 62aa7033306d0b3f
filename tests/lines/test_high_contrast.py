"""The high-contrast theme: accepted by the command line, and the table drawn in it white and
yellow on black."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from nil_tui.commands.cli import build_parser
from nil_tui.game.options import PlayOptions
from nil_tui.tui.app import NilApp


def test_the_command_line_knows_the_theme() -> None:
    args = build_parser(only="play").parse_args(["play", "--theme", "high-contrast"])
    assert args.theme == "high-contrast"


def test_the_table_in_high_contrast(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NIL_TUI_HOME", str(tmp_path))
    app = NilApp("play", PlayOptions(deals=1, seed=2, speed="instant", theme="high-contrast",
                                     bots=("easy", "easy", "easy")))

    async def main() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            assert app.theme == "high-contrast"
            variables = app.theme_variables
            assert variables["background"].lower() == "#000000"
            assert variables["foreground"].lower() == "#ffffff"
            screen = app.screen
            assert screen.styles.background.hex.upper() == "#000000"

    asyncio.run(main())
