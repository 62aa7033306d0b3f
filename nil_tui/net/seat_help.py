"""Hints and the clean-chance meter for a person at a shared table: worked out on their own
machine from their seat's view alone (nothing is asked of the table, nothing is sent to it),
and kept as that person's own help. The game in their history then counts as assisted, as a
game played here does; the other players' games do not. Undo stays off: a card played at a
shared table is the table's."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..engine import Card, PlayerView, Trick
from ..session import game_session as gs
from ..session.messages import AskHint, Hint, MeterReading, Refused, SetMeter, TableState
from ..session.meter import Meter, MeterKey, meter_seed

ASSISTED_BY = {"hint": "Hint used", "meter": "Clean-chance meter on"}


class SeatHelp:
    """The help one seat has used (``assists``, in the order first used) and its meter."""

    def __init__(self, meter_on: bool, assists: Sequence[str] = ()) -> None:
        self.assists = [a for a in dict.fromkeys(assists) if a in ASSISTED_BY]
        self.meter = Meter(meter_on)

    def begin(self) -> list[gs.Out]:
        """A meter on from the player's settings: the game counts as assisted (said when
        that is new)."""
        return self._assist("meter") if self.meter.on else []

    def used(self) -> str:
        return gs.help_words(False, self.assists)

    def _assist(self, kind: str) -> list[gs.Out]:
        first = not self.assists
        if kind not in self.assists:
            self.assists.append(kind)
        return [gs.AssistedNow(ASSISTED_BY[kind])] if first else []

    def hint(self, state: TableState, view: PlayerView, on_show: bool) -> list[gs.Out]:
        """A hint for your turn: found from ``view`` in a thread (:class:`gs.FindHint`)."""
        if on_show or state.pace not in ("your_turn", "forced"):
            return [Refused("hint", "A hint is for your turn.")]
        return [*self._assist("hint"), gs.FindHint(state.turn, view)]

    @staticmethod
    def hint_found(state: TableState, turn: int, card: Card, reason: str) -> list[gs.Out]:
        """A hint worked out for ``turn``: dropped when the position is gone."""
        return [Hint(turn, card, reason)] if turn == state.turn else []

    def set_meter(self, on: bool, state: TableState, view: PlayerView) -> list[gs.Out]:
        self.meter.turn_to(on)
        if not on:
            return []
        return [*self._assist("meter"), *self.now(state, view)]

    def now(self, state: TableState, view: PlayerView) -> list[gs.Out]:
        """The meter's figure for the position shown (an estimate to work out, at most once
        a trick)."""
        key: MeterKey = (state.deal_number, len(state.tricks), 0)
        over = state.pace in ("deal_over", "game_over")
        return list(self.meter.at(view, over=over, key=key, turn=state.turn,
                                  seed=meter_seed(None, key[0], key[1])))

    def estimated(self, key: MeterKey, chance: float | None, turn: int) -> list[gs.Out]:
        return list(self.meter.estimated(key, chance, turn))

    @property
    def reading(self) -> MeterReading | None:
        return self.meter.reading


class OwnHelp:
    """The part of a shared table's seat session that is its player's own help (a base of
    :class:`~.remote.RemoteSession`, which gives the position: ``state``, ``view``,
    ``on_show``)."""

    _help: SeatHelp
    _on_assist: Callable[[list[str]], None] | None
    help_allowed = True  # hints and the meter (undo: never)

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
    def meter(self) -> MeterReading | None:
        return self._help.reading

    def help_used(self) -> str:
        return self._help.used()

    def begin(self) -> list[gs.Out]:
        """A meter on from the player's settings makes their game assisted (said once)."""
        return self._helped(self._help.begin())

    def ask_help(self, action: AskHint | SetMeter) -> list[gs.Out]:
        if isinstance(action, AskHint):
            out = self._help.hint(self.state(), self.view(), self.on_show is not None)
        else:
            out = self._help.set_meter(action.on, self.state(), self.view())
        return self._helped(out)

    def hint_found(self, turn: int, card: Card, reason: str) -> list[gs.Out]:
        return self._help.hint_found(self.state(), turn, card, reason)

    def meter_estimated(self, key: MeterKey, chance: float | None) -> list[gs.Out]:
        return self._help.estimated(key, chance, self.state().turn)

    def _helped(self, out: list[gs.Out]) -> list[gs.Out]:
        """Help's output; the help used so far is kept, when it grew."""
        if self._on_assist is not None and any(isinstance(o, gs.AssistedNow) for o in out):
            self._on_assist(list(self._help.assists))
        return out


__all__ = ["OwnHelp", "SeatHelp"]
