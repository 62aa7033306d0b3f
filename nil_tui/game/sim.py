"""Headless bot-only matches (the ``simulate`` command) and their statistics.

A match is ``games`` games of ``deals`` deals between four bot specs given by seat (the
lineup). With ``rotate`` (the duplicate format) every game is played four times, the lineup
turned one seat further each time, on the same cut and the same hands, so every bot plays
every seat's cards and the luck of the deal cancels out.

Game i's seed is derived from the match seed, and each bot's seed from its game's seed and its
position in the lineup, so a match is reproduced exactly by its seed, with any ``jobs``.

Only the engine and the standard library are imported at the top: the app's command line
builds its parser from this module.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, TextIO, cast

from ..bots.safety import DEFAULT_TIME_CAP
from ..engine import SEAT_NAMES, Game
from ..engine.game import DEFAULT_DEALS, MAX_DEALS
from ..engine.scoring import CLASSIC, SCORINGS
from ..util import argtypes

EXIT_USAGE = 2
DEFAULT_BOTS = "easy,easy,easy,easy"
DEFAULT_GAMES = 10


# --- the command line ---------------------------------------------------------------------
def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``nil-tui simulate``."""
    parser.description = ("Bots-only games, headless. Prints per bot: deals played, points per "
                          "deal, edge over the other seats in the same deals (both with 95% "
                          "confidence intervals), share of deals it stayed clean, games lost.")
    parser.add_argument("--bots", default=DEFAULT_BOTS, metavar="A,B,C,D",
                        help="four bot specs by seat, South first: levels (easy, normal, "
                        "hard, expert), installed plugin names or package.module:Name "
                        f"(default {DEFAULT_BOTS})")
    parser.add_argument("--games", type=argtypes.games, default=DEFAULT_GAMES, metavar="G",
                        help=f"games to play, 1-{argtypes.MAX_GAMES} (default {DEFAULT_GAMES}; "
                        "with --rotate each is played 4 times)")
    parser.add_argument("--deals", type=argtypes.deals, default=DEFAULT_DEALS, metavar="N",
                        help=f"deals per game, 1-{MAX_DEALS} (default {DEFAULT_DEALS})")
    parser.add_argument("--scoring", choices=SCORINGS, default=CLASSIC,
                        help="how deals are scored: classic (the default) or pool (the "
                        "original game's: points paid into a pool a clean player collects; "
                        "see nil-tui rules)")
    parser.add_argument("--seed", type=argtypes.seed, default=None, metavar="S",
                        help="match seed, 0 to 2**64-1; the same seed and bots replay the same "
                        "games (default: random, printed in the summary)")
    parser.add_argument("--rotate", action="store_true",
                        help="duplicate format: play every game once per rotation of the "
                        "lineup, on the same cards")
    parser.add_argument("--records", metavar="FILE.jsonl", default=None,
                        help="write every game played as one record per line (a new or "
                        "regular file: it is replaced)")
    parser.add_argument("--jobs", type=argtypes.jobs, default=1, metavar="J",
                        help=f"processes to spread the games over, 1-{argtypes.MAX_JOBS} (same "
                        "results as 1)")
    parser.add_argument("--json", action="store_true",
                        help="print the summary as JSON")
    parser.add_argument("--time-cap", type=argtypes.seconds, default=DEFAULT_TIME_CAP,
                        metavar="SECONDS", dest="time_cap",
                        help="a bot's time per decision before a safe card is played for it "
                        f"(default {DEFAULT_TIME_CAP:g}, at most {argtypes.MAX_TIME_CAP:g}; 0 "
                        "means no cap, which is faster)")


