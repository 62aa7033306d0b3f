"""A game with people at it: its authority, the :class:`Table` (the game's driver, the bots,
the stand-ins for people away, and the work it does in time, its :class:`~.clock.Clock`),
and its :class:`~.seating.Seating` (who sits where, their keys and names, the lobby and its
owner, the seats as kept).

The table takes typed calls (``sit``, ``act``, ``start_by``, ``depart``) and tells each of
its members (:class:`~.member.Member`) typed values: the session's news and that seat's
``TableState``, who sits where, the game's record. It knows no wire format and imports
nothing of ``nil_tui.net``, whose WebSocket server is one carrier of it; a game played here
is a table in this process with one person at it (:func:`~.table.table_here`, the seat of
:class:`~nil_tui.session.game_session.GameSession`).
"""

from .clock import Clock
from .config import TableConfig
from .member import STAND_IN, Member, Parting, TableRefusal, Update, Welcome
from .seating import MAX_NAME, Seat, Seating
from .table import Table, TableStats, driver_for, table_here

__all__ = ["MAX_NAME", "STAND_IN", "Clock", "Member", "Parting", "Seat", "Seating", "Table",
           "TableConfig", "TableRefusal", "TableStats", "Update", "Welcome", "driver_for",
           "table_here"]
