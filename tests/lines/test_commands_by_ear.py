"""Every command of the game in plain lines, and every kind of bad input, typed at a real
terminal: each answered in one clear line (help and the rules in a few), nothing changed by a
question or a mistake; the end of the input saves the game."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from lines_pty import ROOT, PtyPlayer, plain

MARK = "clean"  # typed after each line: its answer marks the end of the one before


def is_mark(line: str) -> bool:
    return line.startswith("Still clean:") or line == "Nobody is clean."


def answer(player: PtyPlayer, line: str, limit: float = 20.0) -> list[str]:
    """The lines that answer ``line`` (up to the answer of the mark typed after it)."""
    player.type(line)
    player.type(MARK)
    return player.play(lambda _: None, limit=limit, until=is_mark)[:-1]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


def first_following_turn(player: PtyPlayer) -> str:
    """Play the first card until a turn where not every card in hand may be played; that
    turn's prompt."""
    found: list[str] = []

    def reply(line: str) -> str | None:
        if line.startswith("Your turn, follow"):
            found.append(line)
            return None
        return "1" if line.startswith("Your turn") else None

    player.play(reply, limit=30, until=lambda _: bool(found))
    assert found
    return found[0]


def legal_codes(prompt: str) -> list[str]:
    """The cards a prompt names, as codes ("Your turn, follow spades: 3, 8, K.")."""
    found = re.match(r"Your turn, follow (\w)\w*: (.+)\.$", prompt)
    assert found, prompt
    return [rank + found.group(1).upper() for rank in found.group(2).split(", ")]


def test_each_command_and_each_mistake_is_one_line_and_changes_nothing(home: Path) -> None:
    player = PtyPlayer(home, "play", "--text", "--cards", "codes", "--deals", "1", "--seed",
                       "11", "--speed", "instant", "--difficulty", "easy")
    try:
        player.type("long")  # whole sentences: the prompt names the suit to follow
        prompt = first_following_turn(player)
        hand = answer(player, "hand")
        assert len(hand) == 1 and hand[0].startswith("Your hand, "), hand
        suits = dict(part.split(": ") for part in
                     hand[0].split(": ", 1)[1].rstrip(".").split("; "))
        mine = [rank + suit[0].upper() for suit, ranks in suits.items() if ranks != "none"
                for rank in ranks.split(", ")]
        legal = legal_codes(prompt)
        illegal = next(card for card in mine if card not in legal)
        absent = next(code for code in ("AS", "AH", "AD", "AC", "KS", "KH") if code not in mine)
        one_line = {
            "table": r"^\w+ (led|lead): .+\. You to play\.$",
            "score": r"^Deal 1 of 1\. Scores: you 0, West 0, North 0, East 0\. Tricks this "
                     r"deal: .+\.$",
            "last": r"^(Last trick: .+; .+ it\.|No trick has been played yet\.)$",
            "out": r"^Still out, \d+ cards: clubs: .*; diamonds: .*; hearts: .*; spades: .*\.$",
            "nonsense words": r"^Not understood: nonsense words\. Type help for the commands\.$",
            illegal: r"^You must follow (clubs|diamonds|hearts|spades)\.$",
            absent.lower(): rf"^The {absent.replace('10', 'T')[:-1]}?.* is not in your hand\.$",
            "99": rf"^There is no card 99: you may play 1 to {len(legal)}\.$",
            "": "^" + re.escape(prompt) + "$",  # Enter alone: the prompt again
            "cards codes": r"^Cards are now said as codes\.$",
            "long": r"^Cards and tricks are now said in whole sentences\.$",
            "cards braille": r"^Cards can be said as words, codes, symbols; now: codes\.$",
        }
        for typed, expected in one_line.items():
            said = answer(player, typed)
            assert len(said) == 1 and re.match(expected, said[0]), (typed, said)
        assert answer(player, "hand") == hand  # nothing changed
        assert answer(player, "")[0] == prompt
        help_lines = answer(player, "help")
        assert 2 <= len(help_lines) <= 4 and "quit" in help_lines[1]
        rules = answer(player, "rules")
        assert rules[0].startswith("ZERO") and len(rules) > 20
        # Help asked for is said to make the game assisted: refused, nothing changes.
        player.type("hint")
        assert answer(player, "no") == [
            ("A hint makes this game count as assisted in history and statistics. Type yes "
             "to go on."), "As you wish: no help."]
        # Agreed to: the game counts as assisted, said once.
        player.type("hint")
        said = answer(player, "yes")
        assert said[0].startswith("A hint makes")
        said = said[1:]
        assert said[0] == ("Hint used: this game now counts as assisted in history and "
                           "statistics.")
        assert re.match(r"^Hint: \w+ \(.+\)$", said[1]), said
        said = answer(player, "meter")
        assert said[0] == "Meter on: the prompt says your chance to stay clean this deal."
        assert re.search(r"Meter: (clean chance (about )?[<>]?\d+%|not clean)", said[1]), said
        assert re.search(r"Meter: ", answer(player, "")[0])
        said = answer(player, legal[0])
        assert said[0].startswith(f"You play {legal[0]}")
        said = answer(player, "undo")
        assert said[0].startswith("Taken back: your "), said
        assert answer(player, "short") == ["Cards and tricks are now said in the fewest words."]
        assert re.match(r"^Your turn(: [^.]+|, (you lead|no \w+): any card)\. Meter: ",
                        answer(player, "")[0])
        # The end of the input: the game is saved, and goes on from there.
        os.write(player.master, b"\x04")
        rest = player.play(lambda _: None, limit=20)
        assert rest[-1] == "End of input. The game is saved: nil-tui resume --text goes on with it."
        assert player.wait() == 0
    finally:
        player.close()
    assert plain(player.transcript) == []


