"""Small modal screens: confirm quitting, and "please enlarge the terminal"."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

MIN_WIDTH, MIN_HEIGHT = 80, 24


class ConfirmQuit(ModalScreen[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Quit"),
        Binding("n,escape", "answer(False)", "Keep playing"),
        Binding("q,ctrl+q,ctrl+c", "answer(True)", "Quit", show=False, priority=True),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(Text("Quit the game?", style="bold"))
            yield Static("Your game is saved: nil-tui offers to resume it next time.")
            yield Static(Text("y / Enter: quit      n / Esc: keep playing", style="dim"))

    def action_answer(self, answer: bool) -> None:
        if self.is_active:
            self.dismiss(answer)


class TooSmall(ModalScreen[None]):
    """Shown while the terminal is smaller than 80x24; the game waits underneath."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q,ctrl+c", "app.quit", "Quit", priority=True)]

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.show_size()

    def on_resize(self) -> None:
        self.show_size()

    def show_size(self) -> None:
        w, h = self.app.size
        self.query_one("#too-small", Static).update(Text(
            f"Please enlarge the terminal to at least {MIN_WIDTH}x{MIN_HEIGHT}\n"
            f"(it is {w}x{h} now). The game waits.", justify="center"))
