"""Real processes in real terminals: a person whose terminal is closed mid-deal. While the
table waits and then a bot plays their seat, the others' tables say so in that seat's box (at
80x24 and at 100x32, within the box), not the bot's level as for a bot's seat; once they are
back with the same ``nil-tui join``, the box names them again."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from procs import INVITE, Proc, Tmux, command, seat_box

from nil_tui.store import Store

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

HOST = ("host", "--no-seat", "--port", "0", "--players", "3", "--deals", "1", "--seed", "23",
        "--bots", "E=easy", "--away-timeout", "1")


def _home(path: Path) -> Path:
    """A player's data folder, set to play fast (a card or a trick waits only a moment)."""
    path.mkdir()
    store = Store.open(path)
    try:
        store.save_settings({"speed": "fast"})
    finally:
        store.close()
    return path


def _until(what: str, check: Callable[[], bool], deadline: float,
           every: Callable[[], None] = lambda: None, terms: tuple[Tmux, ...] = ()) -> None:
    while time.monotonic() < deadline:
        if check():
            return
        every()
        time.sleep(0.5)
    raise AssertionError(f"never: {what}\n" + "\n\n".join(t.text() for t in terms))


def test_a_person_away_is_said_in_their_seat_box_and_named_again_once_back(tmp_path: Path
                                                                          ) -> None:
    host = Proc(command(*HOST), tmp_path / "host")
    terms: list[Tmux] = []
    try:
        invite = host.read_until(INVITE, 60).group(1)
        deadline = time.monotonic() + 150

        def join(name: str, size: tuple[int, int]) -> Tmux:
            home = tmp_path / name
            term = Tmux(command("join", invite, "--name", name),
                        home if home.exists() else _home(home), size)
            terms.append(term)
            return term

        ann = join("Ann", (80, 24))  # South: Kim sits at her left, West
        _until("Ann seated", lambda: "Ann  (you)" in ann.text(), deadline)
        kim = join("Kim", (100, 32))
        _until("Kim seated", lambda: "Kim  (you)" in kim.text(), deadline)
        cy = join("Cy", (100, 32))  # North: Kim sits at his right, still West
        _until("Kim at the table", lambda: "You (West)" in kim.text(), deadline)
        kim.close()  # Kim's terminal is closed mid-deal

        def enter() -> None:  # Ann and Cy play on (Enter: the card under the cursor)
            ann.keys("Enter")
            cy.keys("Enter")

        def says(term: Tmux, lines: list[str]) -> bool:
            screen = term.screen()
            if not any("╭─ West " in line for line in screen):
                return False  # (the table is not on screen yet)
            return seat_box(screen, "West")[:len(lines)] == lines

        stood_in = ["Kim", "away, a", "bot plays"]  # wrapped within the box: a sentence
        _until("Ann sees a bot play for Kim", lambda: says(ann, stood_in), deadline, enter,
               (ann,))
        _until("Cy sees a bot play for Kim", lambda: says(cy, stood_in), deadline, enter,
               (cy,))
        for term in (ann, cy):
            box = seat_box(term.screen(), "West")
            assert "Normal" not in box, box  # Kim is a person, away: not a normal bot's seat
            # the box grew by the lines it says it with: nothing under them is cut off
            assert len(box) == 7 and box[3].endswith(("card", "cards")), box
            assert box[5].endswith(("clean", "taken")), box
        # Kim comes back with the same command: the box names Kim, and only Kim
        kim = join("Kim", (100, 32))
        for term in (ann, cy):
            _until("Kim back in the box", lambda t=term: not any(  # type: ignore[misc]
                "away" in line for line in seat_box(t.screen(), "West")), deadline,
                   terms=(term,))
            box = seat_box(term.screen(), "West")
            assert box[0] == "Kim" and not any("away" in line or "bot" in line
                                               for line in box), box
            assert len(box) == 5 and box[3].endswith(("clean", "taken")), box
    finally:
        for term in terms:
            term.close()
        host.close()


@pytest.mark.slow
def test_a_game_over_while_someone_is_away_waits_for_them_when_the_host_leaves(tmp_path: Path
                                                                               ) -> None:
    """Bo's terminal is closed and the game ends while a bot plays for him: the host leaving
    at game over does not close the table on him at once; it says it waits, Bo comes back
    with the same join, sees game over, and the game goes into his history too."""
    import re

    from procs import INVITE

    terms: list[Tmux] = []
    try:
        deadline = time.monotonic() + 200
        ann = Tmux(command("host", "--port", "0", "--deals", "1", "--seed", "29", "--name",
                           "Ann", "--away-timeout", "1", "--deal-pause", "1"),
                   _home(tmp_path / "Ann"), (100, 32))
        terms.append(ann)
        found: list[str] = []

        def invite() -> bool:
            found[:] = [m.group(1) for m in [INVITE.search(ann.text())] if m]
            return bool(found)

        _until("the invite", invite, deadline, terms=(ann,))

        def bo() -> Tmux:
            home = tmp_path / "Bo"
            term = Tmux(command("join", found[0], "--name", "Bo"),
                        home if home.exists() else _home(home), (80, 24))
            terms.append(term)
            return term

        first = bo()
        _until("Bo seated", lambda: "Bo sits down" in ann.text(), deadline, terms=(ann,))
        ann.keys("Enter")  # the host starts the game
        _until("Bo at the table", lambda: "You (West)" in first.text(), deadline,
               terms=(first,))
        first.close()  # Bo's terminal is closed mid-deal, for the rest of the game
        waits = re.compile(r"Bo \(West\) is away and not told yet")
        _until("the host says it waits for Bo", lambda: bool(waits.search(
            " ".join(ann.text().split()))), deadline, lambda: ann.keys("Enter"), (ann,))
        back = bo()
        _until("Bo sees game over", lambda: "Game over" in back.text(), deadline,
               terms=(back,))
        store = Store.open(tmp_path / "Bo")
        try:
            kept = [row for row in store.history() if row.finished]
        finally:
            store.close()
        assert len(kept) == 1
    finally:
        for term in terms:
            term.close()
