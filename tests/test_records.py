"""Game records (RECORDS.md): written, read back, and tampered records rejected by field."""

from __future__ import annotations

import copy
import json
import random
import sys
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nil_tui.engine import Card, Game, RecordError


def without_time(record: dict[str, Any]) -> dict[str, Any]:
    record = dict(record)
    record.pop("created")
    return record


def through_json(record: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(record))  # type: ignore[no-any-return]


@pytest.fixture
def finished(random_game: Callable[..., Game]) -> dict[str, Any]:
    return through_json(random_game(seed=31, deals=3).to_record())


def test_finished_record_shape(finished: dict[str, Any]) -> None:
    rec = finished
    assert rec["format"] == "nil-tui-record" and rec["version"] == 1
    assert rec["finished"] is True and rec["seed"] == 31
    assert rec["deals_planned"] == rec["rules"]["deals_planned"] == 3
    assert len(rec["deals"]) == 3 and len(rec["players"]) == 4
    assert rec["cut"]["dealer"] == rec["deals"][0]["dealer"]
    for deal in rec["deals"]:
        assert all(len(h) == 13 for h in deal["hands"])
        assert all(len(code) == 2 for h in deal["hands"] for code in h)
        assert all(len(t["cards"]) == 4 for t in deal["tricks"])
    assert rec["totals"] == [sum(d["points"][s] for d in rec["deals"]) for s in range(4)]
    assert "losers" in rec


def test_finished_round_trip(random_game: Callable[..., Game]) -> None:
    game = random_game(seed=32, deals=4)
    record = through_json(game.to_record())
    back = Game.from_record(record)
    assert back.is_over and back.totals == game.totals and back.losers == game.losers
    assert back.cut == game.cut
    assert [d.tricks for d in back.deals] == [d.tricks for d in game.deals]
    assert without_time(through_json(back.to_record())) == without_time(record)


@pytest.mark.parametrize("stop_after", [0, 1, 6, 30, 52 * 2 + 3])
def test_in_progress_round_trip_and_continue(random_game: Callable[..., Game],
                                             stop_after: int) -> None:
    game = random_game(seed=33, deals=5, stop_after=stop_after)
    record = through_json(game.to_record())
    assert record["finished"] is False and "losers" not in record
    back = Game.from_record(record)
    assert back.phase is game.phase and back.to_move == game.to_move
    assert back.deal.trick == game.deal.trick and back.deal.tricks == game.deal.tricks
    assert back.deal.hands == game.deal.hands
    assert without_time(through_json(back.to_record())) == without_time(record)
    # the rebuilt game plays on exactly like the original
    if not game.deal.is_over:
        card = game.deal.legal_moves()[0]
        assert back.play(card) == game.play(card)


def test_record_between_deals(random_game: Callable[..., Game]) -> None:
    game = random_game(seed=36, deals=1)
    game.deals_planned = 2  # the first deal is over, the second not dealt yet
    assert game.phase.value == "deal_over"
    record = through_json(game.to_record())
    assert record["finished"] is False and len(record["deals"]) == 1
    back = Game.from_record(record)
    assert back.phase is game.phase and back.totals == game.totals
    back.next_deal()
    game.next_deal()
    assert back.deal.dealt == game.deal.dealt  # the seed deals the same next hand


def test_in_progress_record_with_a_partial_trick(random_game: Callable[..., Game]) -> None:
    game = random_game(seed=34, deals=2, stop_after=6)
    record = through_json(game.to_record())
    last = record["deals"][-1]["tricks"][-1]
    assert len(last["cards"]) == 2 and last["winner"] is None
    assert record["deals"][-1]["points"] is None
    Game.from_record(record)


def test_incidents_survive_the_round_trip(random_game: Callable[..., Game]) -> None:
    game = random_game(seed=35, deals=1, stop_after=3)
    card = game.deal.legal_moves()[0]
    game.record_incident(game.to_move, card, "Easy took too long")  # type: ignore[arg-type]
    game.play(card)
    back = Game.from_record(through_json(game.to_record()))
    assert back.incidents == game.incidents
    assert back.incidents[0]["card"] == str(card) and back.incidents[0]["trick"] == 1


