"""Choices for one game in the app, as the command line and the setup screen give them."""

from __future__ import annotations

from dataclasses import dataclass, field

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
