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

A long row can be played in several sittings:

    nice -n 19 python benchmarks/ladder.py --rows expert/hard --games 160 --keep expert-hard.jsonl

writes every game to the file as soon as it is played; stopped (Ctrl-C, a closed terminal, a
killed process) and run again with the same row, seed, deals and scoring, it plays only the
games not yet in the file, and prints the row of them all: the same figures as one sitting.
Asking for more ``--games`` later lengthens the row. ``--first-game N`` plays and counts only
the games from number N on (a game's cards depend only on the seed and its number): a long row
shared among machines, each playing its own range into its own file.

``--paired`` also plays every deal of every game a second time, from the same cards, pool and
totals, with a bot of the field in the place of the bot under test (the other three seats hold
the same bots with the same seeds, so they play the same cards until the two part ways). The
difference of the seat's two edges, deal by deal, is the bot's gain over the field in the same
seat and deal: the luck of the cards and of the pool cancels out, so a smaller gain shows than
in the edge itself. The replays are played by the field's bots alone: for the expert against
hard they add about half the games' time (45%), for cheap bots as much again. A deal that
leaves a tie-break to come counts half the pool for each of its two seats in both (the
tie-break deal itself is not replayed); a perfect game, as in the edge, no points. The gain
is also printed by the deal's place in the game: first (the pool empty), middle, last.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, cast

from nil_tui.game.sim import GameOutcome

if TYPE_CHECKING:
    from collections.abc import Sequence

    from nil_tui.engine import Deal
    from nil_tui.game.sim import GameTask

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


@dataclass(frozen=True)
class PairedOutcome(GameOutcome):
    """A game of a ``--paired`` row: per agreed deal, the edge of the bot under test and the
    edge a field bot had in its place on the same deal (see ``paired_game``)."""

    pairs: tuple[tuple[float, float], ...] = ()


def deal_value(d: Deal) -> tuple[float, float, float, float]:
    """A finished agreed deal's points, a tie-break to come counting half the pool for each of
    its two seats: ``Deal.worth`` without a perfect game's bonus (no points, as in the edge)."""
    from nil_tui.engine.scoring import PERFECT_WORTH

    out = list(d.worth)
    perfect = d.settle().perfect
    if perfect is not None:
        out[perfect] -= PERFECT_WORTH
    return (out[0], out[1], out[2], out[3])


def replayed(deal: Deal, specs: Sequence[str], seeds: Sequence[int]) -> Deal:
    """``deal`` played again from its first card (the same cards, pool and game around it) by
    the bots ``specs`` with ``seeds``, by seat."""
    from nil_tui.bots import make_bot
    from nil_tui.engine import Deal

    again = Deal(deal.dealt, deal.dealer, deal.rule)
    again.context = deal.context
    bots = [make_bot(specs[s], seed=seeds[s]) for s in range(4)]
    while again.to_move is not None:
        seat = again.to_move
        again.play(bots[seat].choose(again.view(seat)))
    return again


def paired_game(task: GameTask) -> PairedOutcome:
    """Play a game as the ladder does, then every agreed deal of it again with a field bot in
    the place of the bot under test (lineup position 0); the other seats keep their bots and
    seeds. Each pair: the seat's edge in the game, its edge in the replay."""
    from nil_tui.bots import seat_seed
    from nil_tui.bots.heuristic import edge
    from nil_tui.engine.records import from_record
    from nil_tui.game.sim import play_game

    outcome = play_game(replace(task, keep_record=True))
    game = from_record(outcome.record)
    hero = outcome.positions.index(0)
    seeds = [seat_seed(task.seed, k) for k in outcome.positions]
    field = [task.specs[1]] * 4
    pairs = tuple((edge(deal_value(d), hero), edge(deal_value(replayed(d, field, seeds)), hero))
                  for d in game.deals if not d.rule.tiebreak)
    return PairedOutcome(outcome.game, outcome.rotation, outcome.positions, outcome.points,
                         outcome.taken, outcome.losers, outcome.incidents, None, pairs)


def paired_gain(games: Sequence[GameOutcome], deals: int) -> dict[str, object]:
    """The paired figures of a row: per agreed deal of the match (its rotations averaged, as
    the edge is), the gain (the seat's edge minus the field bot's in its place), with its 95%
    interval, and the field bot's mean edge in that seat (the luck the gain leaves out); and
    the gain by the deal's place in a game of ``deals`` deals (first, middle, last)."""
    from nil_tui.game.sim import mean_ci95

    cells: dict[tuple[int, int], list[float]] = {}
    for g in games:
        for d, (mine, theirs) in enumerate(cast("PairedOutcome", g).pairs):
            cell = cells.setdefault((g.game, d), [0.0, 0.0, 0])
            cell[0] += mine - theirs
            cell[1] += theirs
            cell[2] += 1
    gains = [c[0] / c[2] for _, c in sorted(cells.items())]
    gain, lo, hi = mean_ci95(gains)
    field_edge = sum(c[1] / c[2] for c in cells.values()) / max(1, len(cells))
    by_place: dict[str, list[float]] = {"first": [], "middle": [], "last": []}
    for (_, d), c in sorted(cells.items()):
        place = "first" if d == 0 else "last" if d == deals - 1 else "middle"
        by_place[place].append(c[0] / c[2])
    places = {}
    for place, values in by_place.items():
        if values:
            m, p_lo, p_hi = mean_ci95(values)
            places[place] = [round(m, 6), round((p_hi - p_lo) / 2, 6), len(values)]
    return {"paired_gain": round(gain, 6), "paired_ci95": [round(lo, 6), round(hi, 6)],
            "paired_deals": len(gains), "replay_edge": round(field_edge, 6),
            "paired_by_place": places}


class KeepError(Exception):
    """A file of kept games that cannot be used: the message says which line and why."""


def kept_games(path: Path, key: dict[str, object]) -> list[GameOutcome]:
    """The games of the row ``key`` kept in ``path`` (none when it does not exist). A last
    line cut short (the process killed while writing it) is dropped from the file."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise KeepError(f"cannot read {path}: {exc.strerror or exc}") from None
    if data and not data.endswith(b"\n"):  # cut short: keep up to the last whole line
        data = data[:data.rfind(b"\n") + 1]
        with path.open("r+b") as f:
            f.truncate(len(data))
    games = []
    for n, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
        try:
            g = json.loads(line)
            if {k: g.get(k) for k in key} != key:
                continue
            args = (int(g["game"]), int(g["rotation"]), _four(g["positions"]),
                    tuple(_four(p) for p in g["points"]), tuple(_four(t) for t in g["taken"]),
                    tuple(int(x) for x in g["losers"]), int(g["incidents"]), None)
            game = (PairedOutcome(*args, _pairs(g["pairs"])) if key.get("paired")
                    else GameOutcome(*args))
            if (sorted(game.positions) != [0, 1, 2, 3] or not game.points
                    or len(game.points) != len(game.taken)
                    or not set(game.losers) <= {0, 1, 2, 3}):
                raise ValueError("not a game of four seats")
            games.append(game)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise KeepError(f"{path} line {n} is not a kept game ({exc!r}); move the file "
                            "away to start the row again") from None
    return games


def _four(values: object) -> tuple[int, int, int, int]:
    """Four whole numbers, one per seat (ValueError otherwise)."""
    if not isinstance(values, list) or len(values) != 4:
        raise ValueError(f"not four seats' figures: {values!r}")
    a, b, c, d = (int(x) for x in values)
    return (a, b, c, d)


def _pairs(values: object) -> tuple[tuple[float, float], ...]:
    """Pairs of numbers (TypeError otherwise)."""
    if not isinstance(values, list):
        raise TypeError(f"not a list of pairs: {values!r}")
    out = []
    for v in values:
        if not isinstance(v, list) or len(v) != 2:
            raise TypeError(f"not a pair: {v!r}")
        out.append((float(v[0]), float(v[1])))
    return tuple(out)


def keep_game(path: Path, key: dict[str, object], game: GameOutcome) -> None:
    """Add one game of the row ``key`` to ``path``, as one line written at once."""
    extra = {"pairs": game.pairs} if isinstance(game, PairedOutcome) else {}
    line = json.dumps({**key, "game": game.game, "rotation": game.rotation,
                       "positions": game.positions, "points": game.points,
                       "taken": game.taken, "losers": game.losers,
                       "incidents": game.incidents, **extra}, separators=(",", ":")) + "\n"
    with path.open("a", encoding="utf-8") as f:
        f.write(line)


def run_row(name: str, games: int, deals: int, seed: int, jobs: int,
            time_cap: float | None = None, scoring: str = "classic",
            keep: Path | None = None, paired: bool = False,
            first_game: int = 0) -> dict[str, object]:
    """One row of the ladder; with ``keep``, the games already kept there are not played
    again, and each new one is kept as soon as it is played. ``paired``: every deal is also
    played with a field bot in the place of the bot under test (``paired_game``)."""
    from nil_tui.bots import search
    from nil_tui.game.sim import play_game, run_match

    if time_cap is None:  # before the bots are made (the workers are forked from here)
        search.DEFAULT_SAFETY_CAP = None
    hero, field = ROWS[name]
    key: dict[str, object] = {"row": name, "seed": seed, "deals": deals, "scoring": scoring,
                              "time_cap": time_cap}
    if paired:
        key["paired"] = True
    done = kept_games(keep, key) if keep is not None else []
    start = time.perf_counter()
    outcomes = [g for g in done if first_game <= g.game < games]

    def on_game(game: GameOutcome) -> None:
        outcomes.append(game)
        if keep is not None:
            keep_game(keep, key, game)

    result = run_match([hero, field, field, field], games, deals, seed, rotate=True, jobs=jobs,
                       time_cap=time_cap, scoring=scoring, done=done, on_game=on_game,
                       play=paired_game if paired else play_game,
                       first_game=first_game).to_json()
    row = dict(result["bots"][hero])
    other = result["bots"][field]
    row.update(field_games_lost=other["games_lost"], field_games=other["games"])
    row.update(row=name, hero=hero, field=field, games_played=games - first_game,
               deals_per_game=deals,
               seed=seed, seconds=round(time.perf_counter() - start, 1), scoring=scoring)
    if paired:
        row.update(paired_gain(outcomes, deals))
    if first_game:
        row.update(first_game=first_game)
    if done:
        row.update(games_kept_before=len({g.game for g in done if first_game <= g.game < games}))
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


def paired_line(row: dict[str, object]) -> str:
    """The paired figures of a ``--paired`` row, for people."""
    lo, hi = cast("tuple[float, float]", row["paired_ci95"])
    sig = "excludes 0" if lo > 0 or hi < 0 else "does not exclude 0"
    return (f"  paired: {row['hero']}'s gain over {row['field']} in the same seat and deal "
            f"{cast('float', row['paired_gain']):+.3f} [{lo:+.3f}, {hi:+.3f}] ({sig}; "
            f"{row['paired_deals']} deals; {row['field']} in its place: "
            f"{cast('float', row['replay_edge']):+.3f})" + "".join(
                f"\n    {place} deals ({n}): {m:+.3f} +/- {half:.3f}" for place, (m, half, n)
                in cast("dict[str, list[float]]", row.get("paired_by_place", {})).items()))


def fmt_row(row: dict[str, object]) -> str:
    lo, hi = cast("tuple[float, float]", row["edge_ci95"])
    sig = "yes" if lo > 0 or hi < 0 else "no"
    pool = " (pool)" if row.get("scoring") == "pool" else ""
    frm = f" (from game {row['first_game']})" if row.get("first_game") else ""
    return (f"| {row['hero']} vs 3 {row['field']}{pool} | "
            f"{row['games_played']}x{row['deals_per_game']}{frm}"
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
    parser.add_argument("--paired", action="store_true",
                        help="also play every deal with a field bot in the place of the bot "
                        "under test, and print the gain, deal by deal")
    parser.add_argument("--keep", metavar="FILE.jsonl", type=Path,
                        help="keep every game played in this file, and play only the games "
                        "of the row not yet kept there (a long row in several sittings)")
    parser.add_argument("--first-game", type=int, default=0, metavar="N",
                        help="play and count only the games from number N (from 0) up to "
                        "--games: a long row shared among machines, each with its own range")
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
            if "paired_gain" in row:
                print(paired_line(row))
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
        if not 0 <= args.first_game < games:
            print(f"ladder: --first-game must be from 0 to {games - 1} (the row has {games} "
                  f"games), not {args.first_game}", file=sys.stderr)
            return 2
        try:
            row = run_row(name, games, args.deals, args.seed, args.jobs,
                          args.time_cap or None, args.scoring, args.keep, args.paired,
                          args.first_game)
        except KeepError as exc:
            print(f"ladder: {exc}", file=sys.stderr)
            return 2
        kept = f"; {row['games_kept_before']} games kept from before" if "games_kept_before" in row else ""
        print(fmt_row(row), f"({row['seconds']} s{kept})", flush=True)
        if args.scoring == "pool":
            print(lost_line(row), flush=True)
        if args.paired:
            print(paired_line(row), flush=True)
        if args.save:
            path = Path(args.save)
            saved = json.loads(path.read_text()) if path.exists() else []
            saved = [r for r in saved if (r.get("row"), r.get("scoring", "classic"))
                     != (name, args.scoring)] + [row]
            path.write_text(json.dumps(saved, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