# --- tampered records ------------------------------------------------------------------------
def first_trick_where(record: dict[str, Any],
                      test: Callable[[list[Card], int, list[Card]], bool]) -> tuple[int, int, int]:
    """(deal, trick, k) of the first card played where ``test(hand_before, k, trick)``."""
    for i, deal in enumerate(record["deals"]):
        hands = [{Card.parse(c) for c in h} for h in deal["hands"]]
        for j, t in enumerate(deal["tricks"]):
            cards = [Card.parse(c) for c in t["cards"]]
            for k, card in enumerate(cards):
                seat = (t["leader"] + k) % 4
                if test(sorted(hands[seat]), k, cards):
                    return i, j, k
                hands[seat].discard(card)
    raise AssertionError("no such play in this record")


def tamper_winner(rec: dict[str, Any]) -> str:
    t = rec["deals"][0]["tricks"][0]
    t["winner"] = (t["winner"] + 1) % 4
    return "deals[0].tricks[0].winner"


def tamper_not_held(rec: dict[str, Any]) -> str:
    deal = rec["deals"][0]
    t = deal["tricks"][1]
    seat = t["leader"]
    other = next(c for s in range(4) if s != seat for c in deal["hands"][s]
                 if not any(c in u["cards"] for u in deal["tricks"][:2]))
    t["cards"][0] = other
    return "deals[0].tricks[1].cards[0]"


def tamper_follow(rec: dict[str, Any]) -> str:
    def followed_while_holding_another_suit(hand: list[Card], k: int, cards: list[Card]) -> bool:
        return k > 0 and cards[k].suit == cards[0].suit and any(
            c.suit != cards[0].suit for c in hand)

    i, j, k = first_trick_where(rec, followed_while_holding_another_suit)
    t = rec["deals"][i]["tricks"][j]
    seat = (t["leader"] + k) % 4
    played = {c for u in rec["deals"][i]["tricks"][:j] for c in u["cards"]}
    led = t["cards"][0][1]
    t["cards"][k] = next(c for c in rec["deals"][i]["hands"][seat]
                         if c[1] != led and c not in played)
    return f"deals[{i}].tricks[{j}].cards[{k}]"


def tamper_points(rec: dict[str, Any]) -> str:
    rec["deals"][1]["points"][0] += 1
    return "deals[1].points"


def tamper_taken(rec: dict[str, Any]) -> str:
    rec["deals"][0]["taken"] = [1, 1, 1, 1] if rec["deals"][0]["taken"] != [1, 1, 1, 1] \
        else [0, 2, 1, 1]
    return "deals[0].taken"


def tamper_version(rec: dict[str, Any]) -> str:
    rec["version"] = 2
    return "version"


def tamper_format(rec: dict[str, Any]) -> str:
    rec["format"] = "some-other-game"
    return "format"


def tamper_totals(rec: dict[str, Any]) -> str:
    rec["totals"][2] += 3
    return "totals"


def tamper_losers(rec: dict[str, Any]) -> str:
    rec["losers"] = [s for s in range(4) if s not in rec["losers"]][:1]
    return "losers"


def tamper_dealer(rec: dict[str, Any]) -> str:
    rec["deals"][1]["dealer"] = rec["deals"][0]["dealer"]
    return "deals[1].dealer"


def tamper_duplicate_card(rec: dict[str, Any]) -> str:
    hands = rec["deals"][2]["hands"]
    hands[3][5] = hands[0][0]
    return "deals[2].hands[3][5]"


def tamper_bad_code(rec: dict[str, Any]) -> str:
    rec["deals"][0]["hands"][1][2] = "1X"
    return "deals[0].hands[1][2]"


def tamper_cut(rec: dict[str, Any]) -> str:
    rec["cut"]["dealer"] = (rec["cut"]["dealer"] + 1) % 4
    return "cut.dealer"


