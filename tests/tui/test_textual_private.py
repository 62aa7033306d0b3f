"""The private parts of Textual that nil-tui relies on (``nil_tui/tui/textual_private.py``)
still do what it expects: when a newer Textual changes one of them, this fails, and the
function wrapping it is to be looked at again."""

from __future__ import annotations

import inspect
import signal
from typing import Any

import pytest
from textual.app import App
from textual.drivers.linux_driver import LinuxDriver

from nil_tui.tui.textual_private import (
    forget_exit_messages,
    swap_output_file,
    wrap_exception_handler,
    writes_started,
)


class Failing(App[None]):
    def on_mount(self) -> None:
        raise ValueError("on purpose")


async def test_an_error_goes_through_the_wrapped_handler_and_its_messages_can_be_dropped(
        capsys: pytest.CaptureFixture[str]) -> None:
    app = Failing()
    seen: list[Exception] = []
    kept: list[int] = []

    def handler(error: Exception, original: Any) -> None:
        seen.append(error)
        original(error)
        kept.append(len(app._exit_renderables))  # Textual's traceback, waiting to be printed
        forget_exit_messages(app)

    wrap_exception_handler(app, handler)
    await app.run_async(headless=True)
    assert [str(e) for e in seen] == ["on purpose"]
    assert kept and kept[0] > 0
    assert app._exit_renderables == []
    assert "on purpose" not in capsys.readouterr().err  # nothing printed at the exit


def test_the_linux_driver_writes_through_its_file_from_application_mode_on() -> None:
    """The writer thread is made on the driver's file when application mode starts (so a
    file swapped in before is the one written to), and only then."""
    source = inspect.getsource(LinuxDriver.start_application_mode)
    assert "WriterThread(self._file)" in source
    assert "self._writer_thread = WriterThread" in source
    init = inspect.getsource(LinuxDriver.__init__)
    assert "self._file =" in init and "self._writer_thread: WriterThread | None = None" in init


async def test_the_output_file_is_swapped_before_application_mode() -> None:
    handlers = {n: signal.getsignal(n) for n in (signal.SIGTSTP, signal.SIGCONT)}
    try:
        driver = LinuxDriver(App())
        assert not writes_started(driver)
        original = driver._file
        new = swap_output_file(driver, lambda file: ("wrapped", file))
        assert new == ("wrapped", original) and driver._file is new
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)


async def test_the_guarded_driver_wraps_textuals_suspend_and_resume_handlers() -> None:
    """Textual's Linux driver sets its SIGTSTP and SIGCONT handlers when it is made; the
    guarded driver wraps them so that a SIGCONT without a suspension (a hang-up) resumes
    nothing."""
    from nil_tui.tui.terminal import guarded_driver_class

    handlers = {n: signal.getsignal(n) for n in (signal.SIGTSTP, signal.SIGCONT)}
    try:
        driver = guarded_driver_class()(App())
        resumed: list[object] = []
        driver.resume_application_mode = lambda: resumed.append(1)
        signal.getsignal(signal.SIGCONT)(signal.SIGCONT, None)  # a hang-up's SIGCONT
        assert resumed == []
        driver._suspended = True  # as after a SIGTSTP
        signal.getsignal(signal.SIGCONT)(signal.SIGCONT, None)
        assert resumed == [1]
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)



def test_no_other_module_of_the_app_touches_these_insides() -> None:
    from pathlib import Path

    import nil_tui.tui

    names = ("._app", "_handle_exception", "_exit_renderables", "_writer_thread",
             "_sigtstp_application", "_sigcont_application", "_push_result_callback")
    root = Path(nil_tui.tui.__file__).parent
    for path in sorted(root.rglob("*.py")):
        if path.name != "textual_private.py":
            text = path.read_text(encoding="utf-8")
            assert not [n for n in names if n in text], path


def test_the_option_list_still_pages_by_the_lines_it_has_laid_out() -> None:
    """Textual's option list pages from the line of the highlighted option, known only once
    the list is laid out (``page_once_laid_out`` waits for that); when this changes, the
    guard may be needed no more."""
    from textual.widgets import OptionList

    source = inspect.getsource(OptionList._move_page)
    assert "self._index_to_line[self.highlighted or 0]" in source
    update = inspect.getsource(OptionList._update_lines)
    assert "if not self.scrollable_content_region:\n            return" in update


def test_a_screens_dismissal_still_pops_whatever_is_in_front() -> None:
    """Textual's dismissal pops the screen in front, whichever it is (``dismiss_only_in_front``
    lets only that one dismiss itself); when this changes, the guard may be needed no more."""
    from textual.screen import Screen

    from nil_tui.tui.textual_private import dismiss_only_in_front

    dismiss_only_in_front()
    source = inspect.getsource(Screen.dismiss)  # (Textual's, under the guard)
    assert "await_pop = self.app.pop_screen()" in source
    assert "is_active" not in source and "is_current" not in source


async def test_a_default_screen_made_replaceable_gives_way_to_another() -> None:
    """Textual's ``switch_screen`` pops a result callback from the screen it replaces, and a
    default screen has none (``replaceable`` gives it one); when this changes, it may be
    needed no more."""
    from textual.screen import Screen
    from textual.widgets import Static

    from nil_tui.tui.textual_private import replaceable

    source = inspect.getsource(App.switch_screen)
    assert "top_screen._pop_result_callback()" in source

    class First(Screen[None]):
        def compose(self) -> Any:
            yield Static("first")

    class Second(Screen[None]):
        pass

    class Switching(App[None]):
        def get_default_screen(self) -> Screen[Any]:
            return replaceable(First())

    app = Switching()
    async with app.run_test() as pilot:
        assert isinstance(app.screen, First)
        await app.switch_screen(Second())
        await pilot.pause()
        assert [type(s) for s in app.screen_stack] == [Second]
