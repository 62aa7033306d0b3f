"""Command line: ``nil-tui`` (setup), ``play``, ``resume``, ``replay``, ``rules``, ``simulate``.

Every user error is one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from .. import __version__
from ..game.options import (
    CURSOR_STOPS,
    SCORINGS,
    SPEEDS,
    OptionError,
    PlayOptions,
    PlayOverrides,
    as_cursor,
    as_scoring,
    as_speed,
)
from ..tui import first_frame
from ..util import argtypes
from ..util.argtypes import UsageError
from ..util.textsafe import OutputError, SafeStream, layout, one_line, write_err, write_out
from .bot_flags import parse_bots
from .recordfile import MAX_RECORD_BYTES, load_game

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = ["MAX_RECORD_BYTES", "OutputError", "UsageError", "build_parser", "load_game",
           "main", "write_out"]

EXIT_USAGE = 2
EXIT_BROKEN_PIPE = 141  # what a shell reports for a program stopped by SIGPIPE (128 + 13)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line: an argument argparse quotes as typed may hold a newline or a CR.
        self.exit(EXIT_USAGE, f"{self.prog}: error: {one_line(message)} "
                  f"(see {self.prog} --help)\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse drops write errors silently: --help > /dev/full would "succeed".
        if not message:
            return
        if file is None or file is sys.stderr:
            if sys.stderr is not None:
                try:
                    sys.stderr.write(layout(message))  # an unknown argument is quoted as typed
                except OSError:
                    pass
            return
        write_out(message)


SETUP_DEFAULT = "as last chosen in setup, else"  # how play's flags say their default


def build_parser(with_simulate: bool = True, only: str | None = None) -> argparse.ArgumentParser:
    """The parser; ``with_simulate=False`` leaves out the simulator's own options (and its
    imports), and ``only`` (a command's name) builds that command alone, for a quicker
    start: the command line names its command first, so no other is needed to read it."""
    parser = _Parser(prog="nil-tui", description="Zero (Nil): the trick-taking game where "
                     "nobody wants a trick. With no command, opens the setup screen.")
    parser.add_argument("--version", action="version", version=f"nil-tui {__version__}")
    add_text_flags(parser, "setup's choices as questions, then the game")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, add in _COMMANDS.items():
        if only is None or name == only:
            add(sub, with_simulate)
    return parser


def add_text_flags(parser: argparse.ArgumentParser, what: str) -> None:
    """``--text`` (plain lines, for a screen reader or a braille display) and ``--cards``."""
    parser.add_argument("--text", action=argparse.BooleanOptionalAction, default=None,
                        help=f"plain lines instead of the full screen: {what} (for a screen "
                        "reader or a braille display; also without a terminal)")
    parser.add_argument("--cards", choices=("words", "codes", "symbols"), default=None,
                        help="with --text, how cards are said: queen of hearts, QH or Q♥ "
                        "(default: words)")


def _add_play(sub: Any, _: bool) -> None:
    play = sub.add_parser(
        "play", help="start a game at once, skipping setup",
        description="Start a game at once. What a flag leaves out comes from the last game "
        "started in setup (or the built-in default); the flags apply to this game only, and "
        "setup keeps its own choices.")
    play.add_argument("--deals", type=argtypes.deals, default=None, metavar="N",
                      help=f"number of deals, 1-99 (default: {SETUP_DEFAULT} 8)")
    play.add_argument("--difficulty", metavar="LEVEL", default=None,
                      help="bot level for all three seats: easy, normal, hard, expert, or a "
                      f"plugin bot (default: {SETUP_DEFAULT} normal)")
    play.add_argument("--bots", metavar="W=SPEC,N=SPEC,E=SPEC", default=None,
                      help="bot per seat, e.g. W=easy,N=hard,E=expert (a seat left out "
                      "plays at the --difficulty level, else normal)")
    play.add_argument("--scoring", choices=SCORINGS, default=None,
                      help="how deals are scored: classic, or pool (the original game's: "
                      "points paid into a pool that a clean player collects; see nil-tui "
                      "rules)")
    play.add_argument("--seed", type=argtypes.seed, default=None,
                      help="seed for a reproducible game (default: a random game)")
    play.add_argument("--speed", choices=SPEEDS, default=None,
                      help="how long bots and finished tricks pause: instant (not at all), "
                      f"fast, normal or slow (default: {SETUP_DEFAULT} normal)")
    play.add_argument("--ascii", action=argparse.BooleanOptionalAction, default=None,
                      help="draw suits as S H D C, or (--no-ascii) as symbols (default: "
                      f"{SETUP_DEFAULT} symbols)")
    play.add_argument("--four-color", action=argparse.BooleanOptionalAction, default=None,
                      help="four-colour deck: clubs green, diamonds blue (default: "
                      f"{SETUP_DEFAULT} two colours)")
    play.add_argument("--auto-play", action=argparse.BooleanOptionalAction, default=None,
                      help="play a card for you when it is the only one you may play, or "
                      f"(--no-auto-play) wait for you (default: {SETUP_DEFAULT} on)")
    play.add_argument("--cursor", choices=CURSOR_STOPS, default=None,
                      help="where the cursor in your hand stops on your turn: playable (only "
                      "on the cards you may play) or every (on every card, those you may not "
                      f"play dimmed) (default: {SETUP_DEFAULT} playable)")
    play.add_argument("--wait-after-trick", action=argparse.BooleanOptionalAction,
                      default=None, help="after each trick, wait for a key, or "
                      "(--no-wait-after-trick) pause briefly by speed (default: "
                      f"{SETUP_DEFAULT} pause briefly)")
    play.add_argument("--theme", default=None, type=theme,
                      help="a Textual theme name, e.g. nord, gruvbox, textual-light, or "
                      "high-contrast (white and yellow on black) "
                      f"(default: {SETUP_DEFAULT} textual-dark)")
    play.add_argument("--meter", action=argparse.BooleanOptionalAction, default=None,
                      help="show your chance to stay clean on your seat line (the game then "
                      f"counts as assisted) (default: {SETUP_DEFAULT} off)")
    add_text_flags(play, "the game in lines, typed commands")


def _add_resume(sub: Any, _: bool) -> None:
    add_text_flags(sub.add_parser("resume", help="continue the saved game"),
                   "the game in lines")


def _add_replay(sub: Any, _: bool) -> None:
    replay = sub.add_parser("replay", help="open a game record in the review screen")
    replay.add_argument("file", metavar="FILE", help="a .json record (or .jsonl: its first "
                        "record)")
    add_text_flags(replay, "every card of the game, deal by deal")


def _add_rules(sub: Any, _: bool) -> None:
    add_text_flags(sub.add_parser("rules", help="print the rules"), "the rules, as without it")


def _add_history(sub: Any, _: bool) -> None:
    add_text_flags(sub.add_parser("history", help="browse finished games"),
                   "the games in history, one line each")


def _add_stats(sub: Any, _: bool) -> None:
    add_text_flags(sub.add_parser("stats", help="show your statistics"),
                   "your statistics in lines")


def _add_challenge(sub: Any, _: bool) -> None:
    challenge = sub.add_parser(
        "challenge", help="play the daily challenge: the day's deals against three experts",
        description="The daily duplicate challenge: the same deals for everyone on a date, "
        "against three expert bots, then compared deal by deal with the expert playing your "
        "seat. Hints, undo and the meter are off. Playing a date again resumes it, or shows "
        "its result once finished.")
    challenge.add_argument("--date", type=argtypes.date, default=None, metavar="YYYY-MM-DD",
                           help="the challenge of another date (default: today)")
    add_text_flags(challenge, "the challenge in lines, then the comparison")


def _add_analyse(sub: Any, _: bool) -> None:
    analyse = sub.add_parser(
        "analyse", help="the expert's view of each of a player's cards in a game record",
        description="Analyse the plays of one seat in a game record: for each card played, "
        "the expert's estimate of that seat's points for the rest of the deal with each "
        "legal card, from what the seat could see at the time, and what the card cost "
        "against the best.")
    analyse.add_argument("record", metavar="RECORD", help="a .json record or a .jsonl file "
                         "of records")
    analyse.add_argument("--game", type=argtypes.game_number, default=1, metavar="N",
                         help="which record of a .jsonl file, from 1 (default: 1)")
    analyse.add_argument("--seat", type=argtypes.seat, default=None, metavar="S",
                         help="the seat to analyse: 0-3 or S, W, N, E (default: the human "
                         "seat; required for a record of bots only)")
    analyse.add_argument("--deal", type=argtypes.deals, default=None, metavar="D",
                         help="analyse only deal D, from 1 (default: every deal)")
    analyse.add_argument("--json", action="store_true",
                         help="print the analysis as JSON instead of a table")
    analyse.add_argument("--jobs", type=argtypes.jobs, default=None, metavar="J",
                         help="worker processes (default: the number of cores, at most 4)")
    add_text_flags(analyse, "one line per card played, no table")


def _add_host(sub: Any, _: bool) -> None:
    from . import table

    table.add_host_parser(sub)


def _add_join(sub: Any, _: bool) -> None:
    from . import table

    table.add_join_parser(sub)


def _add_serve(sub: Any, _: bool) -> None:
    from . import serve

    serve.add_parser(sub)


def _add_simulate(sub: Any, with_simulate: bool) -> None:
    simulate = sub.add_parser("simulate", help="bots-only games, headless")
    if with_simulate:
        from ..game import sim

        sim.add_arguments(simulate)


# The commands in the order --help lists them, each with what adds it to the parser.
_COMMANDS: dict[str, Callable[[Any, bool], None]] = {
    "play": _add_play, "resume": _add_resume, "replay": _add_replay, "rules": _add_rules,
    "history": _add_history, "stats": _add_stats, "challenge": _add_challenge,
    "analyse": _add_analyse, "host": _add_host, "join": _add_join, "serve": _add_serve,
    "simulate": _add_simulate,
}


def theme(name: str) -> str:
    """A built-in Textual theme name (Textual's theme list is imported for this flag only)."""
    from textual.theme import BUILTIN_THEMES

    from ..tui.contrast import THEMES

    known_themes = set(BUILTIN_THEMES) | {added.name for added in THEMES}
    if name not in known_themes:
        known = ", ".join(sorted(known_themes))
        raise argparse.ArgumentTypeError(f"no theme called {argtypes.shown(name)} "
                                          f"(themes: {known})")
    return name


def resume() -> int:
    """``nil-tui resume``. When there is nothing to resume, say what the store found (a
    damaged file set aside, and where it went) before saying so."""
    from ..tui import launch

    try:
        from ..store import LOCKED, Store

        store = Store.open()
    except Exception:  # noqa: BLE001 - the app opens its own store, in memory if need be
        return launch.resume()
    try:
        saved = store.load_current()
        if not saved:
            unreadable = store.unreadable  # a lock or an unknown version: not "no game"
            warnings = [w for w in store.warnings if w not in (LOCKED, unreadable)]
            warnings += [unreadable] if unreadable else []
            for line in warnings:
                write_err(f"nil-tui resume: {line}")
            if warnings and not any(str(store.home) in line for line in warnings):
                write_err(f"nil-tui resume: (the data folder is {store.home})")
            if unreadable is None:
                write_err("nil-tui resume: there is no saved game (start one with nil-tui play)")
            return 1
    finally:
        # Warnings not read here are handed to the app's own store, which shows them.
        store.close()
    return launch.resume()


def _run(args: argparse.Namespace) -> int:
    # A command that draws the app starts quickly (no garbage collection), the imports
    # before the app included, until the app's first frame; any other, or the plain lines,
    # with the collection on (switched back on here too when no frame came).
    if args.command in APP_COMMANDS and not getattr(args, "text", False):
        first_frame.quick_start()
    else:
        first_frame.quick_start_over()
    try:
        if _in_lines(args):
            first_frame.quick_start_over()
            return _run_lines(args)
        return _run_command(args)
    finally:
        first_frame.quick_start_over()


def _run_command(args: argparse.Namespace) -> int:
    command = args.command
    if command == "rules":
        from ..util.paths import asset_text

        write_out(asset_text("RULES.txt"))
        return 0
    if command == "simulate":
        from ..game import sim

        # Its messages quote file names and bot specs: nothing in them reaches a terminal.
        err = sys.stderr
        sys.stderr = SafeStream(err) if err is not None else err
        try:
            return sim.run(args)
        finally:
            sys.stderr = err
    if command == "serve":
        from . import serve

        return serve.run(args)
    if command == "replay":
        game = load_game(args.file)
        from ..tui import launch

        return launch.replay(game, source=one_line(args.file))  # the title: shown as text
    if command == "resume":
        return resume()
    if command in ("host", "join"):
        from . import table

        return table.run(args)
    if command == "analyse":
        from . import analyse

        return analyse.run(args)
    from ..tui import launch

    if command == "history":
        return launch.history()
    if command == "stats":
        return launch.stats()
    if command == "challenge":
        return launch.challenge(challenge_date(args.date))
    if command == "play":
        return launch.play_command(play_overrides(args))
    return launch.setup()


LINE_COMMANDS = (None, "play", "resume", "challenge", "history", "stats", "replay", "rules")
"""The commands with a form in plain lines (``--text``)."""

APP_COMMANDS = (None, "play", "resume", "challenge", "history", "stats", "replay")
"""The commands that draw the full-screen app (:mod:`nil_tui.tui.launch`), unless in lines."""


def _in_lines(args: argparse.Namespace) -> bool:
    """``--text``, or ``nil-tui`` alone with no terminal to draw on: plain lines (a browser
    tab of ``nil-tui serve`` has no terminal either, but draws the app in the page)."""
    if args.command not in LINE_COMMANDS:
        return False
    if getattr(args, "text", False):
        return True
    from ..tui.browser import in_browser

    return args.command is None and not _terminal() and not in_browser()


def _terminal() -> bool:
    try:
        return (sys.stdin is not None and sys.stdout is not None and sys.stdin.isatty()
                and sys.stdout.isatty())
    except (OSError, ValueError):
        return False


def _run_lines(args: argparse.Namespace) -> int:
    """A command in plain lines (``nil_tui.lines``)."""
    from ..lines import commands as lines

    cards = getattr(args, "cards", None) or "words"
    command = args.command
    if command == "play":
        return lines.play(play_overrides(args), cards)
    if command == "resume":
        return lines.resume(cards)
    if command == "challenge":
        return lines.challenge(challenge_date(args.date), cards)
    if command == "replay":
        return lines.replay(load_game(args.file), cards)
    if command in ("history", "stats", "rules"):
        return lines.show(command)
    return lines.setup(cards)


def challenge_date(date: str | None) -> str | None:
    """``--date`` of ``nil-tui challenge``: a day that has come (the player's calendar)."""
    if date is not None:
        from ..game import daily_challenge as challenge

        if date > challenge.today():
            raise UsageError(f"the challenge of {date} opens on that day")
    return date


def play_overrides(args: argparse.Namespace) -> PlayOverrides:
    """What ``nil-tui play``'s command line says, for this game only; the rest comes from the
    settings last chosen in setup, which the app reads after its first frame (the store is
    not opened before it)."""
    bots = None
    if args.difficulty is not None or args.bots is not None:
        bots = parse_bots(args.difficulty, args.bots, PlayOptions().bots)
    wait = args.wait_after_trick
    try:
        return PlayOverrides(
            seed=args.seed, deals=args.deals or None, bots=bots,
            speed=None if args.speed is None else as_speed(args.speed),
            ascii=args.ascii, four_color=args.four_color, auto_play=args.auto_play,
            trick_pause=None if wait is None else ("key" if wait else "brief"),
            theme=args.theme, meter=args.meter,
            scoring=None if args.scoring is None else as_scoring(args.scoring),
            cursor=None if args.cursor is None else as_cursor(args.cursor))
    except OptionError as exc:
        raise UsageError(str(exc)) from None


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    prog = "nil-tui"
    try:
        try:
            # The command comes first: only its own options are built (``nil-tui --help``
            # and anything else that does not start with a command get them all).
            only = words[0] if words and words[0] in _COMMANDS else None
            parser = build_parser(with_simulate="simulate" in words, only=only)
            args = parser.parse_args(words)
            if args.command:
                prog = f"nil-tui {args.command}"
            code = _run(args)
        except SystemExit as exc:  # argparse: --help, --version and its errors
            code = exc.code if isinstance(exc.code, int) else EXIT_USAGE
        if sys.stdout is not None:
            sys.stdout.flush()
        return code
    except UsageError as exc:
        write_err(f"{prog}: error: {exc}")
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as other tools do.
        _drop_stdout()
        return EXIT_BROKEN_PIPE
    except (OutputError, OSError) as exc:
        if isinstance(exc, OSError) and not _is_stdout_error():
            raise
        write_err(f"{prog}: error: {exc if isinstance(exc, OutputError) else OutputError(exc)}")
        _drop_stdout()
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


def _is_stdout_error() -> bool:
    """Whether standard output can no longer be flushed (the OSError came from it)."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError:
        return True
    return False


def _drop_stdout() -> None:
    """Point standard output at /dev/null so Python's own flush at exit has nothing to fail
    on (it would print a second error)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        if sys.stdout is not None:
            os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
