"""A table's settings, as the host chose them, and their kept form (in the table's file)."""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]
"""The table as it is kept (its file), and its settings."""


class TableConfig:
    """How the host set the table up (changed only by the table: its seed once dealt)."""

    __slots__ = ("away_timeout", "bots", "deal_pause", "deals", "scoring", "seed",
                 "start_when", "turn_timeout")

    def __init__(self, deals: int = 8, seed: int | None = None,
                 bots: tuple[str, str, str, str] = ("normal", "normal", "normal", "normal"),
                 away_timeout: float = 60.0, turn_timeout: float = 120.0,
                 deal_pause: float = 30.0, start_when: int | None = None,
                 scoring: str = "classic") -> None:
        self.deals = deals
        self.seed = seed
        self.bots = bots
        """The bot for each seat nobody takes (the host's own seat's entry is used only when
        it plays without a local player)."""
        self.away_timeout = away_timeout
        """How long the table waits for a person whose connection is gone, before the
        stand-in plays for them (in the lobby: before their seat is freed)."""
        self.turn_timeout = turn_timeout
        """How long the table waits for the card of a person who is connected but silent,
        before the stand-in plays for them as for one away."""
        self.deal_pause = deal_pause
        self.start_when = start_when
        """Start by itself once this many people are seated (else the owner sends
        ``start``)."""
        self.scoring = scoring  # or "pool" (engine/scoring.py)

    def __repr__(self) -> str:
        return f"TableConfig({self.to_json()})"

    def to_json(self) -> JSON:
        return {"deals": self.deals, "seed": self.seed, "bots": list(self.bots),
                "away_timeout": self.away_timeout, "turn_timeout": self.turn_timeout,
                "deal_pause": self.deal_pause,
                "start_when": self.start_when, "scoring": self.scoring}

    @classmethod
    def from_json(cls, data: JSON) -> TableConfig:
        bots = data.get("bots") or ["normal"] * 4
        return cls(deals=int(data["deals"]), seed=data.get("seed"),
                   bots=(str(bots[0]), str(bots[1]), str(bots[2]), str(bots[3])),
                   away_timeout=float(data.get("away_timeout", 60.0)),
                   turn_timeout=float(data.get("turn_timeout", 120.0)),
                   deal_pause=float(data.get("deal_pause", 30.0)),
                   start_when=data.get("start_when"),
                   scoring=str(data.get("scoring", "classic")))


__all__ = ["JSON", "TableConfig"]
