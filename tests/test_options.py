"""The one validator of a game's choices: the command line, the saved settings and the setup
screen all go through it."""

from __future__ import annotations

import pytest

from nil_tui.game.options import (
    SPEEDS,
    TRICK_PAUSES,
    OptionError,
    PlayOptions,
    PlayOverrides,
    as_speed,
    as_trick_pause,
    options_from_dict,
)


def test_a_misspelt_trick_pause_is_refused_instead_of_acting_as_brief() -> None:
    with pytest.raises(OptionError, match="trick pause"):
        PlayOptions(trick_pause="timed")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="trick pause"):
        as_trick_pause("timed")
    assert TRICK_PAUSES == ("brief", "key")


@pytest.mark.parametrize("field", ["speed", "scoring", "trick_pause"])
def test_every_choice_refuses_what_it_does_not_know(field: str) -> None:
    with pytest.raises(OptionError):
        PlayOptions(**{field: "sometimes"})  # type: ignore[arg-type]


def test_saved_settings_keep_their_good_values_and_drop_the_bad() -> None:
    base = PlayOptions(deals=3, speed="slow", trick_pause="key", from_setup=True)
    got = options_from_dict({"speed": "warp", "trick_pause": "timed", "deals": 0,
                             "scoring": "pool", "ascii": "yes", "meter": True,
                             "bots": ["oracle", "easy", "easy"], "theme": "nord"}, base)
    assert (got.speed, got.trick_pause, got.deals) == ("slow", "key", 3)
    assert (got.scoring, got.ascii, got.meter, got.theme) == ("pool", False, True, "nord")
    assert got.bots == base.bots and not got.from_setup
    assert options_from_dict({"deals": True}, base).deals == 3  # a bool is not a number


def test_overrides_change_only_what_they_name() -> None:
    base = PlayOptions(deals=5, speed="fast", seed=9, theme="nord")
    got = PlayOverrides(speed="slow", ascii=True).over(base)
    assert (got.deals, got.speed, got.ascii, got.theme) == (5, "slow", True, "nord")
    assert got.seed is None  # the seed is always the game's own
    assert PlayOverrides(speed="slow").given() == {"seed": None, "speed": "slow"}


def test_the_speeds_are_those_the_setup_screen_and_the_flag_offer() -> None:
    assert SPEEDS == ("instant", "fast", "normal", "slow")
    assert [as_speed(s) for s in SPEEDS] == list(SPEEDS)
