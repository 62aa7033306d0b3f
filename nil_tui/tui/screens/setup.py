"""Setup: deals, a level per bot seat (built-ins and installed plugins), seed, speed."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from ...engine.game import MAX_DEALS
from ...game.options import DEFAULT_LEVEL, SPEEDS, PlayOptions, as_speed
from ..ascii import use_ascii
from ..words import resume_point
from .base import NilScreen

SEATS = ("West", "North", "East")
# A level's measured strength as the bots' registry writes it, e.g. "+0.330 points a deal
# against 3 easy (200 games of 8 deals)": its edge, the level it played against, how long.
_MEASURED = re.compile(r"(?P<edge>[+-]\d+(?:\.\d+)?) points a deal against 3 (?P<field>\w+)"
                       r"(?: \((?P<games>\d+) games)?")


def strength_words(measured: str, titles: dict[str, str]) -> tuple[str, str] | None:
    """A level's measured strength in words, and the figure it comes from:
    ("About 1 point ahead of Easy bots every 3 deals", "+0.330 a deal, 200 games"). The edge is
    the level's points per deal minus its opponents' (more points is better), so one point is
    gained or lost every 1/edge deals. None when there is no figure to go by."""
    found = _MEASURED.search(measured)
    if found is None:
        return None
    edge = float(found["edge"])
    field = titles.get(found["field"], found["field"].capitalize())
    figure = f"{edge:+.3f} a deal" + (f", {found['games']} games" if found["games"] else "")
    if abs(edge) < 0.02:  # a point in over 50 deals: no difference worth a sentence
        return f"About as strong as {field} bots", figure
    every = round(1 / abs(edge))
    side = f"ahead of {field} bots" if edge > 0 else f"behind {field} bots"
    return f"About 1 point {side} every {every} deals", figure


def level_choices() -> list[tuple[str, str, str]]:
    """(spec, title, description) of every bot the player may choose, built-ins first. A
    built-in's description is one line of what it does and one of how strong it measured."""
    from ...bots import LEVELS, plugin_entry_points

    titles = {spec: level.title for spec, level in LEVELS.items()}
    out = []
    for spec, level in LEVELS.items():
        words = strength_words(level.measured, titles)
        desc = level.description
        if words is not None:
            desc += f"\n{words[0]} ({words[1]})."
        out.append((spec, level.title, desc))
    for name, target in sorted(plugin_entry_points().items()):
        out.append((name, name, f"Plugin bot ({target})."))
    return out


def speed_words(speed: str, wait_for_key: bool = False) -> str:
    """What a speed does, from the pauses the table makes (and whether a finished trick
    waits for a key)."""
    from ...session.game_session import PAUSES

    bot, trick = PAUSES.get(speed, PAUSES["normal"])
    if wait_for_key:
        stays = "a finished trick stays until you press a key"
    elif trick <= 0:
        stays = "a finished trick stays until the next card"
    else:
        stays = f"a finished trick stays {trick:g} s"
    if bot <= 0:
        return f"{speed.capitalize()}: no pauses; {stays}."
    return f"{speed.capitalize()}: a bot takes at least {bot:g} s a card; {stays}."


