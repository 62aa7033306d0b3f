"""Command line: ``nil-tui`` (setup), ``play``, ``resume``, ``replay``, ``rules``, ``simulate``.

Every user error is one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn

from . import __version__, argtypes
from .options import BOT_SEATS, SPEEDS, PlayOptions

EXIT_USAGE = 2


class UsageError(Exception):
    """A bad argument or input file: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser(with_simulate: bool = True) -> argparse.ArgumentParser:
    """The parser; ``with_simulate=False`` leaves out the simulator's own options (and its
    imports), for a quicker start of the other commands."""
    parser = _Parser(prog="nil-tui", description="Zero (Nil): the trick-taking game where "
                     "nobody wants a trick. With no command, opens the setup screen.")
    parser.add_argument("--version", action="version", version=f"nil-tui {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    play = sub.add_parser("play", help="start a game at once, skipping setup")
    play.add_argument("--deals", type=argtypes.deals, default=None, metavar="N",
                      help="number of deals, 1-99 (default 8)")
    play.add_argument("--difficulty", metavar="LEVEL", default=None,
                      help="bot level for all three seats (easy, normal, hard, expert, or a "
                      "plugin bot)")
    play.add_argument("--bots", metavar="W=SPEC,N=SPEC,E=SPEC", default=None,
                      help="bot per seat, e.g. W=easy,N=hard,E=expert")
    play.add_argument("--seed", type=argtypes.seed, default=None,
                      help="seed for a reproducible game")
    play.add_argument("--speed", choices=SPEEDS, default=None, help="pause after plays")
    play.add_argument("--ascii", action="store_true", default=None,
                      help="draw suits as S H D C")
    play.add_argument("--four-color", action="store_true", default=None,
                      help="four-colour deck (clubs green, diamonds blue)")
    play.add_argument("--theme", default=None, help="a Textual theme name")

    sub.add_parser("resume", help="continue the saved game")
    replay = sub.add_parser("replay", help="open a game record in the review screen")
    replay.add_argument("file", metavar="FILE", help="a .json record (or .jsonl: its first "
                        "record)")
    sub.add_parser("rules", help="print the rules")
    sub.add_parser("history", help="browse finished games")
    sub.add_parser("stats", help="show your statistics")

    simulate = sub.add_parser("simulate", help="bots-only games, headless")
    if with_simulate:
        from . import sim

        sim.add_arguments(simulate)
    return parser


def parse_bots(difficulty: str | None, bots: str | None,
               default: tuple[str, str, str]) -> tuple[str, str, str]:
    """Bot specs for West, North, East from ``--difficulty`` and ``--bots``."""
    if difficulty is None and bots is None:
        # The saved (or default) levels: the app plays the nearest installed level if one is
        # gone, so nothing is imported here before the first frame.
        return default
    from .bots import BotSpecError, check_spec
    from .options import fallback_spec

    # Saved settings may name a level that is gone: play the nearest one instead. Levels
    # named on this command line must exist.
    chosen = [fallback_spec(spec) for spec in default]
    if difficulty is not None:
        chosen = [difficulty.strip()] * 3
    if bots is not None:
        for part in bots.split(","):
            seat, eq, spec = part.partition("=")
            seat = seat.strip().upper()
            if not eq or seat not in BOT_SEATS or not spec.strip():
                raise UsageError(f"--bots: expected W=SPEC,N=SPEC,E=SPEC, got {part!r}")
            chosen[BOT_SEATS[seat] - 1] = spec.strip()
    for spec in chosen:
        try:
            check_spec(spec)
        except BotSpecError as exc:
            raise UsageError(str(exc)) from None
    return (chosen[0], chosen[1], chosen[2])


def load_record_file(path: str) -> dict:
    """The first record of a .json or .jsonl file, as a dict; UsageError if unreadable."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read it ({exc})") from None
    stripped = text.strip()
    if not stripped:
        raise UsageError(f"{path}: the file is empty")
    try:
        if path.endswith(".jsonl"):
            stripped = stripped.splitlines()[0]
        data = json.loads(stripped)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not a JSON game record ({exc.msg} at line {exc.lineno}, "
                         f"column {exc.colno})") from None
    return data  # type: ignore[no-any-return]


def _run(args: argparse.Namespace) -> int:
    command = args.command
    if command == "rules":
        from .paths import asset_text

        sys.stdout.write(asset_text("RULES.txt"))
        return 0
    if command == "simulate":
        from . import sim

        return sim.run(args)
    if command == "replay":
        from .engine import Game, RecordError

        record = load_record_file(args.file)
        try:
            game = Game.from_record(record)
        except RecordError as exc:
            raise UsageError(f"{args.file}: not a valid game record: {exc}") from None
        from .tui import launch

        return launch.replay(game, source=args.file)
    from .tui import launch

    if command == "resume":
        return launch.resume()
    if command == "history":
        return launch.history()
    if command == "stats":
        return launch.stats()
    if command == "play":
        # What the command line says; the rest comes from the last settings, which the app
        # reads after its first frame (the store is not opened before it).
        overrides: dict[str, object] = {"seed": args.seed}
        if args.deals:
            overrides["deals"] = args.deals
        if args.difficulty is not None or args.bots is not None:
            overrides["bots"] = parse_bots(args.difficulty, args.bots,
                                           PlayOptions().bots)
        if args.speed:
            overrides["speed"] = args.speed
        if args.ascii:
            overrides["ascii"] = True
        if args.four_color:
            overrides["four_color"] = True
        if args.theme:
            overrides["theme"] = args.theme
        return launch.play_command(overrides)
    return launch.setup()


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(with_simulate="simulate" in words)
    args = parser.parse_args(words)
    try:
        return _run(args)
    except UsageError as exc:
        prog = "nil-tui" + (f" {args.command}" if args.command else "")
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
