"""The player's games and settings, without a screen: what starting a game, resuming the saved
one, replacing it or opening a day's challenge leads to.

Each decision comes back as a value that a front end carries out: :class:`Play` (show this
game's table), :class:`ShowChallenge` (a finished challenge beside the expert's play),
:class:`StartNew` (deal a new game, asking first about a saved one), :class:`Refused`
(nothing opens: say why, maybe go back to setup). Each carries the notices to show first, in
order. :class:`Home` also holds the options in use, keeps the player's settings, and opens
the game's session with its saving wired in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple, TypeVar

from ..game.options import PlayOptions, options_from_dict
from .starting import options_of, plugin_seats

if TYPE_CHECKING:
    from ..engine import Game
    from ..game.daily_challenge import ReferenceNews
    from ..game.driver import Opener
    from ..store import ChallengeFound, Store
    from ..store.rows import Saved
    from ..store.summaries import JSONObject
    from .game_session import GameSession
    from .reference import References
    from .saving import Keeper

LOOK = ("speed", "ascii", "four_color", "theme", "trick_pause", "auto_play", "cursor")
"""The options that are the player's look of the table, not the game's: a resumed game takes
the player's current ones (its deals, bots, seed, challenge and meter are its own)."""

_T = TypeVar("_T")

_UNREADABLE = (ValueError, TypeError, KeyError)  # with RecordError: a record that cannot be read


def first_run() -> bool:
    """No data file yet: nothing has been kept, so there is nothing to read."""
    from ..util.paths import DB_NAME, default_home

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


class Notice(NamedTuple):
    """One thing to tell the player (plain text: the front end escapes it)."""

    text: str
    severity: Literal["information", "warning", "error"] = "information"
    timeout: float | None = None  # None: the front end's usual time


class Play(NamedTuple):
    """Show this game's table (a resumed game; its options are :attr:`Home.options`)."""

    game: Game
    notices: tuple[Notice, ...] = ()


class ShowChallenge(NamedTuple):
    """Show a finished challenge with the expert's play (``played``: just now)."""

    game: Game
    path: Path | None
    played: bool
    notices: tuple[Notice, ...] = ()


class StartNew(NamedTuple):
    """Deal a new game of these options (an unfinished saved game is asked about first,
    unless ``replace_saved``)."""

    options: PlayOptions
    replace_saved: bool = False
    notices: tuple[Notice, ...] = ()


class Refused(NamedTuple):
    """Nothing opens: the notices say why; ``back``: setup is shown (if it is not already)."""

    back: bool = False
    notices: tuple[Notice, ...] = ()


Step = Play | ShowChallenge | StartNew | Refused


class AskReplace(NamedTuple):
    """A new game would replace this unfinished saved game: the player is asked first."""

    saved: Saved
STEPS = (Play, ShowChallenge, StartNew, Refused)  # (each a tuple: tell them by class)


