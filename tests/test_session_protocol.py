"""The session's protocol values: immutable, compared by type, written to JSON and read back
exactly, malformed input refused with a clear message, and a seat's state never holding
another seat's unplayed cards."""

from __future__ import annotations

import json
import random

import pytest

from nil_tui.engine import Card, Deal, Game, Play, Trick
from nil_tui.session import messages as p

NAMES = ("You", "West", "North", "East")
LEVELS = (None, "easy", "normal", "expert")


def state_of(game: Game, seat: int = 0, **kw: object) -> p.TableState:
    pace = "game_over" if game.is_over else "deal_over" if game.deal.is_over else "your_turn"
    return p.table_state(game, seat, turn=3, pace=pace, names=NAMES, levels=LEVELS, **kw)  # type: ignore[arg-type]


def play_some(game: Game, cards: int) -> None:
    rng = random.Random(cards)
    for _ in range(cards):
        game.play(rng.choice(game.deal.legal_moves()))


def test_actions_with_no_fields_are_told_apart() -> None:
    assert p.Undo() != p.Quit()
    assert p.Undo() == p.Undo()
    assert len({p.Undo(), p.Quit(), p.AskHint(), p.GoOn()}) == 4
    assert p.PlayCard(Card.parse("QS")) != p.SetMeter(True)


@pytest.mark.parametrize("message", [
    p.PlayCard(Card.parse("TD")), p.Undo(), p.AskHint(), p.SetMeter(on=True), p.GoOn(),
    p.Quit(), p.Played(1, Card.parse("2C"), True),
    p.TrickTaken(Trick(1, tuple(Card.parse(c) for c in ("2C", "AC", "3C", "4D")), 2), True),
    p.DealBegun(2, 3), p.DealOver(1, (1, 2, 0, 10), (1, 1, 1, 1), True, (1, 1, 1, 1)),
    p.GameOver((3, 1, 1, 1), (1, 2, 3)), p.BotFailed(2, Card.parse("AH"), "it raised"),
    p.SeatReplaced(3, "pkg:Bot", "normal", "gone"),
    p.TakenBack((Play(0, Card.parse("5S"), False), Play(1, Card.parse("6S"), True))),
    p.Hint(4, Card.parse("KH"), "why"), p.Refused("hint", "Hints are off."),
    p.MeterReading(5, 0.25, False), p.SaveState(False, "disk full"),
])
def test_every_message_reads_back_as_itself(message: p.Message) -> None:
    text = p.to_json(message)
    data = json.loads(text)
    assert data["protocol"] == p.PROTOCOL_VERSION
    assert data["type"] == type(message).__name__
    assert p.from_json(text) == message


def test_cards_are_record_codes() -> None:
    text = p.to_json(p.Played(0, Card.parse("10H"), False))
    assert json.loads(text)["card"] == "TH"


def test_a_table_state_reads_back_mid_deal_and_at_its_end() -> None:
    game = Game(2, seed=11)
    play_some(game, 22)
    state = state_of(game)
    assert p.from_json(p.to_json(state)) == state
    assert state.trick == game.deal.trick and state.tricks == game.deal.tricks
    assert state.leader == game.deal.leader and state.taken == game.deal.taken
    assert state.hand_sizes == tuple(len(game.deal.hand(s)) for s in range(4))
    while not game.deal.is_over:
        game.play(game.deal.legal_moves()[0])
    over = state_of(game)
    assert over.hands_dealt == tuple(game.deal.dealt_hand(s) for s in range(4))
    assert p.from_json(p.to_json(over)) == over


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_seat_never_sees_another_seats_unplayed_cards(seat: int) -> None:
    game = Game(1, seed=5)
    play_some(game, 17)
    state = state_of(game, seat)
    text = p.to_json(state)
    assert state.hands_dealt is None
    shown = set(json.loads(text)["hand"]) | {pl["card"] for pl in json.loads(text)["plays"]}
    for other in range(4):
        if other != seat:
            hidden = {str(c) for c in game.deal.hand(other)}
            assert not hidden & shown
            for code in hidden:
                assert f'"{code}"' not in text


def test_forced_cards_are_in_the_plays() -> None:
    deal = Deal.new(0, random.Random(3))
    while not deal.is_over:
        legal = deal.legal_moves()
        deal.play(legal[-1])
    for play in deal.plays:
        assert isinstance(play, Play)
    assert any(pl.forced for pl in deal.plays)
    copy = deal.copy()
    assert copy.plays == deal.plays
    card = deal.undo()
    assert deal.plays[-1:] != () and card not in {pl.card for pl in deal.plays}


def good() -> dict[str, object]:
    return json.loads(p.to_json(p.PlayCard(Card.parse("QS"))))


@pytest.mark.parametrize(("change", "says"), [
    ({"protocol": 2}, "protocol: version 2"),
    ({"protocol": True}, "protocol"),
    ({"type": "Nope"}, "type"),
    ({"card": "qs"}, "PlayCard.card"),
    ({"card": "10S"}, "PlayCard.card"),
    ({"card": 51}, "PlayCard.card"),
    ({"extra": 1}, "PlayCard.extra: not a field"),
])
def test_malformed_messages_are_refused_naming_the_field(change: dict[str, object],
                                                          says: str) -> None:
    data = good()
    data.update(change)
    with pytest.raises(p.ProtocolError, match=says.replace(".", r"\.")):
        p.from_json(json.dumps(data))


@pytest.mark.parametrize("text", ["", "[]", "{", '"x"', "NaN", '{"protocol": 1}',
                                  '{"protocol":1,"type":"PlayCard"}',
                                  '{"protocol":1,"type":"SetMeter","on":1}',
                                  ('{"protocol":1,"type":"MeterReading","turn":1,"chance":NaN,'
                                  '"certain":false}'),
                                  ('{"protocol":1,"type":"Played","seat":4,"card":"2C",'
                                  '"forced":false}'),
                                  ('{"protocol":1,"type":"TrickTaken","trick":{"leader":0,'
                                  '"cards":["2C","3C","4C","5C"],"winner":0},'
                                  '"first_for_winner":true}')])
def test_garbage_is_refused_with_a_protocol_error(text: str) -> None:
    with pytest.raises(p.ProtocolError):
        p.from_json(text)


def test_a_state_with_hidden_or_impossible_cards_is_refused() -> None:
    game = Game(1, seed=2)
    play_some(game, 6)
    data = json.loads(p.to_json(state_of(game)))
    early = dict(data, hands_dealt=[[], [], [], []])
    with pytest.raises(p.ProtocolError, match="hidden until the deal is over"):
        p.from_json(json.dumps(early))
    swapped = dict(data, plays=[dict(data["plays"][0], seat=(data["plays"][0]["seat"] + 1) % 4),
                                *data["plays"][1:]])
    with pytest.raises(p.ProtocolError, match="plays"):
        p.from_json(json.dumps(swapped))
    twice = dict(data, hand=[data["plays"][0]["card"], *data["hand"][1:]])
    with pytest.raises(p.ProtocolError, match="hand"):
        p.from_json(json.dumps(twice))
    with pytest.raises(p.ProtocolError, match="pace"):
        p.from_json(json.dumps(dict(data, pace="dancing")))


def test_not_a_message_is_not_written() -> None:
    with pytest.raises(TypeError):
        p.to_json((1, 2))  # type: ignore[arg-type]
