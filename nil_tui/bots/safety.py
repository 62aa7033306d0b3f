"""Isolation: a bot that raises, answers with an illegal card or takes too long never stops
the game. ``choose_safely`` plays the lowest legal card for it and says why."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass

from ..engine import Card, PlayerView

DEFAULT_TIME_CAP = 10.0
TIME_CAP_ENV = "NIL_TUI_BOT_TIME_CAP"


class _Default:
    def __repr__(self) -> str:
        return "the default cap"


DEFAULT = _Default()
_time_cap: float | None = None  # set_time_cap() overrides the environment and the default


def set_time_cap(seconds: float | None) -> None:
    """Set the cap used when choose_safely is not given one (None: back to the default).
    ValueError for anything but a positive number of seconds."""
    global _time_cap
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or not seconds > 0):
        raise ValueError(f"a bot time cap must be a positive number of seconds, not {seconds!r}")
    _time_cap = None if seconds is None else float(seconds)


def default_time_cap() -> float:
    """The cap in seconds: set_time_cap(), else the NIL_TUI_BOT_TIME_CAP environment variable
    (a positive number of seconds; anything else is ignored), else 10 s."""
    if _time_cap is not None:
        return _time_cap
    text = os.environ.get(TIME_CAP_ENV, "").strip()
    if text:
        try:
            value = float(text)
        except ValueError:
            value = 0.0
        if value > 0 and value != float("inf"):
            return value
    return DEFAULT_TIME_CAP


@dataclass(frozen=True)
class Choice:
    card: Card
    incident: str | None = None  # why the card was played for the bot, or None


def fallback_card(view: PlayerView) -> Card:
    """The safe card played for a failing bot: its lowest legal card."""
    return min(view.legal, key=lambda c: (c.rank, c.suit))


def _checked(view: PlayerView, answer: object, name: str) -> Choice:
    if isinstance(answer, str):
        try:
            answer = Card.parse(answer)
        except ValueError:
            pass
    if isinstance(answer, Card) and answer in view.legal:
        return Choice(answer)
    return Choice(fallback_card(view), f"{name} chose {answer!r}, which is not a legal card; "
                  f"{fallback_card(view)} was played for it")


def choose_safely(bot: object, view: PlayerView,
                  time_cap: float | None | _Default = DEFAULT) -> Choice:
    """Ask a bot for a card, never raising and never waiting longer than ``time_cap`` seconds
    (default: :func:`default_time_cap`; None: no cap, the call runs in this thread)."""
    if isinstance(time_cap, _Default):
        time_cap = default_time_cap()
    name = str(getattr(bot, "name", type(bot).__name__))
    if time_cap is None:
        try:
            answer = bot.choose(view)  # type: ignore[attr-defined]
        except Exception as exc:  # noqa: BLE001 - any bot failure is contained
            return Choice(fallback_card(view), f"{name} failed ({type(exc).__name__}: {exc}); "
                          f"{fallback_card(view)} was played for it")
        return _checked(view, answer, name)

    box: dict[str, object] = {}

    def ask() -> None:
        try:
            box["answer"] = bot.choose(view)  # type: ignore[attr-defined]
        except BaseException as exc:  # noqa: BLE001
            box["error"] = exc

    worker = threading.Thread(target=ask, name=f"bot-{name}", daemon=True)
    worker.start()
    worker.join(time_cap)
    if worker.is_alive():
        return Choice(fallback_card(view), f"{name} took longer than {time_cap:g} s; "
                      f"{fallback_card(view)} was played for it")
    if "error" in box:
        error = box["error"]
        return Choice(fallback_card(view), f"{name} failed ({type(error).__name__}: {error}); "
                      f"{fallback_card(view)} was played for it")
    return _checked(view, box.get("answer"), name)
