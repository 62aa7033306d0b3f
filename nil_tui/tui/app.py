"""NilApp: the screens, the global keys, the store, the theme."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from rich.markup import escape
from textual import events, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import ModalScreen, Screen

from ..driver import SUBSTITUTE, short_text
from ..engine import SEAT_NAMES
from ..options import PlayOptions, options_from_dict
from .messages import GameKept

if TYPE_CHECKING:
    from ..challenge import Progress, ReferenceNews
    from ..driver import DriverEvent, GameDriver, Opener
    from ..engine import Game
    from ..session.game_session import GameSession
    from ..session.reference import References
    from ..session.saving import Keeper
    from ..store import ChallengeFound, Store
    from .screens.dialogs import TooSmall


T = TypeVar("T")

MIN_WIDTH, MIN_HEIGHT = 80, 24
"""The smallest terminal the screens are laid out for: smaller, the game waits."""

LOOK = ("speed", "ascii", "four_color", "theme", "trick_pause", "auto_play")
"""The options that are the player's look of the table, not the game's: a resumed game takes
the player's current ones (its deals, bots, seed, challenge and meter are its own)."""


class ReferenceNewsArrived(Message):
    """The process working out a challenge's reference said something (from its thread)."""

    def __init__(self, date: str, news: ReferenceNews) -> None:
        super().__init__()
        self.date = date
        self.news = news


def describe_saved(record: dict[str, Any]) -> str:
    """The saved game in a few words: "deal 3 of 8, started 2026-11-30" (the deal it goes
    on with)."""
    from .words import resume_point

    created = str(record.get("created", ""))[:10]
    return resume_point(record) + (f", started {created}" if created else "")


def first_run() -> bool:
    """No data file yet: nothing has been kept, so there is nothing to read."""
    from ..paths import DB_NAME, default_home

    try:
        return not (default_home() / DB_NAME).exists()
    except Exception:  # noqa: BLE001 - when in doubt, open the store and read it
        return False


def open_store() -> Store:
    """The player's store, or one in memory when it cannot be opened at all."""
    from ..store import Store

    try:
        return Store.open()
    except Exception as exc:  # noqa: BLE001 - the game must start even without its store
        return Store.in_memory(f"{type(exc).__name__}: {exc}")


