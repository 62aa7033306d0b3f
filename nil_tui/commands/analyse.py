"""``nil-tui analyse``: the analysis of one seat's plays in a game record, printed.

For each deal: the plays that cost 0.1 points or more, in words, then a table of every
decision (the card played, the best card, the cost and each legal card's expected points),
the deal's total and the game's. ``--json`` prints the same as one JSON document
(docs/ANALYSIS.md). Every user error is one line and exit status 2 (``UsageError``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import TYPE_CHECKING, Any, TextIO

from ..util.argtypes import UsageError
from ..util.textsafe import write_out
from . import recordfile

if TYPE_CHECKING:
    from ..analysis import Budget, DealAnalysis, Decision
    from ..engine import Game

REPORT_FORMAT = "nil-tui-game-analysis"
REPORT_VERSION = 1
WIDTH = 100  # the table's lines are wrapped at this width
BUDGET: Budget | None = None  # the search's budget (None: the analysis's default)


# --- reading the record ----------------------------------------------------------------------
def read_record(path: str, number: int = 1) -> dict[str, Any]:
    """Record ``number`` (1-based) of a record file, as a dict (``recordfile.read_record``)."""
    return recordfile.read_record(path, number)


def load_game(path: str, number: int = 1) -> Game:
    """Game ``number`` of a record file, checked play by play by the engine."""
    return recordfile.load_game(path, number)


def human_seat(game: Game) -> int:
    """The record's one human seat; UsageError (saying to pass --seat) otherwise."""
    humans = game.human_seats
    if len(humans) == 1:
        return humans[0]
    if not humans:
        raise UsageError("the record has no human seat: pass --seat S to say whose plays "
                             "to analyse (0-3 or S, W, N, E)")
    raise UsageError(f"the record has {len(humans)} human seats: pass --seat S to say "
                         "whose plays to analyse (0-3 or S, W, N, E)")


# --- the command -----------------------------------------------------------------------------
def run(args: argparse.Namespace) -> int:
    game = load_game(args.record, args.game)
    seat = human_seat(game) if args.seat is None else args.seat
    played = len(game.deals)
    if args.deal is not None and args.deal > played:
        raise UsageError(f"--deal {args.deal}: the record has {_deals(played)}")
    deals = [args.deal] if args.deal is not None else list(range(1, played + 1))
    from ..analysis import DEFAULT_BUDGET, analyse_game

    bar = _Progress(sys.stderr) if _is_terminal(sys.stderr) else None
    try:
        found = analyse_game(game, seat, deals, jobs=args.jobs,
                             progress=None if bar is None else bar.show,
                             budget=BUDGET or DEFAULT_BUDGET)
    finally:
        if bar is not None:
            bar.clear()
    assert found is not None  # nothing asks it to stop
    you = seat in game.human_seats
    if args.json:
        write_out(json.dumps(report(game, seat, found, args.game), indent=2) + "\n")
    elif getattr(args, "text", False):  # plain lines, one per card (nil_tui.lines)
        from ..lines.cards import CardWords
        from ..lines.commands import analysis_lines

        words = CardWords(getattr(args, "cards", None) or "words")
        lines = analysis_lines(game, seat, found, you, words)
        write_out("\n".join(lines) + "\n")
    else:
        write_out(table(game, seat, found, you, ascii=not _can_write_suits()))
    return 0


def _deals(n: int) -> str:
    return f"{n} deal" if n == 1 else f"{n} deals"


def _is_terminal(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (OSError, ValueError):
        return False


def _can_write_suits() -> bool:
    try:
        "♣♦♥♠±".encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class _Progress:
    """A one-line progress bar on stderr, when stderr is a terminal."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.shown = False

    def show(self, done: int, total: int) -> None:
        filled = 30 * done // max(1, total)
        self._write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} decisions")
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self._write("\r" + " " * 60 + "\r")

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            pass


# --- output ------------------------------------------------------------------------------------
def report(game: Game, seat: int, analyses: list[DealAnalysis], number: int = 1
           ) -> dict[str, Any]:
    """The JSON document of ``--json`` (docs/ANALYSIS.md)."""
    from ..analysis import ANALYSIS_VERSION
    from ..engine import SEAT_NAMES

    total = math.fsum(a.total_cost for a in analyses)
    se = math.sqrt(math.fsum(a.total_cost_se ** 2 for a in analyses))
    return {
        "format": REPORT_FORMAT,
        "version": REPORT_VERSION,
        "analysis_version": ANALYSIS_VERSION,
        "game": number,
        "seat": seat,
        "seat_name": SEAT_NAMES[seat],
        "player": game.names[seat],
        "deals": [a.to_json() for a in analyses],
        "total_cost": round(total, 4),
        "total_cost_se": round(se, 4),
    }


def table(game: Game, seat: int, analyses: list[DealAnalysis], you: bool,
          ascii: bool = False) -> str:
    """The analysis as text: per deal the costly plays in words, then every decision."""
    from ..analysis.words import deal_headline
    from ..engine import SEAT_NAMES

    name = SEAT_NAMES[seat]
    subject = None if you else name
    whose = "your" if you else f"{name}'s"
    player = game.names[seat]
    seen = f" ({name}, {player})" if player != name else ""
    lines = [(f"Analysis of {whose} plays{seen}: the expected points for the rest of each "
              f"deal with each card, from what {'you' if you else name} could see at the "
              "time.")]
    pm = "+/-" if ascii else "±"
    for a in analyses:
        lines.append("")
        lines.append(deal_headline(game, a, you))
        costly = a.costly()
        if costly:
            lines.append("Costly plays:")
            lines.extend("  " + d.sentence(ascii=ascii, subject=subject) for d in costly)
        elif a.decisions:
            lines.append("No play cost 0.1 points or more.")
        if a.decisions:
            lines.append("Trick  Played  Best  Cost            Expected points with each card")
            lines.extend(_row(d, ascii, pm) for d in a.decisions)
            lines.append(f"Cost of {whose} plays in deal {a.deal}: {a.total_cost:.2f} points "
                         f"({pm} {a.total_cost_se:.2f})")
    if len(analyses) > 1:
        total = math.fsum(a.total_cost for a in analyses)
        se = math.sqrt(math.fsum(a.total_cost_se ** 2 for a in analyses))
        lines.append("")
        lines.append(f"Cost of {whose} plays in {len(analyses)} deals: {total:.2f} points "
                     f"({pm} {se:.2f})")
    return "\n".join(lines) + "\n"


def _row(d: Decision, ascii: bool, pm: str) -> str:
    played = d.played.pretty(ascii)
    if d.forced:
        best = "-"
        cost = d.no_choice or ""
        cards = ""
    else:
        best = d.best.pretty(ascii)
        cost = f"{d.cost:.2f} {pm} {d.cost_se:.2f}"
        cards = "  ".join(f"{o.card.pretty(ascii)} {o.points:.2f}" for o in d.options)
    head = f"{d.trick:>5}  {played:<6}  {best:<4}  {cost:<14}  "
    return _wrap(head, cards)


def _wrap(head: str, text: str) -> str:
    """``head`` then ``text``, continued on lines indented as far as the head is wide."""
    if not text:
        return head.rstrip()
    room = max(20, WIDTH - len(head))
    lines: list[str] = []
    line = ""
    for item in text.split("  "):
        if line and len(line) + 2 + len(item) > room:
            lines.append(line)
            line = item
        else:
            line = f"{line}  {item}" if line else item
    lines.append(line)
    return head + ("\n" + " " * len(head)).join(lines)
