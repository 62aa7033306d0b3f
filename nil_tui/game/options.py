"""Choices for one game in the app, as the command line, the saved settings and the setup
screen give them, and the one validator they all go through."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal, NamedTuple, TypeVar, get_args

Speed = Literal["instant", "fast", "normal", "slow"]
TrickPause = Literal["brief", "key"]  # after each trick: pause briefly (by speed), or wait for a key
Scoring = Literal["classic", "pool"]  # engine/scoring.py
Level = Literal["easy", "normal", "hard", "expert"]
# where the hand's cursor stops on your turn: only on the cards you may play, or on every card
CursorStops = Literal["playable", "every"]

SPEEDS: tuple[Speed, ...] = get_args(Speed)
TRICK_PAUSES: tuple[TrickPause, ...] = get_args(TrickPause)
SCORINGS: tuple[Scoring, ...] = get_args(Scoring)
LEVEL_NAMES: tuple[Level, ...] = get_args(Level)
CURSOR_STOPS: tuple[CursorStops, ...] = get_args(CursorStops)
BOT_SEATS = {"W": 1, "N": 2, "E": 3}
DEFAULT_LEVEL: Level = "normal"  # the level offered when a seat's bot is not available

_Choice = TypeVar("_Choice", bound=str)
_T = TypeVar("_T")


class OptionError(ValueError):
    """A value no game can be played with (the message says which and why)."""


def _choice(value: object, choices: tuple[_Choice, ...], what: str) -> _Choice:
    for choice in choices:
        if isinstance(value, str) and value == choice:
            return choice
    raise OptionError(f"{what}: expected one of {', '.join(choices)}, got {value!r}")


def as_speed(value: object) -> Speed:
    return _choice(value, SPEEDS, "speed")


def as_trick_pause(value: object) -> TrickPause:
    return _choice(value, TRICK_PAUSES, "trick pause")


def as_scoring(value: object) -> Scoring:
    return _choice(value, SCORINGS, "scoring")


def as_cursor(value: object) -> CursorStops:
    return _choice(value, CURSOR_STOPS, "cursor")


def as_deals(value: object) -> int:
    from ..engine.game import MAX_DEALS

    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_DEALS:
        return value
    raise OptionError(f"deals: expected 1 to {MAX_DEALS}, got {value!r}")


def as_seed(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise OptionError(f"seed: expected a whole number, got {value!r}")


def as_flag(value: object) -> bool:
    if isinstance(value, bool):
        return value
    raise OptionError(f"expected true or false, got {value!r}")


def as_bots(value: object) -> tuple[str, str, str]:
    """Three bot specs (West, North, East). A bot that sees every hand (the oracle) plays
    only in simulate, never at a table; a spec holding a control character is refused
    wherever it enters. (Whether a plugin is installed is asked when it is seated.)"""
    if not (isinstance(value, (list, tuple)) and len(value) == 3
            and all(isinstance(b, str) and b.strip() for b in value)):
        raise OptionError(f"bots: expected three bot names, got {value!r}")
    from ..bots import HIDDEN
    from ..util.textsafe import has_control

    if any(b.strip() in HIDDEN or has_control(b) for b in value):
        raise OptionError("bots: a bot that sees every hand plays only in simulate")
    return (value[0], value[1], value[2])


def _default_deals() -> int:
    # The engine is imported when options are first made, not with this module: the command
    # line parses without it, and the app loads it with garbage collection off (see launch).
    from ..engine.game import DEFAULT_DEALS

    return DEFAULT_DEALS


@dataclass(frozen=True)
class PlayOptions:
    deals: int = field(default_factory=_default_deals)
    bots: tuple[str, str, str] = ("normal", "normal", "normal")  # West, North, East
    seed: int | None = None
    speed: Speed = "normal"
    ascii: bool = False
    four_color: bool = False
    theme: str | None = None
    auto_play: bool = True  # a card you are forced to play is played for you
    trick_pause: TrickPause = "brief"
    meter: bool = False  # show the chance to stay clean (the game then counts as assisted)
    scoring: Scoring = "classic"
    cursor: CursorStops = "playable"  # on your turn the cursor skips the cards you may not play
    # a daily challenge's date (YYYY-MM-DD): fixed deals and bots; hints, undo, meter off
    challenge: str | None = None
    extra: dict[str, str] = field(default_factory=dict)
    # Chosen in the setup screen: only such a game's options become the player's settings
    # (command-line flags apply to their one game).
    from_setup: bool = False

    def __post_init__(self) -> None:
        # The choices are checked wherever options are made: a misspelt one is refused here
        # instead of acting as some other choice later.
        as_speed(self.speed)
        as_trick_pause(self.trick_pause)
        as_scoring(self.scoring)
        as_cursor(self.cursor)


class PlayOverrides(NamedTuple):
    """Choices over the player's settings for one game (``nil-tui play``'s flags, a saved
    settings file's keys): None leaves the setting as it is; the seed is always this
    game's own (None: a random game)."""

    seed: int | None = None
    deals: int | None = None
    bots: tuple[str, str, str] | None = None
    speed: Speed | None = None
    ascii: bool | None = None
    four_color: bool | None = None
    auto_play: bool | None = None
    trick_pause: TrickPause | None = None
    theme: str | None = None
    meter: bool | None = None
    scoring: Scoring | None = None
    cursor: CursorStops | None = None

    def given(self) -> dict[str, object]:
        """The choices made, by option name (the seed always)."""
        return {key: value for key, value in self._asdict().items()
                if value is not None or key == "seed"}

    def over(self, base: PlayOptions) -> PlayOptions:
        """``base`` with these choices over it."""

        def pick(mine: _T | None, theirs: _T) -> _T:
            return theirs if mine is None else mine

        return replace(
            base, seed=self.seed, deals=pick(self.deals, base.deals),
            bots=pick(self.bots, base.bots), speed=pick(self.speed, base.speed),
            ascii=pick(self.ascii, base.ascii), four_color=pick(self.four_color, base.four_color),
            auto_play=pick(self.auto_play, base.auto_play),
            trick_pause=pick(self.trick_pause, base.trick_pause),
            theme=pick(self.theme, base.theme), meter=pick(self.meter, base.meter),
            scoring=pick(self.scoring, base.scoring), cursor=pick(self.cursor, base.cursor))


