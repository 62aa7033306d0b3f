"""A single person's help: hints and the clean-chance meter, worked out on their own machine
from their seat's view alone (nothing is asked of the table, nothing is sent to it), and kept
as that person's own. The game in their history then counts as assisted; at a shared table,
the other players' games do not. Undo is a game played here's alone (a card played at a
shared table is the table's): see :class:`~.game_session.GameSession`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .messages import AskHint, Hint, MeterReading, Refused, SetMeter, TableState
from .meter import Meter, MeterKey, meter_seed
from .pacing import AssistedNow, FindHint, Out

if TYPE_CHECKING:
    from ..engine import Card, Game, PlayerView, Trick

ASSISTED_BY = {"hint": "Hint used", "meter": "Clean-chance meter on"}


def help_words(undone: bool, assists: Sequence[str]) -> str:
    """The help a player had, in words: "undo", "undo and hints", "hints and the meter"."""
    kinds = (["undo"] if undone else []) + [
        {"hint": "hints", "meter": "the meter"}.get(k, k) for k in assists]
    if not kinds:
        return "nothing"
    return kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " and " + kinds[-1]


class SeatHelp:
    """The help one person has used (``assists``, in the order first used) and their meter.

    ``game``: the game played here, whose seed the meter's estimates follow (a shared
    table's seat does not know it); ``assisted_before``: whether the game counted as
    assisted already by other help (a game played here: undo)."""

    def __init__(self, meter_on: bool, assists: Sequence[str] = (), *,
                 game: Game | None = None,
                 assisted_before: Callable[[], bool] = lambda: False) -> None:
        self.assists = [a for a in dict.fromkeys(assists) if a in ASSISTED_BY]
        self.meter = Meter(meter_on)
        self._game = game
        self._assisted_before = assisted_before
        self._handed_on = len(self.assists)

    def grown(self) -> bool:
        """Whether more kinds of help were used since this was last asked."""
        grew = len(self.assists) > self._handed_on
        self._handed_on = len(self.assists)
        return grew

    def begin(self) -> list[Out]:
        """A meter on from the player's settings: the game counts as assisted (said when
        that is new)."""
        return self._assist("meter") if self.meter.on else []

    def _assist(self, kind: str) -> list[Out]:
        first = not self.assists and not self._assisted_before()
        if kind not in self.assists:
            self.assists.append(kind)
        return [AssistedNow(ASSISTED_BY[kind])] if first else []

    def hint(self, state: TableState, view: PlayerView, on_show: bool) -> list[Out]:
        """A hint for your turn: found from ``view`` in a thread (:class:`FindHint`)."""
        if on_show or state.pace not in ("your_turn", "forced"):
            return [Refused("hint", "A hint is for your turn.")]
        return [*self._assist("hint"), FindHint(state.turn, view)]

    @staticmethod
    def hint_found(state: TableState, turn: int, card: Card, reason: str) -> list[Out]:
        """A hint worked out for ``turn``: dropped when the position is gone."""
        return [Hint(turn, card, reason)] if turn == state.turn else []

    def set_meter(self, on: bool, state: TableState, view: PlayerView) -> list[Out]:
        self.meter.turn_to(on)
        if not on:
            return []
        return [*self._assist("meter"), *self.now(state, view)]

    def now(self, state: TableState, view: PlayerView) -> list[Out]:
        """The meter's figure for the position shown (an estimate to work out, at most once
        a trick, and again after an undo)."""
        undone = len(self._game.undone) if self._game is not None else 0
        key: MeterKey = (state.deal_number, len(state.tricks), undone)
        over = state.pace in ("deal_over", "game_over")
        return list(self.meter.at(view, over=over, key=key, turn=state.turn,
                                  seed=meter_seed(self._game, key[0], key[1])))

    def estimated(self, key: MeterKey, chance: float | None, turn: int) -> list[Out]:
        return list(self.meter.estimated(key, chance, turn))

    @property
    def reading(self) -> MeterReading | None:
        return self.meter.reading


class OwnHelp:
    """The part of a seat session that is its person's own help (a base of
    :class:`~.game_session.GameSession` and :class:`~nil_tui.net.remote.RemoteSession`, which
    give the position: ``state``, ``view``, ``on_show``)."""

    _help: SeatHelp
    _on_assist: Callable[[list[str]], None] | None

    def state(self) -> TableState:
        raise NotImplementedError

    def view(self) -> PlayerView:
        raise NotImplementedError

    @property
    def on_show(self) -> Trick | None:
        raise NotImplementedError

    @property
    def meter_on(self) -> bool:
        return self._help.meter.on

    @property
    def meter_key(self) -> MeterKey | None:
        """The position the meter's estimate is (being) made for."""
        return self._help.meter.key

    @property
    def meter(self) -> MeterReading | None:
        """The meter's figure for the position shown (None while it is worked out)."""
        return self._help.reading

    def begin(self) -> list[Out]:
        """A meter on from the player's settings makes their game assisted (said once)."""
        return self._helped(self._help.begin())

    def ask_help(self, action: AskHint | SetMeter) -> list[Out]:
        if isinstance(action, AskHint):
            out = self._help.hint(self.state(), self.view(), self.on_show is not None)
        else:
            out = self._help.set_meter(action.on, self.state(), self.view())
        return self._helped(out)

    def hint_found(self, turn: int, card: Card, reason: str) -> list[Out]:
        """A hint worked out for ``turn``: dropped when the position is gone."""
        return self._help.hint_found(self.state(), turn, card, reason)

    def meter_estimated(self, key: MeterKey, chance: float | None) -> list[Out]:
        """The estimate for ``key``; dropped when the position is gone or the meter off."""
        return self._help.estimated(key, chance, self.state().turn)

    def _helped(self, out: list[Out]) -> list[Out]:
        """Help's output; the help used so far is handed on whenever it grew."""
        if self._help.grown() and self._on_assist is not None:
            self._on_assist(list(self._help.assists))
        return out


__all__ = ["ASSISTED_BY", "OwnHelp", "SeatHelp", "help_words"]
