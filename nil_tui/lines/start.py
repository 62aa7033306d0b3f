"""The commands that play in plain lines (``--text``): setup's choices asked as questions,
``play``, ``resume`` and ``challenge``. What a start opens (resume, replace the saved game, a
challenge's result) is decided by the session's :class:`~nil_tui.session.home.Home`, as in
the app; here its decisions are only said, and the game played by :class:`.front.LineFront`.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from ..game.options import SCORINGS, PlayOptions, PlayOverrides, as_scoring
from ..session.home import Home, Play, Refused, ShowChallenge, StartNew, Step, open_store
from ..session.saving import SAVED_AGAIN, Keeper
from ..util.textsafe import one_line
from .cards import CardWords
from .front import LineFront
from .reader import LineReader

if TYPE_CHECKING:
    from ..engine import Game
    from ..game.daily_challenge import ReferenceNews
    from ..session.game_session import GameSession

THEME = "textual-dark"  # (kept with the settings, for the app)


def write_line(text: str) -> None:
    """One line on standard output, at once (nothing a terminal obeys: see textsafe)."""
    out = sys.stdout
    if out is None:
        return
    out.write(one_line(text) + "\n")
    out.flush()


class Lines:
    """A run in plain lines: the reader, the writer, the home (its store and saving)."""

    def __init__(self, cards: CardWords, write: Callable[[str], None] = write_line,
                 fd: int | None = None) -> None:
        self.cards = cards
        self.write = write
        self.reader = LineReader(fd)  # (default: standard input)
        self.store = open_store()
        for warning in self.store.warnings:
            self.write(one_line(warning))
        if self.store.is_secondary:
            self.write("Another nil-tui is already playing: this one keeps its game in a "
                       "separate slot.")
        loop = asyncio.get_running_loop()

        def reference_news(date: str, news: ReferenceNews) -> None:
            """From the reference's thread: handed to the loop (dropped once it is over)."""
            try:
                loop.call_soon_threadsafe(self.home.references.news, date, news)
            except RuntimeError:  # the loop is closed: the run is over
                pass

        self.home = Home(Keeper(lambda: self.store, self._tell_problem), PlayOptions(),
                         reference_news=reference_news)
        self.home.history_place = "history (nil-tui history --text)"

    def _tell_problem(self, problem: str | None, was: str | None) -> None:
        if problem:
            self.write(f"Not saved: {one_line(problem)}")
        elif was:
            self.write(SAVED_AGAIN)

    def close(self) -> None:
        self.home.close()
        self.store.close()

    async def ask(self, question: str, default: str, choices: tuple[str, ...] = ()) -> str:
        """A question with its default (Enter keeps it); with ``choices``, asked again until
        the answer is one of them (or starts one). The end of the input keeps the default."""
        while True:
            self.write(f"{question} [{default}]")
            line = await self.reader.get()
            if line is None:
                return default
            answer = line.strip().lower()
            if not answer:
                return default
            if not choices:
                return answer
            found = [c for c in choices if c.startswith(answer)]
            if len(found) == 1:
                return found[0]
            self.write(f"Please answer {', '.join(choices[:-1])} or {choices[-1]}.")

    # --- what a start opens ---------------------------------------------------------------------
    async def open(self, step: Step) -> Game | None:
        """Carry out the home's decisions until a game is at the table (None: nothing to
        play: refused, cancelled, or a finished challenge shown)."""
        while True:
            for notice in step.notices:
                self.write(one_line(notice.text))
            if isinstance(step, Play):
                return step.game
            if isinstance(step, ShowChallenge):
                await self.show_challenge(step.game)
                return None
            if isinstance(step, Refused):
                return None
            assert isinstance(step, StartNew)
            saved = None if step.replace_saved else self.home.saved()
            if saved is None:
                return self.home.new_game(step.options, THEME)
            from ..game.daily_challenge import record_date
            from ..session.words import describe_saved

            what = describe_saved(saved[0])
            date = record_date(saved[0])
            kind = f"the daily challenge of {date}" if date else "a game"
            answer = await self.ask(
                f"There is {kind} saved unfinished ({what}). Type resume to go on with it, "
                "new to keep it in history and start this one, or cancel.", "resume",
                ("resume", "new", "cancel"))
            if answer == "resume":
                step = self.home.resume(look=step.options)
                if isinstance(step, Refused) and not step.notices:
                    self.write("There is no saved game to resume.")
            elif answer == "new":
                step = self.home.replace_saved(step.options)
            else:
                self.write("Nothing started.")
                return None

    async def seat(self, game: Game) -> GameSession:
        """The game's session with its bots seated (a plugin that cannot start is replaced
        by the level the app would offer first, and the player told)."""
        from ..engine import SEAT_NAMES
        from ..game.driver import SUBSTITUTE, short_text
        from ..session.starting import plugin_seats

        session = self.home.open(game, save_problem=lambda: self.home.keeper.problem)
        for seat in plugin_seats(game):
            error = await asyncio.to_thread(session.driver.open_seat, seat)
            if error is None:
                continue
            spec = session.driver.spec_of(seat) or ""
            note = session.driver.replace_bot(
                seat, SUBSTITUTE, f"{spec} could not start ({short_text(error)}); "
                f"{SUBSTITUTE} plays for it")
            self.write(one_line(f"{SEAT_NAMES[seat]}: {note.reason}"))
        self.home.seated(session)
        if game.challenge is not None:
            self.home.references.want(game)
        return session

    async def play(self, step: Step) -> int:
        game = await self.open(step)
        if game is None:
            return 0
        session = await self.seat(game)
        from ..util.paths import asset_text

        front = LineFront(session, self.reader, self.write, cards=self.cards,
                          rules=lambda: asset_text("RULES.txt"))
        retrying = asyncio.ensure_future(self._retry())
        try:
            await front.run()
        finally:
            retrying.cancel()
        if front.finished and game.challenge is not None:
            await self.show_challenge(game)
        return 0

    async def _retry(self) -> None:
        """Try again every second what could not be written."""
        while True:
            await asyncio.sleep(1.0)
            self.home.keeper.retry()

    async def show_challenge(self, game: Game) -> None:
        """A finished challenge beside the expert's play on the same cards, deal by deal
        (the expert's is worked out meanwhile, when not known yet: Enter leaves before)."""
        from ..game.daily_challenge import compare, totals, verdict

        date = game.challenge.date if game.challenge is not None else "?"
        references = self.home.references
        points = references.known(game)
        if points is None:
            references.want(game)
            self.write("The expert plays the same cards now, to compare: press Enter to "
                       "leave before (nil-tui challenge --text shows it later).")
            points = await self._reference(game)
        rows = compare(game, points)
        self.write(f"The daily challenge of {date}:")
        for row in rows:
            expert = "not known" if row.expert is None else str(row.expert)
            self.write(f"Deal {row.deal}: you {row.yours if row.yours is not None else '-'}, "
                       f"the expert {expert}.")
        yours, expert_total, difference = totals(rows)
        if difference is None:
            self.write(f"Your total: {yours}. The expert's is not known yet.")
        else:
            self.write(f"Your total: {yours}; the expert's: {expert_total}. "
                       f"{verdict(difference)}")

    async def _reference(self, game: Game) -> list[int] | None:
        """The reference once known, or None when it failed or the player pressed Enter."""
        references = self.home.references
        line = asyncio.ensure_future(self.reader.get())
        try:
            while not line.done():
                points = references.known(game)
                date = game.challenge.date if game.challenge is not None else ""
                if points is not None or date in references.failed:
                    return points
                await asyncio.wait({line}, timeout=0.5)
            return None
        finally:
            line.cancel()