class Home:
    """The player's side of the store for one app run: the options in use, the settings,
    the saved game and what a start, a resume or a challenge's date opens."""

    def __init__(self, keeper: Keeper, options: PlayOptions, *,
                 opener: Opener | None = None,
                 reference_news: Callable[[str, ReferenceNews], object] = lambda d, n: None,
                 tell_reference: Callable[[str, list[int] | None], object] = lambda d, p: None,
                 ) -> None:
        self.keeper = keeper
        self._reference_news = reference_news  # from the reference's thread: hand it over
        self._tell_reference = tell_reference
        self._references: References | None = None
        self.options = options
        self.opener = opener  # how bots are opened (default: the isolation layer)
        self.session: GameSession | None = None  # the game in progress, when there is one
        self.history_place = "History (h in setup)"  # where the player finds history
        # A first run (no data file yet): the store is created right after the table's first
        # frame, and the settings of the game are kept then.
        self.store_later = False
        self.settings_later: PlayOptions | None = None

    @property
    def references(self) -> References:
        """The daily challenge's references (the expert's points), worked out apart; what
        their process says goes to ``reference_news`` (from its thread), what changed for a
        date to ``tell_reference``."""
        if self._references is None:
            from .reference import References

            self._references = References(
                self.keeper, post=self._reference_news, tell=self._tell_reference,
                playing=lambda: self.session.game if self.session is not None else None,
                save=self.save)
        return self._references

    def close(self) -> None:
        """The app ends: stop the bots (plugin processes) and the reference's process,
        without waiting for them."""
        if self.session is not None:
            import threading

            from .reference import quietly

            threading.Thread(target=quietly, args=(self.session.driver.close,), daemon=True,
                             name="nil-tui-close").start()
        if self._references is not None:
            self._references.stop()

    def _guarded(self, what: str, call: Callable[[Store], _T], failed: _T) -> _T:
        """``call(store)``, guarded: an error becomes a problem the player is told of, and
        ``failed`` the answer (the store is opened when first needed)."""
        return self.keeper.guarded(what, lambda: call(self.keeper.store()), failed)

    def saved(self) -> Saved | None:
        """The saved game's record and options, when there is one."""
        return self._guarded("read the saved game", lambda store: store.load_current(), None)

    def _settings(self) -> JSONObject:
        return self._guarded("read the settings", lambda store: store.load_settings(), {})

    # --- saving ---------------------------------------------------------------------------
    def save(self, game: Game) -> bool:
        """Save the game in progress (with its session's options: its meter is its own)."""
        session = self.session
        options = session.play_options if session is not None else self.options
        return self.keeper.save(game, options)

    def save_now(self) -> None:
        """Save the game in progress at once (quitting, a closed terminal)."""
        if self.session is not None:
            self.save(self.session.game)

    def finish(self, game: Game, options: PlayOptions) -> Path | None:
        """Keep a finished game in history (see :meth:`Keeper.finish`)."""
        return self.keeper.finish(game, options)

    # --- settings -------------------------------------------------------------------------
    def save_settings(self, options: PlayOptions, theme: str) -> None:
        """Keep the options of a game chosen in setup as the player's settings: setup shows
        them next time and ``nil-tui play`` starts from them. A command line's flags apply
        to their one game and are not kept."""
        if not options.from_setup:
            return
        from .saving import options_dict

        settings = options_dict(options)
        del settings["from_setup"]
        settings["seed"] = None  # a seed belongs to one game, not to the player's settings
        settings["theme"] = options.theme or theme
        self._guarded("keep the settings", lambda store: store.save_settings(settings), False)

    def load_options(self) -> PlayOptions:
        """The player's settings (over the options in use, never a challenge's date: a
        challenge is started as one, never by settings)."""
        settings = {} if self.store_later else self._settings()
        base = self.options
        if base.challenge is not None:  # its deals, bots and seed are its own; its look is not
            base = replace(PlayOptions(), speed=base.speed, ascii=base.ascii,
                           four_color=base.four_color, theme=base.theme,
                           auto_play=base.auto_play, trick_pause=base.trick_pause,
                           cursor=base.cursor, extra=base.extra)
        return options_from_dict(settings or {}, base)

    def look_now(self, look: PlayOptions | None = None) -> dict[str, object]:
        """The player's look as options: those of ``look`` (the look chosen on screen, or
        given for a new game) or else the player's settings (the keys they have)."""
        if look is not None:
            return {key: getattr(look, key) for key in LOOK}
        settings = self._settings()
        return {key: settings[key] for key in LOOK if key in settings}

    # --- starting, resuming, replacing ------------------------------------------------------
    def new_game(self, options: PlayOptions, theme: str) -> Game:
        """A new game of these options, which become the player's last settings (on a first
        run, kept once the table is drawn and the store created)."""
        from .starting import new_game

        self.options = options
        if self.store_later:
            self.settings_later = options
        else:
            self.save_settings(options, theme)
        return new_game(options)

    def start_new(self, options: PlayOptions, theme: str, *, replace_saved: bool = False,
                  save_problem: Callable[[], str | None]) -> GameSession | AskReplace:
        """A new game of these options, its session open; or, when it would replace an
        unfinished saved game (and ``replace_saved`` does not say the player chose so), the
        question to ask first. A first run has no saved game."""
        if not replace_saved and not self.store_later:
            saved = self.saved()
            if saved is not None:
                return AskReplace(saved)
        return self.open(self.new_game(options, theme), save_problem=save_problem)

    def settings_now_kept(self, theme: str) -> None:
        """The store of a first run exists now: keep the settings of the game that started."""
        options, self.settings_later = self.settings_later, None
        if options is not None:
            self.save_settings(options, theme)

    def resume(self, look: PlayOptions | None = None) -> Step:
        """Continue the saved game exactly where it stopped, in the player's look now (see
        :meth:`look_now`): :class:`Play`, or :class:`Refused` when there is none to go on
        with (an unreadable one is set aside; a finished one is kept in history)."""
        from ..engine import Game, RecordError

        saved = self.saved()
        if not saved:  # none here; one may be played by another nil-tui, or unreadable now
            why = self._guarded("read the saved game", lambda store: store.unreadable, None)
            return Refused(notices=(Notice(why, "warning", 10),) if why else ())
        record, opts = saved
        try:
            game = Game.from_record(record)
        except (RecordError, *_UNREADABLE) as exc:
            reason = str(exc)
            kept = self._guarded("set the saved game aside",
                                 lambda store: store.set_aside_current(reason), None)
            where = f" It was kept as {kept}." if kept else ""
            return Refused(notices=(Notice(f"The saved game cannot be resumed: {reason}."
                                           f"{where}", "error", 12),))
        data = dict(opts) if isinstance(opts, dict) else {}
        data.update(self.look_now(look))
        self.options = options_of(game, options_from_dict(data, self.options))
        if game.is_over:
            self.finish(game, self.options)
            return Refused()
        return Play(game)

    def from_history(self, game_id: int, look: PlayOptions | None = None) -> Step:
        """Make an unfinished game from history the saved game (the one saved until now goes
        to history in its place) and continue it (in ``look``, see :meth:`resume`)."""
        if self._guarded("reopen the game", lambda store: store.reopen(game_id), None) is None:
            return Refused(notices=(Notice("That game could not be reopened.", "error"),))
        step = self.resume(look)
        if isinstance(step, Refused):
            return Refused(notices=(*step.notices,
                                    Notice("That game could not be resumed.", "error")))
        return step

    def replace_saved(self, options: PlayOptions) -> Step:
        """The player chose a new game over the saved one: it goes to history first (if it
        cannot, it stays saved and no new game starts)."""
        kept = self._guarded("keep the saved game", lambda store: store.archive_current(), None)
        if kept is None and self.saved() is not None:
            return Refused(back=True, notices=(Notice(
                "The saved game could not be moved to history, so it stays saved; the new "
                "game was not started.", "error", 10),))
        notices = (Notice(f"The unfinished game is kept in {self.history_place}, where it "
                          "can be resumed.", timeout=6),) if kept is not None else ()
        return StartNew(options, replace_saved=True, notices=notices)

    def open(self, game: Game, *, save_problem: Callable[[], str | None]) -> GameSession:
        """The session of a new or resumed game (the previous one's bots are stopped)."""
        from .game_session import open_session

        if self.session is not None:
            self.session.driver.close()
        self.options = options_of(game, self.options)
        session = open_session(
            game, self.options, opener=self.opener, save=self.save, save_problem=save_problem,
            on_finished=lambda done: self.finish(done, self.options))
        self.session = session
        if not plugin_seats(game):  # the bots are in their seats already
            self.seated(session)
        return session

    def seated(self, session: GameSession) -> None:
        """The bots are in their seats (a plugin that could not start replaced by the level
        chosen): the options say who plays."""
        from ..game.driver import SUBSTITUTE, seat_specs

        bots = tuple(spec or SUBSTITUTE for spec in seat_specs(session.game)[1:])
        self.options = replace(self.options, bots=(bots[0], bots[1], bots[2]))
        session.options = self.options

    # --- the daily challenge ----------------------------------------------------------------
    def challenge(self, date: str, look: PlayOptions | None = None) -> Step:
        """The challenge of ``date``: its result when it is finished, where it stopped when
        it is under way (saved, or set aside in history), else a new one (a saved game of
        another kind is never replaced silently). ``look``: the options whose look (speed,
        suits, colours, theme) the table takes; default the player's settings."""
        from ..game.daily_challenge import (
            CHALLENGE_BOTS,
            CHALLENGE_DEALS,
            challenge_seed,
            is_future,
        )

        if is_future(date):
            return Refused(back=True, notices=(Notice(
                f"The challenge of {date} opens on that day.", "warning", 8),))
        found = self._guarded("look for the challenge", lambda store: store.find_challenge(date),
                              None)
        notices: tuple[Notice, ...] = ()
        if found is not None:
            opened = self._found_challenge(date, found, look)
            if isinstance(opened, STEPS):
                return opened
            notices = opened  # it could not be opened: a new one (the same cards)
        base = look if look is not None else self.load_options()
        return StartNew(replace(base, challenge=date, deals=CHALLENGE_DEALS,
                                bots=CHALLENGE_BOTS, seed=challenge_seed(date), meter=False,
                                from_setup=False), notices=notices)

    def _found_challenge(self, date: str, found: ChallengeFound,
                         look: PlayOptions | None) -> Step | tuple[Notice, ...]:
        """Continue or show a challenge the store knows (in ``look``); when it cannot be
        opened, the notices to give before a new one is dealt (the same cards)."""
        from ..engine import Game, RecordError

        where, game_id = found["where"], found["id"]  # (a row, or a dict before rows)
        if where == "current":
            saved = self.saved()
            if saved is None:
                return ()
            try:
                game = Game.from_record(saved[0])
            except (RecordError, *_UNREADABLE):
                game = None  # resuming says why and sets the record aside
            if game is not None and game.is_over:  # finished but not yet moved to history
                self.options = options_of(game, options_from_dict(self.look_now(look),
                                                                  self.options))
                return ShowChallenge(game, self.finish(game, self.options), played=True)
            step = self.resume(look)
            return step.notices if isinstance(step, Refused) else step
        if not isinstance(game_id, int):
            # Finished here and still waiting to be written: the game is the one just played.
            just = self.keeper.waiting(date) or (
                self.session.game if self.session is not None else None)
            if (just is not None and just.is_over and just.challenge is not None
                    and just.challenge.date == date):
                return ShowChallenge(just, None, played=False)
            return ()
        if not found["finished"]:
            return self.from_history(game_id, look)
        record = self._guarded("read the challenge", lambda store: store.load_record(game_id),
                               None)
        notices: tuple[Notice, ...] = ()
        finished: Game | None = None
        try:
            finished = Game.from_record(record) if record is not None else None
        except (RecordError, *_UNREADABLE) as exc:
            notices = (Notice(f"The challenge of {date} cannot be read: {exc}", "error", 10),)
        if finished is None or finished.challenge is None:
            return Refused(back=True, notices=notices)
        return ShowChallenge(finished, None, played=False)


__all__ = ["LOOK", "AskReplace", "Home", "Notice", "Play", "Refused", "ShowChallenge", "StartNew", "Step",
           "first_run", "open_store"]
