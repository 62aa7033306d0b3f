"""Training positions from seeded bots-only deals.

    python -m training.selfplay --deals 800 --seed 1 --jobs 2 --out training/data/hard-1.jsonl

Each deal is dealt from the seed and its number (``Deal.new(number % 4, Random("selfplay:SEED:
NUMBER"))``) and played to its end by four bots (``hard`` by default, each seat's bot seeded from
the seed and the deal's number), mid-game (points, not the match, decide). At the end of every
trick that leaves the deal going, the position is written as one JSON line: the cards each seat
still holds and the tricks each has taken (bitmasks and counts), who leads, and the deal's
result: what it was worth to each seat (``Deal.worth``) and which seats ended it clean. The
features are worked out from these positions when training (``nil_tui.bots.learned``), so a
change of features needs no new games. Lines come in deal order whatever ``--jobs`` is: the same
seed and count write the same file, and the first K deals of a longer run are a shorter one.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from nil_tui.bots import make_bot, search, seat_seed
from nil_tui.engine import Card, Deal

Position = dict[str, Any]


def played_positions(d: Deal, number: int, card: Callable[[Deal], Card]) -> list[Position]:
    """Play deal ``d`` to its end, ``card`` giving each card in turn; the positions at the end of
    every trick that leaves the deal going, each with the deal's result: what it was worth to
    each seat (``Deal.worth``) and which seats ended it clean."""
    positions: list[Position] = []
    while not d.is_over:
        done = d.play(card(d))
        if done is not None and not d.is_over:
            positions.append({"deal": number, "hands": [d.hand_mask(s) for s in range(4)],
                              "taken": list(d.taken), "leader": d.leader,
                              "tricks": len(d.tricks)})
    worth = list(d.worth)
    clean = [int(t == 0) for t in d.taken]
    for p in positions:
        p["worth"] = worth
        p["clean"] = clean
    return positions


def deal_positions(bots: str, seed: int, number: int) -> list[Position]:
    """Play one deal; its positions at the end of every trick that leaves the deal going."""
    base = Deal.new(number & 3, random.Random(f"selfplay:{seed}:{number}"))
    base.context = (1, 99, (0, 0, 0, 0))  # mid-game: points, not the match, decide
    players = [make_bot(bots, seed=seat_seed(seed * 1_000_000 + number, s)) for s in range(4)]

    def card(d: Deal) -> Card:
        seat = d.to_move
        assert seat is not None
        return players[seat].choose(d.view(seat))

    return played_positions(base, number, card)


def _chunk(args: tuple[str, int, int, int]) -> list[Position]:
    bots, seed, start, stop = args
    return [p for n in range(start, stop) for p in deal_positions(bots, seed, n)]


def generate(bots: str, seed: int, deals: int, jobs: int, step: int = 4
             ) -> Iterator[Position]:
    """The positions of deals 0..deals-1, in deal order."""
    chunks = [(bots, seed, a, min(deals, a + step)) for a in range(0, deals, step)]
    if jobs <= 1:
        for c in chunks:
            yield from _chunk(c)
        return
    with ProcessPoolExecutor(jobs) as pool:
        for part in pool.map(_chunk, chunks):
            yield from part


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="hard", help="the bot in every seat (default hard)")
    parser.add_argument("--deals", type=int, default=800)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    # no wall clock: every card depends only on the seed, however busy the machine
    search.DEFAULT_SAFETY_CAP = None
    args.out.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    n = 0
    last = -1
    with args.out.open("w", encoding="utf-8") as out:
        for p in generate(args.bots, args.seed, args.deals, args.jobs):
            out.write(json.dumps(p, separators=(",", ":")) + "\n")
            n += 1
            if p["deal"] // 50 != last // 50:
                out.flush()
                print(f"deal {p['deal']}: {n} positions, {time.perf_counter() - start:.0f} s",
                      file=sys.stderr)
            last = p["deal"]
    print(f"{n} positions from {args.deals} deals of {args.bots} bots (seed {args.seed}) in "
          f"{time.perf_counter() - start:.0f} s: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
