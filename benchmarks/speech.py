"""How long the plain lines take to hear: whole games played in lines (``nil-tui play
--text``, the player's first legal card each turn), their lines spoken by ``espeak-ng`` at its
default rate into WAV files, and the seconds of speech per trick and per deal, so that
wordiness is a number.

A trick is what a player hears from one trick's line to the next: the bots' cards (a card
that follows the suit led by its rank alone), the prompt on their turn (the cards they may
play), their card and the trick's line (its winner, and "no longer clean" on the winner's
first trick; the whole list of who is clean is the ``clean`` command's).

Target: every trick played by three bots and you in at most 10 s of speech (the median, the
longest, and how many are over are reported; the longest trick's lines are printed).

Measured (3 games of 2 deals, normal bots, words): median 6.8 s a trick, the longest 8.9 s,
none of 51 over 10 s; a deal 67 s (median). 6 games: median 6.7 s, longest 8.9 s, none of
108 over. Expert bots: median 6.6 s, longest 8.4 s, none of 62 over. Before the trick said only the change in who is
clean and a card following suit only its rank: median 9.1 s, longest 11.8 s, 6 of 51 over.

    python benchmarks/speech.py [--games 3] [--deals 2] [--level normal] [--cards words]

Needs ``espeak-ng`` and ``soxi`` (sox).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRICK_LINE = re.compile(r"^(You win|\w+ wins)\b")
TARGET_TRICK = 10.0


def play_game(home: Path, seed: int, deals: int, level: str, cards: str) -> list[str]:
    """The lines of one whole game played by the first card each turn."""
    env = dict(os.environ, NIL_TUI_HOME=str(home), PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "nil_tui", "play", "--text", "--deals", str(deals), "--seed",
         str(seed), "--difficulty", level, "--speed", "instant", "--cards", cards],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=str(ROOT))
    assert proc.stdin is not None and proc.stdout is not None
    lines: list[str] = []
    for raw in proc.stdout:
        line = raw.rstrip("\n")
        lines.append(line)
        reply = ("1" if line.startswith("Your turn")
                 else "" if line.startswith("Press Enter") else None)
        if reply is not None:
            proc.stdin.write(reply + "\n")
            proc.stdin.flush()
    proc.stdin.close()
    proc.wait(60)
    return lines


def tricks_and_deals(lines: list[str]) -> tuple[list[list[str]], list[list[str]]]:
    """The lines heard for each trick, and for each deal."""
    tricks: list[list[str]] = []
    deals: list[list[str]] = []
    trick: list[str] = []
    deal: list[str] = []
    for line in lines:
        if line.startswith("Deal ") and " of " in line.split(":")[0]:  # a deal begins
            trick, deal = [], [line]
            continue
        deal.append(line)
        trick.append(line)
        if TRICK_LINE.match(line):
            tricks.append(trick)
            trick = []
        if line.startswith(("Scores after deal", "The game is over.")):
            deals.append(deal)
            deal = []
    return tricks, deals


def seconds_of_speech(text: str, folder: Path) -> float:
    wav = folder / "speech.wav"
    subprocess.run(["espeak-ng", "-w", str(wav), text], check=True, capture_output=True)
    out = subprocess.run(["soxi", "-D", str(wav)], check=True, capture_output=True,
                         text=True).stdout
    return float(out.strip())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--level", default="normal")
    parser.add_argument("--cards", default="words", choices=("words", "codes", "symbols"))
    args = parser.parse_args()
    for tool in ("espeak-ng", "soxi"):
        if shutil.which(tool) is None:
            print(f"speech.py needs {tool}", file=sys.stderr)
            return 2
    trick_times: list[float] = []
    longest: tuple[float, list[str]] = (0.0, [])
    deal_times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for seed in range(1, args.games + 1):
            home = folder / f"home{seed}"
            home.mkdir()
            lines = play_game(home, seed, args.deals, args.level, args.cards)
            tricks, deals = tricks_and_deals(lines)
            for trick in tricks:
                trick_times.append(seconds_of_speech("\n".join(trick), folder))
                longest = max(longest, (trick_times[-1], trick))
            deal_times += [seconds_of_speech("\n".join(d), folder) for d in deals]
    print(f"{len(trick_times)} tricks, {len(deal_times)} deals, cards said as {args.cards}, "
          f"bots {args.level}, espeak-ng at its default rate")
    print(f"seconds of speech per trick: median {statistics.median(trick_times):.1f}, "
          f"mean {statistics.fmean(trick_times):.1f}, max {max(trick_times):.1f} "
          f"(target: at most {TARGET_TRICK:.0f})")
    print(f"seconds of speech per deal:  median {statistics.median(deal_times):.1f}, "
          f"mean {statistics.fmean(deal_times):.1f}, max {max(deal_times):.1f}")
    over = [t for t in trick_times if t > TARGET_TRICK]
    print(f"tricks over {TARGET_TRICK:.0f} s: {len(over)} of {len(trick_times)}")
    print(f"the longest trick ({longest[0]:.1f} s):", *longest[1], sep="\n  ")
    return 0 if not over else 1


if __name__ == "__main__":
    raise SystemExit(main())
