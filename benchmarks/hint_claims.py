"""Hints checked as a player reads them: the expert's card and its sentence for positions
reached by random legal play, every phrase of the sentence checked against the cards by the
checker in tests/bots/test_advice.py (written apart from the hints). Prints how many hints
say something the position does not hold; the target is none.

    python benchmarks/hint_claims.py [POSITIONS] [SEED]
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "bots"))

from test_advice import positions, said_true

from nil_tui.bots import advise


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2026
    wrong: Counter[str] = Counter()
    bad = hunts = 0
    start = time.perf_counter()
    for view in positions(count, seed):
        card, text = advise(view)
        said = said_true(view, card, text)
        bad += bool(said)
        hunts += "hunt" in text
        wrong.update(said)
    took = time.perf_counter() - start
    print(f"{count} hints ({hunts} name a player to hunt): {bad} say something untrue"
          f" [{took:.0f} s]")
    for what, n in wrong.most_common():
        print(f"  {n:5d}  {what}")


if __name__ == "__main__":
    main()
