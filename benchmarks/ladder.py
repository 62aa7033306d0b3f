"""The strength ladder of the bot levels, measured with the simulator (rotated matches).

Rows:
  each level against three of the level below (its edge, with a 95% interval that should
  exclude zero); each level against three normal bots (points per deal, edge, clean share);
  the oracle (the expert's search with every hand visible) against three normal bots on the
  same deals as the expert.

    python benchmarks/ladder.py                    # every row, default sizes (long: hours)
    python benchmarks/ladder.py --rows hard/normal --games 40 --save ladder.json
    python benchmarks/ladder.py --report ladder.json   # print the table of saved rows
    python benchmarks/ladder.py --scoring pool --jobs 1   # the same ladder under the pool

Every game has ``--deals`` deals and is played four times (rotated), so a row of G games has
4 * G * deals seat-deals for the bot under test and G * deals independent samples.

``--time-cap 0`` (the default) plays without any wall clock: no per-decision cap and no safety
cap in the search levels, so a row depends only on its seed, however busy the machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import cast

ROWS = {
    # name: (hero, field)
    "normal/easy": ("normal", "easy"),
    "hard/normal": ("hard", "normal"),
    "expert/hard": ("expert", "hard"),
    "easy/normal": ("easy", "normal"),
    "expert/normal": ("expert", "normal"),
    "oracle/normal": ("oracle", "normal"),
}
# default games per row: cheap rows get more
DEFAULT_GAMES = {"normal/easy": 200, "easy/normal": 200, "hard/normal": 60, "expert/hard": 30,
                 "expert/normal": 40, "oracle/normal": 40}


def run_row(name: str, games: int, deals: int, seed: int, jobs: int,
            time_cap: float | None = None, scoring: str = "classic") -> dict[str, object]:
    from nil_tui.bots import search
    from nil_tui.sim import run_match

    if time_cap is None:  # before the bots are made (the workers are forked from here)
        search.DEFAULT_SAFETY_CAP = None
    hero, field = ROWS[name]
    start = time.perf_counter()
    result = run_match([hero, field, field, field], games, deals, seed, rotate=True, jobs=jobs,
                       time_cap=time_cap, scoring=scoring).to_json()
    row = dict(result["bots"][hero])
    other = result["bots"][field]
    row.update(field_games_lost=other["games_lost"], field_games=other["games"])
    row.update(row=name, hero=hero, field=field, games_played=games, deals_per_game=deals,
               seed=seed, seconds=round(time.perf_counter() - start, 1), scoring=scoring)
    return row


def lost_line(row: dict[str, object]) -> str:
    """Games lost (the lowest total, ties included; after a perfect game, the other three):
    under the pool a perfect game is worth no points, so the games lost say what the edge
    cannot."""
    lost, games = cast("int", row["games_lost"]), cast("int", row["games"])
    text = f"  {row['hero']} lost {lost} of {games} games ({lost / max(1, games):.0%})"
    if "field_games" in row:
        f_lost, f_games = cast("int", row["field_games_lost"]), cast("int", row["field_games"])
        text += f", its {row['field']} opponents {f_lost} of {f_games} ({f_lost / max(1, f_games):.0%})"
    return text


def fmt_row(row: dict[str, object]) -> str:
    lo, hi = cast("tuple[float, float]", row["edge_ci95"])
    sig = "yes" if lo > 0 or hi < 0 else "no"
    pool = " (pool)" if row.get("scoring") == "pool" else ""
    return (f"| {row['hero']} vs 3 {row['field']}{pool} | "
            f"{row['games_played']}x{row['deals_per_game']}"
            f" | {row['points_per_deal']:.3f} | {row['edge']:+.3f} [{lo:+.3f}, {hi:+.3f}] | "
            f"{sig} | {row['clean_share']:.1%} |")


HEADER = ("| match (rotated) | games x deals | points/deal | edge [95% CI] | CI excludes 0 "
          "| clean share |\n|---|---|---|---|---|---|")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default=",".join(ROWS),
                        help=f"comma-separated rows (default all: {','.join(ROWS)})")
    parser.add_argument("--games", type=int, default=None,
                        help="games per row (default: per row, see DEFAULT_GAMES)")
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--time-cap", type=float, default=0.0, metavar="SECONDS",
                        help="per-decision time cap (default 0: no wall clock at all)")
    parser.add_argument("--scoring", choices=("classic", "pool"), default="classic",
                        help="score the games classic (default) or with the pool; under the "
                        "pool the points (and the edge) are the pool's, paid in or collected")
    parser.add_argument("--save", metavar="FILE", help="add the rows to this JSON file")
    parser.add_argument("--report", metavar="FILE", help="print the rows saved in FILE")
    args = parser.parse_args(argv)
    if args.report:
        try:
            rows = json.loads(Path(args.report).read_text())
        except (OSError, ValueError) as exc:
            print(f"ladder: cannot read {args.report}: {exc}", file=sys.stderr)
            return 2
        print(HEADER)
        for row in rows:
            print(fmt_row(row))
        for row in rows:
            if row.get("scoring") == "pool":
                print(lost_line(row))
        return 0
    names = [r.strip() for r in args.rows.split(",") if r.strip()]
    unknown = [n for n in names if n not in ROWS]
    if unknown:
        print(f"ladder: unknown row(s) {', '.join(unknown)}; known: {', '.join(ROWS)}",
              file=sys.stderr)
        return 2
    print(HEADER, flush=True)
    for name in names:
        games = args.games or DEFAULT_GAMES[name]
        row = run_row(name, games, args.deals, args.seed, args.jobs, args.time_cap or None,
                      args.scoring)
        print(fmt_row(row), f"({row['seconds']} s)", flush=True)
        if args.scoring == "pool":
            print(lost_line(row), flush=True)
        if args.save:
            path = Path(args.save)
            saved = json.loads(path.read_text()) if path.exists() else []
            saved = [r for r in saved if (r.get("row"), r.get("scoring", "classic"))
                     != (name, args.scoring)] + [row]
            path.write_text(json.dumps(saved, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