class NumberInput(Input):
    """A field for a whole number: it takes digits (and the editing keys), and leaves every
    other letter to the screen's keys (h for history, q to quit...) even while focused."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return character is not None and (character.isdigit() or character == "-")

    async def _on_key(self, event: events.Key) -> None:
        # Textual calls Input's own handler after this one unless the default is prevented
        if event.is_printable and not self.check_consume_key(event.key, event.character):
            event.prevent_default()  # not ours: it goes on to the screen's bindings


class Tick(Checkbox):
    """A checkbox that is told apart without colour: ▐X▌ when on, ▐ ▌ when off."""

    DEFAULT_CSS = """
    Tick.-textual-compact:focus {
        border: none;
    }
    """

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]
        return "X" if self.value else " "


# The Resume button keeps its frame (three lines) wherever setup fits with it: at 24 lines,
# while the levels are described in at most 5 lines (two levels take 4, three take 6).
FRAMED_RESUME_HEIGHT = 25  # lines of terminal from which the button always has its frame
FRAMED_RESUME_DESCRIBED = 5  # lines of level descriptions that fit with it at 24 lines


class SetupScreen(NilScreen):
    # Laid out to fit 80x24 with the Resume button and three different levels described:
    # labels beside their fields, the checkboxes on short rows, the Resume button on one
    # line when that many levels are described (see FRAMED_RESUME_HEIGHT).
    CSS = """
    SetupScreen #setup { padding: 0 1; }
    SetupScreen #setup-top { height: 1; }
    SetupScreen #setup-title { padding: 0; height: 1; width: 1fr; }
    SetupScreen #setup-top Button { margin-left: 1; }
    SetupScreen #meter-note { width: auto; color: $text-muted; }
    /* Where the focus is shows without colour: the field's label in reverse, an input's
       or a list's frame drawn in heavy lines, a checkbox's label underlined. */
    SetupScreen .field:focus-within Label { text-style: bold reverse; }
    SetupScreen .field Input:focus, SetupScreen .field Select:focus > SelectCurrent {
        border: heavy $primary;
    }
    SetupScreen Tick:focus > .toggle--label { text-style: bold underline reverse; }
    SetupScreen #resume { width: 100%; margin-bottom: 0; }
    SetupScreen .setup-row { height: auto; }
    SetupScreen .field { width: 1fr; height: auto; margin-right: 1; }
    SetupScreen .field Label { padding: 1 1 0 0; width: auto; }
    SetupScreen .field Input, SetupScreen .field Select { width: 1fr; }
    SetupScreen #speed-help { padding: 0 1; color: $text-muted; }
    SetupScreen #descriptions { height: auto; padding: 0 1; color: $text-muted; }
    SetupScreen .setup-checks { padding: 0 1; }
    SetupScreen .setup-checks Checkbox { width: auto; margin-right: 3; }
    SetupScreen .setup-buttons Button { min-width: 0; margin-right: 1; }
    SetupScreen #start { min-width: 12; }
    SetupScreen #rules { padding: 0 1; }
    SetupScreen #setup-error { height: auto; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "same_for_all", "Same for all"),
        Binding("ctrl+s", "start", "Start"),
        Binding("c", "challenge", "Challenge", show=False),  # the button says (c)
        Binding("o", "host", "Host a table", show=False),  # so does this one (o)
        Binding("j", "join", "Join a table", show=False),  # and this one (j)
        Binding("h", "history", "History"),
        Binding("i", "stats", "Statistics"),
        Binding("question_mark,f1", "app.rules", "Rules"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, options: PlayOptions,
                 saved: tuple[dict[str, Any], dict[str, Any]] | None = None) -> None:
        super().__init__()
        self.options = options
        self.saved = saved
        self.choices = level_choices()
        self._described = 0  # lines of level descriptions shown

    def compose(self) -> ComposeResult:
        o = self.options
        specs = [spec for spec, _, _ in self.choices]
        with VerticalScroll(id="setup", can_focus=False):
            with Horizontal(id="setup-top"):
                yield Static(Text.assemble(("Zero", "bold"), " (Nil): nobody wants a trick"),
                             id="setup-title")
                yield Button("Host a table (o)", id="host", compact=True,
                             tooltip="Open a table that friends join from their own "
                             "terminals, with the deals, seed, bots and scoring chosen here")
                yield Button("Join a table (j)", id="join", compact=True,
                             tooltip="Sit at a friend's table with the invite they gave you")
            if self.saved is not None:
                from ...game.daily_challenge import record_date

                record, _ = self.saved
                date = record_date(record)
                what = "saved game" if date is None else f"daily challenge of {date}"
                yield Button(f"Resume the {what} ({resume_point(record)})", id="resume",
                             variant="success")
            with Horizontal(classes="setup-row"):
                with Horizontal(classes="field"):
                    yield Label("Deals")
                    yield NumberInput(str(o.deals), id="deals", type="integer", max_length=2,
                                tooltip=f"1 to {MAX_DEALS} deals")
                with Horizontal(classes="field"):
                    yield Label("Seed")
                    yield NumberInput("" if o.seed is None else str(o.seed), id="seed",
                                type="integer", placeholder="random",
                                tooltip="A number replays the same cards; empty: random")
                with Horizontal(classes="field"):
                    yield Label("Speed")
                    yield Select([(s.capitalize(), s) for s in SPEEDS],
                                 value=o.speed if o.speed in SPEEDS else "normal",
                                 allow_blank=False, id="speed")
            yield Static(id="speed-help")
            with Horizontal(classes="setup-row"):
                for i, seat in enumerate(SEATS):
                    spec = o.bots[i] if o.bots[i] in specs else DEFAULT_LEVEL
                    with Horizontal(classes="field"):
                        yield Label(seat)
                        yield Select([(title, s) for s, title, _ in self.choices],
                                     value=spec if spec in specs else specs[0],
                                     allow_blank=False, id=f"bot-{i}")
            yield Static(id="descriptions")
            with Horizontal(classes="setup-row setup-checks"):
                yield Tick("Same for all (F2)", False, id="same", compact=True)
                yield Tick("ASCII suits", o.ascii, id="ascii", compact=True)
                yield Tick("Four colours", o.four_color, id="four", compact=True)
                yield Tick("Pool", o.scoring == "pool", id="pool", compact=True,
                           tooltip="Pool scoring, the original game's: each trick taken costs "
                           "a point, paid into a pool that a clean player collects (see the "
                           "rules, ?). Off: the classic scoring.")
            with Horizontal(classes="setup-row setup-checks"):
                yield Tick("Play a forced card for me", o.auto_play, id="auto-play",
                           compact=True)
                yield Tick("After each trick, wait for a key", o.trick_pause == "key",
                           id="trick-key", compact=True)
            with Horizontal(classes="setup-row setup-checks"):
                yield Tick("Cursor on every card", o.cursor == "every", id="cursor-every",
                           compact=True,
                           tooltip="On your turn the cursor stops on every card of your hand, "
                           "not only on those you may play: the cards you may not play stay "
                           "dimmed, and Enter on one says why it cannot be played.")
            with Horizontal(classes="setup-row setup-checks"):
                yield Tick("Clean-chance meter", o.meter, id="meter", compact=True,
                           tooltip="Shows your chance to stay clean this deal; a game "
                           "played with it counts as assisted. m turns it on or off for "
                           "one game.")
                yield Static("(this or a hint (h) makes the game assisted)",
                             id="meter-note")
            yield Static(id="setup-error").set_styles("display: none;")
            with Horizontal(classes="setup-row setup-buttons"):
                yield Button("Start", id="start", variant="primary")
                yield Button("Challenge (c)", id="challenge", variant="warning",
                             tooltip="The daily challenge: today's deals, the same for "
                             "everyone, against three experts; then compared deal by deal "
                             "with the expert in your seat. No hints, undo or meter.")
                yield Button("History (h)", id="history")
                yield Button("Statistics (i)", id="stats")
                yield Button("Rules (?)", id="rules")
        yield Footer()

    def on_mount(self) -> None:
        use_ascii(self.app, self.options.ascii)  # this screen in the look chosen
        self._describe()
        self._describe_speed()
        specs = {spec for spec, _, _ in self.choices}
        gone = [f"{seat}'s last bot ({spec})" for seat, spec in zip(SEATS, self.options.bots)
                if spec not in specs]
        if gone:
            self._error(Text(f"Not installed now: {', '.join(gone)}. Normal is chosen "
                             "instead; pick another level if you like.", style="yellow"))
        # The first field a player types in: the number of deals (a saved game's Resume
        # button when there is one; digits typed there still go to the deals).
        self.set_focus(self.query_one("#resume", Button) if self.saved
                       else self.query_one("#deals", Input))

    def on_key(self, event: events.Key) -> None:
        """A digit typed while a button or checkbox has the focus goes to the deals."""
        focused = self.focused
        if (event.character is not None and event.character.isdigit()
                and isinstance(focused, (Button, Checkbox))):
            event.stop()
            event.prevent_default()
            deals = self.query_one("#deals", Input)
            deals.value = event.character
            deals.cursor_position = len(deals.value)
            self.set_focus(deals)

    def _error(self, text: Text | None) -> None:
        """Show a problem with the choices above the buttons (no line at all when none)."""
        error = self.query_one("#setup-error", Static)
        error.update(text or "")
        error.display = text is not None

    def _describe_speed(self) -> None:
        speed = str(self.query_one("#speed", Select).value)
        wait = self.query_one("#trick-key", Checkbox).value
        self.query_one("#speed-help", Static).update(speed_words(speed, wait))

    def _describe(self) -> None:
        """What each chosen level does (one line) and how strong it is (a dimmer line)."""
        chosen = [self.query_one(f"#bot-{i}", Select).value for i in range(3)]
        text = Text()
        shown = []
        for spec, title, desc in self.choices:
            if spec in chosen and spec not in shown:
                shown.append(spec)
                if text:
                    text.append("\n")
                what, _, strength = desc.partition("\n")
                text.append(f"{title}: ", style="bold")
                text.append(what)
                if strength:
                    text.append(f"\n{strength}", style="dim")
        self.query_one("#descriptions", Static).update(text)
        self._described = len(text.plain.splitlines())
        self._fit_resume()

    def on_resize(self) -> None:
        self._fit_resume()

    def _fit_resume(self) -> None:
        """The Resume button on one line where setup would not fit the terminal with its
        frame (see FRAMED_RESUME_HEIGHT); framed again when there is room."""
        if self.saved is None:
            return
        tight = (self.app.size.height < FRAMED_RESUME_HEIGHT
                 and self._described > FRAMED_RESUME_DESCRIBED)
        self.query_one("#resume", Button).compact = tight

    @on(Select.Changed)
    def _select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "speed":
            self._describe_speed()
            return
        if event.select.id == "bot-0" and self.query_one("#same", Checkbox).value:
            self._copy_west()
        self._describe()

    @on(Checkbox.Changed, "#trick-key")
    def _trick_pause_changed(self) -> None:
        self._describe_speed()

    @on(Checkbox.Changed, "#ascii")
    def _ascii_changed(self, event: Checkbox.Changed) -> None:
        use_ascii(self.app, event.value)  # what ASCII looks like, at once

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
        deals_text = self.query_one("#deals", Input).value.strip()
        try:
            deals = int(deals_text)
        except ValueError:
            deals = 0
        if not 1 <= deals <= MAX_DEALS:
            self._error(Text(f"Deals: a whole number from 1 to {MAX_DEALS}.", style="bold red"))
            self.set_focus(self.query_one("#deals", Input))
            return None
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            self._error(Text("Seed: a whole number, or empty for a random game.",
                             style="bold red"))
            return None
        self._error(None)
        bots = tuple(str(self.query_one(f"#bot-{i}", Select).value) for i in range(3))
        speed = as_speed(self.query_one("#speed", Select).value)
        # Chosen here, so kept as the player's settings when the game starts; the theme is
        # the one on screen (the command palette may have changed it).
        return replace(self.options, deals=deals, seed=seed, speed=speed,
                       bots=bots,  # type: ignore[arg-type]
                       ascii=self.query_one("#ascii", Checkbox).value,
                       four_color=self.query_one("#four", Checkbox).value,
                       auto_play=self.query_one("#auto-play", Checkbox).value,
                       trick_pause="key" if self.query_one("#trick-key", Checkbox).value
                       else "brief",
                       cursor="every" if self.query_one("#cursor-every", Checkbox).value
                       else "playable",
                       meter=self.query_one("#meter", Checkbox).value,
                       scoring="pool" if self.query_one("#pool", Checkbox).value
                       else "classic",
                       theme=self.app.theme, from_setup=True)

    def read_look(self) -> PlayOptions:
        """The settings on screen that a daily challenge keeps (its deals, bots and seed are
        its own): speed, suits, colours, forced cards, the pause after a trick, where the
        cursor stops, the theme."""
        return replace(self.options, speed=as_speed(self.query_one("#speed", Select).value),
                       ascii=self.query_one("#ascii", Checkbox).value,
                       four_color=self.query_one("#four", Checkbox).value,
                       auto_play=self.query_one("#auto-play", Checkbox).value,
                       trick_pause="key" if self.query_one("#trick-key", Checkbox).value
                       else "brief",
                       cursor="every" if self.query_one("#cursor-every", Checkbox).value
                       else "playable",
                       theme=self.app.theme)

    def action_start(self) -> None:
        options = self.read_options()
        if options is not None:
            self.nil_app.start_game(options)

    def action_challenge(self) -> None:
        """Today's daily challenge, in the look chosen on screen (its deals, bots and seed
        are the challenge's own)."""
        from ...game.daily_challenge import today

        self.nil_app.start_challenge(today(), look=self.read_look())

    def action_history(self) -> None:
        self.nil_app.open_history()

    def action_host(self) -> None:
        """A table for friends, with the deals, seed, bots and scoring on screen."""
        options = self.read_options()
        if options is None:
            return
        from .lobby import TableDialog

        async def submit(_invite: str, name: str) -> str | None:
            return await self.nil_app.host_table(options, name)

        self.app.push_screen(TableDialog(submit, join=False))

    def action_join(self) -> None:
        from .lobby import TableDialog

        async def submit(invite: str, name: str) -> str | None:
            return await self.nil_app.join_table(invite, name)

        self.app.push_screen(TableDialog(submit, join=True))

    @on(Button.Pressed, "#host")
    def _host_pressed(self) -> None:
        self.action_host()

    @on(Button.Pressed, "#join")
    def _join_pressed(self) -> None:
        self.action_join()

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
        # in the look on screen now (its deals, bots and seed are the saved game's own)
        if not self.nil_app.resume_saved(look=self.read_look()):
            self.nil_app.open_setup()  # it could not be resumed: setup without it

    @on(Button.Pressed, "#challenge")
    def _challenge_pressed(self) -> None:
        self.action_challenge()

    @on(Button.Pressed, "#history")
    def _history_pressed(self) -> None:
        self.action_history()

    @on(Button.Pressed, "#stats")
    def _stats_pressed(self) -> None:
        self.action_stats()

    @on(Button.Pressed, "#rules")
    def _rules_pressed(self) -> None:
        self.nil_app.action_rules()
