"""The question before a game's first help: what a hint (or the meter) does, and that the game
then counts as assisted. Asked while the game is not assisted yet; once it is, never again."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from .dialogs import DIALOG, _Choice

# What each help does, in one line each (setup says the same of them).
HELP_WORDS: dict[str, tuple[str, str, str]] = {  # title, what it does, the yes button
    "hint": ("Use a hint?", ("h suggests a card for this turn and says why (the expert's "
                             "search, in a second or two)."), "Hint (y)"),
    "meter": ("Show the meter?", ("m shows your chance to stay clean this deal, worked out "
                                  "from what you see, and keeps it up to date."), "Show it (y)"),
}
ASSISTED = "This game then counts as assisted in History and Statistics."


class AskHelp(_Choice):
    """Use this help (``what``: "hint" or "meter") in this game? Answers "yes", or "no" or
    None (Esc)."""

    CSS = DIALOG + """
    AskHelp { background: $background 55%; align: center middle; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *_Choice.BINDINGS, Binding("y", "answer('yes')", "Yes"), Binding("n", "cancel", "No")]

    def __init__(self, what: str) -> None:
        title, does, yes = HELP_WORDS[what]
        super().__init__(title, [does, Text(ASSISTED, style="dim")],
                         [("yes", yes), ("no", "Not now (n)")], default="yes")

    def action_answer(self, answer: str) -> None:
        if self.is_active:
            self.dismiss(answer)
