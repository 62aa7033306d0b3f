"""The pace at the default speed, without a terminal: bots that answer at once, and a clock
that moves only with the session's own waits. What is left is the pause the game makes on
purpose, from your card to your next turn (the rest of your trick, the trick on show, the
next one up to you: 0 to 6 bots' cards): short enough for a brisk round (a median of at most
2.0 s and a 90th percentile of at most 3.0 s, which leaves the experts room to think inside
them: the targets with experts are 2.0 s and 3.5 s), long enough to see each card land and
to read a finished trick."""

from __future__ import annotations

import heapq
import statistics

from nil_tui.engine import Game
from nil_tui.game.driver import GameDriver
from nil_tui.game.options import PlayOptions
from nil_tui.session import game_session as gs
from nil_tui.session import messages as p

PLAYERS = [{"name": "South", "kind": "human"}] + [
    {"name": n, "kind": "bot", "bot": "easy"} for n in ("West", "North", "East")]


class Clock:
    """Carries out a session's effects: a bot answers at once, a wait ends at its time."""

    def __init__(self, session: gs.GameSession) -> None:
        self.session = session
        self.now = 0.0
        self.timers: list[tuple[float, int, tuple[str, int]]] = []
        self.asked: list[gs.AskBot] = []
        self.count = 0

    def take(self, out: list[gs.Out]) -> None:
        for item in out:
            if isinstance(item, gs.Wait):
                self.count += 1
                heapq.heappush(self.timers, (self.now + item.seconds, self.count, item.token))
            elif isinstance(item, gs.AskBot):
                self.asked.append(item)

    def until_my_turn(self) -> bool:
        """Run to your next turn in this deal (False: the deal ended first)."""
        s = self.session
        while s.state().pace not in ("your_turn", "forced"):
            if s.state().pace in ("deal_over", "game_over"):
                return False
            if self.asked:
                ask = self.asked.pop(0)
                self.take(s.bot_decided(s.driver.decide(ask.request)))
            else:
                due, _, token = heapq.heappop(self.timers)
                self.now = max(self.now, due)
                self.take(s.timer_done(token))
        return True


def test_the_default_speed_gives_a_brisk_round_that_still_shows_each_card() -> None:
    rounds = []
    for seed in (11, 12, 13):
        game = Game(1, seed, players=PLAYERS)
        options = PlayOptions(deals=1, bots=("easy",) * 3, seed=seed, auto_play=False)
        assert options.speed == "normal"  # the default
        session = gs.GameSession(GameDriver(game), options)
        clock = Clock(session)
        clock.take(session.start())
        assert clock.until_my_turn()
        while True:
            started = clock.now
            clock.take(session.act(p.PlayCard(session.game.deal.legal_moves()[0])))
            if not clock.until_my_turn():
                break
            rounds.append(clock.now - started)
    assert len(rounds) >= 20
    rounds.sort()
    assert statistics.median(rounds) <= 2.0
    assert rounds[int(0.9 * len(rounds))] <= 3.0
    card, trick = gs.PAUSES["normal"]
    assert card >= 0.25 and trick >= 0.8  # time to see a card land, to read a trick
    fast, slow = gs.PAUSES["fast"], gs.PAUSES["slow"]
    assert fast[0] <= card <= slow[0] and fast[1] <= trick <= slow[1]


def test_a_seat_says_it_is_thinking_only_once_its_bot_has_taken_a_second() -> None:
    game = Game(1, 11, players=PLAYERS)
    session = gs.GameSession(GameDriver(game), PlayOptions(deals=1, bots=("easy",) * 3,
                                                           seed=11, auto_play=False))
    out = session.start()
    if session.driver.human_to_move():
        out = session.act(p.PlayCard(session.game.deal.legal_moves()[0]))
    asked = [item for item in out if isinstance(item, gs.AskBot)]
    assert asked
    seat = asked[0].request.seat
    assert session.thinking is None  # a quick decision: no word of thinking
    slow = [item for item in out if isinstance(item, gs.Wait) and item.token[0] == "slow"]
    assert [wait.seconds for wait in slow] == [gs.THINKING_AFTER] == [1.0]
    session.timer_done(slow[0].token)  # a second on, the bot is still deciding
    assert session.thinking == seat
    assert session.state().thinking == seat
    session.bot_decided(session.driver.decide(asked[0].request))
    assert session.thinking is None  # decided: its card lands after its pause


def test_the_games_first_card_waits_while_the_cut_is_on_show() -> None:
    """The table shows the cut for the first dealer until the game's first card: a bot's
    first card waits as long as a finished trick stays, later ones their usual pause."""
    card, trick = gs.PAUSES["normal"]
    for seed in range(40):
        game = Game(1, seed, players=PLAYERS)
        if game.deal.to_move == 0:
            continue  # you lead: the cut stays until you play
        assert game.cut is not None
        session = gs.GameSession(GameDriver(game), PlayOptions(deals=1, bots=("easy",) * 3,
                                                               seed=seed))
        clock = Clock(session)
        clock.take(session.start())
        lands = [due for due, _, token in clock.timers if token[0] == "land"]
        assert lands == [trick]
        ask = clock.asked.pop(0)
        clock.take(session.bot_decided(session.driver.decide(ask.request)))
        due, _, token = heapq.heappop(clock.timers)
        while token[0] != "land":
            due, _, token = heapq.heappop(clock.timers)
        clock.now = due
        clock.take(session.timer_done(token))
        assert len(session.game.deal.plays) == 1
        if clock.asked:  # the next bot's card: its usual pause
            waits = [d - clock.now for d, _, t in clock.timers if t[0] == "land"]
            assert len(waits) == 1 and abs(waits[0] - card) < 1e-9
        return
    raise AssertionError("no seed with a bot to lead")
