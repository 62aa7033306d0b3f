"""The table's status line: whose turn it is, what a key did, a warning. A passing message (the
last trick on show, ``t``) hides what the line said only while it lasts: once it is over, the
line says again what it hid ("Your turn..."), unless news came meanwhile."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class StatusLine(Static):
    """One line (two for a long hint's reason); ``-warn`` when it warns (app.tcss)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._said: tuple[str | Text, bool] = ("", False)
        self._hidden: tuple[str | Text, bool] | None = None  # what a passing message hides

    def say(self, message: str | Text, warn: bool = False, *, passing: bool = False) -> None:
        """Show ``message`` (in the warning's colours if ``warn``); ``passing``: until
        :meth:`passed`, after which the line says again what it said before."""
        hidden, self._said = self._said, (message, warn)
        self._hidden = hidden if passing else None
        self.set_class(warn, "-warn")
        self.update(message)

    def passed(self) -> None:
        """The passing message is over: what it hid is said again (news said since stays)."""
        if self._hidden is not None:
            self.say(*self._hidden)
