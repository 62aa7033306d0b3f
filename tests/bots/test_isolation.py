"""A failing, cheating or stalling bot never stops the game, and a view leads to no hidden
card."""

from __future__ import annotations

import dataclasses
import random
import threading

import pytest

from nil_tui.bots import safety
from nil_tui.bots.safety import choose_safely, default_time_cap, fallback_card, set_time_cap
from nil_tui.engine import Card, Deal, PlayerView


def a_view(seed: int = 1, plays: int = 5) -> tuple[PlayerView, Deal]:
    rng = random.Random(seed)
    deal = Deal.new(0, rng)
    for _ in range(plays):
        deal.play(rng.choice(deal.legal_moves()))
    assert deal.to_move is not None
    return deal.view(deal.to_move), deal


class Raises:
    name = "Raiser"

    def choose(self, view: PlayerView) -> Card:
        raise RuntimeError("boom")


class Cheats:
    name = "Cheat"

    def __init__(self, answer: object) -> None:
        self.answer = answer

    def choose(self, view: PlayerView) -> object:
        return self.answer


class Stalls:
    name = "Sleeper"

    def __init__(self) -> None:
        self.release = threading.Event()

    def choose(self, view: PlayerView) -> Card:
        self.release.wait(5)
        return view.legal[-1]


@pytest.mark.parametrize("cap", [None, 5.0])
def test_a_bot_that_raises_gets_its_lowest_legal_card(cap: float | None) -> None:
    view, _ = a_view()
    choice = choose_safely(Raises(), view, cap)
    assert choice.card == fallback_card(view) == min(view.legal, key=lambda c: (c.rank, c.suit))
    assert choice.incident is not None and "Raiser failed" in choice.incident
    assert "boom" in choice.incident


@pytest.mark.parametrize("cap", [None, 5.0])
def test_a_bot_that_answers_an_illegal_card_gets_its_lowest_legal_card(cap: float | None
                                                                       ) -> None:
    view, deal = a_view()
    other = next(c for c in deal.hand((view.seat + 1) & 3))  # someone else's card
    for answer in (other, "not a card", None, 42):
        choice = choose_safely(Cheats(answer), view, cap)
        assert choice.card == fallback_card(view)
        assert choice.incident is not None and "not a legal card" in choice.incident
    good = choose_safely(Cheats(str(view.legal[-1])), view, cap)  # a code is accepted
    assert good.card == view.legal[-1] and good.incident is None


def test_a_bot_that_stalls_is_cut_off_at_the_cap() -> None:
    class StallsUntilReleased(Stalls):
        """Answers only when the test lets it: a card played before then was cut off."""

        def __init__(self) -> None:
            super().__init__()
            self.answered = threading.Event()

        def choose(self, view: PlayerView) -> Card:
            self.release.wait(120)
            self.answered.set()
            return view.legal[-1]

    view, _ = a_view()
    bot = StallsUntilReleased()
    choice = choose_safely(bot, view, 0.2)
    assert not bot.answered.is_set()  # the cap ended the wait, not the bot
    bot.release.set()
    assert choice.card == fallback_card(view)
    assert choice.incident is not None and "longer than 0.2 s" in choice.incident


def test_the_cap_is_configurable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(safety.TIME_CAP_ENV, raising=False)
    assert default_time_cap() == safety.DEFAULT_TIME_CAP == 10.0
    monkeypatch.setenv(safety.TIME_CAP_ENV, "0.25")
    assert default_time_cap() == 0.25
    view, _ = a_view()
    bot = Stalls()
    choice = choose_safely(bot, view)  # no cap given: the configured one applies
    bot.release.set()
    assert choice.incident is not None and "longer than 0.25 s" in choice.incident
    monkeypatch.setenv(safety.TIME_CAP_ENV, "soon")  # nonsense is ignored
    assert default_time_cap() == 10.0
    try:
        set_time_cap(3)
        assert default_time_cap() == 3.0
        with pytest.raises(ValueError, match="positive number of seconds"):
            set_time_cap(-1)
    finally:
        set_time_cap(None)
    assert default_time_cap() == 10.0


def _walk(obj: object, seen: set[int], found: list[object]) -> None:
    if id(obj) in seen:
        return
    seen.add(id(obj))
    found.append(obj)
    if isinstance(obj, (str, bytes, int, float, bool, type(None))):
        return
    if isinstance(obj, dict):
        for k, v in obj.items():
            _walk(k, seen, found)
            _walk(v, seen, found)
        return
    if isinstance(obj, (tuple, list, set, frozenset)):
        for item in obj:
            _walk(item, seen, found)
        return
    if isinstance(obj, Card):
        return
    names: set[str] = set()
    if dataclasses.is_dataclass(obj):
        names |= {f.name for f in dataclasses.fields(obj)}
    for klass in type(obj).__mro__:
        names |= set(getattr(klass, "__slots__", ()))
    names |= set(getattr(obj, "__dict__", {}))
    for name in names:
        if hasattr(obj, name):
            _walk(getattr(obj, name), seen, found)


