"""A seat at a shared table as the table screen's session (nil_tui/net/remote.py): the values
turned so the seat is at the bottom, the table's pace, help refused, a lost link, and the
real table screen played by keys over a table served on loopback."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from tablehelp import served

from nil_tui.engine import Card, Game, Play, Trick
from nil_tui.game.options import PlayOptions
from nil_tui.net.client import TableClient
from nil_tui.net.link import SeatLink
from nil_tui.net.remote import REFUSALS, RemoteSession
from nil_tui.net.seen import turn_game, turn_news, turn_state
from nil_tui.session import game_session as gs
from nil_tui.session.messages import (
    AskHint,
    GoOn,
    PlayCard,
    Played,
    Refused,
    SetMeter,
    TableState,
    TrickTaken,
    Undo,
)
from nil_tui.session.table import TableConfig

BOTS = ("easy", "easy", "easy", "easy")


def _state(seat: int = 2, **changes: Any) -> TableState:
    hand = tuple(Card.parse(c) for c in ("2C", "3C", "4H"))
    base = TableState(
        seat=seat, names=("Ann", "West (easy)", "Bob", "East (easy)"),
        levels=(None, "easy", None, "easy"), deal_number=1, deals_planned=1, dealer=0,
        totals=(0, 1, 2, 3), hand=hand, legal=(), plays=(), to_move=1, turn=0,
        pace="bot_waits", thinking=1)
    return base._replace(**changes)


def test_the_table_is_turned_so_the_seat_is_at_the_bottom() -> None:
    state = turn_state(_state(seat=2), 2)
    assert state.seat == 0 and state.names[0] == "Bob" and state.names[2] == "Ann"
    assert state.totals == (2, 3, 0, 1)
    assert state.dealer == 2 and state.to_move == 3 and state.thinking == 3
    played = turn_news(Played(1, Card.parse("5S"), False), 2)
    assert played == Played(3, Card.parse("5S"), False)
    cards = tuple(Card.parse(c) for c in ("2S", "AS", "3S", "4S"))
    taken = turn_news(TrickTaken(Trick(1, cards, 2), True), 2)
    assert isinstance(taken, TrickTaken) and taken.trick == Trick(3, cards, 0)


class FakeClient:
    """A client whose table is a list of messages (None: the link is lost)."""

    def __init__(self, messages: list[Any], seat: int = 2) -> None:
        self.messages = messages
        self.seat = seat
        self.state: TableState | None = None
        self.sent: list[tuple[Any, int | None]] = []
        self.close_code = None
        self.record = None
        self.seats = None
        self.deals = None

    async def receive(self, timeout: float | None = None) -> Any:
        if not self.messages:
            await asyncio.sleep(3600)
        message = self.messages.pop(0)
        if isinstance(message, TableState):
            self.state = message
        return message

    async def act(self, action: Any, turn: int | None = None) -> int:
        self.sent.append((action, turn))
        return len(self.sent)


def _session(client: FakeClient, **options: Any) -> RemoteSession:
    look = PlayOptions(speed="instant", trick_pause="brief", auto_play=False)
    from dataclasses import replace

    return RemoteSession(SeatLink(client, _reconnected),  # type: ignore[arg-type]
                         replace(look, **options))


async def _reconnected() -> bool:
    return True


def test_undo_is_refused_at_a_shared_table_and_a_card_is_sent_once() -> None:
    async def main() -> None:
        mine = _state(pace="your_turn", to_move=2, thinking=None, turn=7,
                      legal=(Card.parse("2C"), Card.parse("3C")),
                      plays=(Play(1, Card.parse("9C"), False),), dealer=0)
        client = FakeClient([mine])
        session = _session(client)
        assert await session.ready()
        assert session.state().pace == "your_turn" and session.state().seat == 0
        assert session.act(Undo()) == [Refused("undo", "Undo is off at a shared table.")]
        assert session.help_refused("undo") == "Undo is off at a shared table."
        assert session.help_refused("hint") is None and REFUSALS == {"undo": REFUSALS["undo"]}
        assert not session.can_undo()
        refused = session.act(PlayCard(Card.parse("4H")))
        assert refused == [Refused("play", "it does not follow the suit led",
                                   Card.parse("4H"), 0)]
        assert session.act(PlayCard(Card.parse("2C"))) == []
        assert session.act(PlayCard(Card.parse("3C"))) == []  # one card a turn
        await asyncio.sleep(0)
        assert client.sent == [(PlayCard(Card.parse("2C")), 7)]

    asyncio.run(main())


def test_the_table_says_whose_card_it_waits_for_a_person_included() -> None:
    """The table's messages name only bots as thinking: while another person is to play, the
    screen must not keep saying "Your turn" (it said so after your card, at a shared table)."""
    async def main() -> None:
        waits = _state(to_move=0, thinking=None, pace="bot_waits", turn=3)  # Ann, a person
        client = FakeClient([waits])
        session = _session(client)
        assert await session.ready()
        assert session.thinking == 2  # Ann, turned: across the table from Bob
        session2 = _session(FakeClient([_state(to_move=2, thinking=None, pace="your_turn")]))
        assert await session2.ready()
        assert session2.thinking is None  # Bob's own turn

    asyncio.run(main())


def test_a_lost_link_is_said_and_the_seat_taken_back() -> None:
    async def main() -> None:
        client = FakeClient([_state(), None, None, _state(turn=1, to_move=3, thinking=3)])
        session = _session(client)
        assert await session.ready()
        lost = await session.pushed()
        assert lost is not None and isinstance(lost[0], gs.TableNote)
        assert lost[0].text == "Connection lost, rejoining..." and lost[0].status
        back = await session.pushed()
        assert back == [gs.TableNote("Back at the table.", status=True)]
        assert await session.pushed() == []  # a position drawn again
        assert session.state().to_move == 1  # East, turned: the seat to the left of North

    asyncio.run(main())


SEATS = {"type": "seats", "events": [{"kind": "away", "seat": 0, "wait": 60}],
         "seats": [{"seat": 0, "kind": "person", "name": "Ann", "present": False},
                   {"seat": 1, "kind": "bot", "name": "West"},
                   {"seat": 2, "kind": "person", "name": "Bob", "present": True},
                   {"seat": 3, "kind": "bot", "name": "East"}]}


async def _not_back() -> bool:
    return False


@pytest.mark.parametrize(("code", "back", "last"), [
    (4000, True, "This seat was taken from another terminal."),
    (1000, True, "You left the table: the same nil-tui join brings you back."),
    (None, False, ("The table could not be reached for 3 minutes: the same nil-tui join "
                   "brings you back.")),
])
def test_the_table_and_the_link_are_told_in_the_seats_words(code: int | None, back: bool,
                                                              last: str) -> None:
    """Who dropped (the true seat named), who is away (turned), a refusal, and how the link
    ended: taken from another terminal, left, or not reached again."""
    async def main() -> None:
        client = FakeClient([_state(), SEATS, {"type": "refused", "reason": "stale"}, None,
                             None])
        client.close_code = code
        link = SeatLink(client, _reconnected if back else _not_back)  # type: ignore[arg-type]
        session = RemoteSession(link, PlayOptions(speed="instant"))
        assert await session.ready()
        assert await session.pushed() == [gs.TableNote(
            "Ann (South) lost the link: the table waits for them 60 s, then a bot plays for "
            "them.", warn=True, status=True)]
        assert session.away == ("", "", "away", "")  # Ann, across the table from Bob
        assert await session.pushed() == [Refused("play", "The table refused: stale")]
        if code is None:
            assert await session.pushed() == [gs.TableNote("Connection lost, rejoining...",
                                                           warn=True, status=True)]
        assert await session.pushed() == [gs.TableNote(last, warn=True, status=True)]
        assert await session.pushed() is None

    asyncio.run(main())


def test_a_link_closed_once_the_record_came_ends_the_seat_quietly() -> None:
    async def main() -> None:
        client = FakeClient([_state(pace="game_over", to_move=None, thinking=None),
                             {"type": "record", "record": {"not": "a record"}}, None])
        session = _session(client)
        assert await session.ready()
        client.record = {"not": "a record"}  # (as a client keeps the record it read)
        assert await session.pushed() == [gs.GameFinished()]  # (it waited for the record)
        assert await session.pushed() is None

    asyncio.run(main())

async def _seated(invite: Any, seat: int, name: str) -> TableClient:
    client = TableClient(invite, name=name, seat=seat)
    await client.connect()
    return client


async def _play_through(session: RemoteSession, limit: int = 4000) -> list[Any]:
    """Carry out what the session says as a screen would (timers at once, the first legal
    card on each turn, on after each deal) until the game is over; what it said."""
    said: list[Any] = []
    out = session.start()
    for _ in range(limit):
        while out:
            item = out.pop(0)
            said.append(item)
            if isinstance(item, gs.Wait):
                out.extend(session.timer_done(item.token))
            elif isinstance(item, gs.YourTurn):
                out.extend(session.act(PlayCard(session.state().legal[0])))
            elif isinstance(item, gs.DealSummary):
                out.extend(session.act(GoOn()))
            elif isinstance(item, gs.GameFinished):
                return said
        more = await asyncio.wait_for(session.pushed(), 60)
        assert more is not None, said[-5:]
        out = more
    raise AssertionError("the game did not end")


def test_a_seat_at_north_plays_a_whole_game_through_the_session() -> None:
    kept: list[Game] = []

    async def main() -> None:
        async with served(TableConfig(deals=2, seed=11, bots=BOTS)) as table:
            client = await _seated(table.invite, 2, "Bob")
            await client.start()
            session = RemoteSession(SeatLink(client), PlayOptions(speed="fast", auto_play=True),
                                    on_finished=lambda g: kept.append(g) or None)
            assert await session.ready()
            said = await _play_through(session)
            assert any(isinstance(x, gs.DealSummary) for x in said)
            assert any(isinstance(x, gs.ShowTrick) for x in said)
            assert all(session.state().seat == 0 for _ in range(1))
            real = table.table.game
            assert real is not None and real.is_over
            assert kept and kept[0].to_record()["players"][0]["name"] == "Bob"
            turned = turn_game(real, 2)
            assert kept[0].totals == turned.totals == (real.totals[2], real.totals[3],
                                                        real.totals[0], real.totals[1])
            for mine, theirs in zip(kept[0].deals, real.deals):
                assert mine.dealt_hand(0) == theirs.dealt_hand(2)
                assert [p.card for p in mine.plays] == [p.card for p in theirs.plays]
            await client.close()

    asyncio.run(main())


@pytest.mark.parametrize("size", [(100, 32)])
@pytest.mark.slow
def test_the_table_screen_plays_a_shared_table_by_keys(size: tuple[int, int], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    from nil_tui.store import Store
    from nil_tui.tui.app import NilApp
    from nil_tui.tui.remote_table import show_remote_table
    from nil_tui.tui.screens.gameover import GameOverScreen
    from nil_tui.tui.screens.summary import SummaryScreen
    from nil_tui.tui.screens.table import TableScreen

    nil_home = tmp_path / "home"
    nil_home.mkdir()
    monkeypatch.setenv("NIL_TUI_HOME", str(nil_home))

    async def main() -> None:
        async with served(TableConfig(deals=2, seed=5, bots=BOTS)) as table:
            app = NilApp("history")
            async with app.run_test(size=size) as pilot:
                client = await _seated(table.invite, 1, "Wes")
                await client.start()
                app.home.options = PlayOptions(speed="fast", trick_pause="brief")
                show_remote_table(app, client, home=nil_home)
                seen_summary = False
                said: list[tuple[str, bool]] = []

                def listen(screen: TableScreen) -> None:
                    """Keep what the screen says on its status line (and say it)."""
                    shown = screen.status

                    def status(message: Any, warn: bool = False) -> None:
                        said.append((str(message), warn))
                        shown(message, warn)

                    screen.status = status  # type: ignore[method-assign]

                metered = False
                for _ in range(3000):
                    await pilot.pause(0.02)
                    screen = app.screen
                    if isinstance(screen, GameOverScreen):
                        break
                    if isinstance(screen, SummaryScreen):
                        seen_summary = True
                    if isinstance(screen, TableScreen) and not said:
                        listen(screen)
                        await pilot.press("u")
                        assert ("Undo is off at a shared table.", True) in said
                        assert not screen.check_action("undo", ())
                    # The meter's key on your first turn, no key pressed before it: nothing
                    # moves until you play (a key pressed while a trick is on show only puts
                    # the trick away, and Enter may have sent a card whose trick is coming).
                    if isinstance(screen, TableScreen) and not metered and \
                            screen.session.state().pace == "your_turn":
                        await pilot.press("m", "y")  # y: yes to the question before help
                        assert screen.session.meter_on and screen.session.state().assisted, (
                            said, app.screen, screen.session.state().pace)
                        metered = True
                    if isinstance(screen, (TableScreen, SummaryScreen)) and metered:
                        await pilot.press("enter")
                else:
                    raise AssertionError(f"no game over: {app.screen!r}")
                assert seen_summary and metered
                await client.close()
        store = Store.open(nil_home)
        try:
            history = store.history()
        finally:
            store.close()
        assert len(history) == 1
        # the meter this player turned on marks their own game assisted
        path = history[0].path
        assert path is not None and json.loads(path.read_text())["assists"] == ["meter"]

    asyncio.run(main())


@pytest.mark.parametrize("program", [True, False], ids=["join", "from-setup"])
@pytest.mark.slow
def test_game_over_at_a_shared_table_offers_leaving_it_not_a_game_against_bots(
        program: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At North: the seat line names the true seat, and at the end Enter leaves the table
    (the program ends, as for nil-tui join; a table joined from setup goes back to setup)
    where a game played here would start another."""
    from nil_tui.tui.app import NilApp
    from nil_tui.tui.remote_table import show_remote_table
    from nil_tui.tui.screens.gameover import GameOverScreen
    from nil_tui.tui.screens.setup import SetupScreen
    from nil_tui.tui.screens.table import TableScreen
    from nil_tui.tui.widgets.seat import Seat

    nil_home = tmp_path / "home"
    nil_home.mkdir()
    monkeypatch.setenv("NIL_TUI_HOME", str(nil_home))

    async def main() -> None:
        async with served(TableConfig(deals=1, seed=5, bots=BOTS)) as table:
            app = NilApp("history")
            app.together_exit = program  # type: ignore[attr-defined]  # as nil-tui join's
            async with app.run_test(size=(100, 32)) as pilot:
                client = await _seated(table.invite, 2, "Bob")
                await client.start()
                app.home.options = PlayOptions(speed="fast", trick_pause="brief")
                show_remote_table(app, client, home=nil_home)
                seat_line = ""
                for _ in range(3000):
                    await pilot.pause(0.02)
                    screen = app.screen
                    if isinstance(screen, GameOverScreen):
                        break
                    if (isinstance(screen, TableScreen) and not seat_line
                            and any(s.info for s in screen.query("#seat-1").results(Seat))):
                        seat_line = str(screen.query_one("#south").render())
                        left, across = (screen.query_one(f"#seat-{n}", Seat).info
                                        for n in (1, 2))
                        assert left is not None and across is not None
                        # East sits at your left and is called East, as the table names it.
                        assert (left.name, left.level) == ("East", "Easy")
                        assert across.name == "South" and "East" in client.state.names[3]
                    await pilot.press("enter")
                else:
                    raise AssertionError(f"no game over: {app.screen!r}")
                assert "You (North)" in seat_line, seat_line
                assert screen.labels == ("You", "East", "South", "West")
                standings = str(screen.query_one("#gameover-standings").render())
                assert "South" in standings and "North" not in standings, standings
                keys = str(screen.query_one("#gameover-keys").render())
                assert "leave the table" in keys and "new game" not in keys, keys
                assert not screen.check_action("again", ())
                for _ in range(10):  # the Enter that played the last card has had its moment
                    await pilot.pause(0.1)
                await pilot.press("enter")
                for _ in range(50):
                    if app.return_code is not None or isinstance(app.screen, SetupScreen):
                        break
                    await pilot.pause(0.05)
                if program:
                    assert app.return_code == 0
                else:
                    assert app.return_code is None and isinstance(app.screen, SetupScreen)
                    assert client.ws is None or client.ws.close_code is not None
                assert not any(isinstance(s, TableScreen) for s in app.screen_stack)

    asyncio.run(main())