def run(args: argparse.Namespace) -> int:
    """Run ``nil-tui simulate``; user errors are one line on stderr and exit status 2, and so
    is a records file or an output that cannot be written."""
    from ..bots import BotSpecError, check_spec
    from ..bots.players import set_start_notice
    from ..util.textsafe import OutputError, write_out

    # A plugin is loaded in its own process before the match (given up after 10 s): when
    # that takes a while, say so.
    set_start_notice(lambda text: print(f"nil-tui simulate: {text}", file=sys.stderr,
                                        flush=True))
    try:
        specs = parse_lineup(args.bots)
        for spec in dict.fromkeys(specs):
            check_spec(spec)
    except BotSpecError as exc:
        return _usage(f"--bots: {exc}")
    except ValueError as exc:
        return _usage(str(exc))
    finally:
        set_start_notice(None)
    seed = new_match_seed() if args.seed is None else args.seed
    records: _RecordsFile | None = None
    if args.records is not None:
        try:
            records = _RecordsFile(args.records)
        except _RecordsError as exc:
            return _usage(str(exc))
    try:
        result = run_match(specs, args.games, args.deals, seed, rotate=args.rotate,
                           jobs=args.jobs, time_cap=args.time_cap or None,
                           records_file=cast(TextIO, records), progress=sys.stderr.isatty(),
                           scoring=args.scoring)
        if records is not None:
            records.close()
    except BotSpecError as exc:
        return _usage(f"--bots: {exc}")
    except _RecordsError as exc:
        return _usage(str(exc))
    except KeyboardInterrupt:
        print("nil-tui simulate: interrupted", file=sys.stderr)
        return 130
    finally:
        if records is not None:
            records.abandon()
    text = json.dumps(result.to_json(), indent=2) if args.json else result.summary()
    try:
        write_out(text + "\n")
    except OutputError as exc:
        return _usage(str(exc))
    return 0


class _RecordsError(Exception):
    """The records file cannot be written: one line naming the file and why."""


class _RecordsFile:
    """``--records``: checked up front (a new or regular file that takes a write), then
    written one line per game; a failed write raises _RecordsError instead of an OSError."""

    def __init__(self, path: str) -> None:
        import os
        import stat

        self.path = path
        if not path:
            raise _RecordsError("--records: expected a file name, got ''")
        flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NONBLOCK", 0)
        try:
            if os.path.exists(path) and not stat.S_ISREG(os.stat(path).st_mode):
                raise _RecordsError(f"--records: cannot write {path} (not a regular file: "
                                    "give a file name)")
            fd = os.open(path, flags, 0o666)
        except (OSError, ValueError) as exc:
            raise self._error(exc) from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise _RecordsError(f"--records: cannot write {path} (not a regular file: "
                                    "give a file name)")
            # A file that takes no bytes (/proc, a full disk) is refused before any game.
            os.ftruncate(fd, 0)
            os.write(fd, b"\n")
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            self._out: TextIO | None = os.fdopen(fd, "w", encoding="utf-8")
        except _RecordsError:
            os.close(fd)
            raise
        except OSError as exc:
            os.close(fd)
            raise self._error(exc) from None

    def _error(self, exc: BaseException) -> _RecordsError:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return _RecordsError(f"--records: cannot write {self.path} ({why})")

    def write(self, text: str) -> int:
        assert self._out is not None
        try:
            written = self._out.write(text)
            self._out.flush()
        except OSError as exc:
            raise self._error(exc) from None
        return written

    def close(self) -> None:
        """Close after the match; a failure to write the end of the file is an error."""
        out, self._out = self._out, None
        if out is not None:
            try:
                out.close()
            except OSError as exc:
                raise self._error(exc) from None

    def abandon(self) -> None:
        """Close without reporting (after another error, or when already closed)."""
        out, self._out = self._out, None
        if out is not None:
            try:
                out.close()
            except OSError:
                pass


def _usage(message: str) -> int:
    from ..util.textsafe import write_err

    write_err(f"nil-tui simulate: error: {message}")  # one line: it may quote a file name
    return EXIT_USAGE


def parse_lineup(text: str) -> tuple[str, str, str, str]:
    """Four bot specs from ``A,B,C,D``; ValueError naming the problem otherwise."""
    specs = [part.strip() for part in text.split(",")]
    if len(specs) != 4:
        raise ValueError(f"--bots: expected 4 bot specs separated by commas (one per seat), "
                         f"got {len(specs)}: {text!r}")
    for k, spec in enumerate(specs):
        if not spec:
            raise ValueError(f"--bots: the spec for seat {k} ({SEAT_NAMES[k]}) is empty")
    return (specs[0], specs[1], specs[2], specs[3])


