"""NilApp: the screens, the global keys, the store, the theme."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Static

from ..options import PlayOptions, fallback_spec, options_from_dict
from .screens.dialogs import MIN_HEIGHT, MIN_WIDTH, ConfirmQuit, TooSmall

if TYPE_CHECKING:
    from ..engine import Game


def open_store() -> Any:
    """The player's store, or one in memory when it cannot be opened at all."""
    from ..store import Store

    try:
        return Store.open()
    except Exception as exc:  # noqa: BLE001 - the game must start even without its store
        return Store.in_memory(f"{type(exc).__name__}: {exc}")


class NilApp(App[int]):
    """Zero (Nil) in the terminal. ``start`` is the first screen: setup, play, resume, replay,
    history or stats."""

    CSS_PATH = "app.tcss"
    TITLE = "Zero"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "request_quit", "Quit", priority=True, show=False),
        Binding("ctrl+c", "request_quit", "Quit", priority=True, show=False),
        Binding("f1", "rules", "Rules", show=False),
    ]

    def __init__(self, start: str = "setup", options: PlayOptions | None = None,
                 game: Game | None = None, title: str | None = None,
                 store: Any = None, overrides: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.start = start
        self.options = options or PlayOptions()
        self.start_game_obj = game
        self.review_title = title
        self._store = store
        self.overrides = overrides
        self._save_failed = False
        self._too_small: TooSmall | None = None

    def compose(self) -> ComposeResult:
        """The default screen: the first frame of ``nil-tui play`` while the table is built."""
        yield Static("Zero · shuffling the cards…" if self.start == "play" else "",
                     id="shuffling")

    # --- the store ------------------------------------------------------------------------
    @property
    def store(self) -> Any:
        if self._store is None:
            self._store = open_store()
        return self._store

    def _store_call(self, name: str, *args: Any) -> Any:
        try:
            return getattr(self.store, name)(*args)
        except Exception as exc:  # noqa: BLE001 - saving must never stop the game
            if not self._save_failed:
                self._save_failed = True
                self.notify(f"Could not save ({type(exc).__name__}: {exc}).",
                            severity="warning", timeout=8)
            return None

    def save_current(self, game: Game, options: dict) -> None:
        self._store_call("save_current", game.to_record(), options)

    def finish_game(self, game: Game, options: dict) -> Path | None:
        path = self._store_call("finish_game", game.to_record(), options)
        return Path(path) if path else None

    def save_settings(self, options: PlayOptions) -> None:
        settings = asdict(options)
        settings["bots"] = list(options.bots)
        settings["seed"] = None  # a seed belongs to one game, not to the player's settings
        settings["theme"] = self.theme
        self._store_call("save_settings", settings)

    def load_options(self) -> PlayOptions:
        settings = self._store_call("load_settings") or {}
        return options_from_dict(settings, self.options)

    # --- start-up -------------------------------------------------------------------------
    def on_mount(self) -> None:
        self._install_signals()
        if self.options.theme and self.options.theme in self.available_themes:
            self.theme = self.options.theme
        if self.start == "play":
            # Draw a first frame at once; open the store and build the table (engine, bots
            # registry, widgets) right after it.
            self.call_after_refresh(self._begin)
        else:
            self._begin()

    def _begin(self) -> None:
        if self.start not in ("replay",):
            store = self.store
            for warning in getattr(store, "warnings", []):
                self.notify(warning, severity="warning", timeout=10)
            if getattr(store, "is_secondary", False):
                self.notify("Another nil-tui is already playing: this one keeps its game "
                            "in a separate slot.", timeout=8)
        if self.start == "play":
            if self.overrides is not None:
                from dataclasses import replace

                self.options = replace(self.load_options(), **self.overrides)
            self.start_game(self.options)
        elif self.start == "resume":
            if not self.resume_saved():
                self.open_setup()
        elif self.start == "replay" and self.start_game_obj is not None:
            from .screens.review import ReviewScreen

            self.push_screen(ReviewScreen(self.start_game_obj, title=self.review_title))
        elif self.start == "history":
            self.open_history(standalone=True)
        elif self.start == "stats":
            self.open_stats(standalone=True)
        else:
            self.open_setup()
        self._check_size()

    def _install_signals(self) -> None:
        try:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGHUP):
                loop.add_signal_handler(sig, self.exit)
        except (NotImplementedError, RuntimeError, AttributeError, ValueError):
            pass

    def open_setup(self) -> None:
        from .screens.setup import SetupScreen

        saved = self._store_call("load_current")
        screen = SetupScreen(self.load_options(), saved)
        self._replace_stack(screen)

    def _replace_stack(self, screen: Any) -> None:
        """Show ``screen`` alone (over the default screen), keeping the size warning on top."""
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self._too_small = None
        self.push_screen(screen)
        self._check_size()

    def start_game(self, options: PlayOptions) -> None:
        from ..engine import Game
        from .screens.table import TableScreen

        options = self._available(options)
        self.options = options
        self.save_settings(options)  # from setup or the command line: the last settings used
        players = [{"name": "South", "kind": "human"}] + [
            {"name": name, "kind": "bot", "bot": spec}
            for name, spec in zip(("West", "North", "East"), options.bots)]
        game = Game(options.deals, options.seed, players=players)
        self._apply_look(options)
        self._replace_stack(TableScreen(game, options))

    def _available(self, options: PlayOptions) -> PlayOptions:
        from dataclasses import replace

        bots = tuple(fallback_spec(b) for b in options.bots)
        if bots != options.bots:
            missing = sorted({b for b in options.bots if fallback_spec(b) != b})
            self.notify(f"Not installed yet: {', '.join(missing)}; playing "
                        f"{', '.join(sorted(set(bots)))} instead.", timeout=6)
        return replace(options, bots=bots)  # type: ignore[arg-type]

    def _apply_look(self, options: PlayOptions) -> None:
        if not options.theme or options.theme == self.theme:
            return
        if options.theme in self.available_themes:
            self.theme = options.theme
        else:
            known = ", ".join(sorted(self.available_themes))
            self.notify(f"No theme called {options.theme!r} (themes: {known}).",
                        severity="warning", timeout=8)

    def resume_saved(self) -> bool:
        """Continue the saved game exactly where it stopped; False when there is none."""
        from ..engine import Game, RecordError
        from .screens.table import TableScreen

        saved = self._store_call("load_current")
        if not saved:
            return False
        record, opts = saved
        try:
            game = Game.from_record(record)
        except (RecordError, ValueError, TypeError, KeyError) as exc:
            self.notify(f"The saved game cannot be resumed: {exc}", severity="error",
                        timeout=10)
            self._store_call("clear_current")
            return False
        options = options_from_dict(opts if isinstance(opts, dict) else {}, self.options)
        options = self._available(options)
        self.options = options
        self.save_settings(options)  # from setup or the command line: the last settings used
        self._apply_look(options)
        if game.is_over:
            self.finish_game(game, asdict(options))
            return False
        self._replace_stack(TableScreen(game, options))
        return True

    def open_history(self, standalone: bool = False) -> None:
        try:
            from .screens.history import HistoryScreen
        except ImportError:
            self.notify("History is not available in this version.", severity="warning")
            if standalone:
                self.open_setup()
            return
        self.push_screen(HistoryScreen(self.store))

    def open_stats(self, standalone: bool = False) -> None:
        try:
            from .screens.stats import StatsScreen
        except ImportError:
            self.notify("Statistics are not available in this version.", severity="warning")
            if standalone:
                self.open_setup()
            return
        self.push_screen(StatsScreen(self.store))

    # --- global keys ----------------------------------------------------------------------
    def action_rules(self) -> None:
        from .screens.rules import RulesScreen

        if not isinstance(self.screen, (RulesScreen, ModalScreen)):
            self.push_screen(RulesScreen())

    def _game_in_progress(self) -> bool:
        from .screens.table import TableScreen

        return any(isinstance(s, TableScreen) and s.in_progress for s in self.screen_stack)

    def action_request_quit(self) -> None:
        if isinstance(self.screen, ConfirmQuit):
            return
        if self._game_in_progress():
            self.push_screen(ConfirmQuit(), self._quit_answer)
        else:
            self.exit(0)

    def _quit_answer(self, answer: bool | None) -> None:
        if answer:
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
            self._too_small = TooSmall()
            self.push_screen(self._too_small)
        elif not small and self._too_small is not None:
            screen, self._too_small = self._too_small, None
            if self.screen is screen:
                self.pop_screen()
            elif screen in self.screen_stack:
                self.screen_stack.remove(screen)  # pragma: no cover - defensive

    def on_unmount(self) -> None:
        store = self._store
        if store is not None:
            with contextlib.suppress(Exception):
                store.close()
