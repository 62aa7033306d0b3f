"""What asking bots safely costs a bots-only match.

    python benchmarks/simulate_overhead.py [--games 100] [--deals 8] [--seed 1]
                                           [--search-games 2]
    python benchmarks/simulate_overhead.py --hanging

Every row plays the same games (``--games`` games of ``--deals`` deals, four bots) in the way
the game's driver plays them: one player per seat per game, opened with
``nil_tui.bots.open_player`` and closed at the end, each card checked and played through the
engine. Printed: seconds of wall-clock and of CPU (this process and the plugin processes it
started), and the ratio to the row it is compared with. On a busy machine the wall-clock
figures wander; the CPU figures less so.

- built-in levels: through ``open_player`` at the default time cap, against calling the bots'
  ``choose`` directly (target: within 1.1x), and against the former way (a watchdog thread
  per decision, ``choose_safely`` with a cap).
- plugins: the same logic as a plugin (its own process per seat and game) against built in
  (target: within 1.5x): a trivial bot, the easy and normal levels' code named by
  ``module:Name`` (which makes them plugins), and the hard level's on ``--search-games``.
  The plugin rows include starting the four host processes (``python -m nil_tui.bots.host``,
  once per run and seat); the line below each gives that start alone (four players opened
  and closed, no card played) and the ratio of the rest, which is what each further game
  costs.

``--hanging`` measures instead what a plugin that hangs costs a match: ``nil-tui simulate
--games 4 --deals 2`` at the default cap (10 s) with ``tests/plugins``' ``EveryOtherHanger``
(it answers a process's first decision, hangs on its second, and so on) in one seat. After its
first hang in a game it has 1 s per card, after its second it is out of the game (target:
under 60 s; it took 243 s when every hang waited the full cap).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


class Trivial:
    """The first legal card."""

    name = "Trivial"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: Any) -> Any:
        return view.legal[0]


Ask = Callable[[int, Any], Any]  # (seat, view) -> card


def cpu_seconds() -> float:
    """CPU seconds of this process and of its children that have ended (plugin processes
    count once they are stopped)."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def play_games(open_seats: Callable[[int], tuple[Ask, Callable[[], None]]], games: int,
               deals: int, seed: int) -> tuple[float, float, list[Any]]:
    """Wall and CPU seconds of the games (plugin processes included: they are stopped at the
    end), and their records (to check rows agree)."""
    from nil_tui.bots.players import shutdown
    from nil_tui.engine import Game

    records = []
    wall, cpu = time.perf_counter(), cpu_seconds()
    if games == 0:  # the players of one game opened and closed: what starting them costs
        open_seats(seed * 1000)[1]()
    for g in range(games):
        ask, close = open_seats(seed * 1000 + g)
        game = Game(deals_planned=deals, seed=seed * 1000 + g)
        while True:
            deal = game.deal
            while not deal.is_over:
                seat = deal.to_move
                assert seat is not None
                game.play(ask(seat, deal.view(seat)))
            if game.is_over:
                break
            game.next_deal()
        close()
        records.append(game.to_record()["deals"])
    shutdown()
    return time.perf_counter() - wall, cpu_seconds() - cpu, records


def through_players(spec: str) -> Callable[[int], tuple[Ask, Callable[[], None]]]:
    from nil_tui.bots import open_player, seat_seed

    def open_seats(game_seed: int) -> tuple[Ask, Callable[[], None]]:
        players = [open_player(spec, seat_seed(game_seed, k), log=None) for k in range(4)]

        def ask(seat: int, view: Any) -> Any:
            choice = players[seat].decide(view)
            if choice.incident is not None:
                raise SystemExit(f"unexpected incident: {choice.incident}")
            return choice.card

        def close() -> None:
            for p in players:
                p.close()

        return ask, close

    return open_seats