def _valid(check: Callable[[object], _T], value: object) -> _T | None:
    """``check(value)``, or None when the value is missing or refused."""
    if value is None:
        return None
    try:
        return check(value)
    except OptionError:
        return None


def overrides_from_dict(data: Mapping[str, object]) -> PlayOverrides:
    """The valid choices of saved settings (unknown keys ignored, bad values left out)."""
    return PlayOverrides(
        seed=_valid(as_seed, data.get("seed")), deals=_valid(as_deals, data.get("deals")),
        bots=_valid(as_bots, data.get("bots")), speed=_valid(as_speed, data.get("speed")),
        ascii=_valid(as_flag, data.get("ascii")),
        four_color=_valid(as_flag, data.get("four_color")),
        auto_play=_valid(as_flag, data.get("auto_play")),
        trick_pause=_valid(as_trick_pause, data.get("trick_pause")),
        meter=_valid(as_flag, data.get("meter")), scoring=_valid(as_scoring, data.get("scoring")),
        cursor=_valid(as_cursor, data.get("cursor")))


def options_from_dict(data: Mapping[str, object], base: PlayOptions | None = None) -> PlayOptions:
    """PlayOptions from saved settings over ``base`` (unknown keys ignored, bad values
    replaced); not marked as chosen in setup. A theme missing from them is none."""
    out = overrides_from_dict(data).over(replace(base or PlayOptions(), from_setup=False))
    theme = data.get("theme")
    return replace(out, theme=theme) if theme is None or isinstance(theme, str) else out
