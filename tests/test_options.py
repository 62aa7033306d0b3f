"""The one validator of a game's choices: the command line, the saved settings and the setup
screen all go through it."""

from __future__ import annotations

import pytest

from nil_tui.game.options import (
    CURSOR_STOPS,
    SPEEDS,
    TRICK_PAUSES,
    OptionError,
    PlayOptions,
    PlayOverrides,
    as_cursor,
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


@pytest.mark.parametrize("field", ["speed", "scoring", "trick_pause", "cursor"])
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


def test_the_cursor_stops_on_the_cards_you_may_play_unless_you_choose_every_card() -> None:
    assert CURSOR_STOPS == ("playable", "every")
    assert PlayOptions().cursor == "playable"
    assert as_cursor("every") == "every"
    with pytest.raises(OptionError, match="cursor: expected one of playable, every"):
        as_cursor("all")
    with pytest.raises(OptionError, match="cursor"):
        PlayOptions(cursor="all")  # type: ignore[arg-type]


def test_saved_settings_keep_the_cursor_and_leave_a_bad_one_out() -> None:
    assert options_from_dict({"cursor": "every"}).cursor == "every"
    base = PlayOptions(cursor="every")
    assert options_from_dict({"cursor": "all"}, base).cursor == "every"
    assert options_from_dict({"cursor": 1}).cursor == "playable"
    assert PlayOverrides(cursor="every").over(PlayOptions()).cursor == "every"
    assert PlayOverrides().over(base).cursor == "every"  # not given: as it was
    assert PlayOverrides(cursor="every").given() == {"seed": None, "cursor": "every"}


def test_the_cursor_is_kept_with_the_settings_and_is_part_of_the_look() -> None:
    from nil_tui.session.home import LOOK
    from nil_tui.session.saving import options_dict

    assert options_dict(PlayOptions(cursor="every"))["cursor"] == "every"
    assert "cursor" in LOOK  # a resumed game and a daily challenge take the player's own