def direct(target: str, *, watchdog: bool = False) -> Callable[[int], tuple[Ask, Callable[[], None]]]:
    from nil_tui.bots import make_bot, seat_seed
    from nil_tui.bots.safety import choose_safely

    def open_seats(game_seed: int) -> tuple[Ask, Callable[[], None]]:
        bots = [make_bot(target, seed=seat_seed(game_seed, k)) for k in range(4)]
        if watchdog:
            def ask(seat: int, view: Any) -> Any:
                return choose_safely(bots[seat], view, 10.0).card
        else:
            def ask(seat: int, view: Any) -> Any:
                return bots[seat].choose(view)
        return ask, lambda: None

    return open_seats


def hanging(seed: int) -> None:
    import subprocess
    import tempfile

    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, NIL_TUI_HOME=home, PYTHONPATH=str(root / "tests" / "plugins"))
        env.pop("NIL_TUI_BOT_TIME_CAP", None)
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "nil_tui", "simulate", "--games", "4", "--deals", "2",
             "--seed", str(seed), "--bots", "nil_hostile:EveryOtherHanger,easy,easy,easy"],
            env=env, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - start
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr
    print(f"a plugin that hangs every other card, 4 games x 2 deals: {wall:.1f} s wall "
          f"(exit {done.returncode}; target under 60 s)\n  {last}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--search-games", type=int, default=2,
                        help="games for the hard level's row (0 to skip it)")
    parser.add_argument("--hanging", action="store_true",
                        help="only the match with a plugin that hangs every other card")
    args = parser.parse_args()
    if args.hanging:
        hanging(args.seed)
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    os.environ.pop("NIL_TUI_BOT_TIME_CAP", None)  # the default cap
    from nil_tui.bots import LEVELS, Level
    from nil_tui.bots.players import shutdown

    # The trivial bot as a built-in level, to be asked exactly as the levels are.
    LEVELS["trivial"] = Level("trivial", "Trivial", "", "simulate_overhead:Trivial")
    g, d, s = args.games, args.deals, args.seed
    print(f"{g} games x {d} deals, four bots, seed {s}  (wall s / CPU s, plugin processes "
          "included)")

    def row(label: str, result: tuple[float, float, list[Any]],
            base: tuple[float, float, list[Any]] | None = None, target: str = "") -> None:
        wall, cpu, records = result
        text = f"  {label:<44} {wall:7.2f} s / {cpu:6.2f} s"
        if base is not None:
            assert records == base[2], f"{label}: not the same games"
            text += f"   {wall / base[0]:5.2f}x wall  {cpu / base[1]:5.2f}x CPU {target}"
        print(text, flush=True)

    print("built-in levels")
    for level in ("easy", "normal"):
        base = play_games(direct(level), g, d, s)
        row(f"{level}: bot.choose called directly", base)
        row(f"{level}: open_player, default cap", play_games(through_players(level), g, d, s),
            base, "(target within 1.1x)")
        row(f"{level}: choose_safely, a thread per decision",
            play_games(direct(level, watchdog=True), g, d, s), base)
    print("plugins: the same logic in a process of its own per seat and game")
    for label, level, target, games in (
            ("trivial", "trivial", "simulate_overhead:Trivial", g),
            ("easy", "easy", "nil_tui.bots.easy:EasyBot", g),
            ("normal", "normal", "nil_tui.bots.normal:NormalBot", g),
            ("hard", "hard", "nil_tui.bots.hard:HardBot", args.search_games)):
        if games <= 0:
            continue
        shutdown()
        base = play_games(through_players(level), games, d, s)
        row(f"{label} built in ({games} games)", base)
        plugin = play_games(through_players(target), games, d, s)
        row(f"{label} as a plugin", plugin, base, "(target within 1.5x)")
        start = play_games(through_players(target), 0, d, s)  # hosts started, no game
        rest = (plugin[0] - start[0], plugin[1] - start[1], plugin[2])
        print(f"    {'of which starting the 4 host processes':<42} {start[0]:7.2f} s / "
              f"{start[1]:6.2f} s")
        row("  the games themselves", rest, base)
    shutdown()


if __name__ == "__main__":
    main()
