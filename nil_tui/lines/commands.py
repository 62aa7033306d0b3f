"""The command line's ``--text`` forms: the games played in lines (:mod:`.start`), and
history, statistics, a game's replay and the rules said in lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..session import words
from ..util.textsafe import one_line
from .cards import CardWords
from .start import challenge, play, resume, setup, write_line

if TYPE_CHECKING:
    from ..analysis.model import DealAnalysis
    from ..engine import Game


def replay_lines(game: Game, cards: CardWords | None = None) -> list[str]:
    """Every card of a game, deal by deal, in the words of the table's log (South named by
    the seat's name: a record may be anyone's)."""
    from ..engine import SEAT_NAMES

    cards = cards or CardWords()
    labels: words.Labels = (SEAT_NAMES[0], SEAT_NAMES[1], SEAT_NAMES[2], SEAT_NAMES[3])
    out: list[str] = []
    if game.cut is not None:
        out.append(words.cut(game.cut, labels).text(cards.card))
    for number, deal in enumerate(game.deals, 1):
        first = deal.plays[0].seat if deal.plays else (deal.dealer + 1) & 3
        out.append(words.deal_begun(number, game.deals_planned, deal.dealer, first,
                                    labels).text(cards.card))
        for seat in range(4):
            out.append(f"{SEAT_NAMES[seat]} was dealt: {cards.by_suit(deal.dealt_hand(seat))}.")
        taken = [0, 0, 0, 0]
        for k, done in enumerate(deal.plays):
            out.append(words.played(done.seat, done.card, done.forced, labels)
                       .text(cards.card))
            if k % 4 == 3:
                trick = deal.tricks[k // 4]
                w = trick.winner
                first_for = taken[w] == 0
                taken[w] += 1
                out.append(words.trick_won(w, trick.card_of(w), first_for, labels)
                           .text(cards.card) + ". " + words.still_clean(taken, labels))
        if deal.is_over:
            out.append(words.deal_over(number, deal.taken, deal.points, deal.rule, labels)
                       .text(cards.card))
    totals = ", ".join(f"{SEAT_NAMES[s]} {t}" for s, t in enumerate(game.totals))
    out.append(f"Scores: {totals}." + (" The game is over." if game.is_over else ""))
    return out


def replay(game: Game, cards: str = "words") -> int:
    """``nil-tui replay FILE --text``."""
    for line in replay_lines(game, CardWords(cards)):
        write_line(one_line(line))
    return 0


def analysis_lines(game: Game, seat: int, analyses: list[DealAnalysis], you: bool,
                   cards: CardWords | None = None) -> list[str]:
    """``nil-tui analyse --text``: the analysis as lines, one per card played (no table to
    read across): the card, the best card and the cost, the expected points of each card."""
    from ..analysis.words import deal_headline
    from ..engine import SEAT_NAMES

    cards = cards or CardWords()
    out: list[str] = []
    for a in analyses:
        out.append(deal_headline(game, a, you))
        costly = a.costly()
        subject = None if you else SEAT_NAMES[seat]
        out += [d.sentence(ascii=True, subject=subject) for d in costly]
        if a.decisions and not costly:
            out.append("No play cost 0.1 points or more.")
        for d in a.decisions:
            played = cards.card(d.played)
            if d.forced:
                out.append(f"Trick {d.trick}: {played}, {d.no_choice or 'no choice'}.")
                continue
            options = ", ".join(f"{cards.card(o.card)} {o.points:.2f}" for o in d.options)
            out.append(f"Trick {d.trick}: {played}; best {cards.card(d.best)}; cost "
                       f"{d.cost:.2f}, give or take {d.cost_se:.2f}. Expected points: "
                       f"{options}.")
        out.append(f"Cost of the plays in deal {a.deal}: {a.total_cost:.2f} points.")
    return out


def history_lines() -> list[str]:
    from ..session.home import open_store

    store = open_store()
    try:
        rows = store.history()
    finally:
        store.close()
    if not rows:
        return ["No game in history yet."]
    out = [f"{words.count(len(rows), 'game')} in history, newest first:"]
    for n, row in enumerate(rows, 1):
        kind = f"daily challenge {row.challenge}" if row.challenge else row.difficulty
        totals = ", ".join(str(t) for t in row.totals)
        state = "finished" if row.finished else "unfinished"
        out.append(one_line(f"{n}. {row.finished_at[:16]}, {kind}, {state}, "
                            f"{words.count(row.deals, 'deal')}: {row.result}; "
                            f"scores {totals}."))
    return out


def stats_lines() -> list[str]:
    from ..session.home import open_store

    store = open_store()
    try:
        stats = store.stats()
    finally:
        store.close()
    every = stats.overall
    if not every.games:
        return ["No finished game yet."]

    def shares(name: str, s: object) -> str:
        from ..store.rows import Shares

        assert isinstance(s, Shares)
        return (f"{name}: {words.count(s.games, 'game')}, {s.lost} lost; "
                f"{words.count(s.deals, 'deal')}, {s.clean_deals} clean "
                f"({words.percent(s.clean_share)}); {s.points_per_deal:.1f} points a deal.")

    out = [shares("All games", every)]
    out += [shares(level.capitalize(), s) for level, s in stats.by_difficulty.items()]
    for result in stats.challenges:
        diff = "" if result.diff is None else f", {result.diff:+d} against the expert"
        out.append(f"Daily challenge {result.date}: {result.points} points{diff}.")
    return [one_line(line) for line in out]


def show(command: str) -> int:
    """``nil-tui history --text``, ``stats --text``, ``rules --text``."""
    if command == "rules":
        from ..util.paths import asset_text

        lines = asset_text("RULES.txt").splitlines()
    elif command == "history":
        lines = history_lines()
    else:
        lines = stats_lines()
    for line in lines:
        write_line(line)
    return 0


__all__ = ["analysis_lines", "challenge", "history_lines", "play", "replay", "replay_lines", "resume", "setup",
           "show", "stats_lines"]