def test_the_notes_of_the_table_name_the_true_seats() -> None:
    from nil_tui.net.link import seat_note

    seats = [{"name": "Ann"}, {"name": ""}, {"name": "Bob"}, {"name": "Cy"}]
    back = seat_note({"seat": 3, "kind": "back"}, {"seats": seats}, 2)  # heard at North
    assert back is not None and back.text == "Cy (East) is back at the table."
    joined = seat_note({"seat": 1, "kind": "joined"}, {"seats": seats}, 2)
    assert joined is not None and joined.text == "West sits down at West."
    # a person silent on their turn is not away: the table screen says what the lobby says
    silent = seat_note({"seat": 0, "kind": "stand_in", "bot": "normal", "why": "silent"},
                       {"seats": seats}, 2)
    assert silent is not None and silent.text == (
        "Ann (South) has not played for a while: a normal bot plays for them until they play "
        "again.")


def test_the_review_of_a_turned_game_names_the_true_seats() -> None:
    from nil_tui.tui.screens.review import ReviewScreen

    at_north = ReviewScreen(Game(1, seed=3), home=2)  # its seat 0 sits at North
    assert at_north.names == ("North", "East", "South", "West")
    assert ReviewScreen(Game(1, seed=3)).names == ("South", "West", "North", "East")