def tamper_extra_trick(rec: dict[str, Any]) -> str:
    deal = rec["deals"][0]
    deal["tricks"].append(dict(deal["tricks"][-1]))
    return f"deals[0].tricks[{len(deal['tricks']) - 1}]"


def tamper_missing_trick(rec: dict[str, Any]) -> str:
    rec["deals"][1]["tricks"].pop()
    return "deals[1].tricks"


def tamper_finished(rec: dict[str, Any]) -> str:
    rec["deals"].pop()
    return "finished"


def tamper_leader(rec: dict[str, Any]) -> str:
    t = rec["deals"][0]["tricks"][2]
    t["leader"] = (t["leader"] + 1) % 4
    return "deals[0].tricks[2].leader"


def tamper_too_many_deals(rec: dict[str, Any]) -> str:
    rec["deals_planned"] = rec["rules"]["deals_planned"] = 2
    return "deals"


@pytest.mark.parametrize("tamper", [
    tamper_winner, tamper_not_held, tamper_follow, tamper_points, tamper_taken, tamper_version,
    tamper_format, tamper_totals, tamper_losers, tamper_dealer, tamper_duplicate_card,
    tamper_bad_code, tamper_cut, tamper_extra_trick, tamper_missing_trick, tamper_finished,
    tamper_leader, tamper_too_many_deals,
], ids=lambda f: f.__name__.removeprefix("tamper_"))
def test_tampered_records_are_rejected_naming_the_field(
        finished: dict[str, Any], tamper: Callable[[dict[str, Any]], str]) -> None:
    Game.from_record(copy.deepcopy(finished))  # the untouched record is valid
    record = copy.deepcopy(finished)
    where = tamper(record)
    with pytest.raises(RecordError) as info:
        Game.from_record(record)
    assert info.value.where == where
    assert str(info.value).startswith(where + ": ")
    assert isinstance(info.value, ValueError)


def test_errors_say_why(finished: dict[str, Any]) -> None:
    record = copy.deepcopy(finished)
    tamper_follow(record)
    with pytest.raises(RecordError, match="must follow"):
        Game.from_record(record)
    record = copy.deepcopy(finished)
    tamper_not_held(record)
    with pytest.raises(RecordError, match="not in the hand"):
        Game.from_record(record)
    record = copy.deepcopy(finished)
    tamper_version(record)
    with pytest.raises(RecordError, match="unknown record version 2"):
        Game.from_record(record)


@pytest.mark.parametrize("value", [None, [], "text", 3])
def test_a_record_must_be_an_object(value: object) -> None:
    with pytest.raises(RecordError):
        Game.from_record(value)  # type: ignore[arg-type]


def test_record_without_cut_from_a_fixed_dealer(random_game: Callable[..., Game]) -> None:
    game = Game(deals_planned=1, seed=3, dealer=2)
    record = through_json(game.to_record())
    assert record["cut"] is None and record["deals"][0]["dealer"] == 2
    back = Game.from_record(record)
    assert back.deal.dealer == 2 and back.cut is None


# --- any JSON at all: a RecordError or a game, never another exception -------------------------
JSON_LEAVES = (st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6)
               | st.sampled_from([0, 1, 3, 4, -1, "QS", "10H", "nil-tui-record"])
               | st.sampled_from([400, -5000]).map(lambda e: 10**e if e > 0 else -(10**-e)))
JSON = st.recursive(JSON_LEAVES, lambda inner: st.lists(inner, max_size=5)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=5), max_leaves=25)
ANY_JSON = settings(derandomize=True, database=None, deadline=None, max_examples=300,
                    suppress_health_check=[HealthCheck.too_slow])


def read_or_reject(value: object) -> Game | None:
    """from_record's answer: a Game, or None for a RecordError with a short message."""
    try:
        return Game.from_record(value)  # type: ignore[arg-type]
    except RecordError as exc:
        assert len(str(exc)) < 400, str(exc)[:400]
        return None


