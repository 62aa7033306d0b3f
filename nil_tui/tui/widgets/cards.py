"""How a card looks on screen: its face text and its colour, with the ASCII and four-colour
options. Pure functions over ``Card`` so every widget draws cards the same way."""

from __future__ import annotations

from typing import NamedTuple

from rich.style import Style
from rich.text import Text

from ...engine import Card

RED = "#e0443e"
BLACK_ON_DARK = "#e8e8e8"
GREEN = "#3fa34d"
BLUE = "#3b82f6"


class CardLook(NamedTuple):
    """Drawing options chosen by the player."""

    ascii: bool = False
    four_color: bool = False

    def face(self, card: Card) -> str:
        """"Q♠" / "10♥" (or "QS" with ascii)."""
        return card.pretty(self.ascii)

    def suit_text(self, suit: int) -> str:
        return "CDHS"[suit] if self.ascii else "♣♦♥♠"[suit]

    def colour(self, suit: int) -> str:
        """The ink of a suit: red hearts and diamonds; with four colours, green clubs and
        blue diamonds."""
        if self.four_color:
            return (GREEN, BLUE, RED, BLACK_ON_DARK)[suit]
        return (BLACK_ON_DARK, RED, RED, BLACK_ON_DARK)[suit]

    def styled(self, card: Card, bold: bool = True) -> Text:
        """The card's face as inline text, e.g. in the game log."""
        return Text(self.face(card), style=Style(color=self.colour(card.suit), bold=bold))


CARD_WIDTH = 5  # "╭───╮"


def card_box(look: CardLook, card: Card | None, *, dim: bool = False, cursor: bool = False,
             winner: bool = False, back: bool = False) -> list[Text]:
    """A card drawn as three lines of five cells (a framed face). A card you may not play
    (``dim``) keeps only the corners of its frame and a faint face, so it differs from the
    others in its characters too: without colour, and in ASCII ("+   +" against "+---+")."""
    frame = "#8a8a8a"
    if cursor or winner:
        frame = "#f5c542"
    frame_style = Style(color=frame, bold=cursor or winner, dim=dim and not cursor)
    if card is None:
        face = Text("   ")
    elif back:
        face = Text("░░░", style=Style(color="#5577aa"))
    else:
        label = look.face(card)
        face = Text(label.rjust(3), style=Style(color=look.colour(card.suit), bold=not dim,
                                                dim=dim))
    if cursor or winner:
        top, bottom, side = "╔═══╗", "╚═══╝", "║"
    elif dim:
        top, bottom, side = "╭   ╮", "╰   ╯", " "
    else:
        top, bottom, side = "╭───╮", "╰───╯", "│"
    middle = Text(side, style=frame_style)
    middle.append_text(face)
    middle.append(side, style=frame_style)
    return [Text(top, style=frame_style), middle, Text(bottom, style=frame_style)]