def test_a_seat_that_comes_back_mid_game_sees_the_deals_before_this_one() -> None:
    """Kim plays the first deal, drops in the second and comes back from a new terminal:
    her game so far (the scoreboard's deals, the review) holds the first deal with its points
    and totals before the record comes, and she was told no other seat's hand."""
    import random

    from nil_tui.net.client import play_scripted

    async def main() -> None:
        config = TableConfig(deals=2, seed=61, start_when=2, away_timeout=60, deal_pause=0.1)
        async with served(config) as s:
            ann, kim = TableClient(s.invite, name="Ann"), TableClient(s.invite, name="Kim")
            await ann.connect()
            await kim.connect()
            ann_game = asyncio.ensure_future(play_scripted(ann, random.Random(1)))
            rng, went_on = random.Random(2), 0
            for _ in range(2000):  # Kim: the first deal, then one card of the second
                message = await kim.receive(10)
                state = kim.state
                if not isinstance(message, TableState) or state is None:
                    continue
                if state.pace == "deal_over" and went_on < state.deal_number:
                    went_on = state.deal_number
                    await kim.go_on()
                if kim.my_turn():
                    await kim.play(rng.choice(state.legal), state.turn)
                    if state.deal_number == 2:
                        break
            await kim.close()
            assert s.table.game is not None and s.table.game.deal_number == 2
            first = s.table.game.deals[0]
            again = TableClient(s.invite, key=kim.key)
            await again.connect()
            session = RemoteSession(SeatLink(again), PlayOptions(speed="instant"))
            assert await session.ready()
            me = again.seat or 0
            game = session.game  # (no record yet: the game goes on)
            assert again.record is None and len(game.deals) == 2
            turned = tuple(first.points[(i + me) & 3] for i in range(4))
            assert game.deals[0].points == turned
            assert game.deals[0].is_over and not game.deals[1].is_over
            assert [p.card for p in game.deals[0].plays] == [p.card for p in first.plays]
            assert game.deals[0].dealt_hand(0) == first.dealt_hand(me)
            assert again.deals is not None
            told = again.deals["deals"]
            assert [d["deal_number"] for d in told] == [1]
            assert set(told[0]) == {"deal_number", "dealer", "plays", "hand"}
            assert told[0]["hand"] == [c.code for c in first.dealt_hand(me)]
            ann_game.cancel()
            await ann.close()
            await again.close()

    asyncio.run(main())


