"""What the table says, from the session's values alone: the log's line for each piece of
news, the status line on your turn and for a refusal, your seat's line with the meter, and
the middle of the table. Pure functions of a :class:`~nil_tui.session.messages.TableState`
(or a piece of news) and the card look: the table screen only puts them on its widgets."""

from __future__ import annotations

from rich.text import Text

from ...engine import SEAT_NAMES, Card, Cut, Suit, Trick
from ...session import game_session as gs
from ...session import words as said
from ...session.messages import Hint, MeterReading, Played, Refused, TableState, TrickTaken
from ..widgets.cards import CardLook
from ..widgets.seat import SeatInfo
from ..widgets.trick import TrickInfo
from ..words import SEAT_LABELS, Labels, count, percent, says, seat_subject, verb

TONES = {"": "", "trick": "bold", "deal": "bold cyan", "end": "bold", "undo": "bold magenta",
         "warn": "yellow", "note": "cyan", "resumed": "bold"}
"""How the log shows each tone of :class:`~nil_tui.session.words.Said`."""


def said_text(sentence: said.Said, look: CardLook) -> Text:
    """A sentence of the shared words as a log line: each card its coloured face, an aside
    faint, the whole in its tone's style."""
    line = Text(style=TONES.get(sentence.tone, ""))
    if sentence.tone == "warn":
        line.append("⚠ ")
    for part in sentence.parts:
        if isinstance(part, Card):
            line.append_text(look.styled(part))
        elif isinstance(part, said.Aside):
            line.append(str(part), style="dim")
        else:
            line.append(part)
    return line


def news_line(item: object, look: CardLook, labels: Labels = SEAT_LABELS) -> Text | None:
    """The log's line for a piece of news (None for news the log does not tell)."""
    if isinstance(item, gs.TableNote):
        return Text(item.text, style="yellow" if item.warn else "cyan") if item.text else None
    sentence = said.news(item, labels)
    return None if sentence is None else said_text(sentence, look)


def seat_title(state: TableState, seat: int, away: str = "") -> str:
    """Who plays a seat, under its name: the bot's level, or the person's name at a shared
    table (still their name while they are away, a bot playing for them or not: see
    :func:`away_words`)."""
    level = state.levels[seat]
    if level is None or away:
        return state.names[seat] if seat != state.seat else "you"
    return gs.level_title(level)


AWAY_WORDS = {"away": "away", "stand_in": "away, a bot plays"}


def away_words(away: str) -> str:
    """What a seat's box says of a person who is away at a shared table ("" when here): the
    table waits for them, or a bot plays for them until they are back."""
    return AWAY_WORDS.get(away, "")


def seat_info(state: TableState, seat: int, name: str, away: str, holding: bool) -> SeatInfo:
    """A seat's box (``away``: see :func:`away_words`); while a finished trick is held on
    show, nobody is to play or thinking."""
    to_move = None if holding else state.to_move
    taken = state.taken[seat]
    return SeatInfo(name=name, level=seat_title(state, seat, away), away=away_words(away),
                    cards=state.hand_sizes[seat], tricks=taken, clean=taken == 0,
                    dealer=state.dealer == seat, to_move=to_move == seat,
                    thinking=state.thinking == seat and not holding)


SHORT_LOG_ROWS = 24
"""Terminals this many rows high or fewer keep the short log: a trick on a line, the cards
only (who is no longer clean is in the seat boxes)."""


def short_card(item: Played, look: CardLook, labels: Labels = SEAT_LABELS, *,
               first: bool) -> Text:
    """A card in the short log: the trick's first with the initial of who led it ("W: 8♣"),
    the others after it in the order they were played (clockwise)."""
    line = Text(f"{labels[item.seat][:1]}: " if first else " ", style="dim")
    line.append_text(look.styled(item.card))
    return line


def short_trick_end(item: TrickTaken, labels: Labels = SEAT_LABELS) -> Text:
    """The end of a trick's line in the short log: to whom it went."""
    w = item.trick.winner
    return Text(f" → {'you' if labels[w] == 'You' else labels[w]}", style="bold")


def cut_line(cut: Cut, look: CardLook, labels: Labels = SEAT_LABELS) -> Text:
    """The log's line for the cut for the first dealer: each seat's card, each redraw of the
    seats tied lowest, who deals."""
    return said_text(said.cut(cut, labels), look)


def cut_trick(cut: Cut, labels: Labels = SEAT_LABELS) -> TrickInfo:
    """The cut as the middle of the table shows it: each seat's last card drawn, the dealer's
    marked (it drew lowest); a redraw is told in the log."""
    last = {seat: card for row in cut.draws for seat, card in enumerate(row)
            if card is not None}
    return TrickInfo(tuple(sorted(last.items())), cut.dealer,
                     f"Cut: {said.deals(cut.dealer, labels)}")


def deal_start_line(state: TableState, labels: Labels = SEAT_LABELS) -> Text:
    """The deal's first line in the log: its number, the dealer, who leads first."""
    first = state.plays[0].seat if state.plays else state.leader
    return said_text(said.deal_begun(state.deal_number, state.deals_planned, state.dealer,
                                     first, labels), CardLook())


def your_turn_text(state: TableState, look: CardLook) -> Text:
    """The status line on your turn: what you may play, and the keys."""
    text = Text("Your turn", style="bold")
    led = state.trick[0].suit if state.trick else None
    if led is None:
        text.append(": you lead")
    elif all(c.suit == led for c in state.legal):
        text.append(f": follow {look.suit_text(Suit(led))}")
    else:
        text.append(f": no {look.suit_text(Suit(led))}, play any card")
    text.append("   ←/→ choose, Enter plays", style="dim")
    return text