class NilApp(App[int]):
    """Zero (Nil) in the terminal. ``start`` is the first screen: setup, play, resume, replay,
    history, stats or challenge (of ``challenge_date``)."""

    CSS_PATH = "app.tcss"
    TITLE = "Zero"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "request_quit", "Quit", priority=True, show=False),
        Binding("ctrl+c", "request_quit", "Quit", priority=True, show=False),
        Binding("f1", "rules", "Rules", show=False),
    ]

    def __init__(self, start: str = "setup", options: PlayOptions | None = None,
                 game: Game | None = None, title: str | None = None,
                 store: Store | None = None, overrides: dict[str, Any] | None = None,
                 opener: Opener | None = None, challenge_date: str | None = None) -> None:
        super().__init__()
        self.opener = opener  # how bots are opened (default: the isolation layer)
        self.start = start
        self.options = options or PlayOptions()
        self.start_game_obj = game
        self.review_title = title
        self._store = store
        self.overrides = overrides
        self._keeper: Keeper | None = None
        self.session: GameSession | None = None  # the game in progress, when there is one
        self._too_small: TooSmall | None = None
        # A first run (no data file yet): the store is created right after the table's first
        # frame, and the settings of the game are kept then.
        self._store_later = False
        self._settings_later: PlayOptions | None = None
        self.challenge_date = challenge_date  # ``nil-tui challenge``: the date to open
        self._references: References | None = None  # the daily challenge's, once asked
        self.unsaved_file: Path | None = None  # where a game the store could not take went

    def compose(self) -> ComposeResult:
        """The default screen stays empty: the first screen shown (the table for ``play``)
        is pushed over it as soon as the app is up."""
        yield from ()

    # --- the store ------------------------------------------------------------------------
    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = open_store()
        return self._store

    @property
    def keeper(self) -> Keeper:
        """Where games go, and the truth about whether they got there."""
        if self._keeper is None:
            from ..session.saving import Keeper

            self._keeper = Keeper(lambda: self.store, self._tell_problem)
        return self._keeper

    @property
    def save_problem(self) -> str | None:
        """Why the game in progress is not saved, if it is not."""
        return self._keeper.problem if self._keeper is not None else None

    @property
    def driver(self) -> GameDriver | None:
        """The driver of the game in progress, when there is one."""
        return self.session.driver if self.session is not None else None

    def _guarded(self, what: str, call: Callable[[], T], failed: T) -> T:
        """Run a store call; an unexpected error becomes a plain problem, never a crash."""
        return self.keeper.guarded(what, call, failed)

    def _tell_problem(self, problem: str | None, was: str | None) -> None:
        """Say once when the game stops being saved, and when everything is written again."""
        if problem:
            self.notify(escape(problem), title="Not saved", severity="warning", timeout=8)
        elif was:
            from ..session.saving import SAVED_AGAIN

            self.notify(SAVED_AGAIN, timeout=4)

    def save_game(self, game: Game) -> bool:
        """Save the game in progress (with its session's options: its meter is its own)."""
        session = self.session
        options = session.play_options if session is not None else self.options
        return self.keeper.save(game, options)

    def save_now(self) -> None:
        """Save the game in progress at once (quitting, a closed terminal)."""
        if self.session is not None:
            self.save_game(self.session.game)

    def retry_saving(self) -> None:
        """Try again what could not be written, every second while the app runs; a finished
        game kept at last tells its screen where its record went."""
        for path in self.keeper.retry():
            self.post_message(GameKept(path))

    def finish_game(self, game: Game, options: PlayOptions) -> Path | None:
        """Keep a finished game in history; where its record file went, or None (it is kept
        as soon as the store can be written: :class:`GameKept` says where)."""
        return self.keeper.finish(game, options)

    def on_game_kept(self, message: GameKept) -> None:
        """Tell the game-over screen where the record went, once it could be written."""
        from .screens.challenge import ChallengeScreen
        from .screens.gameover import GameOverScreen

        for screen in self.screen_stack:
            if isinstance(screen, (GameOverScreen, ChallengeScreen)):
                screen.kept(message.path)

    @staticmethod
    def _options_dict(options: PlayOptions) -> dict[str, Any]:
        from ..session.saving import options_dict

        return options_dict(options)

    def save_settings(self, options: PlayOptions) -> None:
        """Keep the options of a game chosen in setup as the player's settings: setup shows
        them next time and ``nil-tui play`` starts from them. A command line's flags apply
        to their one game and are not kept."""
        if not options.from_setup:
            return
        settings = self._options_dict(options)
        del settings["from_setup"]
        settings["seed"] = None  # a seed belongs to one game, not to the player's settings
        settings["theme"] = options.theme or self.theme
        self._guarded("keep the settings", lambda: self.store.save_settings(settings), False)

    def load_options(self) -> PlayOptions:
        """The player's settings (over the options in use, never a challenge's date: a
        challenge is started as one, never by settings)."""
        from dataclasses import replace

        settings: dict[str, Any] = {} if self._store_later else self._guarded(
            "read the settings", self.store.load_settings, {})
        base = self.options
        if base.challenge is not None:  # its deals, bots and seed are its own; its look is not
            base = replace(PlayOptions(), speed=base.speed, ascii=base.ascii,
                           four_color=base.four_color, theme=base.theme,
                           auto_play=base.auto_play, trick_pause=base.trick_pause,
                           extra=base.extra)
        return options_from_dict(settings or {}, base)

    # --- start-up -------------------------------------------------------------------------
    def on_mount(self) -> None:
        self.set_interval(1.0, self.retry_saving)
        self._install_signals()
        if self.options.theme and self.options.theme in self.available_themes:
            self.theme = self.options.theme
        if self.start == "play":
            # The table is the first screen drawn. Pushed from here it would be drawn once
            # for nothing (Textual shows no frame while the app mounts), so it is built just
            # after.
            self.call_later(self._begin)
        else:
            self._begin()

    def _begin(self) -> None:
        if self.start == "play" and self._store is None and first_run():
            # Nothing is kept yet, so there are no settings and no saved game to read: the
            # table comes first, and the store is created right after its first frame.
            self._store_later = True
        elif self.start not in ("replay",):
            self._announce_store()
        if self.start == "play" and self.overrides is not None:
            from dataclasses import replace

            self.options = replace(self.load_options(), **self.overrides)
        # Drawn in ASCII from the first screen on (a question before the table too)
        from .ascii import use_ascii

        use_ascii(self, self.options.ascii)
        if self.start == "play":
            self.start_game(self.options)
        elif self.start == "resume":
            if not self.resume_saved():
                self.open_setup()
        elif self.start == "replay" and self.start_game_obj is not None:
            from .screens.review import ReviewScreen

            self.push_screen(ReviewScreen(self.start_game_obj, title=self.review_title))
        elif self.start == "history":
            self.open_history()
        elif self.start == "stats":
            self.open_stats()
        elif self.start == "challenge" and self.challenge_date is not None:
            self.start_challenge(self.challenge_date)
        else:
            self.open_setup()
        self._check_size()
        self.call_after_refresh(self.startup_over)

    @staticmethod
    def startup_over() -> None:
        """The first frame is drawn: garbage is collected again, if the launch turned that
        off while the app loaded. What exists now lasts as long as the app, so it is left out
        of later collections."""
        if not gc.isenabled():
            gc.freeze()
            gc.enable()

    def _announce_store(self) -> None:
        """Open the store and say what it found: damage, a lock, another nil-tui playing."""
        store = self.store
        for warning in store.warnings:
            self.notify(escape(warning), severity="warning", timeout=10)
        if store.is_secondary:
            self.notify("Another nil-tui is already playing: this one keeps its game in a "
                        "separate slot.", timeout=8)

    def table_shown(self) -> None:
        """The table has drawn its first frame: create the store of a first run (and say
        what it found), and keep the settings of the game that started."""
        self.startup_over()
        if self._store_later:
            self._store_later = False
            self._announce_store()
        options, self._settings_later = self._settings_later, None
        if options is not None:
            self.save_settings(options)

    def _install_signals(self) -> None:
        """SIGHUP, SIGTERM and a lost terminal save the game and end the app."""
        from .lifecycle import app_started

        app_started(self)

    def open_setup(self) -> None:
        from .screens.setup import SetupScreen

        saved = self._guarded("read the saved game", self.store.load_current, None)
        screen = SetupScreen(self.load_options(), saved)
        self._replace_stack(screen)

    def _replace_stack(self, screen: Any) -> None:
        """Show ``screen`` alone (over the default screen), keeping the size warning on top."""
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self._too_small = None
        self.push_screen(screen)
        self._check_size()

    def start_game(self, options: PlayOptions, *, replace_saved: bool = False) -> None:
        """A new game with these options. An unfinished saved game is never replaced
        silently: the player chooses to resume it, keep it in history and start anew, or
        cancel."""
        if not replace_saved and not self._store_later:  # a first run has no saved game
            saved = self._guarded("read the saved game", self.store.load_current, None)
            if saved is not None:
                from ..challenge import record_date
                from .screens.dialogs import ReplaceSaved

                self.push_screen(ReplaceSaved(describe_saved(saved[0]),
                                              saved_challenge=record_date(saved[0]),
                                              new_challenge=options.challenge),
                                 lambda answer: self._replace_answer(answer, options))
                return
        from ..session.starting import new_game

        self.options = options
        # From setup or the command line: the last settings used (on a first run, kept once
        # the table is drawn and the store created).
        if self._store_later:
            self._settings_later = options
        else:
            self.save_settings(options)
        self._play(new_game(options))

    def _replace_answer(self, answer: str | None, options: PlayOptions) -> None:
        if answer == "resume":
            if not self.resume_saved(look=options):
                self._back_to_setup()
        elif answer == "new":
            kept = self._guarded("keep the saved game", self.store.archive_current, None)
            if kept is None and self._guarded("read the saved game", self.store.load_current,
                                              None) is not None:
                self.notify("The saved game could not be moved to history, so it stays "
                            "saved; the new game was not started.", severity="error",
                            timeout=10)
                self._back_to_setup()
                return
            if kept is not None:
                self.notify("The unfinished game is kept in History (h in setup), where it "
                            "can be resumed.", timeout=6)
            self.start_game(options, replace_saved=True)
        else:
            self._back_to_setup()

    def _back_to_setup(self) -> None:
        """Setup, unless it is already the screen underneath."""
        from .screens.setup import SetupScreen

        if not isinstance(self.screen, SetupScreen):
            self.open_setup()

    def _play(self, game: Game) -> None:
        """Seat the bots of a new or resumed game, then show its table."""
        from ..session.game_session import open_session
        from ..session.starting import plugin_seats

        if self.session is not None:
            self.session.driver.close()
        self.options = self._options_of(game, self.options)
        self.session = session = open_session(
            game, self.options, opener=self.opener, save=self.save_game,
            save_problem=lambda: self.save_problem,
            on_finished=lambda done: self.finish_game(done, self.options))
        self._apply_look(self.options)
        if game.challenge is not None:
            self.title = f"Daily challenge {game.challenge['date']}"
            self.want_reference(game)
        else:
            self.title = self.TITLE
        plugins = plugin_seats(game)
        if plugins:
            self.open_plugins(session, plugins)
        else:
            self._show_table(session)

    @work(thread=True, exclusive=True, group="plugins")
    def open_plugins(self, session: GameSession, seats: list[int]) -> None:
        """Start the plugin bots' processes (in a thread: it takes a moment)."""
        failed = [(seat, error) for seat in seats
                  if (error := session.driver.open_seat(seat)) is not None]
        self.call_from_thread(self._substitute, session, failed)

    def _substitute(self, session: GameSession, failed: list[tuple[int, Exception]],
                    notes: tuple[DriverEvent, ...] = ()) -> None:
        """Ask the player which built-in level plays for each bot that cannot start."""
        if session is not self.session:
            return  # another game started meanwhile
        if not failed:
            self._show_table(session, notes)
            return
        from .screens.dialogs import ChooseSubstitute

        driver = session.driver
        (seat, error), rest = failed[0], failed[1:]
        spec = driver.spec_of(seat) or ""

        def chosen(level: str | None) -> None:
            level = level or SUBSTITUTE
            note = driver.replace_bot(seat, level, f"{spec} could not start "
                                      f"({short_text(error)}); {level} plays for it, as chosen")
            self._substitute(session, rest, (*notes, note))

        self.push_screen(ChooseSubstitute(SEAT_NAMES[seat], spec, short_text(error)), chosen)

    def _show_table(self, session: GameSession, notes: tuple[DriverEvent, ...] = ()) -> None:
        from dataclasses import replace

        from ..driver import seat_specs
        from .screens.table import TableScreen

        specs = seat_specs(session.game)
        bots = tuple(spec or SUBSTITUTE for spec in specs[1:])
        self.options = replace(self.options, bots=(bots[0], bots[1], bots[2]))
        session.options = self.options
        self._replace_stack(TableScreen(session, notes))

    def get_key_display(self, binding: Binding) -> str:
        """Keys as the footers show them; with ASCII suits, in ASCII too ("enter", not a
        symbol)."""
        shown = super().get_key_display(binding)
        if self.options.ascii and not shown.isascii():
            return binding.key.split(",")[0]
        return shown

    def _apply_look(self, options: PlayOptions) -> None:
        # ASCII suits: the footers' keys and their separator drawn in ASCII too (app.tcss)
        self.set_class(options.ascii, "-ascii")
        if not options.theme or options.theme == self.theme:
            return
        if options.theme in self.available_themes:
            self.theme = options.theme
        else:
            known = ", ".join(sorted(self.available_themes))
            self.notify(f"No theme called {escape(repr(options.theme))} (themes: {known}).",
                        severity="warning", timeout=8)

    def look_now(self, look: PlayOptions | None = None) -> dict[str, Any]:
        """The player's look as options: those of ``look`` (the look chosen on screen, or
        given for a new game) or else the player's settings (the keys they have)."""
        if look is not None:
            return {key: getattr(look, key) for key in LOOK}
        settings: dict[str, Any] = self._guarded("read the settings",
                                                 self.store.load_settings, {})
        return {key: settings[key] for key in LOOK if key in settings}

    def resume_saved(self, look: PlayOptions | None = None) -> bool:
        """Continue the saved game exactly where it stopped, in the player's look now (see
        :meth:`look_now`); False when there is none."""
        from ..engine import Game, RecordError

        saved = self._guarded("read the saved game", self.store.load_current, None)
        if not saved:
            return False
        record, opts = saved
        try:
            game = Game.from_record(record)
        except (RecordError, ValueError, TypeError, KeyError) as exc:
            reason = str(exc)
            kept = self._guarded("set the saved game aside",
                                 lambda: self.store.set_aside_current(reason), None)
            where = f" It was kept as {kept}." if kept else ""
            self.notify(escape(f"The saved game cannot be resumed: {reason}.{where}"),
                        severity="error", timeout=12)
            return False
        data = dict(opts) if isinstance(opts, dict) else {}
        data.update(self.look_now(look))
        self.options = self._options_of(game, options_from_dict(data, self.options))
        if game.is_over:
            self.finish_game(game, self.options)
            return False
        self._play(game)
        return True

    def resume_from_history(self, game_id: int, look: PlayOptions | None = None) -> None:
        """Make an unfinished game from history the saved game (the one saved until now
        goes to history in its place) and continue it (in ``look``, see
        :meth:`resume_saved`)."""
        reopened = self._guarded("reopen the game", lambda: self.store.reopen(game_id), None)
        if reopened is None:
            self.notify("That game could not be reopened.", severity="error")
            return
        if not self.resume_saved(look):
            self.notify("That game could not be resumed.", severity="error")

    def open_history(self) -> None:
        from .screens.history import HistoryScreen

        self.push_screen(HistoryScreen(self.store))

    def open_stats(self) -> None:
        from .screens.stats import StatsScreen

        self.push_screen(StatsScreen(self.store))

    # --- the daily challenge ----------------------------------------------------------------
    @staticmethod
    def _options_of(game: Game, options: PlayOptions) -> PlayOptions:
        from ..session.starting import options_of

        return options_of(game, options)

    def start_challenge(self, date: str, look: PlayOptions | None = None) -> None:
        """The challenge of ``date``: its result when it is finished, where it stopped when
        it is under way (saved, or set aside in history), else a new one (a saved game of
        another kind is never replaced silently: see :meth:`start_game`). ``look``: the
        options whose look (speed, suits, colours, theme) the table takes; default the
        player's settings."""
        from dataclasses import replace

        from ..challenge import CHALLENGE_BOTS, CHALLENGE_DEALS, challenge_seed, is_future

        if is_future(date):
            self.notify(f"The challenge of {date} opens on that day.", severity="warning",
                        timeout=8)
            self._back_to_setup()
            return
        found = self._guarded("look for the challenge",
                              lambda: self.store.find_challenge(date), None)
        if found is not None and self._open_found_challenge(date, found, look):
            return
        base = look if look is not None else self.load_options()
        self.start_game(replace(base, challenge=date, deals=CHALLENGE_DEALS,
                                bots=CHALLENGE_BOTS, seed=challenge_seed(date), meter=False,
                                from_setup=False))

    def _open_found_challenge(self, date: str, found: ChallengeFound,
                              look: PlayOptions | None = None) -> bool:
        """Continue or show a challenge the store knows (in ``look``, see
        :meth:`resume_saved`); False when it cannot be opened (a new one is then dealt: the
        same cards)."""

        from ..engine import Game, RecordError

        where, game_id = found["where"], found["id"]  # (a row, or a dict before rows)
        if where == "current":
            saved = self._guarded("read the saved game", self.store.load_current, None)
            if saved is None:
                return False
            try:
                game = Game.from_record(saved[0])
            except (RecordError, ValueError, TypeError, KeyError):
                return self.resume_saved(look)  # it says why and sets the record aside
            if game.is_over:  # finished but not yet moved to history
                self.options = self._options_of(game, options_from_dict(
                    self.look_now(look), self.options))
                path = self.finish_game(game, self.options)
                self.show_challenge(game, path)
                return True
            return self.resume_saved(look)
        if not isinstance(game_id, int):
            # Finished here and still waiting to be written: the game is the one just played.
            just = self.keeper.waiting(date) or (
                self.session.game if self.session is not None else None)
            if (just is not None and just.is_over and just.challenge is not None
                    and just.challenge["date"] == date):
                self.show_challenge(just, None, played=False)
                return True
            return False
        if not found["finished"]:
            self.resume_from_history(game_id, look)
            return True
        record = self._guarded("read the challenge", lambda: self.store.load_record(game_id),
                               None)
        finished: Game | None = None
        try:
            finished = Game.from_record(record) if record is not None else None
        except (RecordError, ValueError, TypeError, KeyError) as exc:
            self.notify(escape(f"The challenge of {date} cannot be read: {exc}"),
                        severity="error", timeout=10)
        if finished is None or finished.challenge is None:
            self._back_to_setup()
            return True
        self.show_challenge(finished, None, played=False)
        return True

    def show_challenge(self, game: Game, path: Path | None, *, played: bool = True) -> None:
        """The comparison of a finished challenge with the expert's play from the player's
        seat (worked out now if it is not known yet)."""
        self._replace_stack(self.challenge_screen(game, path, played=played))

    def challenge_screen(self, game: Game, path: Path | None, problem: str | None = None, *,
                         played: bool = True) -> Screen[Any]:
        from .screens.challenge import ChallengeScreen

        self.want_reference(game)
        return ChallengeScreen(game, self.options, path, problem, played=played)

    def game_over_screen(self, game: Game, options: PlayOptions, path: Path | None,
                         problem: str | None) -> Screen[Any]:
        """What follows a game's last card: the game-over screen, or for a daily challenge
        its comparison with the expert."""
        if game.challenge is not None:
            return self.challenge_screen(game, path, problem)
        from .screens.gameover import GameOverScreen

        return GameOverScreen(game, options, path, problem)

    @property
    def references(self) -> References:
        """The daily challenge's references (the expert's points), worked out apart."""
        if self._references is None:
            from ..session.reference import References

            self._references = References(
                self.keeper, post=lambda date, news: self.post_message(
                    ReferenceNewsArrived(date, news)),
                tell=self._tell_challenge_screens,
                playing=lambda: self.session.game if self.session is not None else None,
                save=self.save_game)
        return self._references

    @property
    def reference_progress(self) -> dict[str, Progress]:
        return self.references.progress

    @property
    def reference_failed(self) -> dict[str, str]:
        return self.references.failed

    def known_reference(self, game: Game) -> list[int] | None:
        return self.references.known(game)

    def want_reference(self, game: Game) -> None:
        self.references.want(game)

    def on_reference_news_arrived(self, message: ReferenceNewsArrived) -> None:
        self.references.news(message.date, message.news)

    def _tell_challenge_screens(self, date: str, points: list[int] | None = None) -> None:
        from .screens.challenge import ChallengeScreen

        for screen in self.screen_stack:
            if isinstance(screen, ChallengeScreen) and screen.date == date:
                screen.reference_news(points)

    # --- global keys ----------------------------------------------------------------------
    def action_rules(self) -> None:
        from .screens.rules import RulesScreen

        if not isinstance(self.screen, (RulesScreen, ModalScreen)):
            self.push_screen(RulesScreen())

    def _game_in_progress(self) -> bool:
        from .screens.table import TableScreen

        return any(isinstance(s, TableScreen) and s.in_progress for s in self.screen_stack)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette's commands; its Quit asks first during a game, as q does."""
        for command in super().get_system_commands(screen):
            if command.callback == self.action_quit:
                command = command._replace(help="Quit nil-tui (asks first during a game; "
                                           "the game is saved)",
                                           callback=self.action_request_quit)
            yield command

    def action_command_palette(self) -> None:
        """The command palette, unless one is open already: under a dialog (Ctrl+C opened
        the quit question above it), a second one would clash with it (the same id)."""
        from textual.command import CommandPalette

        if not any(isinstance(s, CommandPalette) for s in self.screen_stack):
            super().action_command_palette()

    def action_request_quit(self) -> None:
        from .screens.dialogs import ConfirmQuit

        if isinstance(self.screen, ConfirmQuit):
            return
        if self._game_in_progress():
            self.save_now()
            self.push_screen(ConfirmQuit(self.save_problem), self._quit_answer)
        else:
            self.exit(0)

    def _quit_answer(self, answer: bool | None) -> None:
        if answer:
            self.save_now()
            self.exit(0)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not self.screen_stack:
            return  # a key that arrives while the app is closing has nowhere to go
        await super().on_event(event)

    # --- terminal size --------------------------------------------------------------------
    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int | None = None, height: int | None = None) -> None:
        if width is None or height is None:
            width, height = self.size
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        if small and self._too_small is None:
            from .screens.dialogs import TooSmall

            self._too_small = TooSmall((MIN_WIDTH, MIN_HEIGHT))
            self.push_screen(self._too_small)
        elif not small and self._too_small is not None:
            screen, self._too_small = self._too_small, None
            if self.screen is screen:
                self.pop_screen()
            else:
                screen.stale = True  # under a dialog: it leaves when it comes back on top

    def on_unmount(self) -> None:
        from .lifecycle import close_in_background

        session = getattr(self, "session", None)
        if session is not None:  # stop the bots (plugin processes) without waiting for them
            close_in_background(session.driver.close)
        references = getattr(self, "_references", None)
        if references is not None:
            references.stop()
        store = self._store
        if store is not None:
            with contextlib.suppress(Exception):
                self.unsaved_file = store.close()  # the program's last line names it
