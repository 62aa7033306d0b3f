"""A plugin bot that writes what it was told about the game's scoring at every decision (one
JSON line to the file named by NIL_TUI_SCORE_OUT), then plays its lowest legal card."""

from __future__ import annotations

import json
import os

from nil_tui.engine import Card, PlayerView


class Scorekeeper:
    name = "Scorekeeper"

    def __init__(self, seed: int = 0) -> None:
        self.out = os.environ.get("NIL_TUI_SCORE_OUT", "")

    def choose(self, view: PlayerView) -> Card:
        if self.out:
            line = {"seat": view.seat, "deal_number": view.deal_number,
                    "deals_planned": view.deals_planned, "deals_left": view.deals_left,
                    "totals": list(view.totals), "scoring": view.scoring, "pool": view.pool,
                    "tiebreak": list(view.tiebreak), "first": view.rule.first,
                    "tricks": len(view.tricks), "trick": len(view.trick)}
            with open(self.out, "a", encoding="utf-8") as f:
                f.write(json.dumps(line) + "\n")
        return min(view.legal, key=lambda c: c.index)