def test_a_seat_back_from_away_is_told_which_of_its_cards_a_bot_played() -> None:
    """The deal so far, told to a player who comes back after a bot stood in: the cards the
    bot played for them are said to be the bot's, as the others were told, not theirs."""
    import random

    from nil_tui.net.client import play_scripted
    from nil_tui.session.messages import BotFailed

    async def main() -> None:
        config = TableConfig(deals=1, seed=62, start_when=2, away_timeout=0.1)
        async with served(config) as s:
            ann, kim = TableClient(s.invite, name="Ann"), TableClient(s.invite, name="Kim")
            await ann.connect()
            await kim.connect()
            await kim.receive(10)
            await kim.close()  # Kim is gone before her first card
            ann_game = asyncio.ensure_future(play_scripted(ann, random.Random(1)))
            for _ in range(400):
                if s.table.game is not None and s.table.game.incidents:
                    break
                await asyncio.sleep(0.02)
            again = TableClient(s.invite, key=kim.key)
            await again.connect()
            session = RemoteSession(SeatLink(again), PlayOptions(speed="instant"))
            assert await session.ready()
            told = session.told_so_far()
            played_for = [n for n in told if isinstance(n, BotFailed)]
            assert played_for and all(n.seat == 0 and "Kim was away" in n.reason
                                      for n in played_for), told
            mine = [n for n in told if isinstance(n, Played) and n.seat == 0]
            assert {n.card for n in played_for} <= {n.card for n in mine}
            ann_game.cancel()
            await ann.close()
            await again.close()

    asyncio.run(main())


