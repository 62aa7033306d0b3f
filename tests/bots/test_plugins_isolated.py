"""A plugin bot plays from a process of its own: it reaches nothing of the game, and nothing it
does (cheat, hang, crash, exit, print, answer nonsense) stops or corrupts the game."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from nil_tui.bots import (
    BotMissing,
    BotPlayer,
    BotSpecError,
    check_spec,
    make_bot,
    open_player,
    seat_seed,
)
from nil_tui.bots.safety import fallback_card
from nil_tui.engine import Game, PlayerView

PLUGINS = Path(__file__).resolve().parents[1] / "plugins"


@pytest.fixture(autouse=True)
def plugins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    monkeypatch.syspath_prepend(str(PLUGINS))
    monkeypatch.setenv("NIL_TUI_HOME", str(tmp_path / "home"))
    yield


def play(specs: list[str], *, seed: int = 11, deals: int = 1, time_cap: float | None = 20.0,
         perfect: bool = False) -> tuple[Game, list[BotPlayer]]:
    """A game between bots, played the way the game's driver plays it: one player per seat,
    the view copied before the bot sees it, every incident recorded."""
    players = [open_player(spec, seat_seed(seed, k), time_cap=time_cap)
               for k, spec in enumerate(specs)]
    game = Game(deals_planned=deals, seed=seed)
    try:
        while True:
            deal = game.deal
            while not deal.is_over:
                seat = deal.to_move
                assert seat is not None
                view = deal.view(seat)
                legal = view.legal
                choice = players[seat].decide(view, deal.copy if perfect else None)
                assert choice.card in legal
                if choice.incident is not None:
                    assert len(choice.incident) <= 300 and "\n" not in choice.incident
                    game.record_incident(seat, choice.card, choice.incident)
                game.play(choice.card)
            if game.is_over:
                break
            game.next_deal()
    finally:
        for p in players:
            p.close()
    return game, players


def incidents(game: Game, seat: int) -> list[str]:
    return [str(i["reason"]) for i in game.incidents if i["seat"] == seat]


def test_a_spying_plugin_finds_no_deal_no_game_and_no_hidden_card(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "spy.jsonl"
    monkeypatch.setenv("NIL_TUI_SPY_OUT", str(out))
    play(["easy", "nil_spy:Spy", "normal", "nil_spy:Spy"], deals=2, seed=5)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) >= 10  # it did look, at many decisions, from both seats
    assert {d["seat"] for d in lines} == {1, 3}
    assert [d["findings"] for d in lines if d["findings"]] == []
    assert os.getpid() not in {d["pid"] for d in lines}


def test_the_same_spy_run_in_the_game_process_finds_the_deal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The spy works: in the game's own process (as plugins ran before), it finds the deal.
    out = tmp_path / "spy.jsonl"
    monkeypatch.setenv("NIL_TUI_SPY_OUT", str(out))
    spy = make_bot("nil_spy:Spy", seed=1)
    game = Game(deals_planned=1, seed=5)
    while game.deal.to_move != 1:
        game.play(game.deal.legal_moves()[0])
    game.play(spy.choose(game.deal.view(1)))
    found = json.loads(out.read_text().splitlines()[0])["findings"]
    assert {"found": "Deal", "where": "gc"} in found


def test_a_plugin_that_rewrites_its_view_gets_its_lowest_legal_card() -> None:
    game, players = play(["nil_hostile:Mutator", "easy", "easy", "easy"], seed=3)
    texts = incidents(game, 0)
    assert texts and all("Mutator chose" in t and "not a legal card" in t for t in texts)
    assert game.deals[0].is_over and players[0].name == "Mutator"


def test_a_plugin_that_hangs_is_stopped_and_a_fresh_process_plays_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "pids.txt"
    monkeypatch.setenv("NIL_TUI_HANGER_OUT", str(out))
    player = open_player("nil_hostile:Hanger", 1, time_cap=1.0)
    game = Game(deals_planned=1, seed=4)
    try:
        while game.deal.to_move != 2:
            game.play(game.deal.legal_moves()[0])
        first = player.decide(game.deal.view(2))
        assert first.incident is not None and "took longer than 1 s" in first.incident
        assert first.card == fallback_card(game.deal.view(2))
        game.play(first.card)
        hung = out.read_text().split()[0]
        for _ in range(200):  # the hung process is gone
            if not _alive(hung):
                break
            time.sleep(0.05)
        assert not _alive(hung)
        while game.deal.to_move != 2:
            game.play(game.deal.legal_moves()[0])
        second = player.decide(game.deal.view(2))
        assert second.incident is None
        marks = [line.split()[0] for line in out.read_text().splitlines()]
        assert len(marks) == 2 and marks[1] != hung
    finally:
        player.close()


def _alive(mark: str) -> bool:
    """Whether the process that left this mark (see tests/plugins/nil_marks.py), or a child
    of it, is still alive."""
    from nil_marks import alive

    return alive(mark)


@pytest.mark.parametrize(("spec", "words"), [
    ("nil_hostile:ReprRaiser", "ReprRaiser chose a _Unprintable object, which is not a legal"),
    ("nil_hostile:ErrorStrRaiser", "ErrorStrRaiser failed (_BadError)"),
    ("nil_hostile:Exiter", "Exiter failed ("),
    ("nil_hostile:HugeRepr", "chose xxxxxxxx"),
    ("nil_hostile:Crasher", "Crasher stopped answering"),
])
def test_every_failure_of_a_plugin_is_a_short_incident_and_the_lowest_card(
        spec: str, words: str) -> None:
    game, _ = play([spec, "easy", "easy", "easy"], seed=8)
    texts = incidents(game, 0)
    assert texts and any(words in t for t in texts), texts
    assert all(len(t) <= 300 and "\n" not in t for t in texts)
    if spec.endswith("Exiter"):
        assert {t.split("(")[1].split(":")[0] for t in texts} == {
            "SystemExit", "KeyboardInterrupt", "BaseException"}
    if spec.endswith("Crasher"):  # only its first decision failed: a new process went on
        assert len(texts) == 1


def test_a_name_that_raises_or_is_absurd_never_escapes() -> None:
    bad = open_player("nil_hostile:BadName", 1)
    huge = open_player("nil_hostile:HugeRepr", 1)
    try:
        assert bad.name == "BadName"
        assert len(huge.name) <= 40 and "\n" not in huge.name and "\x1b" not in huge.name
    finally:
        bad.close()
        huge.close()
    game, _ = play(["nil_hostile:BadName", "easy", "easy", "easy"], seed=2)
    assert incidents(game, 0) == []


def test_printing_does_not_disturb_the_game_and_goes_to_the_log(tmp_path: Path) -> None:
    game, _ = play(["nil_hostile:Printer", "easy", "easy", "easy"], seed=9)
    assert incidents(game, 0) == []
    log = (tmp_path / "home" / "plugins.log").read_text()
    assert "garbage on fd 1" in log and "printer to stderr" in log
    assert "hello from the printer's constructor" in log


def test_a_plugin_is_never_offered_the_whole_deal(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "perfect.txt"
    monkeypatch.setenv("NIL_TUI_PERFECT_OUT", str(out))
    game, _ = play(["nil_hostile:Perfect", "oracle", "easy", "easy"], seed=6, perfect=True)
    assert incidents(game, 0) == [] and not out.exists()


def test_closing_twice_is_harmless_and_a_closed_player_still_answers() -> None:
    player = open_player("nil_hostile:Trivial", 1)
    player.close()
    player.close()
    game = Game(deals_planned=1, seed=1)
    view = game.deal.view(game.deal.to_move or 0)
    choice = player.decide(view)
    assert choice.card in view.legal and choice.incident is not None


def test_a_plugin_whose_module_is_gone_is_missing_not_broken(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "nil_gone_soon.py").write_text(
        "class Bot:\n    name = 'Soon'\n    def __init__(self, seed=0): pass\n"
        "    def choose(self, view): return view.legal[0]\n")
    with monkeypatch.context() as m:
        m.syspath_prepend(str(folder))
        check_spec("nil_gone_soon:Bot")
        open_player("nil_gone_soon:Bot", 1).close()
    (folder / "nil_gone_soon.py").unlink()  # uninstalled, or its path no longer given
    for spec in ("nil_gone_soon:Bot", "nil_no_such_plugin"):
        with pytest.raises(BotMissing, match="not installed|no installed plugin") as info:
            open_player(spec, 1)
        assert "\n" not in str(info.value)
        with pytest.raises(BotMissing):
            check_spec(spec)


@pytest.mark.parametrize(("spec", "words"), [
    ("nil_broken_import:Bot", "this plugin is broken"),
    ("nil_needs_missing:Bot", "nil_tui_no_such_dependency"),
    ("nil_hostile:Nothing", "has no 'Nothing'"),
    ("json:dumps", "creating the bot failed"),
    ("nil_hostile:", "expected 'package.module:Name'"),
])
def test_a_broken_plugin_is_a_clear_error_not_a_missing_one(spec: str, words: str) -> None:
    for attempt in (lambda: open_player(spec, 1), lambda: check_spec(spec)):
        with pytest.raises(BotSpecError, match=words) as info:
            attempt()
        assert not isinstance(info.value, BotMissing)
        assert "\n" not in str(info.value)


def test_a_plugin_plays_the_same_cards_as_the_same_bot_built_in() -> None:
    game, _ = play(["nil_hostile:Trivial"] * 4, seed=12, deals=2)
    again = Game(deals_planned=2, seed=12)
    while not again.is_over:
        while not again.deal.is_over:
            view: PlayerView = again.deal.view(again.deal.to_move or 0)
            again.play(view.legal[0])
        if not again.is_over:
            again.next_deal()
    assert game.to_record()["deals"] == again.to_record()["deals"]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_process_does_not_share_the_plugin_processes_it_inherits() -> None:
    from nil_tui.bots import players as players_module

    open_player("nil_hostile:Trivial", 1).close()  # a host waits in the pool
    assert any(players_module._IDLE.values())
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # a simulate job forked from this process
        os.write(write, b"1" if not players_module._IDLE and not players_module._LIVE else b"0")
        os._exit(0)
    os.waitpid(pid, 0)
    assert os.read(read, 1) == b"1"
    os.close(read)
    os.close(write)
    game, _ = play(["nil_hostile:Trivial", "easy", "easy", "easy"], seed=1)
    assert incidents(game, 0) == []


def test_a_plugin_that_keeps_failing_is_left_out_of_the_rest_of_the_game() -> None:
    from nil_tui.bots.players import MAX_RESTARTS

    game, _ = play(["nil_hostile:Crasher", "easy", "easy", "easy"], seed=8, deals=8)
    texts = incidents(game, 0)
    stopped = [t for t in texts if "stopped answering" in t]
    out = [t for t in texts if "could not be started again" in t]
    assert len(stopped) == MAX_RESTARTS + 1 and out
    assert all(f"it stopped {MAX_RESTARTS + 1} times in this game" in t for t in out)
    assert texts.index(out[0]) > texts.index(stopped[-1])


def test_the_processes_kept_for_later_games_are_few(monkeypatch: pytest.MonkeyPatch) -> None:
    from nil_tui.bots import players as players_module

    for k in range(players_module._POOL_LIMIT + 2):
        monkeypatch.setenv("NIL_TUI_TEST_ROUND", str(k))  # a new environment: a new process
        open_player("nil_hostile:Trivial", k).close()
    kept = [h for hosts in players_module._IDLE.values() for h in hosts]
    assert len(kept) == players_module._POOL_LIMIT
    assert all(h.proc.poll() is None for h in kept)
    players_module.shutdown()
    assert not players_module._LIVE and all(h.proc.poll() is not None for h in kept)


def test_closing_a_player_while_it_thinks_ends_its_process(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    import threading

    from nil_tui.bots import players as players_module

    out = tmp_path / "pids.txt"
    monkeypatch.setenv("NIL_TUI_HANGER_OUT", str(out))
    before = {id(h) for hosts in players_module._IDLE.values() for h in hosts}
    player = open_player("nil_hostile:Hanger", 1, time_cap=None)  # would wait for ever
    game = Game(deals_planned=1, seed=4)
    view = game.deal.view(game.deal.to_move or 0)

    def close_when_it_thinks() -> None:
        # it thinks once its mark is written whole (the file exists a moment before that)
        while not (out.exists() and out.read_text().endswith("\n")):
            time.sleep(0.01)
        player.close()

    closer = threading.Thread(target=close_when_it_thinks)
    closer.start()
    choice = player.decide(view)
    closer.join()
    assert choice.card == fallback_card(view) and choice.incident is not None
    hung = out.read_text().split()[0]
    for _ in range(200):
        if not _alive(hung):
            break
        time.sleep(0.05)
    assert not _alive(hung)
    kept = {id(h) for hosts in players_module._IDLE.values() for h in hosts}
    assert kept <= before  # its process was not kept for another game


def test_the_view_a_plugin_receives_is_the_view_of_the_game() -> None:
    import random

    from nil_tui.bots import plugin_wire
    from nil_tui.engine import Deal

    encoder, decoder = plugin_wire.Encoder(), plugin_wire.Decoder()
    rng = random.Random(3)
    views = []
    for number in range(1, 4):
        deal = Deal.new(rng.randrange(4), rng)
        while not deal.is_over:
            views += [deal.view(seat) for seat in range(4)]  # whose turn it is, and not
            deal.play(rng.choice(deal.legal_moves()))
        views += [deal.view(seat) for seat in range(4)]
        views.append(views[5 * number])  # back to an earlier position
    for n, view in enumerate(views):
        message = encoder.decide(n, view)
        assert decoder.decide(message[4:]) == (n, view)
        assert plugin_wire.decode_view(plugin_wire.encode_view(view)) == view
    assert any(v.to_move is None for v in views) and any(not v.legal for v in views)


def test_what_is_not_a_decision_is_rejected_by_the_plugins_process() -> None:
    import random

    from nil_tui.bots import plugin_wire
    from nil_tui.engine import Deal

    deal = Deal.new(0, random.Random(1))
    good = plugin_wire.encode_view(deal.view(deal.to_move or 0))
    bad_card = bytearray(good)
    bad_card[-1] = 52  # no such card
    for message in (good[:-1], good + b"\0", bytes(bad_card), plugin_wire.dump(plugin_wire.END),
                    good[:4] + plugin_wire.CARD + good[5:]):
        with pytest.raises(ValueError):
            plugin_wire.decode_view(message)
    with pytest.raises(ValueError):
        plugin_wire.split(b"\0\0\0\0d")  # an empty message
    with pytest.raises(ValueError):
        plugin_wire.split((plugin_wire.MAX_MESSAGE + 1).to_bytes(4, "little"))
    assert plugin_wire.split(good[:7]) == (None, good[:7])
    assert plugin_wire.split(good + good[:3]) == (good[4:], good[:3])


def test_every_game_gets_a_fresh_process_though_the_next_one_is_forked_early(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "games.txt"
    (tmp_path / "nil_counter.py").write_text(
        "import os\n"
        "from nil_marks import mark\n"
        "BUILT = []\n"
        "class Counter:\n"
        "    name = 'Counter'\n"
        "    def __init__(self, seed=0):\n"
        "        BUILT.append(seed)\n"
        f"        with open({str(out)!r}, 'a') as f:\n"
        f"            f.write(mark({str(tmp_path)!r}) + f' {{len(BUILT)}}\\n')\n"
        "    def choose(self, view):\n"
        "        return view.legal[-1]\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    for seed in range(4):
        game, _ = play(["nil_counter:Counter", "easy", "easy", "easy"], seed=seed)
        assert incidents(game, 0) == []
    rows = [line.split() for line in out.read_text().splitlines()]
    assert len(rows) == 4 and len({pid for pid, _ in rows}) == 4
    assert {built for _, built in rows} == {"1"}  # nothing of an earlier game in memory
    for mark, _ in rows:
        for _ in range(200):  # each game's process is gone (the last one's once it ends)
            if not _alive(mark):
                break
            time.sleep(0.05)
        assert not _alive(mark)