# --- the commands ------------------------------------------------------------------------------
ENDING_SIGNALS = ("SIGTERM", "SIGHUP")
"""Signals that end a game in lines as Ctrl+C does: saved, and said so when the terminal is
still there."""


def run(main: Callable[[Lines], object], cards: str = "words") -> int:
    """Run ``main`` (a coroutine function of a :class:`Lines`) to its end; Ctrl+C, SIGTERM
    and SIGHUP save the game in progress first (exit status 128 + the signal's number)."""
    import signal

    ended_by: list[int] = []

    async def go() -> int:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        for name in ENDING_SIGNALS:
            number = getattr(signal, name, None)
            if number is not None:
                def end(number: int = number) -> None:
                    ended_by.append(number)
                    task.cancel()

                try:
                    loop.add_signal_handler(number, end)
                except (NotImplementedError, RuntimeError, ValueError):
                    pass  # (no such handlers here: the default ending stays)
        lines = Lines(CardWords(cards))
        try:
            code = await main(lines)  # type: ignore[misc]
            return int(code or 0)
        except asyncio.CancelledError:  # the game in progress is saved, and said so
            session = lines.home.session
            if session is not None and not session.game.is_over:
                if lines.home.save(session.game):
                    said = "The game is saved: nil-tui resume --text goes on with it."
                else:
                    why = lines.home.keeper.problem or "it could not be written."
                    said = f"The game is not saved: {one_line(why)}"
                try:
                    lines.write(f"Interrupted. {said}")
                except OSError:
                    pass  # the terminal is gone (SIGHUP)
            raise
        finally:
            lines.close()

    try:
        return asyncio.run(go())
    except KeyboardInterrupt:
        return 128 + signal.SIGINT
    except asyncio.CancelledError:
        return 128 + (ended_by[0] if ended_by else signal.SIGTERM)


def play(overrides: PlayOverrides, cards: str = "words") -> int:
    """``nil-tui play --text``: the last settings with the command line's over them."""

    async def main(lines: Lines) -> int:
        options = overrides.over(lines.home.load_options())
        return await lines.play(StartNew(options))

    return run(main, cards)


