"""The whole screen in 7-bit ASCII (``--ascii``, or setup's "ASCII suits").

The app's own widgets draw ASCII themselves when the look asks for it (card faces "QS",
card frames "+---+", the clean mark "*"), and the rules of ``ascii.tcss`` (added to the app's
stylesheet when the look is first chosen) draw frames with the ``ascii`` border under the
``-ascii`` class. What is left (Textual's own glyphs: a list's arrow, a
checkbox's brackets, a scrollbar's ends, the "..." of a cut line, a toast's frame, or a
symbol a screen puts in its words) is written in ASCII here, as the screen is put together:
every line of every screen passes through :func:`ascii_strip` while the app has the class
``-ascii``, so no cell above 127 ever reaches the terminal. Each glyph keeps its width, so the
layout is the same in both looks.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from rich.segment import Segment
from textual.strip import Strip

# Glyphs with a meaning of their own: the nearest ASCII character of the same width.
NAMED: dict[str, str] = {
    "♣": "C", "♦": "D", "♥": "H", "♠": "S",
    "●": "*", "○": "o", "•": "*", "◆": "*", "◇": "o", "■": "#", "□": "o", "★": "*", "☆": "*",
    "✓": "v", "✔": "v", "✗": "x", "✘": "x", "×": "x", "·": ".", "…": ".", "⋯": ".",
    "—": "-", "–": "-", "‒": "-", "−": "-", "‐": "-", "’": "'", "‘": "'", "“": '"', "”": '"',
    "←": "<", "→": ">", "↑": "^", "↓": "v", "⇐": "<", "⇒": ">", "↵": "<", "⏎": "<",
    "▲": "^", "▼": "v", "▶": ">", "◀": "<", "▸": ">", "◂": "<", "▴": "^", "▾": "v",
    "⚠": "!", "≈": "~", "≤": "<", "≥": ">", "±": "+", "°": "o", "µ": "u", "¼": "/",
    "½": "/", "¾": "/",
    "░": ":", "▒": "#", "▓": "#", "█": "#",
    "▐": "[", "▌": "]", "▕": "|", "▏": "|", "▎": "|", "▍": "|", "▋": "|", "▊": "|", "▉": "|",
    # a scrollbar's partly filled ends: its thumb shows in reverse video, they are left out
    "▔": "-", "▁": " ", "▂": " ", "▃": " ", "▄": " ", "▅": " ", "▆": " ", "▇": " ",
    "⎺": "-", "⎻": "-", "⎼": "_", "⎽": "_",
    "\u00a0": " ",
}

_cache: dict[str, str] = {}


def _glyph(ch: str) -> str:
    """One character in ASCII, as wide as it is on screen."""
    known = _cache.get(ch)
    if known is not None:
        return known
    out = NAMED.get(ch)
    if out is None:
        name = unicodedata.name(ch, "")
        if name.startswith("BOX DRAWINGS"):  # frames: their lines and corners
            across = "HORIZONTAL" in name or " LEFT" in name and " RIGHT" in name
            down = "VERTICAL" in name or " UP" in name and " DOWN" in name
            if across and not down and "DOUBLE" in name:
                out = "="
            elif across and not down:
                out = "-"
            elif down and not across:
                out = "|"
            else:
                out = "+"
        elif "BLOCK" in name or "SHADE" in name or name.startswith("BRAILLE"):
            out = "#"
        else:
            decomposed = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
            out = decomposed[:1] or "?"
    width = cell_len(ch)
    out = (out * max(width, 1))[:max(width, 0)] if width != 1 else out[:1]
    _cache[ch] = out
    return out


def to_ascii(text: str) -> str:
    """The text with every character above 127 written in ASCII, each the same width."""
    if text.isascii():
        return text
    return "".join(ch if ch < "\x80" else _glyph(ch) for ch in text)


def ascii_strip(strip: Strip) -> Strip:
    """A line of the screen in ASCII (the same strip when it is ASCII already)."""
    if strip.text.isascii():
        return strip
    return Strip([seg if seg.control or seg.text.isascii()
                  else Segment(to_ascii(seg.text), seg.style, seg.control) for seg in strip],
                 strip.cell_length)


def _ascii_on() -> bool:
    from textual._context import active_app

    app = active_app.get(None)
    return app is not None and app.has_class("-ascii")


_installed = False


def install() -> None:
    """Put every screen's lines through :func:`ascii_strip` while the app is in ASCII (the
    class ``-ascii`` on the app); nothing changes for an app without it. Done once."""
    global _installed
    if _installed:
        return
    _installed = True
    from textual._compositor import Compositor

    plain = Compositor._get_renders

    def get_renders(self: Compositor, crop: Any = None
                    ) -> Iterable[tuple[Any, Any, list[Strip]]]:
        renders = plain(self, crop)
        if not _ascii_on():
            return renders
        return ((region, clip, [ascii_strip(s) for s in strips])
                for region, clip, strips in renders)

    Compositor._get_renders = get_renders  # type: ignore[method-assign]


RULES = Path(__file__).with_name("ascii.tcss")
"""The stylesheet's rules for the ASCII look (its frames), added to the app's the first time
the look is chosen: an app drawn in the terminal's glyphs never reads them."""


@functools.cache
def _rules() -> str:
    return RULES.read_text(encoding="utf-8")


def use_ascii(app: Any, on: bool) -> None:
    """Draw the app in ASCII (``on``) or in the glyphs of the terminal, from the next frame."""
    install()
    if on:
        # Added once (the same text again changes nothing); the class below restyles the
        # app's widgets with them.
        app.stylesheet.add_source(_rules(), read_from=(str(RULES), ""), tie_breaker=-1)
    app.set_class(on, "-ascii")