def test_the_scoreboard_of_a_turned_game_names_the_true_seats() -> None:
    from nil_tui.tui.screens.summary import ScoresScreen

    at_west = ScoresScreen(Game(2, seed=3), home=1)  # its seat 0 sits at West
    assert at_west.labels == ("You", "North", "East", "South")
    assert ScoresScreen(Game(2, seed=3)).labels == ("You", "West", "North", "East")


def test_the_log_tells_a_player_back_from_away_in_their_own_words() -> None:
    """A card a bot played for you while you were away is told to you as yours ("You were
    away"), not in the words the others read; any other reason keeps the table's words."""
    from nil_tui.session.messages import BotFailed
    from nil_tui.tui.screens.table_words import news_line
    from nil_tui.tui.widgets.cards import CardLook
    from nil_tui.tui.words import seat_labels

    look, labels = CardLook(), seat_labels(2)
    reason = "Kim was away: the normal bot played for them"
    card = Card.parse("7S")
    mine = news_line(BotFailed(0, card, reason), look, labels)
    theirs = news_line(BotFailed(3, card, reason), look, labels)
    other = news_line(BotFailed(0, card, "stopped answering (its process has ended)"), look,
                      labels)
    assert mine is not None and theirs is not None and other is not None
    assert mine.plain == "⚠ You were away: the normal bot played for you"
    assert theirs.plain == f"⚠ {labels[3]}: {reason}"
    assert other.plain == "⚠ You: stopped answering (its process has ended)"


