"""Everything the player keeps between runs: settings, the game in progress, history and
statistics. SQLite in the user data directory; this package is the only code that knows SQL.

- ``schema``: the tables, the soundness check and the migrations;
- ``locking``: slots for instances running at once, and a lock told apart from damage;
- ``summaries``: what history and statistics keep of a game (pure functions of its record);
- ``files``: record files, data set aside, JSON read safely;
- ``messages``: what the player is told;
- ``database``: the connection and its state (ready, busy, waiting, saving nothing);
- ``opening``: opening the file and recovering from what is found;
- ``queue``: writes that wait for the database, with one index per question;
- ``aside``: keeping what cannot be used, in files beside the database;
- ``reads``: history and statistics, as the typed rows of ``rows``;
- ``core``: the ``Store`` itself, the API the app uses.
"""

from __future__ import annotations

from ..util.paths import DB_NAME, default_home
from .core import Store, as_options
from .database import RECORDS_DIR
from .files import JSONDamage, now_utc
from .locking import LOCK_NAME, MAX_SLOTS
from .messages import LOCKED, PLAYED_ELSEWHERE
from .rows import (
    ChallengeFound,
    ChallengeResult,
    Finished,
    HistoryRow,
    Saved,
    SeriesPoint,
    Shares,
    Stats,
)
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
    "DB_NAME",
    "LOCKED",
    "LOCK_NAME",
    "MAX_SLOTS",
    "MIGRATIONS",
    "PLAYED_ELSEWHERE",
    "RECORDS_DIR",
    "SCHEMA_VERSION",
    "ChallengeFound",
    "ChallengeResult",
    "Figures",
    "Finished",
    "GameSummary",
    "HistoryRow",
    "JSONDamage",
    "JSONObject",
    "Saved",
    "SeriesPoint",
    "Shares",
    "Stats",
    "Store",
    "StoreError",
    "as_options",
    "default_home",
    "difficulty_of",
    "fingerprint",
    "now_utc",
    "opponents_of",
    "summarize",
]
