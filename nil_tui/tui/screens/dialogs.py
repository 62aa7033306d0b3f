"""Small modal screens: quitting, a saved game that a new one would replace, a bot that
cannot start, and "please enlarge the terminal"."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

# A dialog's own rules (a screen's CSS). The screen underneath stays in view, dimmed, around
# it: the app's stylesheet gives every screen a solid background, which this overrides.
DIALOG = """
ConfirmQuit, ReplaceSaved, ChooseSubstitute {
    background: $background 55%;
    align: center middle;
}
.choice-buttons {
    height: auto;
    margin-top: 1;
}
.choice-buttons Button {
    margin-right: 1;
}
#confirm, #choice {
    width: 64;
    height: auto;
    border: thick $accent;
    background: $surface;
    padding: 1 2;
}
#choice {
    width: 76;
}
"""


class ConfirmQuit(ModalScreen[bool]):
    """Quit? Says whether the game is saved, truthfully. Enter keeps playing: it is the key
    that plays a card, so a habitual Enter must never quit."""

    CSS = DIALOG
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Quit"),
        Binding("n,escape,enter", "answer(False)", "Keep playing"),
        Binding("q,ctrl+q,ctrl+c", "answer(True)", "Quit", show=False, priority=True),
    ]

    def __init__(self, problem: str | None = None) -> None:
        super().__init__()
        self.problem = problem  # why the game is not saved, or None when it is

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(Text("Quit the game?", style="bold"))
            if self.problem is None:
                yield Static("Your game is saved: nil-tui offers to resume it next time.")
            else:
                yield Static(Text.assemble(
                    ("Your game is NOT saved: ", "bold yellow"), self.problem,
                    "\nIf you quit now, nil-tui resume may not find your latest plays."))
            yield Static(Text("y: quit      n / Esc / Enter: keep playing", style="dim"))

    def action_answer(self, answer: bool) -> None:
        if self.is_active:
            self.dismiss(answer)


class _Choice(ModalScreen[str | None]):
    """A question with a row of buttons; each button's id is the answer, Esc cancels."""

    CSS = DIALOG
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, lines: list[str | Text], answers: list[tuple[str, str]],
                 default: str) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.answers = answers  # (id, label)
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(id="choice"):
            yield Static(Text(self.title_text, style="bold"))
            for line in self.lines:
                yield Static(line)
            with Horizontal(classes="choice-buttons"):
                for answer, label in self.answers:
                    yield Button(label, id=f"answer-{answer}",
                                 variant="primary" if answer == self.default else "default")

    def on_mount(self) -> None:
        self.set_focus(self.query_one(f"#answer-{self.default}", Button))

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if self.is_active and event.button.id:
            self.dismiss(event.button.id.removeprefix("answer-"))

    def action_cancel(self) -> None:
        if self.is_active:
            self.dismiss(None)


class ReplaceSaved(_Choice):
    """A new game would replace an unfinished one: resume it, keep it in history and start
    the new one, or cancel. Answers "resume", "new" or None. ``saved_challenge`` /
    ``new_challenge``: the date of the daily challenge the saved / the new game is, if so."""

    def __init__(self, description: str, *, saved_challenge: str | None = None,
                 new_challenge: str | None = None) -> None:
        saved = ("saved game" if saved_challenge is None
                 else f"saved daily challenge of {saved_challenge}")
        start = "Start new" if new_challenge is None else "Start the challenge"
        lines: list[str | Text] = [f"The {saved} ({description}) is not over."]
        if new_challenge is not None:
            lines.append(f"The new game is the daily challenge of {new_challenge}.")
        lines.append(Text(f"{start} keeps the saved game in History, where it can be resumed "
                          "later.", style="dim"))
        super().__init__("You have an unfinished game", lines,
                         [("resume", "Resume it"), ("new", start), ("cancel", "Cancel")],
                         default="resume")

    @on(Button.Pressed, "#answer-cancel")
    def _cancelled(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_cancel()


class ChooseSubstitute(_Choice):
    """A seat's bot cannot start (a plugin that is not installed any more): which built-in
    level plays for it. Answers a level name (Esc: the default, Normal)."""

    def __init__(self, seat: str, spec: str, why: str) -> None:
        super().__init__(
            f"{seat}'s bot cannot play",
            [Text.assemble((spec, "bold"), f" could not start: {why}"),
             "Who plays for it in this game? (The game record notes the change.)"],
            [("easy", "Easy"), ("normal", "Normal"), ("hard", "Hard"), ("expert", "Expert")],
            default="normal")

    def action_cancel(self) -> None:
        if self.is_active:
            self.dismiss("normal")


class TooSmall(ModalScreen[None]):
    """Shown while the terminal is smaller than the app needs (``minimum``: columns,
    lines); the game waits underneath."""

    CSS = """
    TooSmall { align: center middle; background: $background; }
    #too-small { width: 100%; content-align: center middle; height: 100%; text-style: bold; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q,ctrl+c", "app.quit", "Quit", priority=True)]

    def __init__(self, minimum: tuple[int, int]) -> None:
        super().__init__()
        self.minimum = minimum
        self.stale = False  # the terminal grew while a dialog was over this screen

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.show_size()

    def on_screen_resume(self) -> None:
        if self.stale:
            self.dismiss()

    def on_resize(self) -> None:
        self.show_size()

    def show_size(self) -> None:
        w, h = self.app.size
        least_w, least_h = self.minimum
        self.query_one("#too-small", Static).update(Text(
            f"Please enlarge the terminal to at least {least_w}x{least_h}\n"
            f"(it is {w}x{h} now). The game waits.", justify="center"))
