"""An app whose keys act on the screen they were typed on, and that opens no screen once it is
ending.

Textual hands a key to the screen in front (to its focused widget); the key comes back to the
app for the bindings only once that screen's widgets have seen it, and the bindings are then
looked up on whatever screen is in front by that time. Typed quickly, a key meant for one
screen acted on the next: ``h`` then PageDown on setup paged a history screen not built yet
(NoMatches), a key typed on a dialog acted on the screen under it once the dialog closed. Here
a key that comes back to the app after the screen it was typed on left the front does
nothing.

And once the app is ending (``q`` at setup, the quit question answered), a screen opened
after is never built: Textual mounts no widget while the app exits, and the screen's start,
finding none of its own, ended the app with an error. ``q`` followed at once by ``i`` did
that. Once the app is ending, keys and clicks go nowhere and no screen opens.

Its option lists (the command palette's) take a page key that comes before they are laid out
(``textual_private.page_once_laid_out``), and a screen dismissed again once closed (two Enters
in the command palette) closes nothing more (``textual_private.dismiss_only_in_front``).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from textual import events
from textual.app import App
from textual.await_complete import AwaitComplete
from textual.screen import Screen

from .textual_private import dismiss_only_in_front, page_once_laid_out

KEYS_REMEMBERED = 256
"""The keys in flight whose screen is remembered: more than a terminal delivers between two
turns of the app (a key older than that acts as in plain Textual)."""


class GuardedApp(App[int]):
    """The base of nil-tui's apps: see the module."""

    def __init__(self) -> None:
        super().__init__()
        page_once_laid_out()  # a page key before an option list is laid out (Textual 8.2.8)
        dismiss_only_in_front()  # a screen closed twice closed the one under it (Textual 8.2.8)
        self._typed_on: deque[tuple[events.Key, Screen[Any]]] = deque(maxlen=KEYS_REMEMBERED)

    @property
    def ending(self) -> bool:
        """Whether the app was asked to exit (or failed): it is closing."""
        return self.return_code is not None

    async def on_event(self, event: events.Event) -> None:
        if self._goes_on(event):
            await super().on_event(event)

    def _goes_on(self, event: events.Event) -> bool:
        """Whether ``event`` is still for this app: not a key or a click arriving while it
        closes, nor a key coming back from a screen no longer in front."""
        if not isinstance(event, (events.Key, events.MouseEvent)):
            return True
        if self.ending or not self.screen_stack:
            return False
        if not isinstance(event, events.Key):
            return True
        if not event.is_forwarded:  # from the terminal: about to go to the screen in front
            self._typed_on.append((event, self.screen))
            return True
        for number, (key, screen) in enumerate(self._typed_on):
            if key is event:  # back from that screen, for the bindings
                del self._typed_on[number]
                return screen is self.screen
        return True

    def push_screen(self, screen: Any, *args: Any, **kwargs: Any) -> Any:
        """Show ``screen`` over the others, unless the app is ending (it would never be
        built)."""
        if self.ending:
            return AwaitComplete()  # nothing to wait for
        return super().push_screen(screen, *args, **kwargs)

    def switch_screen(self, screen: Any) -> AwaitComplete:
        """Show ``screen`` in place of the one in front, unless the app is ending."""
        if self.ending:
            return AwaitComplete()  # nothing to wait for
        return super().switch_screen(screen)


__all__ = ["GuardedApp"]
