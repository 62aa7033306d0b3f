"""How well the search levels guess the hidden hands: the share of the unseen cards that a
layout puts in the right hand, for plain layouts (card counting and shown voids only, as the
hard level draws them) and for the expert's posterior layouts (weighted by how likely each
opponent's plays were under the rules of thumb), with the time to draw 400 layouts.

    python benchmarks/inference.py [--deals 8] [--seed 77] [--layouts 400]

The positions come from deals played by normal bots, from the fourth trick on (before that
there is little to infer from). A layout dealt at random would place about a third of the
cards right.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--layouts", type=int, default=400)
    args = parser.parse_args(argv)

    from nil_tui.bots import make_bot
    from nil_tui.bots.expert import EXPERT
    from nil_tui.bots.knowledge import Knowledge, posterior_layouts
    from nil_tui.engine import Deal

    rng = random.Random(args.seed)
    driver = make_bot("normal", seed=0)
    share: dict[str, list[float]] = {"plain": [], "posterior": []}
    times: dict[str, list[float]] = {"plain": [], "posterior": []}
    for n in range(args.deals):
        deal = Deal.new(n & 3, rng)
        while deal.to_move is not None:
            view = deal.view(deal.to_move)
            if len(view.tricks) >= 3 and len(view.legal) > 1:
                know = Knowledge(view)
                hidden = sum(deal.hand_mask(s).bit_count() for s in range(4) if s != view.seat)
                for name, shares in share.items():
                    start = time.perf_counter()
                    if name == "plain":
                        layouts = [know.sample(rng) for _ in range(args.layouts)]
                    else:
                        source = posterior_layouts(know, rng, EXPERT.eps)
                        layouts = [next(source) for _ in range(args.layouts)]
                    times[name].append(time.perf_counter() - start)
                    right = sum((h[s] & deal.hand_mask(s)).bit_count()
                                for h in layouts for s in range(4) if s != view.seat)
                    shares.append(right / (hidden * len(layouts)))
            deal.play(driver.choose(view))
    print(f"{len(share['plain'])} positions, {args.layouts} layouts each")
    print(f"{'layouts':10} {'cards right':>12} {'median ms':>10}")
    for name, shares in share.items():
        print(f"{name:10} {statistics.mean(shares):12.1%} "
              f"{statistics.median(times[name]) * 1000:10.1f}")
    ratio = statistics.mean(share["posterior"]) / statistics.mean(share["plain"])
    print(f"posterior / plain: {ratio:.2f}x cards right")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
