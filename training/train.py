"""Fit the learned judge of positions (``nil_tui.bots.learned``) to self-play positions.

    python -m training.train --seed 1 --deals 1000 --out nil_tui/bots/data/leaf.json

Reads the positions of ``training/data/<bots>-<seed>.jsonl`` (written by
``training.selfplay`` first if the file is missing or holds fewer deals). Deals whose number
ends in 4 or 9 are held out; the others train a logistic model of "this clean seat ends the
deal clean" (Newton's method with a small ridge, no randomness: the same data give the same
numbers); then the weight of the model against a playout in a blend of the two. The file
written holds the weights, that blend and the held-out figures: the squared error of each
seat's worth against the mean worth (a trivial judge), against a playout by the rules of thumb
from the same position (the judge the search uses today) and of the blend.

    python -m training.train --records games.jsonl --out leaf.json

trains from game records instead (``nil-tui simulate --records``: every finished classic deal
of the file, numbered and held out as ``training.records`` says) and plays no deal itself.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from nil_tui.bots.heuristic import edge, policy_index
from nil_tui.bots.learned import FEATURES, FORMAT, features, predict_position
from nil_tui.engine import DECK, Deal, Trick

from . import records, selfplay

Row = dict[str, Any]


def load(path: Path, deals: int) -> list[Row]:
    rows = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if row["deal"] < deals:
                rows.append(row)
    return rows


def held_out(row: Row) -> bool:
    return bool(row["deal"] % 5 == 4)


def design(rows: Sequence[Row]) -> tuple[list[list[float]], list[float]]:
    """One line per clean seat of each position: its features, and whether it ended clean."""
    xs: list[list[float]] = []
    ys: list[float] = []
    for row in rows:
        for seat, f in enumerate(features(row["hands"], row["taken"], row["leader"])):
            if f is not None:
                xs.append(f)
                ys.append(float(row["clean"][seat]))
    return xs, ys


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gaussian elimination with partial pivoting; a and b are consumed)."""
    n = len(b)
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[piv] = a[piv], a[col]
        b[col], b[piv] = b[piv], b[col]
        for r in range(col + 1, n):
            k = a[r][col] / a[col][col]
            if k:
                row, top = a[r], a[col]
                for c in range(col, n):
                    row[c] -= k * top[c]
                b[r] -= k * b[col]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (b[r] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def fit_logistic(xs: list[list[float]], ys: list[float], ridge: float = 0.1,
                 rounds: int = 12) -> list[float]:
    """Weights of a logistic regression by Newton's method (the bias not penalized)."""
    d = len(xs[0])
    w = [0.0] * d
    for _ in range(rounds):
        grad = [ridge * w[j] if j else 0.0 for j in range(d)]
        hess = [[0.0] * d for _ in range(d)]
        for x, y in zip(xs, ys):
            z = max(-30.0, min(30.0, sum(a * b for a, b in zip(w, x))))
            p = 1.0 / (1.0 + math.exp(-z))
            r = p - y
            s = p * (1.0 - p)
            for j in range(d):
                xj = x[j]
                grad[j] += r * xj
                sx = s * xj
                hj = hess[j]
                for k in range(j, d):
                    hj[k] += sx * x[k]
        for j in range(d):
            if j:
                hess[j][j] += ridge
            for k in range(j):
                hess[j][k] = hess[k][j]
        step = solve(hess, grad)
        w = [a - b for a, b in zip(w, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return w


def playout_worth(row: Row) -> tuple[float, float, float, float]:
    """The deal finished from the position by the rules of thumb for every seat (the voids
    shown earlier in the deal are not known here: the position keeps no history)."""
    hands = row["hands"]
    live = hands[0] | hands[1] | hands[2] | hands[3]
    played = [i for i in range(52) if not live >> i & 1]
    tricks = []
    k = 0
    for seat, n in enumerate(row["taken"]):
        for _ in range(n):
            cards = tuple(DECK[i] for i in played[k:k + 4])
            tricks.append(Trick(seat, cards, seat))
            k += 4
    d = Deal.from_position(hands, 0, tricks, (), row["leader"])
    while d.to_move is not None:
        seat = d.to_move
        i = policy_index(seat, d.hand_mask(seat), d.legal_mask(), d.trick, d.leader, d.taken,
                         d.played_mask)
        d.play(DECK[i])
    return d.worth


def fit_blend(rows: Sequence[Row], weights: Sequence[float]) -> float:
    """The weight of the model's figures against a playout's (0 to 1 by 0.05) that judges the
    worth of ``rows`` with the least squared error."""
    pairs: list[tuple[Sequence[float], Sequence[float], Sequence[float]]] = [
        (predict_position(r["hands"], r["taken"], r["leader"], weights), playout_worth(r),
         r["worth"]) for r in rows]

    def error(w: float) -> float:
        return sum((w * g[s] + (1 - w) * p[s] - y[s]) ** 2 for g, p, y in pairs
                   for s in range(4))

    return min((k / 20 for k in range(21)), key=error)


def scores(rows: Sequence[Row], weights: Sequence[float], mean: float,
           blend: float) -> dict[str, Any]:
    """Squared errors on ``rows`` of four judges of each seat's worth and edge."""
    sq: dict[str, list[float]] = {"model": [0.0, 0.0], "mean": [0.0, 0.0],
                                  "playout": [0.0, 0.0], "blend": [0.0, 0.0]}
    for row in rows:
        worth = row["worth"]
        model = predict_position(row["hands"], row["taken"], row["leader"], weights)
        played = playout_worth(row)
        mixed = tuple(blend * g + (1 - blend) * p for g, p in zip(model, played))
        guesses = {"model": model, "mean": (mean,) * 4, "playout": played, "blend": mixed}
        for name, g in guesses.items():
            for s in range(4):
                sq[name][0] += (g[s] - worth[s]) ** 2
                sq[name][1] += (edge(g, s) - edge(worth, s)) ** 2
    n = 4 * len(rows)
    return {"positions": len(rows),
            **{f"{name}_mse_worth": round(v[0] / n, 4) for name, v in sq.items()},
            **{f"{name}_mse_edge": round(v[1] / n, 4) for name, v in sq.items()}}


def self_play(args: argparse.Namespace) -> list[Row]:
    """The positions of the first ``args.deals`` self-play deals, played first if the data
    file is missing or holds fewer."""
    data = args.data or Path(__file__).parent / "data" / f"{args.bots}-{args.seed}.jsonl"
    rows = load(data, args.deals) if data.exists() else []
    if not rows or rows[-1]["deal"] < args.deals - 1:
        print(f"self-play: {args.deals} deals of {args.bots} bots ...", file=sys.stderr)
        selfplay.main(["--bots", args.bots, "--deals", str(args.deals), "--seed",
                       str(args.seed), "--jobs", str(args.jobs), "--out", str(data)])
        rows = load(data, args.deals)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="the self-play seed")
    parser.add_argument("--deals", type=int, default=1000, help="self-play deals to use")
    parser.add_argument("--bots", default="hard")
    parser.add_argument("--jobs", type=int, default=2, help="processes for self-play")
    parser.add_argument("--data", type=Path, help="positions (default training/data/...)")
    parser.add_argument("--records", type=Path, metavar="FILE.jsonl",
                        help="train from these game records (nil-tui simulate --records) "
                        "instead of self-play: --seed, --deals, --bots, --jobs and --data "
                        "are not used")
    parser.add_argument("--ridge", type=float, default=0.1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.records is not None:
        try:
            rows, counts = records.load(args.records)
        except records.RecordsError as exc:
            print(f"training.train: {exc}", file=sys.stderr)
            return 2
        print(records.summary(args.records, rows, counts), file=sys.stderr)
        source: Row = {"records": args.records.name, "deals": counts["used"]}
    else:
        rows = self_play(args)
        source = {"bots": args.bots, "seed": args.seed, "deals": args.deals}
    played = time.perf_counter() - start
    train = [r for r in rows if not held_out(r)]
    test = [r for r in rows if held_out(r)]
    if not train or not test:
        print("training.train: no positions to train on or none held out (the deals whose "
              "number ends in 4 or 9: in records, the fifth, tenth, ... deal of a game)",
              file=sys.stderr)
        return 2
    xs, ys = design(train)
    weights = fit_logistic(xs, ys, args.ridge)
    mean = sum(sum(r["worth"]) for r in train) / (4 * len(train))
    blend = fit_blend(train, weights)
    fitted = time.perf_counter() - start - played
    report = {"train": scores(train, weights, mean, blend),
              "held_out": scores(test, weights, mean, blend)}
    model = {"format": FORMAT, "version": 1, "features": list(FEATURES),
             "weights": [round(w, 10) for w in weights], "blend": blend,
             "data": {**source, "positions": len(rows), "clean_seats": len(xs),
                      "ridge": args.ridge, "mean_worth": round(mean, 6)},
             **report}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=1))
    print(f"{len(train)} training positions ({len(xs)} clean seats), {len(test)} held out; "
          f"{'records' if args.records else 'self-play'} {played:.0f} s, fit and scoring "
          f"{fitted:.0f} s: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
