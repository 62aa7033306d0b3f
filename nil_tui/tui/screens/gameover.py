"""Game over: the final standings, and the loser(s) crawling under the table."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Footer, Static

from ...engine import Game
from ...options import PlayOptions
from ...paths import asset_text
from ..words import SEAT_LABELS
from .base import NilScreen
from .summary import deals_table, last_deal_text, names_list, standings_text


def load_art() -> dict[str, list[str]]:
    """The sections of ``assets/under_table.txt`` by name."""
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in asset_text("under_table.txt").splitlines():
        if line.startswith("@@ "):
            current = sections.setdefault(line[3:].strip(), [])
        elif current is not None:
            current.append(line.rstrip())
    return sections


class UnderTable(Widget):
    """The table, with each loser crawling in from the left until they are under it."""

    DEFAULT_CSS = "UnderTable { height: auto; width: 100%; }"

    step: reactive[int] = reactive(0)

    def __init__(self, losers: tuple[int, ...], animate: bool, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.losers = losers
        self.art = load_art()
        crawler = self.art["crawler"]
        self.crawler_width = max(len(line) for line in crawler)
        left, right = self._between_legs()
        room = right - left
        n = max(1, len(losers))
        gap = min(12, (room - n * self.crawler_width) // max(1, n - 1)) if n > 1 else 0
        span = n * self.crawler_width + (n - 1) * gap
        first = left + max(0, (room - span) // 2)
        self.targets = [first + i * (self.crawler_width + gap) for i in range(len(losers))]
        self.steps = 12 if animate and losers else 0
        self.step = 0 if self.steps else self.steps
        self.animate_on = animate and bool(losers)

    def _between_legs(self) -> tuple[int, int]:
        """Columns free under the table top: between the inner sides of the two legs."""
        leg_row = self.art["table"][-2]
        left = leg_row.find("||") + 3
        right = leg_row.rfind("||") - 1
        return left, right

    def on_mount(self) -> None:
        if self.animate_on:
            self._timer = self.set_interval(0.12, self._tick)

    def _tick(self) -> None:
        if self.step >= self.steps:
            self._timer.stop()
            return
        self.step += 1

    def get_content_height(self, *_: object) -> int:
        extra = 0 if self.losers else len(self.art["nobody"])
        return len(self.art["table"]) + 1 + extra

    def render(self) -> Text:
        table = [list(line) for line in self.art["table"]]
        width = max(len(r) for r in table) + 2
        for row in table:
            row.extend(" " * (width - len(row)))
        crawler = self.art["crawler"]
        base = len(table) - len(crawler) - 1
        names = [" "] * width
        done = self.step >= self.steps
        for i, seat in enumerate(self.losers):
            target = self.targets[i]
            offset = target - (self.steps - self.step) * 3
            for r, line in enumerate(crawler):
                for c, ch in enumerate(line):
                    x = offset + c
                    if (ch != " " and 0 <= x < width and 0 <= base + r < len(table)
                            and table[base + r][x] == " "):  # the legs stay in front
                        table[base + r][x] = ch
            if done:
                label = SEAT_LABELS[seat]
                for k, ch in enumerate(label):
                    if 0 <= target + k < width:
                        names[target + k] = ch
        text = Text("\n".join("".join(r) for r in table), style="#c8a36a")
        if self.losers:
            text.append("\n" + "".join(names).rstrip(), style="bold red")
        else:
            text.append("\n")
            text.append("\n".join(self.art["nobody"]), style="bold green")
        return text


def headline(losers: tuple[int, ...]) -> Text:
    """Game over, and who crawls under the table (said once, here)."""
    title = Text("Game over", style="bold")
    if not losers:
        title.append(": a draw, all four are level! Nobody goes under the table.",
                     style="bold green")
    elif 0 in losers:
        who = names_list(losers)
        title.append(f": {who[0].lower()}{who[1:]} crawl under the table!", style="bold red")
    else:
        verb = "crawl" if len(losers) > 1 else "crawls"
        title.append(f": {names_list(losers)} {verb} under the table; ", style="bold red")
        title.append("you stay on your chair.", style="bold green")
    return title


class GameOverScreen(NilScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "again", "New game"),
        Binding("q", "app.quit", "Quit"),
        Binding("question_mark,f1", "app.rules", "Rules"),
    ]

    def __init__(self, game: Game, options: PlayOptions, path: Path | None,
                 problem: str | None = None) -> None:
        super().__init__()
        self.game = game
        self.options = options
        self.path = path
        self.problem = problem  # why the game could not be kept, when it could not

    def compose(self) -> ComposeResult:
        game = self.game
        losers = game.losers
        with VerticalScroll(id="gameover"):
            yield Static(headline(losers), id="gameover-title")
            last = last_deal_text(game)
            if last is not None:
                yield Static(last, id="gameover-last")
            yield UnderTable(losers, animate=self.options.speed != "instant", id="art")
            yield Static(standings_text(game, final=True), id="gameover-standings")
            yield Static(self._where(), id="gameover-path")
            yield Static(deals_table(game), id="gameover-table")
            yield Static(Text("Enter: a new game with the same settings   q: quit",
                              style="dim"))
        yield Footer()

    def _where(self) -> Text:
        """Where the record went, or the plain truth that it did not."""
        if self.path is not None:
            return Text.assemble(("Record saved: ", "dim"), (str(self.path), "dim"))
        why = self.problem or "the data folder could not be written"
        return Text.assemble(("⚠ This game is not saved yet: ", "bold yellow"), why,
                             (" nil-tui keeps trying while it runs.", "dim"))

    def kept(self, path: Path) -> None:
        """The record could be written after all: say where."""
        self.path = path
        self.query_one("#gameover-path", Static).update(self._where())

    def action_again(self) -> None:
        from dataclasses import replace

        # The same settings, in the theme on screen now (the command palette may have
        # changed it).
        self.nil_app.start_game(replace(self.options, seed=None, theme=self.app.theme))