def valid_records() -> list[dict[str, Any]]:
    """A finished game with losers, and two in progress with a partial trick, as JSON."""
    out = []
    for seed, stop in ((42, None), (42, 30), (43, 45)):
        rng = random.Random(seed)
        game = Game(deals_planned=2, seed=seed)
        played = 0
        while not game.is_over and (stop is None or played < stop):
            if game.deal.is_over:
                game.next_deal()
            game.play(rng.choice(game.deal.legal_moves()))
            played += 1
        out.append(through_json(game.to_record()))
    assert out[0]["losers"] and not out[1]["finished"] and not out[2]["finished"]
    return out


RECORDS = valid_records()


@ANY_JSON
@given(value=JSON)
def test_any_json_value_is_read_or_rejected_with_a_record_error(value: object) -> None:
    read_or_reject(value)
    read_or_reject({**RECORDS[0], "deals": value})
    read_or_reject({"format": "nil-tui-record", "version": 1, "deals_planned": 2,
                    "players": value, "finished": value})


@ANY_JSON
@given(data=st.data(), which=st.integers(0, len(RECORDS) - 1), value=JSON,
       delete=st.booleans())
def test_a_record_with_any_field_replaced_is_read_or_rejected(
        data: st.DataObject, which: int, value: object, delete: bool) -> None:
    """Replace (or delete) one field anywhere in a valid record, at any depth."""
    record = copy.deepcopy(RECORDS[which])
    parent: Any = record
    key: Any = data.draw(st.sampled_from(sorted(record)))
    while isinstance(parent[key], (dict, list)) and parent[key] and data.draw(
            st.integers(0, 9)) > 0:
        parent = parent[key]
        key = data.draw(st.sampled_from(sorted(parent) if isinstance(parent, dict)
                                        else range(len(parent))))
    if delete and isinstance(parent, dict):
        del parent[key]
    else:
        parent[key] = value
    read_or_reject(record)


def nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("path", [
    ("format",), ("version",), ("deals_planned",), ("rules", "deals_planned"), ("seed",),
    ("players",),
    ("players", 0), ("finished",), ("cut",), ("cut", "draws"), ("cut", "draws", 0, 1),
    ("cut", "dealer"), ("deals",), ("deals", 0), ("deals", 0, "dealer"), ("deals", 0, "hands"),
    ("deals", 0, "hands", 2, 5), ("deals", 0, "tricks", 1), ("deals", 0, "tricks", 1, "leader"),
    ("deals", 0, "tricks", 1, "cards", 2), ("deals", 0, "tricks", 1, "winner"),
    ("deals", 1, "taken"), ("deals", 1, "points"), ("deals", 1, "points", 3), ("totals",),
    ("totals", 0), ("losers",), ("losers", 0), ("incidents",),
])
@pytest.mark.parametrize("value", ["deep", "huge", "huge negative"])
def test_deep_nesting_and_huge_numbers_give_a_record_error(path: tuple[Any, ...],
                                                           value: str) -> None:
    """Values json.loads may refuse, but a caller could still pass: a list nested far deeper
    than the recursion limit, and integers too long to write out."""
    record = copy.deepcopy(RECORDS[0])
    parent: Any = record
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = {"deep": nested(sys.getrecursionlimit() * 3), "huge": 10**5000,
                        "huge negative": -(10**5000)}[value]
    with pytest.raises(RecordError) as info:
        Game.from_record(record)
    assert len(str(info.value)) < 400
    assert info.value.where.startswith(path[0])


def test_a_gigantic_seed_is_rejected_not_kept() -> None:
    """A seed must be written out again (records, the next deal's shuffle)."""
    record = copy.deepcopy(RECORDS[1])
    record["seed"] = 10**5000
    with pytest.raises(RecordError, match="seed"):
        Game.from_record(record)
    record["seed"] = 2**200
    assert Game.from_record(record).seed == 2**200


