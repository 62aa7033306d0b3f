"""Choices for one game in the app, as the command line and the setup screen give them."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

SPEEDS = ("instant", "fast", "normal", "slow")
TRICK_PAUSES = ("brief", "key")  # after each trick: pause briefly (by speed), or wait for a key
BOT_SEATS = {"W": 1, "N": 2, "E": 3}


def _default_deals() -> int:
    # The engine is imported when options are first made, not with this module: the command
    # line parses without it, and the app loads it with garbage collection off (see launch).
    from .engine.game import DEFAULT_DEALS

    return DEFAULT_DEALS


@dataclass(frozen=True)
class PlayOptions:
    deals: int = field(default_factory=_default_deals)
    bots: tuple[str, str, str] = ("normal", "normal", "normal")  # West, North, East
    seed: int | None = None
    speed: str = "normal"
    ascii: bool = False
    four_color: bool = False
    theme: str | None = None
    auto_play: bool = True  # a card you are forced to play is played for you
    trick_pause: str = "brief"  # one of TRICK_PAUSES
    meter: bool = False  # show the chance to stay clean (the game then counts as assisted)
    scoring: str = "classic"  # or "pool": engine/scoring.py
    # a daily challenge's date (YYYY-MM-DD): fixed deals and bots; hints, undo, meter off
    challenge: str | None = None
    extra: dict[str, str] = field(default_factory=dict)
    # Chosen in the setup screen: only such a game's options become the player's settings
    # (command-line flags apply to their one game).
    from_setup: bool = False


DEFAULT_LEVEL = "normal"  # the level offered when a seat's bot is not available


def options_from_dict(data: dict[str, Any], base: PlayOptions | None = None) -> PlayOptions:
    """PlayOptions from saved settings (unknown keys ignored, bad values replaced); not
    marked as chosen in setup."""
    from .engine.game import MAX_DEALS

    base = base or PlayOptions()
    out = replace(base, from_setup=False)
    deals = data.get("deals")
    if isinstance(deals, int) and not isinstance(deals, bool) and 1 <= deals <= MAX_DEALS:
        out = replace(out, deals=deals)
    bots = data.get("bots")
    if isinstance(bots, (list, tuple)) and len(bots) == 3 and all(
            isinstance(b, str) and b.strip() for b in bots):
        from .bots import HIDDEN
        from .textsafe import has_control

        # A bot that sees every hand (the oracle) plays only in simulate: never at a table;
        # a spec holding a control character is refused wherever it enters (settings too).
        if not any(b.strip() in HIDDEN or has_control(b) for b in bots):
            out = replace(out, bots=(bots[0], bots[1], bots[2]))
    seed = data.get("seed")
    if seed is None or (isinstance(seed, int) and not isinstance(seed, bool)):
        out = replace(out, seed=seed)
    if data.get("speed") in SPEEDS:
        out = replace(out, speed=data["speed"])
    if data.get("trick_pause") in TRICK_PAUSES:
        out = replace(out, trick_pause=data["trick_pause"])
    for key in ("ascii", "four_color", "auto_play", "meter"):
        if isinstance(data.get(key), bool):
            out = replace(out, **{key: data[key]})
    if data.get("scoring") in ("classic", "pool"):
        out = replace(out, scoring=data["scoring"])
    theme = data.get("theme")
    if theme is None or isinstance(theme, str):
        out = replace(out, theme=theme)
    return out