def test_no_terminal_and_no_input_starts_in_lines_and_saves(home: Path) -> None:
    """``nil-tui`` with neither terminal nor input: setup's questions keep their defaults,
    the game starts in lines, and ends saved at the end of the input."""
    env = dict(os.environ, NIL_TUI_HOME=str(home), PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "nil_tui"], stdin=subprocess.DEVNULL, check=False,
                          capture_output=True, text=True, env=env, timeout=60, cwd=str(ROOT))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Setup: Enter keeps the choice in brackets."
    assert any(line.startswith("How many deals") for line in lines)
    assert lines[-1] == "End of input. The game is saved: nil-tui resume --text goes on with it."
    assert plain(done.stdout.encode()) == []
    again = subprocess.run([sys.executable, "-m", "nil_tui", "resume", "--text"],
                           input="quit\n", check=False, capture_output=True, text=True, env=env,
                           timeout=60, cwd=str(ROOT))
    assert again.returncode == 0, again.stderr
    assert "Type help for the commands." in again.stdout
    assert again.stdout.splitlines()[-1].startswith("The game is saved")


def test_setup_questions_keep_the_choices_as_the_next_defaults(home: Path,
                                                               tmp_path: Path) -> None:
    env = dict(os.environ, NIL_TUI_HOME=str(home), PYTHONPATH=str(ROOT))

    def setup(answers: str) -> list[str]:
        done = subprocess.run([sys.executable, "-m", "nil_tui", "--text"], input=answers,
                              check=False, capture_output=True, text=True, env=env,
                              timeout=60, cwd=str(ROOT))
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()

    # Deals, a seed, the level, scoring, a forced card played for you, the meter.
    first = setup("new\n2\n17\neasy normal hard\npool\nno\nyes\nquit\n")
    assert "Deal 1 of 2: " in "\n".join(first)
    same = subprocess.run([sys.executable, "-m", "nil_tui", "play", "--text", "--seed", "17"],
                          input="quit\n", check=False, capture_output=True, text=True,
                          env=dict(env, NIL_TUI_HOME=str(tmp_path / "other")), timeout=60,
                          cwd=str(ROOT))
    cut = [line for line in first if line.startswith("The cut for the first dealer:")]
    assert cut and cut[0] in same.stdout.splitlines()  # the seed's cards
    assert any("Meter on" in line or "assisted" in line for line in first), first
    # The saved game is offered first now, and the choices are the defaults (a seed is one
    # game's own: new cards again).
    second = setup("new\n" + "\n" * 6 + "cancel\n")
    assert second[1].endswith("[resume]"), second
    assert "How many deals, 1 to 99? [2]" in second
    assert any(line.startswith("A seed,") and line.endswith("[new cards]") for line in second)
    assert "The bots' level: easy, normal, hard, expert? (or three, for West, North and " \
        "East) [easy normal hard]" in second
    assert any(line.startswith("Scoring: classic, or pool") and line.endswith("[pool]")
               for line in second)
    assert any(line.startswith("Play a forced card for you") and line.endswith("[no]")
               for line in second)
    assert any(line.startswith("The clean-chance meter") and line.endswith("[yes]")
               for line in second)
    assert second[-1] == "Nothing started."
    # A new game over the saved one: the saved one goes to history, named as a command.
    third = setup("new\n" + "\n" * 6 + "new\nquit\n")
    assert "The unfinished game is kept in history (nil-tui history --text), where it can be " \
        "resumed." in third, third


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_ctrl_c_and_the_ending_signals_save_the_game_and_say_so(home: Path, sig: str) -> None:
    import signal

    number = getattr(signal, sig)
    player = PtyPlayer(home, "play", "--text", "--deals", "1", "--seed", "3", "--speed",
                       "instant", "--difficulty", "easy")
    try:
        player.play(lambda _: None, limit=20, until=lambda line: line.startswith("Your turn"))
        os.kill(player.proc.pid, number)  # SIGINT: what Ctrl+C sends
        rest = player.play(lambda _: None, limit=20)
        assert player.wait() == 128 + number
        assert player.proc.stderr is not None
        assert player.proc.stderr.read() == b""  # no traceback
    finally:
        player.close()
    assert rest == ["Interrupted. The game is saved: nil-tui resume --text goes on with it."]
    again = subprocess.run([sys.executable, "-m", "nil_tui", "resume", "--text"],
                           input="quit\n", check=False, capture_output=True, text=True,
                           env=dict(os.environ, NIL_TUI_HOME=str(home), PYTHONPATH=str(ROOT)),
                           timeout=60, cwd=str(ROOT))
    assert again.returncode == 0 and "Deal 1 of 1: " in again.stdout


def test_the_meter_asked_for_first_is_agreed_to_then_said(home: Path) -> None:
    player = PtyPlayer(home, "play", "--text", "--deals", "1", "--seed", "3", "--speed",
                       "instant", "--difficulty", "easy")
    try:
        player.play(lambda _: None, limit=20, until=lambda line: line.startswith("Your turn"))
        player.type("meter")
        said = answer(player, "yes")
        assert said[:3] == [
            ("The meter makes this game count as assisted in history and statistics. Type yes "
            "to go on."),
            ("Clean-chance meter on: this game now counts as assisted in history and "
            "statistics."),
            "Meter on: the prompt says your chance to stay clean this deal."], said
        assert re.search(r"Meter: (clean chance|not clean)", said[3]), said
        assert answer(player, "meter") == ["Meter off."]
        assert "Meter" not in answer(player, "")[0]
    finally:
        player.close()
