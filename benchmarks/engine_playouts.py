"""Random legal playouts through the engine's public API, in plays per second.

Each playout shuffles and deals (``Deal.new``), then plays a random legal card
(``legal_moves`` + ``play``) until ``is_over``. When OpenSpiel is installed, its ``hearts``
game (chance dealing included, no passing) is played at random in the same process, in
alternating rounds, and the ratio of plays per second is printed. Rates are per second of
CPU time of this process.

Then, for the bots' search, trying a card and taking it back: ``play`` + ``undo`` pairs per
second against ``copy`` + ``play`` per second, over every legal card of positions from random
deals (at every stage of a deal), in alternating rounds.

    python benchmarks/engine_playouts.py [--seconds 10] [--rounds 5] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

from nil_tui.engine import Card, Deal


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


def positions(count: int, rng: random.Random) -> list[tuple[Deal, list[Card]]]:
    """``count`` positions of random deals, each with its legal cards (every stage of play)."""
    out: list[tuple[Deal, list[Card]]] = []
    while len(out) < count:
        deal = Deal.new(rng.randrange(4), rng)
        stop = rng.randrange(52)
        while not deal.is_over and deal.played_mask.bit_count() < stop:
            deal.play(rng.choice(deal.legal_moves()))
        if not deal.is_over:
            out.append((deal, deal.legal_moves()))
    return out


def play_undo(spots: list[tuple[Deal, list[Card]]]) -> int:
    """Try every legal card of every position by play + undo; return the cards tried."""
    tried = 0
    for deal, moves in spots:
        play = deal.play
        undo = deal.undo
        for card in moves:
            play(card)
            undo()
        tried += len(moves)
    return tried


def copy_play(spots: list[tuple[Deal, list[Card]]]) -> int:
    """Try every legal card of every position by copy + play; return the cards tried."""
    tried = 0
    for deal, moves in spots:
        copy = deal.copy
        for card in moves:
            copy().play(card)
        tried += len(moves)
    return tried


def rate(run: Callable[[list[tuple[Deal, list[Card]]]], int],
         spots: list[tuple[Deal, list[Card]]], seconds: float) -> float:
    """Cards tried per second of CPU time of ``run`` over about ``seconds``."""
    run(spots)  # warm up
    tried = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        tried += run(spots)
        elapsed = time.process_time() - start
    return tried / elapsed


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


def compare_undo(seconds: float, rounds: int, seed: int) -> None:
    spots = positions(400, random.Random(seed))
    per_round = seconds / 2 / max(1, rounds)
    undo_rates: list[float] = []
    copy_rates: list[float] = []
    for _ in range(rounds):
        undo_rates.append(rate(play_undo, spots, per_round))
        copy_rates.append(rate(copy_play, spots, per_round))
    undo_rate = sum(undo_rates) / len(undo_rates)
    copy_rate = sum(copy_rates) / len(copy_rates)
    print(f"trying a card: play+undo {undo_rate:,.0f}/s, copy+play {copy_rate:,.0f}/s "
          f"({undo_rate / copy_rate:.2f}x)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="total measuring time per engine (default 10)")
    parser.add_argument("--rounds", type=int, default=5,
                        help="alternating rounds the time is split into (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--undo-seconds", type=float, default=4.0,
                        help="total measuring time of play+undo against copy+play (default 4)")
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
    compare_undo(args.undo_seconds, args.rounds, args.seed)
    if not have_spiel:
        print("OpenSpiel is not installed (pip install open_spiel): no comparison")
        return 0
    mean_spiel = sum(spiel_rates) / len(spiel_rates)
    print(f"OpenSpiel hearts: {mean_spiel:,.0f} random plays/s (chance dealing included)")
    print(f"ratio: {mean_ours / mean_spiel:.2f}x (target: at least 2.0x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