def test_a_view_has_no_path_to_hidden_cards() -> None:
    for seed in range(20):
        view, deal = a_view(seed, plays=seed % 13 + 1)
        found: list[object] = []
        _walk(view, set(), found)
        assert not any(isinstance(x, Deal) for x in found)
        cards = {x for x in found if isinstance(x, Card)}
        visible = set(view.hand) | set(view.played)
        assert cards <= visible, cards - visible
        # every other seat's unplayed cards stay out of reach
        hidden = {c for s in range(4) if s != view.seat for c in deal.hand(s)}
        assert not cards & hidden
        with pytest.raises(dataclasses.FrozenInstanceError):
            view.hand = ()  # type: ignore[misc]


# --- players: built-in levels in the calling thread -------------------------------------------
@pytest.fixture
def test_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    from nil_tui.bots import LEVELS, Level

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "plugins"))
    for name in ("Recorder", "Capped", "Cheater", "Raiser", "Seer"):
        monkeypatch.setitem(LEVELS, name.lower(),
                            Level(name.lower(), name, "", f"nil_levels:{name}"))


def test_every_level_opens_as_a_built_in_player() -> None:
    from nil_tui.bots import HIDDEN, LEVELS, BotPlayer, open_player

    for spec in (*LEVELS, *HIDDEN):
        player = open_player(spec, 1)
        assert isinstance(player, BotPlayer) and player.builtin and player.spec == spec
        assert player.name == make_level_name(spec)
        player.close()
        player.close()


def make_level_name(spec: str) -> str:
    from nil_tui.bots import make_bot

    return str(make_bot(spec, seed=1).name)


def test_a_built_in_level_is_asked_in_the_calling_thread(test_levels: None) -> None:
    import nil_levels

    from nil_tui.bots import open_player

    nil_levels.Recorder.threads.clear()
    view, _ = a_view()
    player = open_player("recorder", 1, time_cap=5.0)
    before = threading.active_count()
    choice = player.decide(view)
    assert choice.card == view.legal[-1] and choice.incident is None
    assert nil_levels.Recorder.threads == [threading.get_ident()]
    assert threading.active_count() == before


def test_a_safety_cap_that_fires_is_an_incident_with_the_bots_own_card(test_levels: None
                                                                        ) -> None:
    from nil_tui.bots import open_player

    view, _ = a_view()
    player = open_player("capped", 1, time_cap=3.0)
    assert player._bot.safety_cap == 3.0  # type: ignore[attr-defined]
    choice = player.decide(view)
    assert choice.card == view.legal[-1]
    assert choice.incident == (f"Capped reached its safety cap of 3 s; its best card so far "
                               f"({view.legal[-1]}) was played")


def test_a_built_in_bot_that_rewrites_its_view_or_raises_gets_its_lowest_card(
        test_levels: None) -> None:
    from nil_tui.bots import open_player

    view, deal = a_view(3)
    lowest = fallback_card(view)
    cheat = open_player("cheater", 1).decide(view)
    assert cheat.card == lowest and cheat.incident is not None
    assert "not a legal card" in cheat.incident
    deal.play(cheat.card)  # the engine takes it: it is in the hand
    view, _ = a_view(4)
    failed = open_player("raiser", 1).decide(view)
    assert failed.card == fallback_card(view) and failed.incident is not None
    assert failed.incident.startswith("Raiser failed (RuntimeError: boom")
    assert len(failed.incident) <= 300


def test_the_whole_deal_is_offered_only_to_a_built_in_bot_that_asks_for_it(
        test_levels: None) -> None:
    from nil_tui.bots import open_player

    view, deal = a_view(5)
    import nil_levels

    nil_levels.Seer.seen.clear()
    seer = open_player("seer", 1)
    assert seer.decide(view).card == view.legal[0]  # no deal offered: its plain choice
    assert seer.decide(view, deal.copy).card == view.legal[-1]
    assert len(nil_levels.Seer.seen) == 1 and nil_levels.Seer.seen[0] is not deal
    assert open_player("recorder", 1).decide(view, deal.copy).incident is None


def test_a_bad_spec_is_one_clear_line() -> None:
    from nil_tui.bots import BotSpecError, open_player

    for spec in ("", "   ", "nil_tui.bots.easy:"):
        with pytest.raises(BotSpecError) as info:
            open_player(spec, 1)
        assert "\n" not in str(info.value)
