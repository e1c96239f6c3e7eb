"""The Pathways legend: every symbol the board draws, in one line at 80x24 and in a
few lines on a big terminal (the same words are in the game's ``?`` help).  The samples
take their colours from the board's own component classes, so the legend matches it."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from ..seat_labels import SEAT_LETTERS, seat_style
from ..widgets.seat_styles import recent_style, themed
from ..widgets.tile_board import TileBoard


def legend_text(board: TileBoard, wide: bool, players: int = 4) -> Text:
    def part(name: str) -> Style:
        return board.get_component_rich_style(f"tile-board--{name}", partial=True)

    dim = Style(dim=True)
    out = Text(no_wrap=not wide, overflow="ellipsis")

    def item(sample: str, style: Style, words: str, gap: str = "  ") -> None:
        out.append(sample, style)
        out.append(" " + words + gap, dim)

    for seat in range(players):
        out.append(SEAT_LETTERS[seat], themed(seat_style(seat), board.app.theme_variables))
    if not wide:
        out.append(" subpods ", dim)
        item("·", part("sea"), "empty", " ")
        item("+", part("target-sea") + part("target-mark"), "place or go", " ")  # (the tile fits / a subpod may step)
        item("──", recent_style(board.app.theme_variables), "changed", "")
        return out
    out.append(" subpods (underlined: moving)  ", dim)
    item("─│└┼", part("tile"), "paths")
    item("·", part("sea"), "empty")
    item("CITY", part("block"), "the goal", "")
    out.append("\n")
    item("+", part("target-sea") + part("target-mark"), "fits / may step")
    item("x", part("ghost-bad"), "does not fit")
    item("▸ ◂", part("cursor"), "cursor")
    item("──", recent_style(board.app.theme_variables), "changed")
    item("MOVE 3*", Style(bold=True), "* another's subpod", "")
    return out
