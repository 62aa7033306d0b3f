"""Keeping games: the game in progress at every position, a finished game in history, and
the truth about it. A write that fails (a lock, a full disk) is tried again every second; the
player is told "not saved" when it stops being saved and "saved again" only once everything
is really written, a finished game included. A finished game that cannot be written stays
in memory (and in the store's queue) until it is; if the app ends first, the store keeps it
in a file when it closes. A store that saves nothing this session (a newer nil-tui's data, a
data folder that cannot be made) is never tried again: the record of a finished game is
written in the temporary folder, and the player is told which file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..game.driver import short_text

if TYPE_CHECKING:
    from ..engine import Game
    from ..game.options import PlayOptions
    from ..store import Store

T = TypeVar("T")

SAVED_AGAIN = "Saved again: your game is safe."


def options_dict(options: PlayOptions) -> dict[str, Any]:
    """Options as the store keeps them (plain JSON values)."""
    data = asdict(options)
    data["bots"] = list(options.bots)
    return data


class Keeper:
    """The games of one app run and where they go. ``store`` opens the store when first
    needed; ``tell(problem, was)`` is called when the problem changes (None: saved again)."""

    def __init__(self, store: Callable[[], Store],
                 tell: Callable[[str | None, str | None], object]) -> None:
        self.store = store
        self._tell = tell
        self.problem: str | None = None  # why the game is not saved now, if so
        self.unkept: list[tuple[Game, PlayOptions]] = []  # finished, not yet in history

    def guarded(self, what: str, call: Callable[[], T], failed: T) -> T:
        """Run a store call; an unexpected error becomes a plain problem, never a crash."""
        try:
            return call()
        except Exception as exc:  # noqa: BLE001 - the store must never stop the game
            self._note(f"nil-tui could not {what} ({short_text(exc)}); your game goes on "
                       "and saving is tried again.")
            return failed

    def _note(self, problem: str | None) -> None:
        was, self.problem = self.problem, problem
        if problem != was:
            self._tell(problem, was)

    def _written(self, ok: bool) -> None:
        """After a write: saved (only if nothing else waits), or the store's reason why not."""
        if ok and not self.unkept:
            self._note(None)
        elif not ok:
            self._note(self.store().problem or "the game could not be written.")

    def save(self, game: Game, options: PlayOptions) -> bool:
        """Save the game in progress; False (and the problem noted) when it is not kept. A
        finished game is kept by :meth:`finish`."""
        if game.is_over:
            return True
        data = options_dict(options)
        ok = self.guarded("save the game",
                          lambda: self.store().save_current(game.to_record(), data), False)
        self._written(ok)
        return ok

    def finish(self, game: Game, options: PlayOptions) -> Path | None:
        """Keep a finished game in history; where its record file went (written even while
        history cannot take the game), or None when no file was written. Until the game is
        really stored it stays here and is tried again (:meth:`retry`), unless the store
        saves nothing this session; the player is told it is not saved (``problem``)."""
        data = options_dict(options)
        done = self.guarded("keep the finished game",
                            lambda: self.store().keep_finished(game.to_record(), data), None)
        self.unkept = [(g, o) for g, o in self.unkept if g is not game]
        if done is None or not done.stored:
            if self.guarded("keep the finished game", lambda: self.store().persistent, True):
                self.unkept.append((game, options))  # tried again while the app runs
            reason = done.problem if done is not None else None
            self._note(reason or self.problem or self.store().problem
                       or "the finished game could not be written yet.")
            return done.record_file if done is not None else None
        self._written(True)
        return done.record_file

    def retry(self) -> list[Path]:
        """Try again what could not be written (while there is a problem); the record files
        of finished games now kept."""
        if not self.problem:
            return []
        ok = self.guarded("save the game", self.store().retry_pending, False)
        if not ok:
            self._written(False)
            return []
        kept: list[Path] = []
        for game, options in list(self.unkept):
            path = self.finish(game, options)
            if any(g is game for g, _ in self.unkept):
                return kept  # still waiting: the problem stays
            if path is not None:
                kept.append(path)
        self._written(True)
        return kept

    def waiting(self, date: str | None = None) -> Game | None:
        """The last finished game waiting to be kept (of the daily challenge of ``date``)."""
        for game, _ in reversed(self.unkept):
            if date is None or (game.challenge is not None
                                and game.challenge.date == date):
                return game
        return None


__all__ = ["SAVED_AGAIN", "Keeper", "options_dict"]