# --- seeds ----------------------------------------------------------------------------------
def new_match_seed() -> int:
    return random.SystemRandom().randrange(2**32)


def game_seed(match_seed: int, game: int) -> int:
    """The seed of game ``game`` (0-based) of a match: a 48-bit number derived from both."""
    digest = hashlib.sha256(f"nil-tui-sim:{match_seed}:{game}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


# --- playing one game -----------------------------------------------------------------------
@dataclass(frozen=True)
class GameTask:
    """One game to play: game ``game`` of the match in ``rotation`` (0 unless rotating)."""

    game: int
    rotation: int
    seed: int
    specs: tuple[str, str, str, str]  # the lineup: spec by position
    deals: int
    time_cap: float | None
    keep_record: bool
    scoring: str = CLASSIC

    def position(self, seat: int) -> int:
        """Lineup position of the bot in ``seat``: rotation r moves position k to seat k+r."""
        return (seat - self.rotation) & 3


@dataclass(frozen=True)
class GameOutcome:
    """What the statistics need from one game, plus its record when asked for."""

    game: int
    rotation: int
    positions: tuple[int, int, int, int]  # lineup position by seat
    points: tuple[tuple[int, int, int, int], ...]  # per deal, by seat
    taken: tuple[tuple[int, int, int, int], ...]  # per deal, by seat
    losers: tuple[int, ...]
    incidents: int  # decisions played for a failing bot
    record: dict[str, Any] | None


def player_names(names: Sequence[str]) -> list[str]:
    """Bot names for the record, numbered by lineup position when a name repeats."""
    return [f"{n} {k + 1}" if names.count(n) > 1 else n for k, n in enumerate(names)]


def play_game(task: GameTask) -> GameOutcome:
    """Play one game between bots through the game driver (bots isolated as in the app)."""
    from ..bots import seat_seed
    from .driver import GameDriver, default_opener

    positions = (task.position(0), task.position(1), task.position(2), task.position(3))
    players = [{"name": task.specs[k], "kind": "bot", "bot": task.specs[k]} for k in positions]
    game = Game(deals_planned=task.deals, seed=task.seed, players=players,
                scoring=task.scoring)
    # A bot's seed follows its lineup position, so it plays the same in every rotation.
    seeds = [seat_seed(task.seed, k) for k in positions]
    with GameDriver(game, opener=default_opener(task.time_cap), seeds=seeds) as driver:
        driver.open_bots()
        by_position = {positions[s]: driver.player_name(s) for s in range(4)}
        names = player_names([by_position[k] for k in range(4)])
        for s, k in enumerate(positions):
            game.players[s]["name"] = names[k]
        driver.run()
    points = tuple(d.points for d in game.deals)
    taken = tuple(d.taken for d in game.deals)
    return GameOutcome(task.game, task.rotation, positions, points, taken,
                       game.losers, len(game.incidents),
                       game.to_record() if task.keep_record else None)


def match_tasks(specs: Sequence[str], games: int, deals: int, seed: int, rotate: bool,
                time_cap: float | None, keep_record: bool,
                scoring: str = CLASSIC) -> list[GameTask]:
    """Every game of a match, in the order they are reported and recorded."""
    lineup = (specs[0], specs[1], specs[2], specs[3])
    rotations = range(4) if rotate else range(1)
    return [GameTask(i, r, game_seed(seed, i), lineup, deals, time_cap, keep_record, scoring)
            for i in range(games) for r in rotations]


# --- statistics -----------------------------------------------------------------------------
# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom; 1.96 beyond.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def mean_ci95(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% confidence interval (Student's t) of independent values; the interval
    is the mean itself when there are fewer than two values."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = math.fsum(values) / n
    if n < 2:
        return (mean, mean, mean)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    t = _T95[n - 2] if n - 1 <= len(_T95) else 1.96
    half = t * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


@dataclass
class BotStats:
    """One bot spec's results over a match (all the seats it held, added together).

    ``deals`` and ``games`` count seat-deals and seat-games: a spec in two seats plays each
    deal twice. Confidence intervals treat each deal of the match (with its rotations) as one
    independent sample, since rotations of the same cards are not independent of each other.
    """

    spec: str
    seats: int
    deals: int = 0
    games: int = 0
    games_lost: int = 0
    clean_deals: int = 0
    # per deal of the match (game, deal number): [sum of points, sum of edges, count]
    by_deal: dict[tuple[int, int], list[float]] = field(default_factory=dict)

    def add_deal(self, key: tuple[int, int], points: int, edge: float, clean: bool) -> None:
        self.deals += 1
        self.clean_deals += clean
        cell = self.by_deal.setdefault(key, [0.0, 0.0, 0])
        cell[0] += points
        cell[1] += edge
        cell[2] += 1

    def _per_deal(self, column: int) -> list[float]:
        return [cell[column] / cell[2] for _, cell in sorted(self.by_deal.items())]

    @property
    def points(self) -> tuple[float, float, float]:
        """Mean points per deal with the 95% interval."""
        return mean_ci95(self._per_deal(0))

    @property
    def edge(self) -> tuple[float, float, float]:
        """Mean of (its points minus the mean of the other three seats' points), with CI."""
        return mean_ci95(self._per_deal(1))

    @property
    def clean_share(self) -> float:
        return self.clean_deals / self.deals if self.deals else 0.0

    def to_json(self) -> dict[str, Any]:
        pts, pts_lo, pts_hi = self.points
        edge, edge_lo, edge_hi = self.edge
        return {
            "seats": self.seats,
            "deals": self.deals,
            "points_per_deal": _round(pts),
            "points_ci95": [_round(pts_lo), _round(pts_hi)],
            "edge": _round(edge),
            "edge_ci95": [_round(edge_lo), _round(edge_hi)],
            "clean_share": _round(self.clean_share),
            "games": self.games,
            "games_lost": self.games_lost,
        }


def _round(x: float) -> float:
    return round(x, 6)


@dataclass
class MatchResult:
    """The statistics of a match, per bot spec (in lineup order of first appearance)."""

    specs: tuple[str, str, str, str]
    seed: int
    rotate: bool
    games: int = 0  # games played, each rotation counted
    scoring: str = CLASSIC
    deals: int = 0  # deals played, each rotation counted
    incidents: int = 0  # decisions a failing bot had played for it
    bots: dict[str, BotStats] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for spec in self.specs:
            if spec not in self.bots:
                self.bots[spec] = BotStats(spec, self.specs.count(spec))

    def add(self, outcome: GameOutcome) -> None:
        from ..bots.heuristic import edge

        self.games += 1
        self.deals += len(outcome.points)
        by_seat = [self.bots[self.specs[outcome.positions[s]]] for s in range(4)]
        for d, (points, taken) in enumerate(zip(outcome.points, outcome.taken)):
            for s in range(4):
                by_seat[s].add_deal((outcome.game, d), points[s], edge(points, s),
                                    taken[s] == 0)
        for s in range(4):
            by_seat[s].games += 1
            by_seat[s].games_lost += s in outcome.losers
        self.incidents += outcome.incidents

    def to_json(self) -> dict[str, Any]:
        out = {
            "games": self.games,
            "deals": self.deals,
            "seed": self.seed,
            "rotate": self.rotate,
            "bots": {spec: stats.to_json() for spec, stats in self.bots.items()},
        }
        if self.scoring != CLASSIC:  # (a classic match's summary is as it always was)
            out["scoring"] = self.scoring
        return out

    def summary(self) -> str:
        """The result as a table for people."""
        lineup = ", ".join(f"{SEAT_NAMES[s]} {spec}" for s, spec in enumerate(self.specs))
        fmt = "rotated lineup" if self.rotate else "fixed seats"
        lines = [
            (f"{self.games} games, {self.deals} deals ({fmt}); seed {self.seed} "
             f"(repeat with --seed {self.seed})"
             + ("; pool scoring" if self.scoring != CLASSIC else "")),
            f"lineup: {lineup}",
            "",
        ]
        width = max(4, *(len(spec) for spec in self.bots))
        lines.append(f"{'bot':<{width}}  seats  deals  {'points/deal (95% CI)':<24}  "
                     f"{'edge (95% CI)':<26}  clean  games lost")
        for spec, st in self.bots.items():
            pts, pts_lo, pts_hi = st.points
            edge, edge_lo, edge_hi = st.edge
            lost = f"{st.games_lost}/{st.games}"
            if st.games:
                lost += f" ({st.games_lost / st.games:.0%})"
            lines.append(
                f"{spec:<{width}}  {st.seats:>5}  {st.deals:>5}  "
                f"{f'{pts:.3f} [{pts_lo:.3f}, {pts_hi:.3f}]':<24}  "
                f"{f'{edge:+.3f} [{edge_lo:+.3f}, {edge_hi:+.3f}]':<26}  "
                f"{st.clean_share:>5.1%}  {lost}")
        if self.incidents:
            lines.append("")
            lines.append(f"{self.incidents} decisions were played for failing bots "
                         "(see the records' incidents)")
        return "\n".join(lines)


# --- running a match ------------------------------------------------------------------------
def _outcomes(tasks: list[GameTask], jobs: int, play: Callable[[GameTask], GameOutcome]
              ) -> Generator[GameOutcome, None, None]:
    """Play the tasks with ``play``, yielding outcomes in task order (processes when ``jobs``
    > 1)."""
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield play(task)
        return
    yield from _in_workers(tasks, min(jobs, len(tasks)), play)


class WorkerDied(RuntimeError):
    """A worker process of the match ended in the middle of a game (killed from outside)."""


def _in_workers(tasks: list[GameTask], size: int, play: Callable[[GameTask], GameOutcome]
                ) -> Iterator[GameOutcome]:
    """The games played by ``size`` worker processes (forked: they start at once and share
    what this one has loaded), each fed one game at a time; outcomes in task order.

    A worker never outlives the match: the kernel ends it as soon as this process ends, in
    whatever way (``PR_SET_PDEATHSIG``), and a thread of it leaves as soon as a pipe whose
    other end only this process holds (the lifeline) reaches its end (where the kernel
    cannot). Ctrl-C reaches the whole terminal's process group: workers ignore it, and this
    process ends them at once. Their plugins' processes watch them and end with them."""
    import os

    from ..bots.players import shutdown
    from ..util.processes import WorkerGone, WorkerPool

    shutdown(0.2)  # the plugin processes of this process (the check of the specs) go:
    # a worker must not inherit their pipes
    lifeline = os.pipe()
    try:
        with WorkerPool(size, "fork", _work, (lifeline, os.getpid(), play),
                        name="nil-tui simulate", kill=True) as pool:
            done: dict[int, GameOutcome] = {}
            following = 0
            try:
                for k, outcome in pool.results(tasks):
                    if isinstance(outcome, BaseException):
                        raise outcome
                    done[k] = outcome
                    while following in done:
                        yield done.pop(following)
                        following += 1
            except WorkerGone:
                raise WorkerDied("a simulate worker stopped unexpectedly") from None
    finally:
        for fd in lifeline:
            try:
                os.close(fd)
            except OSError:
                pass


def _work(conn: Any, lifeline: tuple[int, int], parent: int,
          play: Callable[[GameTask], GameOutcome]) -> None:
    """A worker's life: play the games that come down the pipe until it closes."""
    import os
    import signal
    import threading

    from ..util.processes import die_with_parent, serve_tasks

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is not None:  # held back while it started (ignored from now on)
        mask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if not die_with_parent(parent):
        os._exit(0)
    os.close(lifeline[1])  # the write end of the lifeline stays in the parent only

    def watch() -> None:
        try:
            while os.read(lifeline[0], 1):
                pass
        except OSError:
            pass
        os._exit(0)

    threading.Thread(target=watch, name="parent watch", daemon=True).start()
    serve_tasks(conn, play, lambda exc: exc)  # a game's exception: the parent raises it


class _Progress:
    """A one-line progress bar on stderr (used only when stderr is a terminal)."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        self.done = 0

    def step(self) -> None:
        self.done += 1
        filled = 30 * self.done // self.total
        self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] "
                          f"{self.done}/{self.total} games")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\r" + " " * 60 + "\r")
        self.stream.flush()


def _check_match(specs: Sequence[str], games: int, deals: int, seed: int, jobs: int,
                 time_cap: float | None) -> None:
    """ValueError (TypeError for a seed that is not a number) for a match that cannot be
    played."""
    if len(specs) != 4:
        raise ValueError(f"a match needs 4 bot specs, got {len(specs)}")
    for name, value in (("games", games), ("jobs", jobs)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a whole number of at least 1, not {value!r}")
    if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= MAX_DEALS:
        raise ValueError(f"deals must be a whole number from 1 to {MAX_DEALS}, not {deals!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be a whole number, not {seed!r}")
    if time_cap is not None and not time_cap > 0:
        raise ValueError(f"time_cap must be a positive number of seconds or None, not "
                         f"{time_cap!r}")


def _check_part(scoring: str, first_game: int, games: int) -> None:
    """ValueError unless the scoring is known and ``first_game`` is one of the match's."""
    if scoring not in SCORINGS:
        raise ValueError(f"scoring must be one of {', '.join(SCORINGS)}, not {scoring!r}")
    if isinstance(first_game, bool) or not isinstance(first_game, int) \
            or not 0 <= first_game < games:
        raise ValueError(f"first_game must be a whole number from 0 to {games - 1}, not "
                         f"{first_game!r}")


def _count(result: MatchResult, outcome: GameOutcome, out: IO[str] | None,
           bar: _Progress | None) -> None:
    """One game's outcome counted, its record written (in game order), the bar moved on."""
    result.add(outcome)
    if out is not None and outcome.record is not None:
        out.write(json.dumps(outcome.record, separators=(",", ":")) + "\n")
    if bar is not None:
        bar.step()


def run_match(specs: Sequence[str], games: int, deals: int, seed: int, rotate: bool = False,
              jobs: int = 1, time_cap: float | None = DEFAULT_TIME_CAP,
              records_path: str | None = None, progress: bool = False, *,
              records_file: TextIO | None = None, scoring: str = CLASSIC,
              done: Sequence[GameOutcome] = (),
              on_game: Callable[[GameOutcome], None] | None = None,
              play: Callable[[GameTask], GameOutcome] = play_game,
              first_game: int = 0) -> MatchResult:
    """Play a match and return its statistics.

    ``specs`` are four bot specs by lineup position (= seat without rotation). Records go to
    ``records_path`` (a new .jsonl file) or an open ``records_file``, one game per line, in
    game order. ``scoring``: "classic" or "pool" (``engine/scoring.py``). ``done``: outcomes of
    games of this same match played before (a match resumed); they are counted, not played
    again (and have no record). ``on_game`` is called with each game's outcome as soon as it
    is played. ``play`` plays one game (``play_game``, or a benchmark's function that also
    measures something of it; forked workers run it). ``first_game``: the games before it are
    left out, neither played nor counted (a long match shared among several runs, each with
    its own range; a game's cards depend only on the seed and its number). Raises ValueError
    for bad counts and BotSpecError for bad specs.
    """
    _check_match(specs, games, deals, seed, jobs, time_cap)
    _check_part(scoring, first_game, games)
    lineup = (specs[0], specs[1], specs[2], specs[3])
    own_file = records_file is None and records_path is not None
    out = open(records_path, "w", encoding="utf-8") if own_file else records_file  # type: ignore[arg-type]  # noqa: SIM115
    tasks = [t for t in match_tasks(lineup, games, deals, seed, rotate, time_cap,
                                    out is not None, scoring) if t.game >= first_game]
    known = {(o.game, o.rotation): o for o in done}
    played = _outcomes([t for t in tasks if (t.game, t.rotation) not in known], jobs, play)
    result = MatchResult(lineup, seed, rotate, scoring=scoring)
    bar = _Progress(len(tasks), sys.stderr) if progress else None
    try:
        for task in tasks:
            outcome = known.get((task.game, task.rotation))
            if outcome is None:
                outcome = next(played)
                if on_game is not None:
                    on_game(outcome)
            _count(result, outcome, out, bar)
    finally:
        played.close()  # the workers end with it
        if bar is not None:
            bar.close()
        if own_file and out is not None:
            out.close()
    return result


__all__ = ["BotStats", "GameOutcome", "GameTask", "MatchResult", "add_arguments", "game_seed",
           "mean_ci95", "play_game", "run", "run_match"]