def test_hints_and_the_meter_at_a_shared_table_are_the_players_own_and_kept() -> None:
    """A hint is worked out here from the seat's own view (nothing is sent to the table), and
    with the meter it makes this player's game assisted: said once, kept through the
    ``on_assist`` callback (with the seat key), given to the finished game, and brought back
    for a player who comes back."""
    from nil_tui.session import game_session as gs
    from nil_tui.session.messages import Hint, MeterReading

    async def main() -> None:
        mine = _state(pace="your_turn", to_move=2, thinking=None, turn=7,
                      legal=(Card.parse("2C"), Card.parse("3C")),
                      plays=(Play(1, Card.parse("9C"), False),), dealer=0)
        client = FakeClient([mine])
        kept: list[list[str]] = []
        session = RemoteSession(SeatLink(client, _reconnected),  # type: ignore[arg-type]
                                PlayOptions(speed="instant", auto_play=False),
                                on_assist=kept.append)
        assert await session.ready()
        assert session.begin() == [] and not session.state().assisted
        assert session.state().help_allowed and not session.meter_on
        out = session.act(AskHint())
        assert out[0] == gs.AssistedNow("Hint used")
        find = out[1]
        assert isinstance(find, gs.FindHint) and find.turn == 7
        assert find.view.seat == 0 and find.view.hand == session.state().hand
        assert session.hint_found(7, Card.parse("2C"), "why") == [Hint(7, Card.parse("2C"),
                                                                       "why")]
        assert session.hint_found(6, Card.parse("2C"), "why") == []  # a position gone
        out = session.act(SetMeter(True))  # assisted already: not said again
        assert [type(o) for o in out] == [gs.EstimateMeter]
        estimate = out[0]
        assert isinstance(estimate, gs.EstimateMeter)
        assert session.meter_estimated(estimate.key, 0.25) == [MeterReading(7, 0.25, False)]
        assert session.meter == MeterReading(7, 0.25, False) and session.meter_on
        state = session.state()
        assert state.assisted and state.meter_on and state.help_allowed
        assert session.help_used() == "hints and the meter"
        # (each time the help grows it is kept, for a player who comes back)
        assert kept == [["hint"], ["hint", "meter"]] and client.sent == []  # nothing goes to
        # the table
        assert session.act(SetMeter(False)) == [] and not session.meter_on

        off_turn = _state(pace="others_turn", to_move=1, thinking=None, turn=8, dealer=0)
        again = RemoteSession(SeatLink(FakeClient([off_turn]),  # type: ignore[arg-type]
                                       _reconnected), PlayOptions(meter=True), assists=["hint"])
        assert await again.ready()
        assert again.state().assisted and again.begin() == []  # assisted already
        assert again.act(AskHint()) == [Refused("hint", "A hint is for your turn.")]
        assert again.help_used() == "hints and the meter"

    asyncio.run(main())


