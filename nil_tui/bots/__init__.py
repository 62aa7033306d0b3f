"""Bots: the Bot protocol, the registry of levels and plugins, and ``make_bot``.

Built-in levels are imported lazily so that starting the app does not load search code.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, runtime_checkable

from ..engine import Card, PlayerView
from ..util.textsafe import has_control, one_line

ENTRY_POINT_GROUP = "nil_tui.bots"


@runtime_checkable
class Bot(Protocol):
    """A computer player. ``choose`` must return one of ``view.legal``."""

    name: str

    def choose(self, view: PlayerView) -> Card: ...


class BotSpecError(ValueError):
    """A bot spec that names no bot, or names something that is not a bot."""


class BotMissing(BotSpecError):
    """A plugin bot that is not installed here (its module or its entry point is gone): the
    app can offer a built-in level for its seat instead."""


class Level(NamedTuple):
    """A built-in difficulty level as the app and the simulator list it."""

    spec: str
    title: str
    description: str
    target: str  # "module:Name" of the implementation, imported on first use
    # The strength the ladder measured (docs/bots/levels.md, "Measured strength"): the edge, points a deal
    # more than the opponents, against three of a level; setup says it in words.
    measured: str = ""


LEVELS: dict[str, Level] = {
    "easy": Level("easy", "Easy",
                  "A beginner: often plays at random, but ducks a trick when it can.",
                  "nil_tui.bots.easy:EasyBot",
                  "-0.202 points a deal against 3 normal (200 games of 8 deals)"),
    "normal": Level("normal", "Normal",
                    "Sound rules of thumb: ducks high, sheds danger, hunts clean players.",
                    "nil_tui.bots.normal:NormalBot",
                    "+0.330 points a deal against 3 easy (200 games of 8 deals)"),
    "hard": Level("hard", "Hard",
                  "Counts cards, reads voids and tries each card on guessed hands.",
                  "nil_tui.bots.hard:HardBot",
                  "+0.055 points a deal against 3 normal (80 games of 8 deals)"),
    "expert": Level("expert", "Expert",
                    "Searches hands guessed from the play; plays for the match late on.",
                    "nil_tui.bots.expert:ExpertBot",
                    "+0.106 points a deal against 3 normal (40 games of 8 deals)"),
}

# Specs that make_bot and check_spec accept but the app does not offer.
HIDDEN: dict[str, str] = {"oracle": "nil_tui.bots.expert:OracleBot"}


def _load_target(target: str, spec: str) -> Callable[..., Any]:
    module_name, _, attr = target.partition(":")
    if not module_name or not attr:
        raise BotSpecError(f"bot spec {spec!r}: expected 'package.module:Name'")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # noqa: BLE001 - any import failure of a plugin is reported
        raise BotSpecError(f"bot spec {spec!r}: cannot import module {module_name!r} "
                           f"({type(exc).__name__}: {exc})") from None
    obj = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise BotSpecError(f"bot spec {spec!r}: module {module_name!r} has no "
                               f"{attr!r}") from None
    if not callable(obj):
        raise BotSpecError(f"bot spec {spec!r}: {attr!r} is not a class or factory")
    return obj


def plugin_entry_points() -> dict[str, str]:
    """Installed plugin bots: entry-point name -> "module:Name". A plugin whose name or
    target holds a character a terminal would obey is left out: its name would be shown and
    written in records."""
    from importlib.metadata import entry_points

    try:
        eps = entry_points(group=ENTRY_POINT_GROUP)
    except Exception:  # noqa: BLE001 - broken metadata must not break the app
        return {}
    return {ep.name: ep.value for ep in eps if ep.name not in LEVELS
            and not has_control(ep.name) and not has_control(ep.value)}


def clean_spec(spec: object) -> str:
    """A bot spec as given, its spaces around stripped; BotSpecError when it is empty or holds
    a character a terminal would obey (ESC, a newline, a mark that turns the direction of
    text...): a spec is shown on screens and written in records as it is, so such a spec
    (a plugin module named with an ESC in it, say) is refused where it enters."""
    if not isinstance(spec, str) or not spec.strip():
        raise BotSpecError(f"empty bot spec {spec!r}")
    spec = spec.strip()
    if has_control(spec):
        raise BotSpecError(f"bot spec '{one_line(spec)}' holds a control character (a bot "
                           "spec, a plugin's module and class names included, is printable "
                           "text on one line)")
    return spec


def make_bot(spec: str, *, seed: int) -> Bot:
    """Build a bot from a spec: a level name, an installed plugin's name, or module:Name."""
    spec = clean_spec(spec)
    if spec in LEVELS:
        target = LEVELS[spec].target
    elif spec in HIDDEN:
        target = HIDDEN[spec]
    elif ":" in spec:
        target = spec
    else:
        plugins = plugin_entry_points()
        if spec not in plugins:
            known = ", ".join([*LEVELS, *plugins])
            raise BotSpecError(f"unknown bot {spec!r} (known: {known}; or use "
                               "package.module:Name)")
        target = plugins[spec]
    factory = _load_target(target, spec)
    try:
        bot = factory(seed=seed)
    except Exception as exc:  # noqa: BLE001
        raise BotSpecError(f"bot spec {spec!r}: creating the bot failed "
                           f"({type(exc).__name__}: {exc})") from None
    if not callable(getattr(bot, "choose", None)):
        raise BotSpecError(f"bot spec {spec!r}: {target} is not a bot (it has no "
                           "choose(view) method)")
    if not isinstance(getattr(bot, "name", None), str):
        try:
            bot.name = spec
        except Exception:  # noqa: BLE001, S110 - a bot without a settable name keeps none
            pass
    return bot  # type: ignore[no-any-return]


def seat_seed(game_seed: int | None, seat: int) -> int:
    """The seed of the bot in a seat, derived from the game's seed: the app, a resumed game
    and the simulator build the same bots for the same game."""
    import hashlib

    digest = hashlib.sha256(f"nil-tui-bot:{game_seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


__all__ = ["ENTRY_POINT_GROUP", "HIDDEN", "LEVELS", "Bot", "BotMissing", "BotPlayer",
           "BotSpecError", "Choice", "Level", "advise", "check_spec", "clean_spec", "make_bot",
           "open_player", "plugin_entry_points", "seat_seed"]

if TYPE_CHECKING:
    from .players import BotPlayer, open_player
    from .safety import Choice

_LAZY = {"BotPlayer": "players", "open_player": "players", "Choice": "safety"}


def __getattr__(name: str) -> Any:
    """``BotPlayer``, ``open_player`` and ``Choice``, imported on first use (importing the
    package stays cheap for the app's start)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def check_spec(spec: str) -> None:
    """Raise BotSpecError unless the spec names a bot that can play here: BotMissing when it
    names a plugin that is not installed. Built-in levels are checked by name; a plugin is
    loaded and built in its own process (as a game would), never in this one."""
    spec = clean_spec(spec)
    if spec in LEVELS or spec in HIDDEN:
        return
    from .players import open_player

    open_player(spec, 0).close()


def advise(view: PlayerView, ascii: bool = False) -> tuple[Card, str]:
    """A hint: the expert's card for this view and one line in plain words saying why
    ("Duck under North's Q♠: you are still clean"; "QS" with ``ascii``). Takes well under a
    second."""
    from .advice import advise as _advise

    return _advise(view, ascii)
