"""Rules and keys (``?`` or F1), from the same text as ``nil-tui rules``."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from ...util.paths import asset_text
from .base import NilScreen

# One row each at 80 columns: the keys fit a 24-row screen with room to say the rules follow.
KEYS = (
    ("← → (or a d)", "move the cursor over the cards you may play"),
    ("Enter or Space", "play the card under the cursor (or click a card)"),
    ("s", "scoreboard: every deal so far, standings"),
    ("t", "show the last completed trick"),
    ("h", "a hint for your turn (the game then counts as assisted)"),
    ("u", "undo: take back your last card (assisted)"),
    ("c", "card tracker: cards still out, who has shown out of what"),
    ("m", "meter: your chance to stay clean (assisted)"),
    ("a", "analysis of your plays (in a review: e this deal, E all)"),
    ("g", "at game over: each player's running total, deal by deal"),
    ("", "a daily challenge has no hints, undo or meter"),
    ("? or F1", "these keys, and the rules below them"),
    ("q or ctrl+q", "quit (asks first during a game, says if it is saved)"),
)
KEY_WIDTH = 56  # the longest description: one row at 80 columns


def keys_table() -> Table:
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for key, what in KEYS:
        table.add_row(key, what)
    return table


class RulesScreen(NilScreen):
    DEFAULT_CSS = """
    RulesScreen #rules { padding: 0 1; }
    RulesScreen #rules-more { margin-bottom: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "close", "Back"),
        Binding("up,k", "scroll(-1)", "Scroll", show=False),
        Binding("down,j", "scroll(1)", "Scroll", show=False),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules"):
            yield Static(Text("Keys", style="bold underline"))
            yield Static(keys_table(), id="rules-keys")
            yield Static(Text("The rules follow: ↓ or PgDn to read them.", style="dim"),
                         id="rules-more")
            yield Static(Text(asset_text("RULES.txt")), id="rules-text")
        yield Footer()

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#rules", VerticalScroll))

    def action_scroll(self, step: int) -> None:
        self.query_one("#rules", VerticalScroll).scroll_relative(y=step * 3, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