def test_a_seat_keeps_its_help_with_its_key(tmp_path: Path) -> None:
    from nil_tui.net.keys import keep_assists, keep_key, kept_assists, parse_invite

    invite = parse_invite("nil://127.0.0.1:4711/abcdefghijklmnopqrstuvwxyz")
    keep_assists(tmp_path, invite, ["hint"])  # no key kept for this table: nothing kept
    assert kept_assists(tmp_path, invite) == []
    keep_key(tmp_path, invite, "key-1", 2)
    keep_assists(tmp_path, invite, ["hint", "meter"])
    keep_key(tmp_path, invite, "key-1", 2)  # seated again with the same key: kept
    assert kept_assists(tmp_path, invite) == ["hint", "meter"]
    keep_key(tmp_path, invite, "key-2", 1)  # another seat, another game's key: a fresh start
    assert kept_assists(tmp_path, invite) == []


def test_a_forced_card_let_go_under_another_screen_is_played_once_the_table_is_back() -> None:
    """As in a game played here: the only card of a seat at a shared table, due while another
    screen covered the table, is timed again when the table is back (it was never played, and
    the seat waited for a card nobody was asked for)."""
    async def main() -> None:
        only = Card.parse("2C")
        mine = _state(pace="your_turn", to_move=2, thinking=None, turn=7, legal=(only,))
        client = FakeClient([mine])
        session = _session(client, auto_play=True)
        assert await session.ready()
        started = session.start()
        assert gs.ForcedSoon(only) in started and session.state().pace == "forced"
        session.set_watching(False)  # the last trick, say, is looked at
        assert session.timer_done(("forced", 7)) == []
        back = session.set_watching(True)
        assert gs.ForcedSoon(only) in back
        waits = [o for o in back if isinstance(o, gs.Wait) and o.token[0] == "forced"]
        assert waits and session.timer_done(waits[0].token) == []
        await asyncio.sleep(0)
        assert client.sent == [(PlayCard(only), 7)]

    asyncio.run(main())
