"""Game over: the final standings, the loser(s) crawling under the table, and each seat's
running total over the deals (a chart beside the table where the terminal is wide enough, in
its place on a key where it is not)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events
from textual._time import get_time
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Footer, Static

from ...engine import Game
from ...game.options import PlayOptions
from ...util.paths import asset_text
from ..widgets.charts import RunningTotals
from ..words import SEAT_LABELS, Labels, seat_labels
from .base import NilScreen
from .summary import deals_table, last_deal_text, names_list, standings_text

KEY_GRACE = 0.8
"""Seconds after game over appears during which Enter does not start a new game."""

CHART_BESIDE = 100
"""Columns from which the running totals stand beside the table; narrower, ``g`` swaps them."""


def running_totals(game: Game) -> list[list[int]]:
    """Each seat's total after each finished deal, in order."""
    rows: list[list[int]] = []
    total = [0, 0, 0, 0]
    for deal in game.deals:
        if not deal.is_over:
            break
        total = [t + p for t, p in zip(total, deal.points)]
        rows.append(total)
    return rows


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

    def __init__(self, losers: tuple[int, ...], animate: bool, labels: Labels = SEAT_LABELS,
                 **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.losers = losers
        self.labels = labels
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
                label = self.labels[seat]
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


def headline(losers: tuple[int, ...], labels: Labels = SEAT_LABELS) -> Text:
    """Game over, and who crawls under the table (said once, here)."""
    title = Text("Game over", style="bold")
    if not losers:
        title.append(": a draw, all four are level! Nobody goes under the table.",
                     style="bold green")
    elif 0 in losers:
        who = names_list(losers, labels=labels)
        title.append(f": {who[0].lower()}{who[1:]} crawl under the table!", style="bold red")
    else:
        verb = "crawl" if len(losers) > 1 else "crawls"
        title.append(f": {names_list(losers, labels=labels)} {verb} under the table; ", style="bold red")
        title.append("you stay on your chair.", style="bold green")
    return title


def perfect_line(game: Game, labels: Labels = SEAT_LABELS) -> Text | None:
    """Under the pool scoring, a game ended at once by its first deal: who stayed clean (or
    took every trick) in it; None for any other game."""
    seat = game.perfect
    if seat is None:
        return None
    who = names_list((seat,), labels=labels)
    if game.deals[0].taken[seat] == 0:
        what = "stayed clean in the first deal"
    else:
        what = "took every trick of the first deal"
    text = Text("A perfect game: ", style="bold")
    text.append(f"{who} {what}", style="bold green" if seat == 0 else "bold")
    text.append(", and the game ended there.")
    return text


def record_place(path: Path | None, problem: str | None, ascii: bool,
                 what: str = "game") -> Text:
    """Where a finished game's record went, or the plain truth that it is not saved: the
    problem says why and whether saving is tried again, and the record file is named
    wherever it was written (the temporary folder, when the data folder could not take it)."""
    if path is not None and problem is None:
        return Text.assemble(("Record saved: ", "dim"), (str(path), "dim"))
    why = problem or "the data folder could not be written."
    mark = "!" if ascii else "⚠"
    text = Text.assemble((f"{mark} This {what} is not saved: ", "bold yellow"), why)
    if path is not None:
        text.append(f" Its record was written as {path}.", style="dim")
    return text


class GameOverScreen(NilScreen):
    # "-wide" (set on resize, from CHART_BESIDE columns): the chart beside the table;
    # "-chart" (the g key, narrower): the chart in the table's place.
    DEFAULT_CSS = """
    GameOverScreen #gameover { padding: 0 2; scrollbar-gutter: stable; }
    GameOverScreen #gameover > Static { margin-bottom: 1; }
    GameOverScreen #art { margin-bottom: 1; }
    GameOverScreen #gameover-pictures { height: auto; }
    GameOverScreen #gameover-pictures > UnderTable { width: auto; }
    GameOverScreen #gameover-chart { display: none; height: 12; width: 1fr; min-width: 30; }
    GameOverScreen.-wide #gameover-chart { display: block; margin-left: 2; }
    GameOverScreen.-chart #gameover-chart { display: block; margin-bottom: 1; }
    GameOverScreen.-chart #art { display: none; }
    GameOverScreen #gameover > #gameover-keys { dock: bottom; margin: 0; }
    GameOverScreen.-short #gameover > Static { margin-bottom: 0; }
    GameOverScreen.-short #gameover-title { margin-bottom: 1; }
    GameOverScreen.-short #gameover-table { display: none; }
    GameOverScreen.-short.-table #gameover-table { display: block; }
    GameOverScreen.-short.-table #gameover-pictures { display: none; }
    GameOverScreen.-fitting #gameover, GameOverScreen.-fitting Footer { opacity: 0%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "again", "New game"),
        Binding("enter", "leave", "Leave the table"),  # at a shared table, in its place
        Binding("g", "chart", "Totals chart"),
        Binding("t", "deals", "Every deal", show=False),  # the page says it
        Binding("a", "analyse", "Analysis"),
        Binding("q", "app.quit", "Quit"),
        Binding("question_mark,f1", "app.rules", "Rules"),
    ]

    def __init__(self, game: Game, options: PlayOptions, path: Path | None,
                 problem: str | None = None, leave: Callable[[], None] | None = None,
                 home: int = 0) -> None:
        super().__init__()
        self.game = game
        self.labels = seat_labels(home)  # the true seats, for a seat at a shared table
        self.leave = leave  # a shared table's: what leaving it does (no game starts here)
        self.options = options
        self.path = path
        self.problem = problem  # why the game could not be kept, when it could not
        self._fitted: Size | None = None  # the terminal's size the page was fitted to
        # A key typed to see the last trick go may arrive as this page replaces the table:
        # for a moment it does not start a new game (no moment at the instant speed).
        self._settling_until = 0.0 if options.speed == "instant" else get_time() + KEY_GRACE
        # Laid out unseen until it is fitted to the terminal (and its chart drawn for its
        # room): the page appears whole, once.
        self.add_class("-fitting")

    def compose(self) -> ComposeResult:
        game = self.game
        losers = game.losers
        with VerticalScroll(id="gameover"):
            yield Static(headline(losers, self.labels), id="gameover-title")
            perfect = perfect_line(game, self.labels)
            if perfect is not None:
                yield Static(perfect, id="gameover-perfect")
            last = last_deal_text(game, self.labels)
            if last is not None:
                yield Static(last, id="gameover-last")
            with Horizontal(id="gameover-pictures"):
                yield UnderTable(losers, self.options.speed != "instant", self.labels, id="art")
                yield RunningTotals(self.labels, running_totals(game), ascii=self.options.ascii,
                                    id="gameover-chart")
            yield Static(standings_text(game, True, self.labels), id="gameover-standings")
            yield Static(self._where(), id="gameover-path")
            yield Static(deals_table(game, self.labels), id="gameover-table")
            yield Static(self._keys(), id="gameover-keys")
        yield Footer()

    def _keys(self) -> Text:
        """The keys in words: the page's own first, then what swaps the pictures (on a line
        of its own, so that no key's words are broken across lines at 80 columns)."""
        swaps = []
        if self.has_class("-chart"):
            swaps.append("g: the table again")
        elif not self.has_class("-wide"):
            swaps.append("g: the totals deal by deal")
        if self.has_class("-short"):  # the page is too short for the picture and the scores
            swaps.append("t: the picture again" if self.has_class("-table")
                         else "t: every deal's scores")
        again = "Enter: leave the table" if self.leave else "Enter: new game, same settings"
        keys = f"{again}   a: analysis of the last deal   q: quit"
        if swaps:
            keys += ("   " if self.has_class("-wide") else "\n") + "   ".join(swaps)
        return Text(keys, style="dim")

    def on_resize(self, event: events.Resize) -> None:
        self._lay_out(event.size.width)
        self._fit()

    def on_mount(self) -> None:
        self._lay_out(self.size.width or self.app.size.width)
        self._fit()

    def on_key(self, event: events.Key) -> None:
        """Enter typed before this page came, or just as it came, was meant for the table (to
        see the last trick go): it does not start a new game. Keys carry the time they were
        typed, so a busy moment does not let one through late."""
        if event.key == "enter" and event.time < self._settling_until:
            event.stop()
            event.prevent_default()

    def _fit(self) -> None:
        """Where the whole page does not fit the terminal (80x24), the deals' scores take
        the picture's place on ``t``, and the keys say so: measured once laid out, again
        when the terminal grows (a smaller one is measured as it is)."""
        size = self.app.size
        if size == self._fitted:
            return
        grew = self._fitted is not None and (size.width > self._fitted.width
                                             or size.height > self._fitted.height)
        self._fitted = size
        if grew:
            self.remove_class("-short")
        self.call_after_refresh(self._check_fit)

    def _check_fit(self) -> None:
        if not self.is_attached or not self.query("#gameover-keys"):
            return  # gone before it was laid out again (a key typed at once)
        page = self.query_one("#gameover", VerticalScroll)
        if not page.size.area:  # not laid out yet: measured after the next frame
            self.call_after_refresh(self._check_fit)
            return
        if not self.has_class("-short") and page.max_scroll_y > 0:
            self.add_class("-short")
            self.refresh_bindings()
        self.query_one("#gameover-keys", Static).update(self._keys())
        if self.has_class("-fitting"):  # shown once this layout is drawn
            self.call_after_refresh(self.remove_class, "-fitting")

    def _lay_out(self, width: int) -> None:
        """The chart beside the table when there is room, else on ``g`` in its place."""
        wide = width >= CHART_BESIDE
        if wide != self.has_class("-wide") or not self.is_mounted:
            self.set_class(wide, "-wide")
            if wide:
                self.remove_class("-chart")
            self.refresh_bindings()
        self.query_one("#gameover-keys", Static).update(self._keys())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("again", "leave") and (action == "leave") != (self.leave is not None):
            return False  # a shared table is left; a game played here is played again
        if action == "chart" and self.has_class("-wide"):
            return False  # the chart is already beside the table
        if action == "deals" and not self.has_class("-short"):
            return False  # every deal's scores are on the page already
        return super().check_action(action, parameters)

    def action_deals(self) -> None:
        """Swap the picture and every deal's scores (where the page is too short for both)."""
        self.toggle_class("-table")
        self.query_one("#gameover-keys", Static).update(self._keys())

    def action_chart(self) -> None:
        """Swap the table's picture and the running totals."""
        self.toggle_class("-chart")
        self.query_one("#gameover-keys", Static).update(self._keys())

    def action_analyse(self) -> None:
        """The analysis of your plays in the last deal (the earlier ones are on each deal's
        summary, and all of them in history)."""
        from .analysis import analysis_of

        self.app.push_screen(analysis_of(self.game, len(self.game.deals), self.options.ascii))

    def _where(self) -> Text:
        return record_place(self.path, self.problem, self.options.ascii)

    def kept(self, path: Path) -> None:
        """The game is in history after all: say where its record is."""
        self.path, self.problem = path, None
        self.query_one("#gameover-path", Static).update(self._where())

    def action_leave(self) -> None:
        if self.leave is not None:
            self.leave()

    def action_again(self) -> None:
        from dataclasses import replace

        # The same settings, in the theme on screen now (the command palette may have
        # changed it).
        self.nil_app.start_game(replace(self.options, seed=None, theme=self.app.theme))
