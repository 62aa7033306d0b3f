"""What every screen of the app shares: the app, typed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from textual.screen import Screen

from ..ascii import install

install()  # under --ascii every screen is drawn in ASCII (see ..ascii)

if TYPE_CHECKING:
    from ..face import AppFace


def close_screen(screen: Screen[Any]) -> None:
    """Back to the screen below, or quit when there is none: only the app's empty screen
    lies under this one (``nil-tui history``, ``stats``, ``replay``)."""
    stack = screen.app.screen_stack
    below = stack[:stack.index(screen)] if screen in stack else []
    if any(type(other) is not Screen for other in below):
        screen.dismiss(None)
    else:
        screen.app.exit()


class NilScreen(Screen[None]):
    """A full screen of nil-tui; ``nil_app`` is the running :class:`NilApp`. Its own keys
    act only while it is the screen in front: a key that reaches it while another screen
    opens does nothing."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.is_active

    @property
    def nil_app(self) -> AppFace:
        return cast("AppFace", self.app)
