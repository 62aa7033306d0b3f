"""Training positions from game records: the games ``nil-tui simulate --records`` writes.

    nil-tui simulate --bots hard,hard,hard,hard --games 100 --seed 1 --time-cap 0 \\
        --records training/data/games-1.jsonl
    python -m training.records training/data/games-1.jsonl --out positions-1.jsonl

Each record (one a line, docs/RECORDS.md) is read and checked play by play by the game's own
reader (``nil_tui.engine.records``). Each of its deals is then played again through the engine,
from its hands, dealer and scoring, and the position at the end of every trick that leaves the
deal going is written as ``training.selfplay`` writes it: the same fields, with the finished
deal's ``Deal.worth`` and the seats that ended it clean. Deal k (from 0) of record r (from 0,
blank lines not counted) is deal number ``100 * r + k`` (a classic game has at most 99 deals),
so the deals ``training.train`` holds out, the numbers ending in 4 or 9, are the fifth, tenth,
... deal of every game: games of fewer than five deals give no held-out positions.

The model knows the classic scoring only: deals of a pool game (tie-breaks included) and an
unfinished last deal are skipped, and counted. A line that is not a valid game record stops
the reading, with a message naming the line and what is wrong with it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from nil_tui.engine import Deal, Game
from nil_tui.engine.scoring import CLASSIC

from .selfplay import Position, played_positions

DEALS_PER_RECORD = 100  # deal numbers: 100 * record + deal (a game has at most 99 deals)


class RecordsError(Exception):
    """A records file that cannot be read: the message names the file, the line and why."""


def deal_positions(deal: Deal, number: int) -> list[Position]:
    """The positions of a finished deal, played again through the engine from its hands,
    dealer and rule: one at the end of every trick that leaves the deal going."""
    assert deal.is_over, "only a finished deal has a worth"
    cards = iter([card for trick in deal.tricks for card in trick.cards])
    return played_positions(Deal(deal.dealt, deal.dealer, deal.rule), number,
                            lambda _d: next(cards))


def read_games(path: Path) -> Iterator[Game]:
    """The games of a .jsonl file of records (blank lines skipped), one at a time, each
    checked by the engine; RecordsError naming the line of the first that is not a valid
    record (or the file, when it cannot be read or holds none)."""
    seen = 0
    try:
        with path.open("rb") as f:
            for lineno, raw in enumerate(f, 1):
                if raw.strip():
                    seen += 1
                    yield _game(raw, f"{path} line {lineno}")
    except OSError as exc:
        raise RecordsError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    if not seen:
        raise RecordsError(f"{path}: holds no game records")


def _game(raw: bytes, where: str) -> Game:
    try:
        record: Any = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise RecordsError(f"{where}: not a JSON game record (not UTF-8 text: byte "
                           f"{exc.start})") from None
    except json.JSONDecodeError as exc:
        raise RecordsError(f"{where}: not a JSON game record ({exc.msg} at column "
                           f"{exc.colno})") from None
    except (ValueError, RecursionError):  # a number too long, JSON nested too deeply
        raise RecordsError(f"{where}: not a JSON game record") from None
    if not isinstance(record, dict):
        raise RecordsError(f"{where}: not a game record (a record is a JSON object)")
    try:
        return Game.from_record(record)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError,
            OverflowError) as exc:  # RecordError (a ValueError) names the field
        raise RecordsError(f"{where}: not a valid game record: {exc}") from None


def positions(games: Iterable[Game]) -> tuple[list[Position], Counter[str]]:
    """The positions of every finished classic deal of ``games``, in order, and counts of the
    deals: ``"used"``, ``"pool"`` (skipped: not the classic scoring) and ``"unfinished"``."""
    rows: list[Position] = []
    counts: Counter[str] = Counter(used=0, pool=0, unfinished=0)
    for r, game in enumerate(games):
        for k, deal in enumerate(game.deals):
            if deal.rule.scoring != CLASSIC or deal.rule.tiebreak:
                counts["pool"] += 1
            elif not deal.is_over:
                counts["unfinished"] += 1
            else:
                counts["used"] += 1
                rows.extend(deal_positions(deal, DEALS_PER_RECORD * r + k))
    return rows, counts


def load(path: Path) -> tuple[list[Position], Counter[str]]:
    """The positions of the records in ``path`` and the counts of its deals (``positions``)."""
    return positions(read_games(path))


def summary(path: Path, rows: list[Position], counts: Counter[str]) -> str:
    """One line: what was read from ``path`` and what was skipped."""
    return (f"{path}: {len(rows)} positions from {counts['used']} classic deals; skipped "
            f"{counts['pool']} deals scored by the pool and {counts['unfinished']} unfinished")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path, metavar="FILE.jsonl",
                        help="game records, one a line (nil-tui simulate --records)")
    parser.add_argument("--out", type=Path, required=True, help="the positions (.jsonl)")
    args = parser.parse_args(argv)
    try:
        rows, counts = load(args.records)
    except RecordsError as exc:
        print(f"training.records: {exc}", file=sys.stderr)
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as out:
        for p in rows:
            out.write(json.dumps(p, separators=(",", ":")) + "\n")
    print(f"{summary(args.records, rows, counts)}: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