# --- one strict format: card codes, texts, incidents, plays taken back, replaced bots -------
def _with_incident() -> dict[str, Any]:
    """A finished one-deal game with an incident in trick 2, a play taken back with its
    incident in trick 3, and a bot replaced in West's seat."""
    game = Game(1, seed=11)
    while game.deal.trick_number < 2 or game.to_move != 1:
        game.play(game.deal.legal_moves()[0])
    card = game.deal.legal_moves()[0]
    game.record_incident(1, card, "Easy took too long")
    game.play(card)
    while game.deal.trick_number < 3 or game.to_move != 2:
        game.play(game.deal.legal_moves()[0])
    card = game.deal.legal_moves()[0]
    game.record_incident(2, card, "Normal failed")
    game.play(card)
    game.take_back(1)
    game.players[1]["bot"] = "normal"
    game.players[1]["replaced"] = [{"bot": "easy", "deal": 1, "trick": 2,
                                    "reason": "it stopped"}]
    while not game.is_over:
        game.play(game.deal.legal_moves()[0])
    record = through_json(game.to_record())
    assert record["incidents"] and record["undone"][0]["incidents"]
    return record


def test_a_record_with_incidents_undo_and_a_replaced_bot_reads_back() -> None:
    record = _with_incident()
    game = Game.from_record(copy.deepcopy(record))
    again = through_json(game.to_record())
    for key in ("incidents", "undone", "players"):
        assert again[key] == record[key]


@pytest.mark.parametrize(("change", "where"), [
    (lambda r: r["deals"][0]["hands"][0].__setitem__(0, r["deals"][0]["hands"][0][0].lower()),
     "deals[0].hands[0][0]"),
    (lambda r: r["deals"][0]["tricks"][0]["cards"].__setitem__(
        0, r["deals"][0]["tricks"][0]["cards"][0][0] + r["deals"][0]["tricks"][0]["cards"][0][
            1].lower()), "deals[0].tricks[0].cards[0]"),
    (lambda r: r["cut"]["draws"][0].__setitem__(0, r["cut"]["draws"][0][0].lower()),
     "cut.draws[0][0]"),
    (lambda r: r["incidents"][0].__setitem__("card", r["incidents"][0]["card"].lower()),
     "incidents[0].card"),
    (lambda r: r["undone"][0]["cards"].__setitem__(0, r["undone"][0]["cards"][0].lower()),
     "undone[0].cards[0]"),
    (lambda r: r["deals"][0]["hands"][0].__setitem__(0, "10" + r["deals"][0]["hands"][0][0][1]),
     "deals[0].hands[0][0]"),
    (lambda r: r["incidents"].__setitem__(0, "oops"), "incidents[0]"),
    (lambda r: r["incidents"][0].__setitem__("deal", 2), "incidents[0].deal"),
    (lambda r: r["incidents"][0].__setitem__("deal", 0), "incidents[0].deal"),
    (lambda r: r["incidents"][0].__setitem__("trick", 14), "incidents[0].trick"),
    (lambda r: r["incidents"][0].__setitem__("trick", r["incidents"][0]["trick"] + 1),
     "incidents[0]"),
    (lambda r: r["incidents"][0].__setitem__("seat", (r["incidents"][0]["seat"] + 1) % 4),
     "incidents[0]"),
    (lambda r: r["incidents"][0].__setitem__("seat", True), "incidents[0].seat"),
    (lambda r: r["incidents"][0].pop("reason"), "incidents[0].reason"),
    (lambda r: r["incidents"][0].__setitem__("reason", ["x"]), "incidents[0].reason"),
    (lambda r: r.__setitem__("incidents", {}), "incidents"),
    (lambda r: r["undone"][0].__setitem__("deal", 3), "undone[0].deal"),
    (lambda r: r["undone"][0].__setitem__("trick", "3"), "undone[0].trick"),
    (lambda r: r["undone"][0].__setitem__("cards", []), "undone[0].cards"),
    (lambda r: r["undone"][0].__setitem__("cards", ["2C", "2C"]), "undone[0].cards"),
    (lambda r: r["undone"][0]["incidents"][0].__setitem__("card", "XX"),
     "undone[0].incidents[0].card"),
    (lambda r: r["undone"][0].__setitem__("incidents", "none"), "undone[0].incidents"),
    (lambda r: r.__setitem__("undone", [1]), "undone[0]"),
    (lambda r: r["players"][1]["replaced"][0].__setitem__("deal", 2),
     "players[1].replaced[0].deal"),
    (lambda r: r["players"][1]["replaced"][0].__setitem__("trick", 0),
     "players[1].replaced[0].trick"),
    (lambda r: r["players"][1]["replaced"][0].pop("bot"), "players[1].replaced[0].bot"),
    (lambda r: r["players"][1]["replaced"][0].__setitem__("reason", None),
     "players[1].replaced[0].reason"),
    (lambda r: r["players"][1].__setitem__("replaced", {"bot": "x"}), "players[1].replaced"),
    (lambda r: r["players"][1].__setitem__("kind", "alien"), "players[1].kind"),
    (lambda r: r["players"][1].pop("kind"), "players[1].kind"),
    (lambda r: r["players"][1].__setitem__("bot", 7), "players[1].bot"),
    (lambda r: r["players"][2].__setitem__("name", 7), "players[2].name"),
    (lambda r: r["players"][2].__setitem__("name", "x" * 1001), "players[2].name"),
], ids=lambda x: x if isinstance(x, str) else "")
def test_a_record_outside_the_one_format_is_refused(change: Callable[[dict[str, Any]], Any],
                                                    where: str) -> None:
    """RECORDS.md: card codes are a capital rank then a capital suit, and the incidents, the
    plays taken back and the replaced bots are checked like every other field."""
    record = _with_incident()
    change(record)
    with pytest.raises(RecordError) as info:
        Game.from_record(record)
    assert info.value.where == where, str(info.value)


