"""Charts for the game over and statistics screens, drawn by plotext (through textual-plotext).

Each chart is fed plain data (a snapshot: numbers and names, never a game or a store) and
draws it where it is mounted. The plotting library is imported only when the first chart is
composed, so that starting the app does not pay for it.

Nothing depends on colour alone: every line has a letter on each of its points and a key
under the chart, every bar a name. With ``ascii`` a chart draws ASCII characters only (the
frame, ticks, lines and bars), for terminals without box or braille glyphs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Static

if TYPE_CHECKING:
    from textual_plotext import PlotextPlot

# plotext draws its frame and ticks with box-drawing characters; with ``ascii`` they become:
_ASCII = str.maketrans({
    "─": "-", "━": "-", "│": "|", "┃": "|", "┌": "+", "┐": "+", "└": "+", "┘": "+",
    "├": "+", "┤": "+", "┬": "+", "┴": "+", "┼": "+", "╭": "+", "╮": "+", "╰": "+", "╯": "+",
    "•": "*", "·": ".", "…": ".",
})

COLORS = ("cyan", "magenta", "yellow", "green", "red", "blue")
"""Series colours, in order (plotext and Rich know these names alike)."""

LINE_GLYPHS = "braille"  # plotext's marker for the lines between points
BAR_GLYPH = "sd"  # plotext's full blocks for bars


def ascii_only(text: str) -> str:
    """``text`` with box-drawing characters made ASCII, and anything else beyond ASCII
    replaced by "?" (so that the promise of ``--ascii`` holds whatever plotext draws)."""
    plain = text.translate(_ASCII)
    return "".join(c if ord(c) < 128 else "?" for c in plain)


_PLOT_CLASS: Any = None


def make_plot(ascii: bool, **kwargs: Any) -> PlotextPlot:
    """textual-plotext's plot widget, ASCII-only on request."""
    plot: PlotextPlot = plot_class()(ascii=ascii, **kwargs)
    return plot


def plot_class() -> Any:
    """The class of ``make_plot``'s widgets (the library is imported on first use)."""
    global _PLOT_CLASS
    if _PLOT_CLASS is None:
        from textual_plotext import PlotextPlot

        class Plot(PlotextPlot):
            DEFAULT_CSS = "Plot { width: 1fr; height: 1fr; }"

            def __init__(self, ascii: bool = False, **kwargs: Any) -> None:
                super().__init__(**kwargs)
                self.ascii = ascii

            def render(self) -> Text:
                text = super().render()
                assert isinstance(text, Text)
                if self.ascii:
                    # the same number of cells: the styles of each cell stay where they were
                    text.plain = ascii_only(text.plain)
                chart = self.parent
                if isinstance(chart, Chart):  # (the marks it shows, for its key)
                    self.call_later(chart.drawn, set(text.plain))
                return text

        _PLOT_CLASS = Plot
    return _PLOT_CLASS


@dataclass(frozen=True)
class Series:
    """One line: its name, the letter on each of its points, and its values."""

    name: str
    mark: str
    values: tuple[float, ...]


def nice_step(span: float, most: int) -> int:
    """A whole step (1, 2, 5, 10, 20, ...) that cuts ``span`` into at most ``most`` parts."""
    step = 1
    while span / step > most:
        step = _next_step(step)
    return step


def _next_step(step: int) -> int:
    digits: int = 10 ** (len(str(step)) - 1)
    lead = step // digits
    return (2 if lead == 1 else 5 if lead == 2 else 10) * digits


def whole_ticks(low: float, high: float, most: int) -> list[int]:
    """Whole-number ticks from ``low`` to ``high``, at most ``most`` of them."""
    lo, hi = math.floor(low), math.ceil(high)
    step = nice_step(max(1, hi - lo), max(1, most - 1))
    first = lo - lo % step
    return [t for t in range(first, hi + step, step) if lo <= t <= hi] or [lo]


