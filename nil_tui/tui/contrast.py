"""A high-contrast theme (``--theme high-contrast``, or the command palette's theme list): white
and yellow on black, for low vision. The cards keep their suits' colours, which are bright on
black."""

from __future__ import annotations

from textual.theme import Theme

HIGH_CONTRAST = Theme(
    name="high-contrast",
    primary="#ffff00",
    secondary="#00ffff",
    accent="#ffff00",
    foreground="#ffffff",
    background="#000000",
    surface="#000000",
    panel="#1a1a1a",
    success="#00ff00",
    warning="#ffff00",
    error="#ff6060",
    boost="#ffffff",
    dark=True,
    variables={"footer-key-foreground": "#ffff00", "block-cursor-background": "#ffff00",
               "block-cursor-foreground": "#000000", "border": "#ffffff"},
)

THEMES = (HIGH_CONTRAST,)
"""The themes nil-tui adds to Textual's own."""

__all__ = ["HIGH_CONTRAST", "THEMES"]
