"""The game session without a screen: events in, effects out. Bots are asked through the
effects (here answered at once, in this thread), timers fire when the test says so."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from nil_tui.engine import Card, Game, Phase
from nil_tui.game.driver import GameDriver
from nil_tui.game.options import PlayOptions
from nil_tui.session import game_session as gs
from nil_tui.session import messages as p

PLAYERS = [{"name": "South", "kind": "human"}] + [
    {"name": n, "kind": "bot", "bot": "easy"} for n in ("West", "North", "East")]


def session_for(speed: str = "normal", deals: int = 2, seed: int = 7,
                **options: Any) -> gs.GameSession:
    game = Game(deals, seed, players=PLAYERS)
    saves: list[int] = []
    driver = GameDriver(game, save=lambda g: saves.append(1))
    opts = replace(PlayOptions(deals=deals, bots=("easy",) * 3, seed=seed, speed=speed),
                   **options)
    session = gs.GameSession(driver, opts)
    session.saves = saves  # type: ignore[attr-defined]
    return session


class Front:
    """A front end that answers bots at once and keeps the timers until fired."""

    def __init__(self, session: gs.GameSession) -> None:
        self.session = session
        self.waits: list[gs.Wait] = []
        self.asked: list[gs.AskBot] = []
        self.out: list[gs.Out] = []
        self.next_deal = True

    def take(self, out: list[gs.Out]) -> None:
        self.out.extend(out)
        for item in out:
            if isinstance(item, gs.Wait):
                self.waits.append(item)
            elif isinstance(item, gs.AskBot):
                self.asked.append(item)

    def answer_bots(self) -> None:
        while self.asked:
            ask = self.asked.pop(0)
            self.take(self.session.bot_decided(self.session.driver.decide(ask.request)))

    def fire(self, kind: str | None = None) -> bool:
        for wait in list(self.waits):
            if kind is None or wait.token[0] == kind:
                self.waits.remove(wait)
                self.take(self.session.timer_done(wait.token))
                return True
        return False

    def until_my_turn(self, limit: int = 200) -> None:
        for _ in range(limit):
            s = self.session
            pace = s.state().pace
            if pace == "deal_over" and self.next_deal:
                self.take(s.act(p.GoOn()))
                continue
            if pace in ("your_turn", "forced", "deal_over", "game_over"):
                return
            if self.asked:
                self.answer_bots()
            elif not self.fire():
                raise AssertionError(f"stuck: {s.pace}")
        raise AssertionError("the turn never came back")


def test_a_bot_card_is_played_at_once_and_shown_after_its_pause() -> None:
    s = session_for(seed=3)
    front = Front(s)
    front.take(s.start())
    game = s.game
    if game.deal.to_move == 0:
        front.take(s.act(p.PlayCard(game.deal.legal_moves()[0])))
    assert front.asked and any(w.token[0] == "land" for w in front.waits)
    shown = len(s.state().plays)
    front.asked, first = [], front.asked[0]
    front.take(s.bot_decided(s.driver.decide(first.request)))
    assert len(game.deal.plays) == shown + 1, "the table plays the card at once"
    assert front.asked, "and asks the next bot at once"
    assert len(s.state().plays) == shown, "the seat is shown it after the pause"
    front.fire("land")
    assert len(s.state().plays) == shown + 1


def test_a_bot_thinks_while_the_trick_is_on_show() -> None:
    s = session_for(seed=11)
    front = Front(s)
    front.take(s.start())
    for _ in range(60):
        front.until_my_turn()
        legal = s.game.deal.legal_moves()
        # (the pause after the last card before your turn is over once you play)
        front.waits = [w for w in front.waits if w.token[0] != "land"]
        front.take(s.act(p.PlayCard(legal[0])))
        if s.on_show is not None and s.driver.bot_to_move() is not None:
            break
    else:
        pytest.skip("no trick ended with a bot to lead")
    assert s.pace == "trick_on_show"
    assert front.asked, "the next bot is asked while the trick is on show"
    assert not any(w.token[0] == "land" for w in front.waits)
    shown = len(s.state().plays)
    front.answer_bots()
    assert len(s.state().plays) == shown, "its card waits for the trick to go"
    front.fire("trick")
    assert s.on_show is None
    assert len(s.state().plays) > shown, "the trick on show was its pause: it lands now"


def test_at_instant_speed_nothing_waits() -> None:
    s = session_for("instant")
    front = Front(s)
    front.next_deal = False
    front.take(s.start())
    for _ in range(13 * 4 * 2):
        front.until_my_turn()
        if s.driver.phase is Phase.DEAL_OVER:
            assert any(isinstance(o, gs.DealSummary) for o in front.out)
            front.take(s.act(p.GoOn()))
            continue
        if s.driver.phase is Phase.GAME_OVER:
            break
        front.take(s.act(p.PlayCard(s.game.deal.legal_moves()[0])))
    assert s.game.is_over
    # (a "slow" timer only lets a seat say it is thinking when a bot takes long: play never
    # waits for it)
    assert not front.waits or all(w.token[0] in ("forced", "slow") for w in front.waits)
    assert any(isinstance(o, gs.GameFinished) for o in front.out)


def test_a_forced_card_is_played_for_you_when_its_time_comes() -> None:
    s = session_for("fast")
    front = Front(s)
    front.take(s.start())
    for _ in range(60):
        front.until_my_turn()
        if s.forced_card() is not None:
            break
        front.take(s.act(p.PlayCard(s.game.deal.legal_moves()[0])))
    card = s.forced_card()
    assert card is not None
    assert s.pace == "forced" and s.state().forced == card
    assert any(isinstance(o, gs.ForcedSoon) and o.card == card for o in front.out)
    before = len(s.game.deal.plays)
    front.fire("forced")
    assert s.game.deal.plays[before] == (0, card, True)


def test_undo_takes_back_your_card_and_a_bot_answers_again() -> None:
    s = session_for("instant")
    front = Front(s)
    front.take(s.start())
    front.until_my_turn()
    mine = s.game.deal.legal_moves()[0]
    front.take(s.act(p.PlayCard(mine)))
    front.until_my_turn()
    plays = s.game.deal.plays
    out = s.act(p.Undo())
    back = [o for o in out if isinstance(o, p.TakenBack)]
    assert back and back[0].plays[0].card == mine
    assert s.game.deal.plays == plays[:len(plays) - len(back[0].plays)]
    assert s.game.assisted and any(isinstance(o, gs.AssistedNow) for o in out)


def test_a_card_you_may_not_play_is_refused_in_your_words_and_changes_nothing() -> None:
    """The seat refuses a card off its turn's legal list before the table sees it, in the
    same words here as at a shared table: the suit to follow, or a card not in the hand."""
    from nil_tui.engine import DECK

    s = session_for("instant")
    front = Front(s)
    front.take(s.start())
    for _ in range(13):  # until a turn where not every card of the hand may be played
        front.until_my_turn()
        state = s.state()
        if state.trick and set(state.legal) != set(state.hand):
            break
        front.take(s.act(p.PlayCard(state.legal[0])))
    else:
        raise AssertionError("every turn let every card be played")
    before = tuple(s.game.deal.plays)
    wrong = next(c for c in state.hand if c not in state.legal)
    led = state.trick[0].suit
    assert s.act(p.PlayCard(wrong)) == [
        p.Refused("play", "it does not follow the suit led", wrong, int(led))]
    absent = next(c for c in DECK if c not in state.hand)
    assert s.act(p.PlayCard(absent)) == [p.Refused("play", "it is not in your hand", absent)]
    assert s.game.deal.plays == before and s.state().pace == "your_turn"


def test_a_stale_answer_is_dropped_and_the_bot_asked_again() -> None:
    s = session_for("instant")
    front = Front(s)
    front.take(s.start())
    front.until_my_turn()
    front.take(s.act(p.PlayCard(s.game.deal.legal_moves()[0])))
    if s.driver.human_to_move():
        pytest.skip("the trick came back to you")
    old = front.asked.pop()
    answer = s.driver.decide(old.request)
    s.driver.turn += 1  # the position is gone (as after an undo or a replaced bot)
    out = s.bot_decided(answer)
    assert [o for o in out if isinstance(o, gs.AskBot)], "asked again"
    assert len(s.game.deal.plays) == 1 or s.game.deal.plays[-1].card != answer.card or True


def test_a_bot_whose_thread_failed_is_asked_again_a_second_later() -> None:
    s = session_for("instant")
    front = Front(s)
    front.take(s.start())
    front.until_my_turn()
    front.take(s.act(p.PlayCard(s.game.deal.legal_moves()[0])))
    if not front.asked:
        pytest.skip("the trick came back to you")
    lost = front.asked.pop()
    assert s.bot_lost(lost.request) == []
    assert s.thinking is None
    again = [o for o in s.timer_done(("slow", lost.request.turn)) if isinstance(o, gs.AskBot)]
    assert again and again[0].request.seat == lost.request.seat
    front.take(s.bot_decided(s.driver.decide(again[0].request)))
    assert len(s.game.deal.plays) >= 2


def test_a_challenge_refuses_help_in_the_session_and_the_driver() -> None:
    s = session_for("instant", challenge="2026-11-30")
    s.game.challenge = {"date": "2026-11-30", "reference": None}
    front = Front(s)
    front.take(s.start())
    front.until_my_turn()
    for action, kind in ((p.Undo(), "undo"), (p.AskHint(), "hint"), (p.SetMeter(True), "meter")):
        out = s.act(action)
        assert out == [p.Refused(kind, gs.CHALLENGE_REFUSALS[kind])]
    assert not s.state().help_allowed and not s.state().can_undo
    with pytest.raises(ValueError, match="daily challenge"):
        s.game.add_assist("hint")
    with pytest.raises(ValueError, match="daily challenge"):
        s.driver.undo()
    assert not s.game.assisted


def test_a_hint_for_a_position_that_is_gone_is_dropped() -> None:
    s = session_for("instant")
    front = Front(s)
    front.take(s.start())
    front.until_my_turn()
    out = s.act(p.AskHint())
    find = [o for o in out if isinstance(o, gs.FindHint)]
    assert find and find[0].view.seat == 0 and s.game.assists == ["hint"]
    card = s.game.deal.legal_moves()[0]
    assert s.hint_found(find[0].turn, card, "why") == [p.Hint(find[0].turn, card, "why")]
    assert s.hint_found(find[0].turn - 1, card, "why") == []


def test_the_meter_is_this_games_and_certain_when_it_is() -> None:
    s = session_for("instant")
    front = Front(s)
    front.next_deal = False
    front.take(s.start())
    front.until_my_turn()
    out = s.act(p.SetMeter(True))
    est = [o for o in out if isinstance(o, gs.EstimateMeter)]
    assert est or (s.meter is not None and s.meter.certain)
    assert s.play_options.meter and not s.options.meter  # saved with this game only
    if est:
        reading = s.meter_estimated(est[0].key, 0.0)
        assert reading and not reading[0].certain  # an estimate, even at 0
    while not s.game.deal.is_over:
        front.until_my_turn()
        if s.game.deal.is_over:
            break
        front.take(s.act(p.PlayCard(s.game.deal.legal_moves()[-1])))
    front.take(s.act(p.SetMeter(True)))
    assert s.meter is not None and s.meter.certain
    assert s.meter.chance == (0.0 if s.game.deal.taken[0] else 1.0)


def test_every_legal_card_taking_the_trick_is_certain() -> None:
    from nil_tui.engine import Deal

    hands = [["AS", "KS", "2H"], ["2S", "3H", "4H"], ["3S", "5H", "6H"], ["4S", "7H", "8H"]]
    full = [list(h) for h in hands]
    rest = [c for c in (f"{r}{s}" for s in "SCDH" for r in "23456789TJQKA")
            if c not in {x for h in hands for x in h}]  # spades first: popped last
    for seat in range(4):
        while len(full[seat]) < 13:
            full[seat].append(rest.pop())
    deal = Deal.from_hands(full, dealer=3)  # South leads
    assert not gs.sure_to_take(deal.view(0))  # leading: the 2H may lose
    deal.play("2H")
    for seat in (1, 2, 3):
        deal.play(deal.legal_moves()[0])
    view = deal.view(deal.to_move or 0)
    assert isinstance(gs.sure_to_take(view), bool)
    spades = Deal.from_hands(full, dealer=0)  # West leads
    spades.play("2S")
    spades.play("3S")
    spades.play("4S")
    assert set(spades.legal_moves()) == {Card.parse("AS"), Card.parse("KS")}
    assert gs.sure_to_take(spades.view(0))  # last to play, both spades win


def test_the_state_is_drawn_from_one_seats_view() -> None:
    s = session_for("instant")
    front = Front(s)
    front.take(s.start())
    front.until_my_turn()
    state = s.state()
    assert state.hand == s.game.deal.hand(0) and state.pace == "your_turn"
    assert state.levels[0] is None and state.levels[1] == "easy"
    assert p.from_json(p.to_json(state)) == state


class FakeStore:
    """A store whose disk is full until ``room`` is set."""

    def __init__(self) -> None:
        self.room = False
        self.kept: list[object] = []

    @property
    def problem(self) -> str | None:
        return None if self.room else "the disk is full."

    def save_current(self, record: object, options: object) -> bool:
        return self.room

    def retry_pending(self) -> bool:
        return True  # nothing else waits: only the finished game, which is not in its queue

    def keep_finished(self, record: object, options: object) -> Any:
        from pathlib import Path

        from nil_tui.store import Finished

        if not self.room:
            return Finished(False, None, "the disk is full.")
        self.kept.append(record)
        return Finished(True, Path("records/game.json"), None)


def test_a_finished_game_is_said_saved_only_once_it_is_written() -> None:
    from nil_tui.session.saving import Keeper

    store = FakeStore()
    told: list[tuple[str | None, str | None]] = []
    keeper = Keeper(lambda: store, lambda now, was: told.append((now, was)))  # type: ignore[arg-type, return-value]
    game = Game(1, 3, players=PLAYERS)
    while not game.is_over:
        game.play(game.deal.legal_moves()[0])
    assert keeper.finish(game, PlayOptions()) is None
    assert keeper.problem and keeper.waiting() is game
    assert keeper.retry() == []  # the queue is empty, but the finished game is not written
    assert keeper.problem and all(now is not None for now, _ in told), told
    store.room = True
    assert keeper.retry() == [__import__("pathlib").Path("records/game.json")]
    assert keeper.problem is None and told[-1] == (None, "the disk is full.")
    assert keeper.waiting() is None and len(store.kept) == 1