def resume(cards: str = "words") -> int:
    """``nil-tui resume --text``."""

    async def main(lines: Lines) -> int:
        step = lines.home.resume()
        if isinstance(step, Refused) and not step.notices:
            lines.write("There is no saved game (start one with nil-tui play --text).")
            return 1
        return await lines.play(step)

    return run(main, cards)


def challenge(date: str | None, cards: str = "words") -> int:
    """``nil-tui challenge --text``: the challenge of ``date`` (default: today)."""
    from ..game.daily_challenge import today

    async def main(lines: Lines) -> int:
        return await lines.play(lines.home.challenge(date or today()))

    return run(main, cards)


SETUP_QUESTIONS = "Setup: Enter keeps the choice in brackets."


async def ask_levels(lines: Lines, now: tuple[str, str, str], levels: tuple[str, ...]
                     ) -> tuple[str, str, str]:
    """The bots' levels: one for all three, or three for West, North and East in turn (as
    the setup screen sets each seat); a level may be shortened ("ea" for easy)."""
    default = now[0] if len(set(now)) == 1 else " ".join(now)
    while True:
        answer = await lines.ask(f"The bots' level: {', '.join(levels)}? (or three, for West, "
                                 "North and East)", default)
        if answer == default:
            return now  # (kept as they were: a bot of the screen's list included)
        found = []
        for word in answer.replace(",", " ").split():
            matches = [name for name in levels if name.startswith(word)]
            found.append(matches[0] if len(matches) == 1 else "")
        if len(found) in (1, 3) and all(found):
            west, north, east = found * 3 if len(found) == 1 else found
            return west, north, east
        lines.write(f"Please answer {', '.join(levels[:-1])} or {levels[-1]}, or three of "
                    "them.")


async def ask_choices(lines: Lines, base: PlayOptions) -> PlayOptions:
    """Setup's choices that matter in lines, each asked with its default (the last one
    chosen; Enter keeps it): deals, a seed, the bots' level, scoring, a forced card played
    for you, the clean-chance meter. (Speed, suits, colours and the pause after a trick are
    the screen's: in lines each card is said as it is played.)"""
    from ..bots import LEVELS
    from ..util.argtypes import deals as parse_deals

    while True:
        answer = await lines.ask("How many deals, 1 to 99?", str(base.deals))
        try:
            deals = parse_deals(answer)
            break
        except Exception:  # noqa: BLE001 - asked again
            lines.write("A number from 1 to 99, please.")
    while True:
        answer = await lines.ask("A seed, to play the same cards again? A whole number, or "
                                 "Enter for new cards.", "new cards")
        if answer == "new cards":
            seed = None
            break
        if answer.isascii() and answer.isdigit() and len(answer) <= 18:
            seed = int(answer)
            break
        lines.write("A whole number, please, or Enter for new cards.")
    bots = await ask_levels(lines, base.bots, tuple(LEVELS))
    scoring = as_scoring(await lines.ask(
        "Scoring: classic, or pool (each trick taken pays a point into a pool that a clean "
        "player collects)?", base.scoring, SCORINGS))
    yes_no = ("yes", "no")
    forced = await lines.ask("Play a forced card for you (your only card that may be "
                             "played)? yes or no", "yes" if base.auto_play else "no", yes_no)
    meter = await lines.ask("The clean-chance meter in each prompt (the game then counts as "
                            "assisted)? yes or no", "yes" if base.meter else "no", yes_no)
    return replace(base, deals=deals, bots=bots, scoring=scoring, seed=seed,
                   auto_play=forced == "yes", meter=meter == "yes", challenge=None,
                   from_setup=True)


def setup(cards: str = "words") -> int:
    """``nil-tui`` with no terminal, or ``nil-tui --text``: setup's choices as questions,
    each with the last one chosen as its default."""

    async def main(lines: Lines) -> int:
        base = lines.home.load_options()
        saved = lines.home.saved()
        lines.write(SETUP_QUESTIONS)
        first = "resume" if saved is not None else "new"
        choice = await lines.ask(
            "Type new for a new game, resume for the saved one, challenge for the daily "
            "challenge, or quit.", first, ("new", "resume", "challenge", "quit"))
        if choice == "quit":
            return 0
        if choice == "resume":
            step = lines.home.resume(look=base)
            if isinstance(step, Refused) and not step.notices:
                lines.write("There is no saved game: a new one, then.")
            else:
                return await lines.play(step)
        if choice == "challenge":
            from ..game.daily_challenge import today

            return await lines.play(lines.home.challenge(today(), look=base))
        options = await ask_choices(lines, base)
        return await lines.play(StartNew(options))

    return run(main, cards)


__all__ = ["Lines", "challenge", "play", "resume", "run", "setup", "write_line"]
