"""Who a seat is on screen: its letter, its colour, and the two ways a player is named.

One module for every game (each game's screen, the curtain, the game-over summary, the
LAN screens and notices used to keep their own copy of the letters, the colours and
``seat_text``).  A colour is always paired with the seat's letter, so the table reads
without colour (colour-blind players, monochrome SSH sessions).

The colours themselves are theme variables (``tui/theme.py``), used as classes in
``tui/widgets/seat_styles.tcss`` and read through ``tui.widgets.seat_styles``; this module adds
the letters and the names.  It imports
nothing else of ``tui``.
"""

from __future__ import annotations

from typing import Sequence

from rich.style import Style
from rich.text import Text

from .widgets.seat_styles import seat_style as _colour_style

#: Seat 0 is Red, 1 Blue, 2 Green, 3 Yellow, 4 Purple (5 White: no game seats six yet).
SEAT_LETTERS = "RBGYPW"
#: Pieces that belong to nobody (End of Atlantis's neutral cubes): letter and colour index
#: (the sixth colour of ``seats.tcss``).
NEUTRAL_LETTER = "N"
NEUTRAL = 5


def seat_letter(seat: int) -> str:
    return SEAT_LETTERS[seat]


def seat_style(seat: int, underline: bool | None = None) -> Style:
    """The style of a seat's letter (black on the seat's colour, bold); ``underline``
    marks the piece that is active now (Pathways' subpod to move)."""
    style = _colour_style(seat)
    return style if underline is None else style + Style(underline=underline)


def seat_colour(seat: int) -> str:
    """The seat's colour as ``#rrggbb`` (for pictures that take colour strings)."""
    colour = _colour_style(seat).bgcolor
    assert colour is not None and colour.triplet is not None
    return colour.triplet.hex


def neutral_style() -> Style:
    return _colour_style(NEUTRAL)


def seat_text(seat: int, name: str) -> Text:
    """A player as coloured letter + name ("R Alice"), for the side panels and turn lines."""
    text = Text()
    text.append(SEAT_LETTERS[seat], seat_style(seat))
    text.append(f" {name}")
    return text


def seat_label(seat: int, name: str) -> str:
    """A player as plain words, "Alice (R)", for notices, the curtain and summaries."""
    return f"{name} ({SEAT_LETTERS[seat]})"


def game_over_line(names: Sequence[str], winners: Sequence[int], tail: str) -> Text:
    """The turn line of a finished game: "Game over. R Alice wins: reason." (``tail`` is
    the game's own words after the winners).  Here, not with the dialogs in
    ``tui.screens.dialogs`` (which reads it from here): every game screen draws it, and
    that module and the game-over screen it imports would slow a table's start."""
    out = Text("Game over. ")
    for seat in winners:
        out.append_text(seat_text(seat, names[seat]))
        out.append(" ")
    out.append(tail)
    return out