HOSTILE = "\x1b]0;owned\x07\x1b[2J\x00a\nb\r\u202ec\x9b\ud800"


def test_control_characters_in_a_record_are_read_as_their_escapes() -> None:
    """A name, a bot, a reason: nothing read from a record holds a character a terminal obeys;
    each is read as its escape, so the game is kept and shown as text."""
    from nil_tui.engine.records import CONTROL

    record = _with_incident()
    record["players"][1]["name"] = HOSTILE
    record["players"][1]["bot"] = HOSTILE
    record["players"][1]["replaced"][0]["reason"] = HOSTILE
    record["players"][1]["replaced"][0]["bot"] = HOSTILE
    record["incidents"][0]["reason"] = HOSTILE
    record["undone"][0]["incidents"][0]["reason"] = HOSTILE
    game = Game.from_record(record)
    texts = json.dumps(game.to_record(), ensure_ascii=False)
    assert not CONTROL.search(json.loads(texts)["players"][1]["name"])
    assert game.names[1] == "\\x1b]0;owned\\x07\\x1b[2J\\x00a\\nb\\r\\u202ec\\x9b\\ud800"
    for text in (game.players[1]["bot"], game.players[1]["replaced"][0]["reason"],
                 game.players[1]["replaced"][0]["bot"], game.incidents[0]["reason"],
                 game.undone[0]["incidents"][0]["reason"]):
        assert text == game.names[1]
    # Read again, the escaped text stays as it is.
    assert Game.from_record(through_json(game.to_record())).names[1] == game.names[1]


def test_the_reader_and_the_terminal_output_escape_the_same_characters() -> None:
    from nil_tui.engine.records import CONTROL
    from nil_tui.util.textsafe import UNSAFE_CLASS, one_line, unsafe

    assert CONTROL.pattern == UNSAFE_CLASS
    every = "".join(chr(c) for c in range(0x3000))
    assert {ch for ch in every if CONTROL.fullmatch(ch)} == {
        ch for ch in every if unsafe().fullmatch(ch)}
    assert not unsafe().search(one_line(every))
