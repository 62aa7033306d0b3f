"""Isolation: a bot that raises, answers with an illegal card or takes too long never stops
the game. ``choose_safely`` plays the lowest legal card for it and says why."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass

from ..engine import Card, PlayerView

DEFAULT_TIME_CAP = 10.0
TIME_CAP_ENV = "NIL_TUI_BOT_TIME_CAP"
INCIDENT_LIMIT = 300  # characters of an incident's text


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


def fallback_card(view: PlayerView, legal: tuple[Card, ...] | None = None) -> Card:
    """The safe card played for a failing bot: its lowest legal card (of ``legal`` when given:
    the caller's own copy of the legal cards, kept before the bot saw the view)."""
    return min(view.legal if legal is None else legal, key=lambda c: (c.rank, c.suit))


def _incident(text: str) -> str:
    """An incident's text (why a card was played for a bot) as the game records it."""
    from . import plugin_wire

    return plugin_wire.clip(text, INCIDENT_LIMIT)


def _by_value(answer: object, legal: tuple[Card, ...]) -> Card | None:
    """The legal card a bot's answer names (a card or its code), or None."""
    if type(answer) is str:
        try:
            answer = Card.parse(answer)
        except ValueError:
            return None
    if type(answer) is not Card:
        return None
    for card in legal:  # one object per card: this is the usual way out
        if card is answer:
            return card
    index = answer.index
    for card in legal:
        if card.index == index:
            return card
    return None


def _checked(legal: tuple[Card, ...], answer: object, name: str) -> Choice:
    from . import plugin_wire

    card = _by_value(answer, legal)
    if card is not None:
        return Choice(card)
    fallback = min(legal, key=lambda c: (c.rank, c.suit))
    return Choice(fallback, _incident(f"{name} chose {plugin_wire.describe_plain(answer)}, which is "
                                      f"not a legal card; {fallback} was played for it"))


def _failed(legal: tuple[Card, ...], name: str, error: BaseException) -> Choice:
    from . import plugin_wire

    fallback = min(legal, key=lambda c: (c.rank, c.suit))
    return Choice(fallback, _incident(f"{name} failed ({plugin_wire.describe_error(error)}); "
                                      f"{fallback} was played for it"))


def choose_safely(bot: object, view: PlayerView,
                  time_cap: float | None | _Default = DEFAULT) -> Choice:
    """Ask a bot in this process for a card, never raising and never waiting longer than
    ``time_cap`` seconds (default: :func:`default_time_cap`; None: no cap, the call runs in
    this thread). The game itself asks bots through :func:`nil_tui.bots.open_player`, which
    runs plugins in a process of their own; this is for bots a caller trusts."""
    from . import plugin_wire

    if isinstance(time_cap, _Default):
        time_cap = default_time_cap()
    legal = view.legal  # kept before the bot sees the view
    try:
        raw_name = getattr(bot, "name", None)
    except Exception:  # noqa: BLE001 - a name that cannot be read
        raw_name = None
    name = plugin_wire.safe_name(raw_name, plugin_wire.type_name(bot))
    if time_cap is None:
        try:
            answer = bot.choose(view)  # type: ignore[attr-defined]
        except Exception as exc:  # noqa: BLE001 - any bot failure is contained
            return _failed(legal, name, exc)
        return _checked(legal, answer, name)

    box: dict[str, object] = {}

    def ask() -> None:
        try:
            box["answer"] = bot.choose(view)  # type: ignore[attr-defined]
        except BaseException as exc:  # noqa: BLE001
            box["error"] = exc

    worker = threading.Thread(target=ask, name="bot-decision", daemon=True)
    worker.start()
    worker.join(time_cap)
    if worker.is_alive():
        fallback = fallback_card(view, legal)
        return Choice(fallback, f"{name} took longer than {time_cap:g} s; "
                      f"{fallback} was played for it")
    error = box.get("error")
    if isinstance(error, BaseException):
        return _failed(legal, name, error)
    return _checked(legal, box.get("answer"), name)
