"""The few private parts of Textual nil-tui relies on, each in one function, because Textual
has no public way to do it. Written against Textual 8.2.8; ``tests/tui/test_textual_private.py``
fails when a newer Textual changes any of them, so that they are looked at again.

* The app's handler of an unexpected error (``App._handle_exception``): the ending wraps it
  to write a crash report before Textual's own handling.
* The messages Textual prints when the app exits (``App._exit_renderables``): after a crash
  report or a signal, the terminal gets one line instead of a screenful of traceback.
* The Linux driver's output file (``LinuxDriver._file``) and its writer thread
  (``LinuxDriver._writer_thread``): the driver writes through a file that turns an error
  of a closed terminal into "the terminal is gone" instead of a blocked app.
* The option list's paging (``OptionList.action_page_up``, ``action_page_down``): Textual
  pages by the lines it has laid out, and a page key before the list's first layout raised
  KeyError (Ctrl+P then PageDown within 0.1 s ended the app). Not fixed in Textual 8.2.8.
* A screen's dismissal (``Screen.dismiss``): Textual pops whichever screen is in front, so a
  screen dismissed again after it closed (two Enters in the command palette, each choosing a
  command before it closed) closed the screen under it too: a blank app, or ScreenStackError.
* A screen's result callbacks (``Screen._push_result_callback``): Textual's ``switch_screen``
  pops one from the screen it replaces, and gives none to the app's default screen, so a
  default screen could not be replaced (IndexError). ``play``'s first table is the default
  screen, replaced by the game-over screen or another.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

TEXTUAL_VERSION = "8.2.8"
"""The Textual these functions were written and checked against."""


def wrap_exception_handler(app: App[Any],
                           handler: Callable[[Exception, Callable[[Exception], None]], None],
                           ) -> None:
    """From now on an unexpected error in ``app`` goes to ``handler(error, original)``, which
    calls Textual's own handling (``original``) itself (on this app only)."""
    original: Callable[[Exception], None] = app._handle_exception

    def handle_exception(error: Exception) -> None:
        handler(error, original)

    setattr(app, "_handle_exception", handle_exception)  # noqa: B010 - private: see above


def forget_exit_messages(app: App[Any]) -> None:
    """Drop what Textual would print on the terminal when ``app`` exits (a traceback)."""
    app._exit_renderables.clear()


def swap_output_file(driver: Any, wrap: Callable[[Any], Any]) -> Any:
    """Make the Linux ``driver`` write through ``wrap(its file)``, before application mode
    starts its writer thread on it; the new file."""
    file = wrap(driver._file)
    driver._file = file
    return file


def writes_started(driver: Any) -> bool:
    """Whether the Linux ``driver``'s application mode started its writer thread (it does
    not when the terminal refuses the process, in the background)."""
    return driver._writer_thread is not None


_paging_guarded = False


def page_once_laid_out() -> None:
    """From now on a page key that reaches an option list (the command palette's, a Select's
    menu) before it is laid out pages once it is, instead of raising KeyError. Done once."""
    global _paging_guarded
    if _paging_guarded:
        return
    _paging_guarded = True
    from textual.widgets import OptionList

    def guarded(page: Callable[[OptionList], None]) -> Callable[[OptionList], None]:
        def page_when_laid_out(option_list: OptionList) -> None:
            if option_list.scrollable_content_region:
                page(option_list)
            else:  # no lines yet to page by: after the next frame, if there are some then
                option_list.call_after_refresh(
                    lambda: page(option_list) if option_list.scrollable_content_region
                    else None)

        return page_when_laid_out

    OptionList.action_page_up = guarded(OptionList.action_page_up)  # type: ignore[method-assign]
    OptionList.action_page_down = guarded(  # type: ignore[method-assign]
        OptionList.action_page_down)


_dismiss_guarded = False


def dismiss_only_in_front() -> None:
    """From now on a screen's dismissal does nothing unless the screen is the one in front
    (it closes itself, never the screen in front of it). Done once."""
    global _dismiss_guarded
    if _dismiss_guarded:
        return
    _dismiss_guarded = True
    from textual.await_complete import AwaitComplete
    from textual.screen import Screen

    dismiss = Screen.dismiss

    @functools.wraps(dismiss)  # (its source is Textual's: tests/tui/test_textual_private.py)
    def dismiss_in_front(screen: Screen[Any], result: Any = None) -> AwaitComplete:
        if not screen.is_active:  # closed already, or under another screen
            return AwaitComplete()  # nothing to wait for
        return dismiss(screen, result)

    Screen.dismiss = dismiss_in_front  # type: ignore[method-assign,assignment]


def replaceable(screen: Screen[Any]) -> Screen[Any]:
    """``screen``, to be the app's default screen, ready to be replaced by
    ``switch_screen`` as a pushed screen is: with the result callback (none) that a push
    would have given it."""
    screen._push_result_callback(screen, None)
    return screen


__all__ = ["TEXTUAL_VERSION", "dismiss_only_in_front", "forget_exit_messages",
           "page_once_laid_out", "replaceable", "swap_output_file", "wrap_exception_handler",
           "writes_started"]
