"""The daily challenge's reference: the points the expert scores from the player's seat on the
same deals, worked out once in a process of its own, kept in the store, and written wherever
the challenge is (the game at the table, a finished game waiting to be kept, history).

No screen here: what the process says comes back through ``post`` (called from a thread; the
front end hands it to :meth:`References.news` on its own thread), and ``tell`` says what
changed for the date (the points once known, None for progress or a failure).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..game.driver import short_text

if TYPE_CHECKING:
    from ..engine import Game
    from ..game.daily_challenge import Progress, ReferenceNews, ReferenceProcess
    from .saving import Keeper


def quietly(close: Callable[[], object]) -> None:
    try:
        close()
    except Exception:  # noqa: BLE001, S110 - stopping must never fail the caller
        pass


class References:
    """The references of this app run: the one being worked out, how far it got, and why
    one failed."""

    def __init__(self, keeper: Keeper, *, post: Callable[[str, ReferenceNews], object],
                 tell: Callable[[str, list[int] | None], object],
                 playing: Callable[[], Game | None],
                 save: Callable[[Game], object]) -> None:
        self._keeper = keeper
        self._post = post
        self._tell = tell
        self._playing = playing  # the game at the table, if any
        self._save = save
        self._process: ReferenceProcess | None = None
        self.progress: dict[str, Progress] = {}
        self.failed: dict[str, str] = {}

    def _store_call(self, what: str, call: Callable[[], object]) -> object:
        return self._keeper.guarded(what, call, None)

    def known(self, game: Game) -> list[int] | None:
        """The reference of a challenge game when it is known: in its record, or kept in the
        store (then written into the game too)."""
        from ..game.daily_challenge import reference_key, valid_reference

        if game.challenge is None:
            return None
        known = game.challenge.reference
        points = valid_reference(None if known is None else list(known), game.deals_planned)
        if points is not None:
            return points
        date = game.challenge.date
        store = self._keeper.store
        cached = self._keeper.guarded("read the expert's result",
                                      lambda: store().computed(reference_key(date)), None)
        points = valid_reference(cached, game.deals_planned)
        if points is not None:
            game.challenge = game.challenge.with_reference(points)
        return points

    def want(self, game: Game) -> None:
        """Make sure the reference of a challenge game is known or being worked out."""
        if game.challenge is None:
            return
        date = game.challenge.date
        in_record = game.challenge.reference is not None
        points = self.known(game)
        if points is not None:
            # Kept from an earlier run but not yet with a finished game: history learns it.
            self._known(date, points, compute=game.is_over and not in_record)
            return
        if self._process is not None and self._process.date == date:
            return  # on its way
        self.stop()
        from ..game.daily_challenge import Progress, ReferenceProcess

        self.failed.pop(date, None)
        try:
            process = self._process = ReferenceProcess(date)
        except Exception as exc:  # noqa: BLE001 - the game goes on without the comparison
            self.failed[date] = short_text(exc)
            return
        self.progress[date] = Progress(0, 0)
        threading.Thread(target=self._follow, args=(process,), daemon=True,
                         name="nil-tui-reference").start()

    def _follow(self, process: ReferenceProcess) -> None:
        """Pass on what the reference's process says (in a thread: it waits on a pipe)."""
        for news in process.news(lambda: self._process is not process):
            self._post(process.date, news)

    def news(self, date: str, news: ReferenceNews) -> None:
        """What the process of ``date`` said (on the front end's thread)."""
        from ..game.daily_challenge import Failed, Finished, reference_key

        if isinstance(news, Finished):
            self.stop(date)
            store = self._keeper.store
            self._keeper.guarded("keep the expert's result", lambda: store().remember(
                reference_key(date), {"points": list(news.points)}), False)
            self._known(date, list(news.points), compute=True)
        elif isinstance(news, Failed):
            self.stop(date)
            self.progress.pop(date, None)
            self.failed[date] = news.reason
            self._tell(date, None)
        else:
            self.progress[date] = news
            self._tell(date, None)

    def _known(self, date: str, points: list[int], *, compute: bool) -> None:
        """Write the reference wherever the challenge of ``date`` is: the game at the table
        (saved with it), a finished game waiting to be kept, and (``compute``) history."""
        self.progress.pop(date, None)
        game = self._playing()
        if (game is not None and game.challenge is not None
                and game.challenge.date == date
                and game.challenge.reference != tuple(points)):
            game.challenge = game.challenge.with_reference(points)
            if not game.is_over:
                self._save(game)
        waiting = self._keeper.waiting(date)
        if waiting is not None and waiting.challenge is not None:
            waiting.challenge = waiting.challenge.with_reference(points)
        if compute:
            store = self._keeper.store
            self._keeper.guarded("keep the expert's result with the challenge",
                                 lambda: store().set_challenge_reference(date, list(points)),
                                 False)
        self._tell(date, points)

    def stop(self, date: str | None = None) -> None:
        """Stop the process (only the one of ``date``, when given), without waiting for it."""
        process = self._process
        if process is None or (date is not None and process.date != date):
            return
        self._process = None
        threading.Thread(target=quietly, args=(process.stop,), daemon=True,
                         name="nil-tui-close").start()


__all__ = ["References", "quietly"]
