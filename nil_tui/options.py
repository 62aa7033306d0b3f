"""Choices for one game in the app, as the command line and the setup screen give them."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

SPEEDS = ("instant", "fast", "normal", "slow")
BOT_SEATS = {"W": 1, "N": 2, "E": 3}


@dataclass(frozen=True)
class PlayOptions:
    deals: int = 8
    bots: tuple[str, str, str] = ("normal", "normal", "normal")  # West, North, East
    seed: int | None = None
    speed: str = "normal"
    ascii: bool = False
    four_color: bool = False
    theme: str | None = None
    extra: dict[str, str] = field(default_factory=dict)


# Built-in levels from weakest to strongest, for choosing a substitute.
LEVEL_ORDER = ("easy", "normal", "hard", "expert")


def fallback_spec(spec: str) -> str:
    """A bot spec that is available now: ``spec`` itself when it is, else the strongest
    built-in level not above it (or the weakest one there is)."""
    from .bots import LEVELS, plugin_entry_points

    if spec in LEVELS or ":" in spec or spec in plugin_entry_points():
        return spec
    wanted = LEVEL_ORDER.index(spec) if spec in LEVEL_ORDER else len(LEVEL_ORDER)
    for level in reversed(LEVEL_ORDER[: wanted + 1]):
        if level in LEVELS:
            return level
    return next(iter(LEVELS))


def options_from_dict(data: dict, base: PlayOptions | None = None) -> PlayOptions:
    """PlayOptions from saved settings (unknown keys ignored, bad values replaced)."""
    base = base or PlayOptions()
    out = base
    deals = data.get("deals")
    if isinstance(deals, int) and not isinstance(deals, bool) and 1 <= deals <= 99:
        out = replace(out, deals=deals)
    bots = data.get("bots")
    if isinstance(bots, (list, tuple)) and len(bots) == 3 and all(
            isinstance(b, str) and b.strip() for b in bots):
        out = replace(out, bots=(bots[0], bots[1], bots[2]))
    seed = data.get("seed")
    if seed is None or (isinstance(seed, int) and not isinstance(seed, bool)):
        out = replace(out, seed=seed)
    if data.get("speed") in SPEEDS:
        out = replace(out, speed=data["speed"])
    for key in ("ascii", "four_color"):
        if isinstance(data.get(key), bool):
            out = replace(out, **{key: data[key]})
    theme = data.get("theme")
    if theme is None or isinstance(theme, str):
        out = replace(out, theme=theme)
    return out
