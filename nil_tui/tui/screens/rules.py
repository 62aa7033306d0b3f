"""Rules and keys (``?`` or F1), from the same text as ``nil-tui rules``."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from ...paths import asset_text
from .base import NilScreen

KEYS = (
    ("← → (or a d)", "move the cursor over your cards"),
    ("Enter or Space", "play the card under the cursor"),
    ("mouse click", "play the card you click"),
    ("s", "scoreboard: every deal so far, standings"),
    ("t", "show the last completed trick"),
    ("h", "a hint for your turn (an assisted game)"),
    ("u", "undo: take back your last card and the plays after it (an assisted game)"),
    ("c", "card tracker: the cards still out, and the suits each player has shown out of"),
    ("m", "meter: your chance to stay clean, estimated from what you see (assisted game)"),
    ("a", ("on the deal summary, at game over, on a challenge's result and in history: the "
          "analysis of your plays (in a review: e this deal, E every deal)")),
    ("g", ("at game over: each player's running total, deal by deal (beside the table when "
          "wide)")),
    ("", "a daily challenge has no hints, undo or meter; its analysis opens once it is over"),
    ("? or F1", "these rules and keys"),
    ("q or ctrl+q", "quit (asks first during a game; says whether the game is saved)"),
)


def keys_table() -> Table:
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for key, what in KEYS:
        table.add_row(key, what)
    return table


class RulesScreen(NilScreen):
    DEFAULT_CSS = "RulesScreen #rules { padding: 0 1; }"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "close", "Back"),
        Binding("up,k", "scroll(-1)", "Scroll", show=False),
        Binding("down,j", "scroll(1)", "Scroll", show=False),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules"):
            yield Static(Text("Keys", style="bold underline"))
            yield Static(keys_table(), id="rules-keys")
            yield Static(Text(asset_text("RULES.txt")), id="rules-text")
        yield Footer()

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#rules", VerticalScroll))

    def action_scroll(self, step: int) -> None:
        self.query_one("#rules", VerticalScroll).scroll_relative(y=step * 3, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
