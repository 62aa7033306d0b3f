"""Opening a game on screen: what the session's :class:`~nil_tui.session.home.Home` decided
(resume, replace, a challenge's result, a new game), carried out with the app's screens and
dialogs; the question before a saved game is replaced; the plugin bots seated (their
processes start in a thread; for each that cannot start the player chooses a level); then the
table. The decisions are the home's: here they are only shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.markup import escape

from ..engine import SEAT_NAMES
from ..game.driver import short_text
from ..session.home import AskReplace, Play, Refused, ShowChallenge, StartNew

if TYPE_CHECKING:
    from ..engine import Game
    from ..game.driver import DriverEvent
    from ..game.options import PlayOptions
    from ..session.game_session import GameSession
    from ..session.home import Step
    from .app import NilApp
    from .screens.table import TableScreen


def carry_out(app: NilApp, step: Step) -> bool:
    """Show the notices of a step, then what it opens; False when nothing opened."""
    for notice in step.notices:
        app.notify(escape(notice.text), severity=notice.severity, timeout=notice.timeout)
    if isinstance(step, Play):
        play(app, step.game)
    elif isinstance(step, ShowChallenge):
        app.show_challenge(step.game, step.path, played=step.played)
    elif isinstance(step, StartNew):
        start_game(app, step.options, replace_saved=step.replace_saved)
    elif isinstance(step, Refused):
        if step.back:
            back_to_setup(app)
        return False
    return True


def start_game(app: NilApp, options: PlayOptions, *, replace_saved: bool = False) -> None:
    """A new game with these options. An unfinished saved game is never replaced silently:
    the player chooses to resume it, keep it in history and start anew, or cancel."""
    show_new(app, new_game(app, options, replace_saved=replace_saved), options)


def new_game(app: NilApp, options: PlayOptions, *,
             replace_saved: bool = False) -> GameSession | AskReplace:
    """The home's answer to a new game: the game, open; or the question to ask before it
    would replace an unfinished saved game."""
    return app.home.start_new(options, app.theme, replace_saved=replace_saved,
                              save_problem=lambda: app.save_problem)


def show_new(app: NilApp, opened: GameSession | AskReplace, options: PlayOptions) -> None:
    """The table of a new game; or first the question before it replaces a saved game."""
    if isinstance(opened, AskReplace):
        from ..game.daily_challenge import record_date
        from .screens.dialogs import ReplaceSaved
        from .words import describe_saved

        record = opened.saved[0]
        app.push_screen(ReplaceSaved(describe_saved(record), saved_challenge=record_date(record),
                                     new_challenge=options.challenge),
                        lambda answer: _replace_answer(app, answer, options))
        return
    show(app, opened)


def _replace_answer(app: NilApp, answer: str | None, options: PlayOptions) -> None:
    if answer == "resume":
        if not carry_out(app, app.home.resume(look=options)):
            back_to_setup(app)
    elif answer == "new":
        carry_out(app, app.home.replace_saved(options))
    else:
        back_to_setup(app)


def back_to_setup(app: NilApp) -> None:
    """Setup, unless it is already the screen underneath."""
    from .screens.setup import SetupScreen

    if not isinstance(app.screen, SetupScreen):
        app.open_setup()


def play(app: NilApp, game: Game) -> None:
    """Seat the bots of a resumed game, then show its table."""
    show(app, app.home.open(game, save_problem=lambda: app.save_problem))


def show(app: NilApp, session: GameSession) -> None:
    """The table of a game just opened, once its plugin bots are seated."""
    from ..session.starting import plugin_seats

    dress(app, session)
    plugins = plugin_seats(session.game)
    if plugins:
        seat_plugins(app, session, plugins)
    else:
        show_table(app, session)


def open_play(app: NilApp, *, first_run: bool) -> GameSession | AskReplace:
    """``nil-tui play``'s game, opened before the app is up (see :func:`new_game`), over the
    player's settings, in its look from the first screen on. On a first run nothing is kept
    yet, so there are no settings and no saved game to read: the table comes first, and the
    store is created right after its first frame."""
    from .ascii import use_ascii

    app.home.store_later = first_run
    if app.overrides is not None:
        app.options = app.overrides.over(app.home.load_options())
    use_ascii(app, app.options.ascii)  # (a question before the table too)
    return new_game(app, app.options)


def table_at_once(app: NilApp, opened: GameSession | AskReplace) -> TableScreen | None:
    """The table of a game just opened, when nothing comes before it (no saved game to ask
    about, no plugin bot to start): ``nil-tui play``'s first screen. None when something
    does (:func:`show_new` then shows it)."""
    from ..session.starting import plugin_seats
    from .screens.table import TableScreen

    if isinstance(opened, AskReplace) or plugin_seats(opened.game):
        return None
    dress(app, opened)
    return TableScreen(opened)


def dress(app: NilApp, session: GameSession) -> None:
    """The app in the look of a game about to be shown: its theme, ASCII, its title (a
    daily challenge's also asks for its reference)."""
    game = session.game
    app.apply_look(app.options)
    if game.challenge is not None:
        app.title = f"Daily challenge {game.challenge.date}"
        app.want_reference(game)
    else:
        app.title = app.TITLE


def show_table(app: NilApp, session: GameSession, notes: tuple[DriverEvent, ...] = ()) -> None:
    from .screens.table import TableScreen

    app.replace_stack(TableScreen(session, notes))


def seat_plugins(app: NilApp, session: GameSession, seats: list[int]) -> None:
    """Start the plugin bots of ``seats`` (in a thread: it takes a moment), ask the player
    for a substitute for each that fails, then show the table with the notes of the
    substitutions, unless another game started meanwhile."""

    def open_them() -> None:
        failed = [(seat, error) for seat in seats
                  if (error := session.driver.open_seat(seat)) is not None]
        app.call_from_thread(substitute, failed, ())

    def substitute(failed: list[tuple[int, Exception]], notes: tuple[DriverEvent, ...]) -> None:
        if session is not app.session:
            return  # another game started meanwhile
        if not failed:
            app.home.seated(session)  # (a substitute may sit where a plugin could not)
            show_table(app, session, notes)
            return
        from ..game.driver import SUBSTITUTE
        from .screens.dialogs import ChooseSubstitute

        driver = session.driver
        (seat, error), rest = failed[0], failed[1:]
        spec = driver.spec_of(seat) or ""

        def chosen(level: str | None) -> None:
            level = level or SUBSTITUTE
            note = driver.replace_bot(seat, level, f"{spec} could not start "
                                      f"({short_text(error)}); {level} plays for it, as chosen")
            substitute(rest, (*notes, note))

        app.push_screen(ChooseSubstitute(SEAT_NAMES[seat], spec, short_text(error)), chosen)

    app.run_worker(open_them, thread=True, exclusive=True, group="plugins",
                   name="open_plugins")


__all__ = ["back_to_setup", "carry_out", "dress", "new_game", "open_play", "play", "seat_plugins",
           "show", "show_new", "show_table", "start_game", "table_at_once"]
