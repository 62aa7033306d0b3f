"""What the screens ask of the app, as a type: the screens import this, never the app, so the
app and its screens import each other one way only (the app opens the screens)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from textual.screen import Screen

    from ..engine import Game
    from ..game.options import PlayOptions
    from ..session.home import Home
    from ..store import Store


Opening = Literal["setup", "play", "resume", "replay", "history", "stats", "challenge", "host",
                  "join"]
"""The first screen of an app run: its command (host and join: the shared table's apps)."""


@runtime_checkable
class AppFace(Protocol):
    """The app as its screens see it (:class:`~nil_tui.tui.app.NilApp` is one)."""

    start: Opening
    home: Home

    @property
    def store(self) -> Store: ...

    @property
    def save_problem(self) -> str | None: ...

    def table_shown(self) -> None: ...

    def replace_stack(self, screen: Screen[Any]) -> None: ...

    def open_setup(self) -> None: ...

    def open_history(self) -> None: ...

    def open_stats(self) -> None: ...

    def action_rules(self) -> None: ...

    def start_game(self, options: PlayOptions, *, replace_saved: bool = False) -> None: ...

    def resume_saved(self, look: PlayOptions | None = None) -> bool: ...

    def resume_from_history(self, game_id: int, look: PlayOptions | None = None) -> None: ...

    def start_challenge(self, date: str, look: PlayOptions | None = None) -> None: ...

    def game_over_screen(self, game: Game, options: PlayOptions, path: Path | None,
                         problem: str | None, leave: Callable[[], None] | None = None,
                         home: int = 0) -> Screen[Any]: ...

    async def host_table(self, options: PlayOptions, name: str) -> str | None: ...

    async def join_table(self, invite: str, name: str) -> str | None: ...


__all__ = ["AppFace", "Opening"]
