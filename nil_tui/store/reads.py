"""History and statistics read from the database, as typed rows (see :mod:`.rows`). A row
that cannot be read is handed to ``set_aside`` (kept in a file, left out) and skipped."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from . import aside
from .database import Database
from .files import JSONDamage, loads, loads_or
from .queue import WriteQueue
from .rows import ChallengeFound, ChallengeResult, HistoryRow, SeriesPoint, Shares, Stats
from .summaries import Figures, JSONObject, challenge_of, result_text, seed_from_text

SetAside = Callable[[int, str], None]  # (history id, what is wrong with it)


def _int_list(text: object) -> list[int]:
    value = loads(text)
    if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise JSONDamage("it is not a list of numbers")
    return value


def optional_int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def history(db: Database, set_aside: SetAside) -> list[HistoryRow] | None:
    """Games in history, newest first (None when the database cannot be read now)."""
    rows = db.rows(
        "SELECT id, path, finished_at, deals, opponents, totals, lost, difficulty, seed, "
        "clean_deals, points, losers, finished, challenge, challenge_diff FROM games "
        "ORDER BY finished_at DESC, id DESC")
    if rows is None:
        return None
    out = []
    for (gid, path, finished_at, deals, opponents, totals, lost, difficulty, seed,
         clean, points, losers, finished, challenge, diff) in rows:
        try:
            total_list, loser_list = _int_list(totals), _int_list(losers)
        except JSONDamage as exc:
            set_aside(gid, f"its summary {exc}")
            continue
        out.append(HistoryRow(
            id=gid, path=Path(path) if path else None, finished_at=finished_at,
            finished=bool(finished), deals=deals,
            result=result_text(bool(lost), loser_list, bool(finished)),
            opponents=opponents, totals=total_list, lost=bool(lost), losers=loser_list,
            difficulty=difficulty, seed=seed_from_text(seed), clean_deals=clean,
            points=points, challenge=challenge if isinstance(challenge, str) else None,
            challenge_diff=optional_int(diff)))
    return out


def settings(db: Database) -> JSONObject:
    """The settings kept (a setting that cannot be read is set aside into a file)."""
    rows = db.rows("SELECT key, value FROM settings WHERE key NOT LIKE '\\_%' ESCAPE '\\'")
    out: JSONObject = {}
    for key, value in rows or []:
        try:
            out[key] = loads(value)
        except JSONDamage as exc:
            aside.setting(db, key, value, str(exc))
    return out


def find_challenge(db: Database, queue: WriteQueue, date: str) -> ChallengeFound | None:
    """See ``Store.find_challenge``: what waits to be written is looked at first."""
    if queue.finishing_challenge(date) is not None:
        return ChallengeFound("history", None, True)
    op = queue.current
    if op is not None:
        current: object = None if op.saved is None else op.saved[0]
    else:
        rows = db.rows("SELECT record FROM current WHERE slot = ?", (db.slot,))
        current = loads_or(rows[0][0], None) if rows else None
    if isinstance(current, dict) and challenge_of(current)[0] == date:
        return ChallengeFound("current", None, False)
    rows = db.rows("SELECT id, finished FROM games WHERE challenge = ? "
                   "ORDER BY finished DESC, finished_at DESC, id DESC LIMIT 1", (date,))
    if not rows:
        return None
    return ChallengeFound("history", int(rows[0][0]), bool(rows[0][1]))


def shares(figures: Figures) -> Shares:
    f = figures
    return Shares(f.games, f.lost, f.deals, f.clean_deals, f.points,
                  f.points / f.deals if f.deals else 0.0,
                  f.clean_deals / f.deals if f.deals else 0.0,
                  f.lost / f.games if f.games else 0.0)


def stats(db: Database) -> Stats:
    """The statistics of finished games (see ``Store.stats``)."""
    rows = db.rows("SELECT difficulty, games, lost, deals, clean_deals, points "
                   "FROM stats WHERE games > 0 ORDER BY games DESC, difficulty") or []
    by = {d: Figures(*figures) for d, *figures in rows}
    overall = Figures(*(sum(getattr(f, key) for f in by.values()) for key in
                        ("games", "lost", "deals", "clean_deals", "points")))
    series_rows = db.rows(
        "SELECT finished_at, difficulty, deals, points, lost, clean_deals FROM games "
        "WHERE finished = 1 ORDER BY finished_at, id") or []
    series = [SeriesPoint(f, d, n, p, p / n if n else 0.0, bool(lo), c)
              for f, d, n, p, lo, c in series_rows]
    challenge_rows = db.rows(
        "SELECT challenge, finished_at, points, challenge_diff FROM games "
        "WHERE finished = 1 AND challenge IS NOT NULL ORDER BY finished_at, id") or []
    challenges = []
    for date, f, p, diff in challenge_rows:
        known = optional_int(diff)
        challenges.append(ChallengeResult(str(date), f, p,
                                          None if known is None else p - known, known))
    return Stats({d: shares(f) for d, f in by.items()}, shares(overall), series, challenges)