def refusal(refused: Refused, look: CardLook) -> tuple[str | Text, bool]:
    """The status line for an action refused, and whether it is a warning."""
    if refused.card is None:
        return refused.reason, True
    if refused.reason.startswith("Wait:"):
        return Text(refused.reason, style="dim"), False
    if refused.suit is not None:
        led = Suit(refused.suit)
        why = f"You must follow {look.suit_text(led)} ({led.label})."
    else:
        why = f"You cannot play {look.face(refused.card)}: {refused.reason}."
    return Text(why, style="bold"), True


def south_line(state: TableState, meter: MeterReading | None, home: int = 0) -> Text:
    """Your seat's line: "not saved" (first, where a notification never covers it), cards,
    tricks, clean or not, the meter."""
    cards, tricks = state.hand_sizes[state.seat], state.taken[state.seat]
    south = Text()
    south.append(f"You ({SEAT_NAMES[home]})", style="bold")
    if state.save_problem:  # first, left of where a notification is shown
        south.append("  ⚠ not saved", style="bold yellow")
    if state.dealer == state.seat:
        south.append("  dealer", style="dim")
    south.append(f"  {count(cards, 'card')}  {count(tricks, 'trick')}  ")
    if tricks == 0:
        south.append("● clean", style="bold green")
    else:
        south.append("○ taken", style="dim")
    if state.meter_on:
        south.append("  meter: ", style="dim")
        south.append(meter_text(tricks, meter), style="bold cyan")
    return south


def meter_text(tricks: int, reading: MeterReading | None) -> str:
    """What the meter shows: that you are no longer clean, "..." while it is estimated, a
    certainty as such ("clean 0%": every card you may play takes the trick; "clean 100%":
    the deal ended with you clean), and an estimate one way near the ends, whatever it
    rounds to: "clean <1%", "clean >99%" (an estimate is never a certainty)."""
    if tricks:
        return "not clean"
    if reading is None:
        return "clean ..."
    value = reading.chance
    if reading.certain:
        return f"clean {round(value * 100)}%"
    return f"clean {percent(min(max(value, 1e-9), 1 - 1e-9))}"


def trick_info(state: TableState, shown: Trick | None, peeking: bool,
               labels: Labels = SEAT_LABELS, cut: Cut | None = None) -> TrickInfo:
    """The middle of the table: the trick on show (just won, or the peek at the last one),
    else the trick being played with who led it, else the last trick won (it stays until
    the next card is played, at any speed) and who leads now; before the game's first card,
    the cut for the first dealer (``cut``) and who leads."""
    if shown is not None:
        cards = tuple((shown.player_of(k), c) for k, c in enumerate(shown.cards))
        w = shown.winner
        wins = says(w, "win", "wins", start=False, labels=labels)
        caption = f"{seat_subject(shown.leader, labels)} led, {wins}"
        if peeking:
            caption = f"Last trick, to {'you' if w == 0 else labels[w]}"
        return TrickInfo(cards, w, caption)
    trick, plays = state.trick, state.plays
    if trick:
        cards = tuple((p.seat, p.card) for p in plays[len(plays) - len(trick):])
        return TrickInfo(cards, None, f"{seat_subject(state.leader, labels)} led")
    if state.pace in ("deal_over", "game_over"):
        return TrickInfo((), None, "")
    if plays:
        w = state.leader  # the winner of the last trick leads
        cards = tuple((p.seat, p.card) for p in plays[-4:])
        return TrickInfo(cards, w,
                         f"{seat_subject(w, labels)} won it and {verb(w, 'lead', 'leads')}")
    if cut is not None and state.deal_number == 1:
        shown_cut = cut_trick(cut, labels)
        leads = says(state.leader, "lead", "leads", start=False, labels=labels)
        return shown_cut._replace(caption=f"{shown_cut.caption}; {leads}")
    return TrickInfo((), None, f"{says(state.leader, 'lead', 'leads', labels=labels)}")


def resumed_line(deal_number: int, deals_planned: int, help_used: str | None) -> Text:
    """The log's first line for a game resumed: where it is, and the help had so far."""
    return said_text(said.resumed(deal_number, deals_planned, help_used), CardLook())


def effect_text(effect: gs.ShowTrick | gs.ForcedSoon, look: CardLook,
                labels: Labels = SEAT_LABELS) -> Text:
    """The status line while a trick is on show, or while your only card waits to be played
    for you."""
    if isinstance(effect, gs.ForcedSoon):
        text = Text("Your only legal card: ", style="bold")
        text.append_text(look.styled(effect.card))
        text.append(" is played for you…", style="bold")
        return text
    takes = says(effect.trick.winner, "take", "takes", labels=labels)
    if effect.seconds is None:
        return Text(f"{takes} the trick. Press any key to go on.", style="bold")
    return Text(f"{takes} the trick; play goes on in a moment (any key: now).", style="dim")


def hint_lines(hint: Hint, look: CardLook, width: int, *, tall: bool,
               in_log: bool = True) -> tuple[Text, Text]:
    """A hint for the log (whole) and for the status line of ``width`` cells: whole when it
    fits (two rows when the terminal is ``tall``, a word may not fill a row to its end, else
    one), else the card and where the reason is: the log when it shows the hint whole
    (``in_log``), else a note of its own."""
    line = Text("Hint: ")
    line.append_text(look.styled(hint.card))
    short = line.copy()
    line.append(f" ({hint.reason})")
    width -= 2
    if line.cell_len > (2 * width - 12 if tall else width - 1):
        short.append(" (why: in the log)" if in_log else " (why: in the note)")
        return line, short
    return line, line.copy()
