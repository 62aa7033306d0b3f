"""The game driver: the one place where bots are asked, cards are played and games saved."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from nil_tui.engine import Card, CardPlayed, Deal, Game, IllegalPlay, Phase, PlayerView
from nil_tui.game.driver import BotIncident, BotReplaced, Decision, GameDriver, seat_specs

PEOPLE = [{"name": "South", "kind": "human"}] + [
    {"name": n, "kind": "bot", "bot": "low"} for n in ("West", "North", "East")]
BOTS = [{"name": n, "kind": "bot", "bot": "low"} for n in ("S", "W", "N", "E")]


@dataclass(frozen=True)
class Answer:
    card: Card
    incident: str | None = None


class LowPlayer:
    """Plays its lowest legal card; counts its decisions; can be told to fail."""

    def __init__(self, spec: str, seed: int) -> None:
        self.spec = spec
        self.seed = seed
        self.name = f"{spec}-{seed % 100}"
        self.decisions = 0
        self.closed = False

    def decide(self, view: PlayerView, perfect: Callable[[], Deal] | None = None) -> Answer:
        self.decisions += 1
        if self.spec == "flaky" and self.decisions == 2:
            return Answer(view.legal[0], "flaky failed (RuntimeError: confused)")
        return Answer(view.legal[0])

    def close(self) -> None:
        self.closed = True


class Opener:
    def __init__(self, refuse: tuple[str, ...] = ()) -> None:
        self.opened: list[LowPlayer] = []
        self.refuse = refuse

    def __call__(self, spec: str, seed: int) -> LowPlayer:
        if spec in self.refuse:
            raise ValueError(f"bot spec {spec!r}: cannot import module")
        player = LowPlayer(spec, seed)
        self.opened.append(player)
        return player


def bots_game(deals: int = 2, seed: int = 5, spec: str = "low") -> Game:
    players = [dict(p, bot=spec) for p in BOTS]
    return Game(deals, seed, players=players)


def test_bots_only_game_runs_to_the_end_and_saves_every_play() -> None:
    saves: list[int] = []
    opener = Opener()
    game = bots_game()
    with GameDriver(game, opener=opener, save=lambda g: saves.append(len(g.deal.tricks))) as d:
        d.run()
    assert game.phase is Phase.GAME_OVER
    plays = sum(len(t.cards) for deal in game.deals for t in deal.tricks)
    assert len(saves) == plays + 1  # every card, and the second deal's start
    assert all(p.closed for p in opener.opened)
    assert Game.from_record(game.to_record()).totals == game.totals


def test_the_same_seed_plays_the_same_game() -> None:
    records = []
    for _ in range(2):
        game = bots_game(seed=11)
        with GameDriver(game, opener=Opener()) as d:
            d.run()
        record = game.to_record()
        record.pop("created")
        records.append(record)
    assert records[0] == records[1]


def test_seats_get_seeds_from_the_game_unless_given() -> None:
    opener = Opener()
    with GameDriver(bots_game(seed=3), opener=opener) as d:
        d.open_bots()
    derived = [p.seed for p in opener.opened]
    assert len(set(derived)) == 4
    opener = Opener()
    with GameDriver(bots_game(seed=3), opener=opener, seeds=[1, 2, 3, 4]) as d:
        d.open_bots()
    assert [p.seed for p in opener.opened] == [1, 2, 3, 4]


def test_a_person_plays_only_legal_cards_on_their_turn() -> None:
    game = Game(1, 8, players=PEOPLE, dealer=3)  # South leads
    d = GameDriver(game, opener=Opener())
    assert d.human_to_move() and d.request() is None
    hand = game.deal.hand(0)
    events = d.play(hand[0])
    assert isinstance(events[0], CardPlayed) and events[0].card == hand[0]
    assert d.bot_to_move() == 1
    before = game.to_record()
    with pytest.raises(IllegalPlay):
        d.play(game.deal.hand(0)[0])  # not South's turn
    assert game.to_record() == before


def test_an_illegal_card_changes_nothing() -> None:
    game = Game(1, 8, players=PEOPLE, dealer=0)  # West leads, South plays last
    d = GameDriver(game, opener=Opener())
    while not d.human_to_move():
        request = d.request()
        assert request is not None
        d.apply(d.decide(request))
    led = game.deal.led_suit
    off = [c for c in game.deal.hand(0) if c.suit != led]
    assert off and any(c.suit == led for c in game.deal.hand(0))  # South can follow
    turn, before = d.turn, game.to_record()
    with pytest.raises(IllegalPlay):
        d.play(off[0])
    assert d.turn == turn and game.to_record() == before


def test_an_answer_for_a_position_that_is_gone_is_dropped() -> None:
    game = Game(1, 8, players=PEOPLE, dealer=0)  # West leads
    d = GameDriver(game, opener=Opener())
    request = d.request()
    assert request is not None and request.seat == 1
    decision = d.decide(request)
    stale = Decision(decision.turn - 1, decision.seat, decision.card)
    assert d.apply(stale) is None
    wrong_seat = Decision(decision.turn, 2, decision.card)
    assert d.apply(wrong_seat) is None
    assert not game.deal.trick
    assert d.apply(decision) is not None
    assert d.apply(decision) is None  # never played twice


def test_a_failing_bot_is_recorded_as_an_incident() -> None:
    game = bots_game(deals=1, spec="flaky")
    seen: list[Any] = []
    with GameDriver(game, opener=Opener()) as d:
        d.run(on_event=seen.append)
    incidents = [e for e in seen if isinstance(e, BotIncident)]
    assert len(incidents) == 4
    assert len(game.incidents) == 4
    assert game.to_record()["incidents"][0]["reason"].startswith("flaky failed")


def test_a_bot_that_cannot_start_is_replaced_and_the_record_says_so() -> None:
    game = bots_game(deals=1, spec="gone")
    seen: list[Any] = []
    opener = Opener(refuse=("gone",))
    with GameDriver(game, opener=opener) as d:
        replaced = d.open_bots()
        d.run(on_event=seen.append)
    assert [type(e) for e in replaced] == [BotReplaced] * 4
    assert {p.spec for p in opener.opened} == {"normal"}
    record = game.to_record()
    assert record["players"][1]["bot"] == "normal"
    assert record["players"][1]["replaced"][0]["bot"] == "gone"
    assert "cannot import" in record["players"][1]["replaced"][0]["reason"]
    assert seat_specs(Game.from_record(record))[1] == "normal"


def test_replacing_a_bot_drops_its_pending_answer() -> None:
    game = Game(1, 8, players=PEOPLE, dealer=0)
    opener = Opener()
    d = GameDriver(game, opener=opener)
    request = d.request()
    assert request is not None
    decision = d.decide(request)
    event = d.replace_bot(1, "easy", "the player chose another bot")
    assert event.spec == "low" and event.substitute == "easy"
    assert opener.opened[0].closed
    assert d.apply(decision) is None
    assert game.players[1]["bot"] == "easy"
    new = d.request()
    assert new is not None and d.apply(d.decide(new)) is not None
    assert opener.opened[-1].spec == "easy"


def test_run_refuses_a_game_with_a_person() -> None:
    with pytest.raises(ValueError, match="bots only"):
        GameDriver(Game(1, 1, players=PEOPLE), opener=Opener()).run()


def test_run_plays_the_deals_asked_for_and_stops_when_told() -> None:
    """The one play loop of bots-only games (simulate, the challenge's reference game)."""
    game = Game(3, 5, players=BOTS)
    with GameDriver(game, opener=Opener()) as d:
        d.run(deals=2)
    assert game.deal_number == 2 and game.deal.is_over and game.phase is not Phase.GAME_OVER
    asked: list[int] = []
    game = Game(3, 5, players=BOTS)
    with GameDriver(game, opener=Opener()) as d:
        d.run(should_stop=lambda: asked.append(1) or len(asked) > 5)
    assert len(game.deal.plays) == 5 and game.phase is Phase.PLAYING


def test_undo_takes_back_your_card_and_the_bots_after_it_and_they_answer_the_same() -> None:
    game = Game(1, 8, players=PEOPLE, dealer=0)  # West leads: three bots, then you
    d = GameDriver(game, opener=Opener())
    assert d.plays_to_undo() == 0
    with pytest.raises(ValueError, match="no card of yours"):
        d.undo()

    def bots_play() -> None:
        while (request := d.request()) is not None:
            d.apply(d.decide(request))

    bots_play()
    before = game.to_record()
    view_before = game.deal.view(0)
    mine = game.deal.legal_moves()[-1]
    d.play(mine)
    bots_play()  # you won or lost the trick; the bots played on up to your next turn
    played_after = len(game.deal.tricks) * 4 + len(game.deal.trick) - 4
    assert d.plays_to_undo() == 1 + played_after
    turn = d.turn
    taken = d.undo()
    assert taken[0] == mine and len(taken) == 1 + played_after
    assert d.turn > turn and d.human_to_move()
    assert game.deal.view(0) == view_before
    record = game.to_record()
    assert record["undone"] == [{"deal": 1, "trick": 1, "cards": [str(c) for c in taken]}]
    assert {k: v for k, v in record.items() if k not in ("undone", "created")} == \
        {k: v for k, v in before.items() if k != "created"}
    # The record reads back with what was undone, and the game plays on.
    again = Game.from_record(record)
    assert again.undone == game.undone
    d.play(game.deal.legal_moves()[0])


def test_undo_moves_the_incidents_of_the_plays_taken_back_into_the_record() -> None:
    game = Game(1, 8, players=[dict(p, bot="flaky") if p["kind"] == "bot" else p
                               for p in PEOPLE], dealer=0)
    d = GameDriver(game, opener=Opener())
    for _ in range(3):  # each flaky bot fails its second decision
        while (request := d.request()) is not None:
            d.apply(d.decide(request))
        d.play(game.deal.legal_moves()[0])
    while (request := d.request()) is not None:
        d.apply(d.decide(request))
    assert game.incidents
    count = len(game.incidents)
    d.undo()
    kept = [i for u in game.undone for i in u.get("incidents", [])]
    assert len(game.incidents) + len(kept) == count
    for incident in game.incidents:  # what is left was for cards still on the table
        assert incident["trick"] <= game.deal.trick_number


def test_the_deal_so_far_is_told_again_as_it_was_played() -> None:
    game = Game(1, 8, players=[dict(p, bot="flaky") if p["kind"] == "bot" else p
                               for p in PEOPLE], dealer=0)
    d = GameDriver(game, opener=Opener())
    told: list[Any] = []
    for _ in range(5):  # five of your cards, the bots' around them (some failed)
        while (request := d.request()) is not None:
            told.extend(d.apply(d.decide(request)) or [])
        told.extend(d.play(game.deal.legal_moves()[0]))
    assert any(isinstance(e, BotIncident) for e in told)
    assert d.deal_so_far() == told
    # From the record alone (a resumed game), the same story.
    resumed = GameDriver(Game.from_record(game.to_record()), opener=Opener())
    assert resumed.deal_so_far() == told
