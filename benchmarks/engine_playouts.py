"""Random legal playouts through the engine's public API, in plays per second.

Each playout shuffles and deals (``Deal.new``), then plays a random legal card
(``legal_moves`` + ``play``) until ``is_over``. When OpenSpiel is installed, its ``hearts``
game (chance dealing included, no passing) is played at random in the same process, in
alternating rounds, and the ratio of plays per second is printed. Rates are per second of
CPU time of this process.

    python benchmarks/engine_playouts.py [--seconds 10] [--rounds 5] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

from nil_tui.engine import Deal


def ours(deals: int, rng: random.Random) -> int:
    """Play ``deals`` random deals; return the number of cards played."""
    plays = 0
    choice = rng.choice
    for k in range(deals):
        deal = Deal.new(dealer=k & 3, rng=rng)
        while not deal.is_over:
            deal.play(choice(deal.legal_moves()))
            plays += 1
    return plays


def open_spiel_hearts(deals: int, rng: random.Random) -> int:
    """Play ``deals`` random deals of OpenSpiel's hearts; return the number of cards played."""
    import pyspiel

    game = pyspiel.load_game("hearts", {"pass_cards": False})
    plays = 0
    choice = rng.choice
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions = [a for a, _ in state.chance_outcomes()]
                state.apply_action(choice(actions))
            else:
                state.apply_action(choice(state.legal_actions()))
                plays += 1
    return plays


def measure(run: Callable[[int, random.Random], int], seconds: float, seed: int) -> float:
    """Plays per second of ``run`` over about ``seconds`` of this process's CPU time (CPU
    time, so that other programs running on the machine do not skew the comparison)."""
    rng = random.Random(seed)
    run(20, rng)  # warm up
    plays = 0
    batch = 50
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        plays += run(batch, rng)
        elapsed = time.process_time() - start
    return plays / elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="total measuring time per engine (default 10)")
    parser.add_argument("--rounds", type=int, default=5,
                        help="alternating rounds the time is split into (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        import pyspiel  # noqa: F401

        have_spiel = True
    except ImportError:
        have_spiel = False
    per_round = args.seconds / max(1, args.rounds)
    our_rates: list[float] = []
    spiel_rates: list[float] = []
    for r in range(args.rounds):
        our_rates.append(measure(ours, per_round, args.seed + r))
        print(f"round {r + 1}: nil-tui {our_rates[-1]:>10,.0f} plays/s", end="")
        if have_spiel:
            spiel_rates.append(measure(open_spiel_hearts, per_round, args.seed + r))
            print(f"   OpenSpiel hearts {spiel_rates[-1]:>10,.0f} plays/s", end="")
        print(flush=True)
    mean_ours = sum(our_rates) / len(our_rates)
    print(f"nil-tui engine: {mean_ours:,.0f} random plays/s (Deal.new, legal_moves, play)")
    if not have_spiel:
        print("OpenSpiel is not installed (pip install open_spiel): no comparison")
        return 0
    mean_spiel = sum(spiel_rates) / len(spiel_rates)
    print(f"OpenSpiel hearts: {mean_spiel:,.0f} random plays/s (chance dealing included)")
    print(f"ratio: {mean_ours / mean_spiel:.2f}x (target: at least 2.0x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