def marks_for(names: Sequence[str]) -> list[str]:
    """A distinct letter for each name: its first letter when free, else a digit."""
    marks: list[str] = []
    for n, name in enumerate(names):
        letters = [c.upper() for c in name if c.isascii() and c.isalnum()]
        mark = next((c for c in letters if c not in marks), str(n + 1))
        marks.append(mark)
    return marks


class Chart(Widget):
    """A chart, or a sentence saying why there is none yet. Subclasses fill ``draw``."""

    DEFAULT_CSS = """
    Chart { height: 12; width: 1fr; }
    Chart > .chart-empty { color: $text-muted; height: auto; padding: 1 0; }
    Chart > .chart-key { height: auto; }
    """

    def __init__(self, *, ascii: bool = False, empty: str = "Nothing to draw yet.",
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.ascii = ascii
        self.empty = empty

    seen: set[str] | None = None  # the characters of the chart as last drawn

    def drawn(self, seen: set[str]) -> None:
        """The chart was drawn with these characters: the key says what they hide."""
        if seen == self.seen or not self.has_data():
            return
        self.seen = seen
        self._show_key()

    def has_data(self) -> bool:
        raise NotImplementedError

    def empty_words(self) -> str:
        """What the chart says while it has nothing to draw."""
        return self.empty

    def draw(self, plt: Any) -> None:
        """Draw the data on plotext's figure ``plt`` (cleared before)."""
        raise NotImplementedError

    def key(self) -> Text | None:
        """The line under the chart that tells its marks apart, if any."""
        return None

    def compose(self) -> ComposeResult:
        yield Static(ascii_only(self.empty) if self.ascii else self.empty,
                     classes="chart-empty")
        yield make_plot(self.ascii, classes="chart-plot")
        yield Static(classes="chart-key")

    def on_mount(self) -> None:
        if self.size.area:  # (else drawn once its room is known: its ticks depend on it)
            self.redraw()

    def on_resize(self) -> None:
        self.redraw()  # ticks are chosen for the room the chart has

    @property
    def plot(self) -> PlotextPlot:
        plot: PlotextPlot = self.query_one(".chart-plot", plot_class())
        return plot

    def redraw(self) -> None:
        """Draw the chart from the data it holds now."""
        if not self.children:
            return  # not composed yet: drawn when mounted
        shown = self.has_data()
        empty = self.query_one(".chart-empty", Static)
        empty.display = not shown
        if not shown:
            said = self.empty_words()
            empty.update(ascii_only(said) if self.ascii else said)
        plot = self.plot
        plot.display = shown
        key = self.query_one(".chart-key", Static)
        key.display = False
        if not shown:
            return
        plt = plot.plt
        plt.clear_figure()
        self.draw(plt)
        self.seen = None
        self._show_key()
        plot.refresh()

    def _show_key(self) -> None:
        key = self.query_one(".chart-key", Static)
        words = self.key()
        if words is not None:
            key.update(Text(ascii_only(words.plain), spans=words.spans) if self.ascii
                       else words)
            key.display = True


class LineChart(Chart):
    """Lines over numbered steps (deals, games): ``series`` share ``steps`` on the x axis."""

    def __init__(self, series: Sequence[Series], steps: Sequence[int], *,
                 x_label: str = "", labels: Sequence[str] | None = None,
                 zero_line: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.series = list(series)
        self.steps = list(steps)
        self.x_label = x_label
        self.labels = list(labels) if labels is not None else None
        self.zero_line = zero_line

    def update(self, series: Sequence[Series], steps: Sequence[int],
               labels: Sequence[str] | None = None) -> None:
        self.series, self.steps = list(series), list(steps)
        self.labels = list(labels) if labels is not None else None
        self.redraw()

    def has_data(self) -> bool:
        """Two steps at least: a single point is no chart (a sentence says so instead)."""
        return len(self.steps) > 1 and any(s.values for s in self.series)

    def empty_words(self) -> str:
        if len(self.steps) == 1 and any(s.values for s in self.series):
            what = self.x_label or "point"
            return f"One {what} so far: this chart starts with the second."
        return self.empty

    def draw(self, plt: Any) -> None:
        width = max(20, self.size.width)
        line = "." if self.ascii else LINE_GLYPHS
        values = [v for s in self.series for v in s.values]
        low, high = min(values + [0.0] if self.zero_line else values), max(values)
        # the first series is drawn last, on top; the letters over every line
        order = list(reversed(list(enumerate(self.series))))
        for n, s in order:
            xs = self.steps[:len(s.values)]
            if len(xs) > 1:
                plt.plot(xs, list(s.values), marker=line, color=COLORS[n % len(COLORS)])
        for n, s in order:
            xs = self.steps[:len(s.values)]
            plt.scatter(xs, list(s.values), marker=s.mark, color=COLORS[n % len(COLORS)])
        if self.zero_line and low < 0 < high:
            plt.horizontal_line(0)
        ticks = self._x_ticks(width)
        plt.xticks(ticks, [self._label(t) for t in ticks])
        if len(self.steps) == 1:
            plt.xlim(self.steps[0] - 1, self.steps[0] + 1)
        if all(float(v).is_integer() for v in values):
            y_ticks = whole_ticks(low, high, max(2, self.size.height // 3))
            plt.yticks(y_ticks, [str(t) for t in y_ticks])
        if self.x_label:
            plt.xlabel(self.x_label)

    def _x_ticks(self, width: int) -> list[int]:
        first, last = self.steps[0], self.steps[-1]
        longest = max((len(self._label(t)) for t in self.steps), default=2)
        most = max(2, (width - 8) // (longest + 3))
        ticks = whole_ticks(first, last, most)
        return [t for t in ticks if first <= t <= last]

    def _label(self, step: int) -> str:
        if self.labels is not None and step in self.steps:
            return self.labels[self.steps.index(step)]
        return str(step)

    def key(self) -> Text | None:
        """Each line's mark and name; lines that are the same as an earlier one all along
        (drawn under it, so their marks are hidden) are named after: "W, N same as Y". An
        entry is never broken across lines (the lines are made here, for the chart's width)."""
        entries: list[Text] = []
        hidden: dict[str, list[str]] = {}
        for n, s in enumerate(self.series):
            entry = Text()
            entry.append(s.mark, style=f"bold {COLORS[n % len(COLORS)]}")
            entry.append(f" {s.name}")
            entries.append(entry)
            same = next((o for o in self.series[:n] if o.values == s.values), None)
            if same is not None:
                hidden.setdefault(same.mark, []).append(s.mark)
        for mark, under in hidden.items():
            entries.append(Text(f"{', '.join(under)} same as {mark}", style="dim"))
        told = {m for under in hidden.values() for m in under}
        if self.seen is not None:  # as last drawn: a line none of whose marks shows
            gone = [x.mark for x in self.series if x.mark not in self.seen | told]
            if gone:
                entries.append(Text(f"{', '.join(gone)} under other marks", style="dim"))
        return lines_of(entries, max(20, self.size.width) if self.size.width else 10**6)


def lines_of(entries: Sequence[Text], width: int, gap: str = "   ") -> Text:
    """``entries`` one after the other, ``gap`` between them, a new line rather than an entry
    broken at the end of ``width``."""
    text = Text()
    used = 0
    for entry in entries:
        if used and used + len(gap) + entry.cell_len > width:
            text.append("\n")
            used = 0
        elif used:
            text.append(gap)
            used += len(gap)
        text.append_text(entry)
        used += entry.cell_len
    return text


FEW_BARS = 6
"""Upright bars are drawn as narrow as if there were this many at least."""

ZERO_MARK = "0"
"""Drawn where a bar of 0 would be (a bar of no length draws nothing)."""


class BarChart(Chart):
    """One bar per name, the value written after the name (``unit`` after it); a bar of 0
    is a ``0`` on the axis. Upright bars that would not leave room for their names are left
    out from the first ones. ``top``: the value axis runs to it at least (100 for percents)."""

    def __init__(self, names: Sequence[str], values: Sequence[float], *, unit: str = "",
                 decimals: int = 0, horizontal: bool = False, signed: bool = False,
                 top: float | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.names, self.values = list(names), list(values)
        self.unit, self.decimals, self.horizontal = unit, decimals, horizontal
        self.signed = signed  # values written with their sign: +2, -1, +0
        self.top = top

    def update(self, names: Sequence[str], values: Sequence[float]) -> None:
        self.names, self.values = list(names), list(values)
        self.redraw()

    def has_data(self) -> bool:
        return bool(self.values)

    def label(self, value: float) -> str:
        sign = "+" if self.signed else ""
        return f"{value:{sign}.{self.decimals}f}{self.unit}"

    def draw(self, plt: Any) -> None:
        names = [f"{n} {self.label(v)}" for n, v in zip(self.names, self.values)]
        values = list(self.values)
        if self.horizontal:  # plotext stacks them from the bottom: the first on top
            names, values = names[::-1], values[::-1]
        else:  # as many of the last bars as have room for their names
            room = max(1, (max(20, self.size.width) - 6) // (max(map(len, names)) + 2))
            names, values = names[-room:], values[-room:]
        glyph = "#" if self.ascii else BAR_GLYPH
        colors = [COLORS[0] if v >= 0 else COLORS[4] for v in values]
        plt.bar(names, values, marker=glyph, color=colors,
                orientation="horizontal" if self.horizontal else "vertical", width=0.5)
        zeros = [n + 1 for n, v in enumerate(values) if v == 0]  # plotext places bar n at n+1
        if zeros:
            at = [0.0] * len(zeros)
            xs, ys = (at, zeros) if self.horizontal else (zeros, at)
            plt.scatter(xs, ys, marker=ZERO_MARK, color=COLORS[0])
        low = math.floor(min(values + [0.0]))
        high = math.ceil(max(values + [0.0] + ([self.top] if self.top is not None else [])))
        if high == low:
            high = low + 1
        if self.horizontal:
            ticks = whole_ticks(low, high, max(2, (self.size.width - 20) // 8))
            plt.xlim(low, high)
            plt.xticks(ticks, [f"{t}{self.unit}" for t in ticks])
        else:
            ticks = whole_ticks(low, high, max(2, self.size.height // 3))
            plt.ylim(low, high)
            plt.yticks(ticks, [f"{t}{self.unit}" for t in ticks])
            # room for FEW_BARS at least: one bar is a bar, not a block across the chart
            extra = max(0, FEW_BARS - len(values)) / 2
            plt.xlim(0.5 - extra, len(values) + 0.5 + extra)


# --- the charts of the screens ---------------------------------------------------------------
class RunningTotals(LineChart):
    """Each seat's total after every deal of a game (from 0 before the first)."""

    def __init__(self, names: Sequence[str], totals_by_deal: Sequence[Sequence[int]],
                 **kwargs: Any) -> None:
        kwargs.setdefault("empty", "No deal is finished yet.")
        kwargs.setdefault("x_label", "deal")
        super().__init__(*self._series(names, totals_by_deal), **kwargs)

    @staticmethod
    def _series(names: Sequence[str], totals_by_deal: Sequence[Sequence[int]]
                ) -> tuple[list[Series], list[int]]:
        if not totals_by_deal:
            return [], []
        marks = marks_for(names)
        series = [Series(f"{name} {totals_by_deal[-1][seat]}", marks[seat],
                         tuple(float(v) for v in [0, *(row[seat] for row in totals_by_deal)]))
                  for seat, name in enumerate(names)]
        return series, list(range(len(totals_by_deal) + 1))

    def show(self, names: Sequence[str], totals_by_deal: Sequence[Sequence[int]]) -> None:
        self.update(*self._series(names, totals_by_deal))
