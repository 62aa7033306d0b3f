"""Setup: deals, a level per bot seat (built-ins and installed plugins), seed, speed."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from ...options import DEFAULT_LEVEL, SPEEDS, PlayOptions
from .base import NilScreen

SEATS = ("West", "North", "East")


def level_choices() -> list[tuple[str, str, str]]:
    """(spec, title, description) of every bot the player may choose, built-ins first."""
    from ...bots import LEVELS, plugin_entry_points

    out = []
    for spec, level in LEVELS.items():
        measured = getattr(level, "measured", "")
        desc = level.description + (f" {measured}" if measured else "")
        out.append((spec, level.title, desc))
    for name, target in sorted(plugin_entry_points().items()):
        out.append((name, name, f"Plugin bot ({target})."))
    return out


class SetupScreen(NilScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "same_for_all", "Same for all"),
        Binding("ctrl+s", "start", "Start"),
        Binding("h", "history", "History"),
        Binding("i", "stats", "Statistics"),
        Binding("question_mark,f1", "app.rules", "Rules"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, options: PlayOptions, saved: tuple[dict[str, Any], dict[str, Any]] | None = None) -> None:
        super().__init__()
        self.options = options
        self.saved = saved
        self.choices = level_choices()

    def compose(self) -> ComposeResult:
        o = self.options
        specs = [spec for spec, _, _ in self.choices]
        with VerticalScroll(id="setup"):
            yield Static(Text.assemble(("Zero", "bold"), " (Nil): the card game where "
                                       "nobody wants a trick"), id="setup-title")
            if self.saved is not None:
                record, _ = self.saved
                n = len(record.get("deals", [])) or 1
                yield Button(f"Resume the saved game (deal {n} of "
                             f"{record.get('deals_planned', '?')})", id="resume",
                             variant="success")
            with Horizontal(classes="setup-row"):
                with Vertical(classes="field"):
                    yield Label("Deals (1-99)")
                    yield Input(str(o.deals), id="deals", type="integer", max_length=2)
                with Vertical(classes="field"):
                    yield Label("Seed (optional)")
                    yield Input("" if o.seed is None else str(o.seed), id="seed",
                                type="integer", placeholder="random")
                with Vertical(classes="field"):
                    yield Label("Speed")
                    yield Select([(s, s) for s in SPEEDS], value=o.speed if o.speed in SPEEDS
                                 else "normal", allow_blank=False, id="speed")
            with Horizontal(classes="setup-row"):
                for i, seat in enumerate(SEATS):
                    spec = o.bots[i] if o.bots[i] in specs else DEFAULT_LEVEL
                    with Vertical(classes="field"):
                        yield Label(seat)
                        yield Select([(title, s) for s, title, _ in self.choices],
                                     value=spec if spec in specs else specs[0],
                                     allow_blank=False, id=f"bot-{i}")
            yield Static(id="descriptions")
            with Horizontal(classes="setup-row setup-checks"):
                yield Checkbox("Same for all (F2)", False, id="same")
                yield Checkbox("ASCII suits", o.ascii, id="ascii")
                yield Checkbox("Four colours", o.four_color, id="four")
            yield Static(id="setup-error")
            with Horizontal(classes="setup-row setup-buttons"):
                yield Button("Start", id="start", variant="primary")
                yield Button("History (h)", id="history")
                yield Button("Statistics (i)", id="stats")
                yield Button("Rules (?)", id="rules")
        yield Footer()

    def on_mount(self) -> None:
        self._describe()
        specs = {spec for spec, _, _ in self.choices}
        gone = [f"{seat}'s last bot ({spec})" for seat, spec in zip(SEATS, self.options.bots)
                if spec not in specs]
        if gone:
            self.query_one("#setup-error", Static).update(Text(
                f"Not installed now: {', '.join(gone)}. Normal is chosen instead; pick "
                "another level if you like.", style="yellow"))
        self.set_focus(self.query_one("#resume" if self.saved else "#start", Button))

    def _describe(self) -> None:
        chosen = [self.query_one(f"#bot-{i}", Select).value for i in range(3)]
        text = Text()
        shown = []
        for spec, title, desc in self.choices:
            if spec in chosen and spec not in shown:
                shown.append(spec)
                if text:
                    text.append("\n")
                text.append(f"{title}: ", style="bold")
                text.append(desc)
        self.query_one("#descriptions", Static).update(text)

    @on(Select.Changed)
    def _level_changed(self, event: Select.Changed) -> None:
        if event.select.id == "bot-0" and self.query_one("#same", Checkbox).value:
            self._copy_west()
        self._describe()

    @on(Checkbox.Changed, "#same")
    def _same_changed(self, event: Checkbox.Changed) -> None:
        if event.value:
            self._copy_west()

    def _copy_west(self) -> None:
        west = self.query_one("#bot-0", Select).value
        for i in (1, 2):
            self.query_one(f"#bot-{i}", Select).value = west
        self._describe()

    def action_same_for_all(self) -> None:
        box = self.query_one("#same", Checkbox)
        box.value = True
        self._copy_west()

    def read_options(self) -> PlayOptions | None:
        """The options on screen, or None (with the reason shown) when one is wrong."""
        error = self.query_one("#setup-error", Static)
        deals_text = self.query_one("#deals", Input).value.strip()
        try:
            deals = int(deals_text)
        except ValueError:
            deals = 0
        if not 1 <= deals <= 99:
            error.update(Text("Deals: a whole number from 1 to 99.", style="bold red"))
            self.set_focus(self.query_one("#deals", Input))
            return None
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            error.update(Text("Seed: a whole number, or empty for a random game.",
                              style="bold red"))
            return None
        error.update("")
        bots = tuple(str(self.query_one(f"#bot-{i}", Select).value) for i in range(3))
        speed = str(self.query_one("#speed", Select).value)
        return replace(self.options, deals=deals, seed=seed, speed=speed,
                       bots=bots,  # type: ignore[arg-type]
                       ascii=self.query_one("#ascii", Checkbox).value,
                       four_color=self.query_one("#four", Checkbox).value)

    def action_start(self) -> None:
        options = self.read_options()
        if options is not None:
            self.nil_app.start_game(options)

    def action_history(self) -> None:
        self.nil_app.open_history()

    def action_stats(self) -> None:
        self.nil_app.open_stats()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#start")
    def _start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#resume")
    def _resume_pressed(self) -> None:
        if not self.nil_app.resume_saved():
            self.nil_app.open_setup()  # it could not be resumed: setup without it

    @on(Button.Pressed, "#history")
    def _history_pressed(self) -> None:
        self.action_history()

    @on(Button.Pressed, "#stats")
    def _stats_pressed(self) -> None:
        self.action_stats()

    @on(Button.Pressed, "#rules")
    def _rules_pressed(self) -> None:
        self.nil_app.action_rules()
