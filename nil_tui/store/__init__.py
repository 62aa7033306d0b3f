"""Everything the player keeps between runs: settings, the game in progress, history and
statistics. SQLite in the user data directory; this package is the only code that knows SQL.

- ``schema``: the tables, the soundness check and the migrations;
- ``locking``: slots for instances running at once, and a lock told apart from damage;
- ``summaries``: what history and statistics keep of a game (pure functions of its record);
- ``files``: record files, data set aside, JSON read safely;
- ``messages``: what the player is told;
- ``core``: the ``Store`` itself.
"""

from __future__ import annotations

from ..paths import DB_NAME, default_home
from .core import RECORDS_DIR, Finished, Saved, Store, as_options
from .files import JSONDamage, now_utc
from .locking import LOCK_NAME, MAX_SLOTS
from .messages import LOCKED
from .schema import MIGRATIONS, SCHEMA_VERSION, StoreError
from .summaries import (
    Figures,
    GameSummary,
    JSONObject,
    difficulty_of,
    fingerprint,
    opponents_of,
    summarize,
)

__all__ = [
    "DB_NAME", "LOCKED", "LOCK_NAME", "MAX_SLOTS", "MIGRATIONS", "RECORDS_DIR", "SCHEMA_VERSION",
    "Figures", "Finished", "GameSummary", "JSONDamage", "JSONObject", "Saved", "Store",
    "StoreError", "as_options", "default_home", "difficulty_of", "fingerprint", "now_utc",
    "opponents_of", "summarize",
]
