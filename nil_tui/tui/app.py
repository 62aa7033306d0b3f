"""NilApp: the screens, the global keys, the theme, the terminal's size."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.markup import escape
from textual import events
from textual.app import SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen, Screen

from ..game.options import PlayOptions, PlayOverrides
from ..session.home import LOOK, first_run, open_store
from . import first_frame, opening
from .ascii import use_ascii
from .guarded_app import GuardedApp
from .messages import GameKept, ReferenceNewsArrived
from .textual_private import replaceable
from .words import describe_saved  # (kept here for the callers of before)

if TYPE_CHECKING:
    from ..engine import Game
    from ..game.driver import GameDriver, Opener
    from ..session.game_session import GameSession
    from ..session.home import AskReplace, Home
    from ..store import Store
    from .face import Opening
    from .screens.dialogs import TooSmall


MIN_WIDTH, MIN_HEIGHT = 80, 24
"""The smallest terminal the screens are laid out for: smaller, the game waits."""

__all__ = ["LOOK", "MIN_HEIGHT", "MIN_WIDTH", "NilApp", "describe_saved", "first_run",
           "open_store"]


class NilApp(GuardedApp):
    """Zero (Nil) in the terminal. ``start`` is the first screen: setup, play, resume, replay,
    history, stats or challenge (of ``challenge_date``). The app keeps the screens, the keys,
    the theme and the size; what a game opens and where it is kept is decided by its
    :class:`~nil_tui.session.home.Home`. Its first screen is pushed over an empty one as soon
    as the app is up, or is ``play``'s table itself (:meth:`get_default_screen`)."""

    CSS_PATH = "app.tcss"
    TITLE = "Zero"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "request_quit", "Quit", priority=True, show=False),
        Binding("ctrl+c", "request_quit", "Quit", priority=True, show=False),
        Binding("f1", "rules", "Rules", show=False),
    ]

    def __init__(self, start: Opening = "setup", options: PlayOptions | None = None,
                 game: Game | None = None, title: str | None = None,
                 store: Store | None = None, overrides: PlayOverrides | None = None,
                 opener: Opener | None = None, challenge_date: str | None = None) -> None:
        from ..session.home import Home
        from ..session.saving import Keeper

        super().__init__()
        from .contrast import THEMES

        for added in THEMES:
            self.register_theme(added)
        self.start = start
        self.start_game_obj = game
        self.review_title = title
        self._store = store
        self.overrides = overrides
        self.home: Home = Home(
            Keeper(lambda: self.store, self._tell_problem), options or PlayOptions(),
            opener=opener, tell_reference=self._tell_challenge_screens,
            reference_news=lambda date, news: self.post_message(
                ReferenceNewsArrived(date, news)))
        self._too_small: TooSmall | None = None
        self.challenge_date = challenge_date  # ``nil-tui challenge``: the date to open
        self.unsaved_file: Path | None = None  # where a game the store could not take went
        self._opened: GameSession | AskReplace | None = None  # play's, if not shown at once

    # --- the options, the game, the store (held by the home) ------------------------------
    @property
    def options(self) -> PlayOptions:
        return self.home.options

    @options.setter
    def options(self, options: PlayOptions) -> None:
        self.home.options = options

    @property
    def session(self) -> GameSession | None:
        """The game in progress, when there is one."""
        return self.home.session

    @property
    def driver(self) -> GameDriver | None:
        """The driver of the game in progress, when there is one."""
        return self.session.driver if self.session is not None else None

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = open_store()
        return self._store

    @property
    def save_problem(self) -> str | None:
        """Why the game in progress is not saved, if it is not."""
        return self.home.keeper.problem

    def _tell_problem(self, problem: str | None, was: str | None) -> None:
        """Say once when the game stops being saved, and when everything is written again."""
        if problem:
            self.notify(escape(problem), title="Not saved", severity="warning", timeout=8)
        elif was:
            from ..session.saving import SAVED_AGAIN

            self.notify(SAVED_AGAIN, timeout=4)

    def save_now(self) -> None:
        """Save the game in progress at once (quitting, a closed terminal)."""
        self.home.save_now()

    def retry_saving(self) -> None:
        """Try again what could not be written, every second while the app runs; a finished
        game kept at last tells its screen where its record went."""
        for path in self.home.keeper.retry():
            self.post_message(GameKept(path))

    def on_game_kept(self, message: GameKept) -> None:
        """Tell the game-over screen where the record went, once it could be written (through
        its own queue: after it is built, if it is still being built)."""
        from .screens.challenge import ChallengeScreen
        from .screens.gameover import GameOverScreen

        for screen in self.screen_stack:
            if isinstance(screen, (GameOverScreen, ChallengeScreen)):
                screen.call_later(screen.kept, message.path)

    # --- start-up -------------------------------------------------------------------------
    def get_default_screen(self) -> Screen[Any]:
        """The first screen: ``play``'s table when nothing comes before it (then the first
        frame, with no empty screen built under it); otherwise the app's empty screen, the
        first screen pushed over it once the app is up (:meth:`_begin`)."""
        if self.start == "play":
            self._opened = opening.open_play(self, first_run=self._store is None and first_run())
            table = opening.table_at_once(self, self._opened)
            if table is not None:
                self._opened = None
                return replaceable(table)  # (by the game-over screen, or another)
        return super().get_default_screen()

    def on_mount(self) -> None:
        from .lifecycle import app_started

        self.set_interval(1.0, self.retry_saving)
        app_started(self)  # SIGHUP, SIGTERM and a lost terminal save the game and end the app
        if self.options.theme and self.options.theme in self.available_themes:
            self.theme = self.options.theme
        self._begin()

    def _begin(self) -> None:
        """What the store found, then the first screen (``play``'s table may be up already)."""
        if self.start not in ("replay",) and not self.home.store_later:
            self._announce_store()
        if self.start == "play":
            if self._opened is not None:  # a question first, or a plugin bot to start
                opening.show_new(self, self._opened, self.options)
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
        """The first frame is drawn: what the launch set for a quick start goes back to
        normal (``first_frame.quick_start_over``)."""
        first_frame.quick_start_over()

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
        if self.home.store_later:
            self.home.store_later = False
            self._announce_store()
        self.home.settings_now_kept(self.theme)

    def open_setup(self) -> None:
        from .screens.setup import SetupScreen

        screen = SetupScreen(self.home.load_options(), self.home.saved())
        self.replace_stack(screen)

    def replace_stack(self, screen: Any) -> None:
        """Show ``screen`` alone over the app's empty screen (back in place of ``play``'s
        first table: a hosted table lives on it), keeping the size warning on top."""
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self._too_small = None
        if type(self.screen_stack[0]) is not Screen:
            self.switch_screen(Screen())
        self.push_screen(screen)
        self._check_size()

    # --- what the home decided, carried out (tui/opening.py) -----------------------------
    def start_game(self, options: PlayOptions, *, replace_saved: bool = False) -> None:
        """A new game with these options (a saved game is never replaced silently)."""
        opening.start_game(self, options, replace_saved=replace_saved)

    async def host_table(self, options: PlayOptions, name: str) -> str | None:
        """Host a table of setup's choices here, the lobby next; None, or why not."""
        from .together import host_table, settings_from

        return await host_table(self, settings_from(options, name))

    async def join_table(self, invite: str, name: str) -> str | None:
        from .together import join_table

        return await join_table(self, invite, name)

    def get_key_display(self, binding: Binding) -> str:
        """Keys as the footers show them; with ASCII suits, in ASCII too ("enter", not a
        symbol)."""
        shown = super().get_key_display(binding)
        if self.options.ascii and not shown.isascii():
            return binding.key.split(",")[0]
        return shown

    def apply_look(self, options: PlayOptions) -> None:
        use_ascii(self, options.ascii)  # the footers' keys and their separator too
        if not options.theme or options.theme == self.theme:
            return
        if options.theme in self.available_themes:
            self.theme = options.theme
        else:
            known = ", ".join(sorted(self.available_themes))
            self.notify(f"No theme called {escape(repr(options.theme))} (themes: {known}).",
                        severity="warning", timeout=8)

    def resume_saved(self, look: PlayOptions | None = None) -> bool:
        """Continue the saved game exactly where it stopped, in the player's look now (see
        :meth:`look_now`); False when there is none."""
        return opening.carry_out(self, self.home.resume(look))

    def resume_from_history(self, game_id: int, look: PlayOptions | None = None) -> None:
        """Make an unfinished game from history the saved game (the one saved until now
        goes to history in its place) and continue it (in ``look``)."""
        opening.carry_out(self, self.home.from_history(game_id, look))

    def open_history(self) -> None:
        from .screens.history import HistoryScreen

        self.push_screen(HistoryScreen(self.store))

    def open_stats(self) -> None:
        from .screens.stats import StatsScreen

        self.push_screen(StatsScreen(self.store))

    # --- the daily challenge ----------------------------------------------------------------
    def start_challenge(self, date: str, look: PlayOptions | None = None) -> None:
        """The challenge of ``date``: its result, where it stopped, or a new one (see
        :meth:`Home.challenge`), in the look of ``look`` (default the player's settings)."""
        opening.carry_out(self, self.home.challenge(date, look))

    def show_challenge(self, game: Game, path: Path | None, *, played: bool = True) -> None:
        """The comparison of a finished challenge with the expert's play from the player's
        seat (worked out now if it is not known yet)."""
        self.replace_stack(self.challenge_screen(game, path, self.save_problem, played=played))

    def challenge_screen(self, game: Game, path: Path | None, problem: str | None = None, *,
                         played: bool = True) -> Screen[Any]:
        from .screens.challenge import ChallengeScreen

        self.want_reference(game)
        return ChallengeScreen(game, self.options, path, problem, played=played)

    def game_over_screen(self, game: Game, options: PlayOptions, path: Path | None,
                         problem: str | None,
                         leave: Callable[[], None] | None = None, home: int = 0) -> Screen[Any]:
        """What follows a game's last card: the game-over screen, or for a daily challenge
        its comparison with the expert."""
        if game.challenge is not None:
            return self.challenge_screen(game, path, problem)
        from .screens.gameover import GameOverScreen

        return GameOverScreen(game, options, path, problem, leave, home)

    def want_reference(self, game: Game) -> None:
        self.home.references.want(game)

    def on_reference_news_arrived(self, message: ReferenceNewsArrived) -> None:
        self.home.references.news(message.date, message.news)

    def _tell_challenge_screens(self, date: str, points: list[int] | None = None) -> None:
        from .screens.challenge import ChallengeScreen

        for screen in self.screen_stack:  # (after it is built, as the record's place)
            if isinstance(screen, ChallengeScreen) and screen.date == date:
                screen.call_later(screen.reference_news, points)

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
        home = getattr(self, "home", None)
        if home is not None:  # stop the bots and the reference without waiting for them
            home.close()
        store = self._store
        if store is not None:
            with contextlib.suppress(Exception):
                self.unsaved_file = store.close()  # the program's last line names it
