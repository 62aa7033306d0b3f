"""Starting a game for the table: who sits where, and the options a game is played with.
Pure decisions, no screen: the app asks the player (resume, replace, a substitute) and the
session layer makes the game."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..game.driver import seat_specs

if TYPE_CHECKING:
    from ..engine import Game
    from ..game.options import PlayOptions


def is_builtin(spec: str) -> bool:
    """A level that ships with nil-tui (played in-process), as opposed to a plugin bot."""
    from ..bots import HIDDEN, LEVELS

    return spec in LEVELS or spec in HIDDEN


def plugin_seats(game: Game) -> list[int]:
    """The seats whose bot is a plugin (its process is started before the table shows)."""
    return [seat for seat, spec in enumerate(seat_specs(game))
            if spec is not None and not is_builtin(spec)]


def options_of(game: Game, options: PlayOptions) -> PlayOptions:
    """The options a game is played with: a challenge is one whatever the options said (its
    record carries it), with its own deals, bots and seed and no meter; any other game is
    none."""
    if game.challenge is None:
        return replace(options, challenge=None) if options.challenge else options
    from ..game.daily_challenge import CHALLENGE_BOTS

    return replace(options, challenge=game.challenge.date,
                   deals=game.deals_planned, seed=game.seed, bots=CHALLENGE_BOTS,
                   meter=False, from_setup=False)


def new_game(options: PlayOptions) -> Game:
    """A new game of these options: the daily challenge of its date, or you in the south
    seat against the three bots chosen."""
    from ..engine import SEAT_NAMES, Game

    if options.challenge is not None:
        from ..game.daily_challenge import challenge_game

        return challenge_game(options.challenge)
    players = [{"name": "South", "kind": "human"}] + [
        {"name": SEAT_NAMES[seat], "kind": "bot", "bot": spec}
        for seat, spec in zip((1, 2, 3), options.bots)]
    return Game(options.deals, options.seed, players=players, scoring=options.scoring)


__all__ = ["is_builtin", "new_game", "options_of", "plugin_seats"]
