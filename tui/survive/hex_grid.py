"""HexGrid: a board of pointy-top hexes (any shape, see ``engine.geometry.HexBoard``) with
a cursor, drawn as offset rows of short labels.

Generic: the screen hands it a ``HexPicture``: per hex (in the board's index order) a
short text (1-3 characters: a symbol, never colour alone) and a ``kind`` naming its look.
Each kind is a component class ``hex-grid--<kind>`` styled in CSS (``sea`` and ``land``
here; a game's subclass adds its own to ``COMPONENT_CLASSES`` and ``DEFAULT_CSS``), so no
colour is written in Python.  The cursor is drawn in reverse video.

Keys and messages are ``CursorGrid``'s (see there for the hex key map): the cursor moves
over the board's hexes only, ``CellHighlighted`` / ``CellSelected`` go up to the screen.
Each hex is ``cell_w`` characters wide (the last one a gap) and ``cell_h`` rows tall;
row ``r`` is shifted half a hex from row ``r - 1``, so the six neighbours of a hex sit
round it on screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Size
from textual.strip import Strip

from engine.geometry import HexBoard

from ..widgets.changed_lines import show_changed
from ..widgets.cursor_grid import CursorGrid

# (width, height) of a hex, largest first; the first that fits wins.  Widths are even,
# so half a hex is a whole number of characters.
CELL_SIZES = ((6, 2), (4, 2), (4, 1), (2, 1))


@dataclass(frozen=True)
class HexCell:
    text: str = ""
    kind: str = "sea"


@dataclass
class HexPicture:
    """One ``HexCell`` per hex of the board, in the board's index order."""

    cells: Sequence[HexCell] = ()


class HexGrid(CursorGrid):
    """A hex board with a cursor over its hexes."""

    COMPONENT_CLASSES = {"hex-grid--sea", "hex-grid--land", "hex-grid--cursor"}

    DEFAULT_CSS = """
    HexGrid { width: 1fr; height: 1fr; }
    """

    def __init__(self, board: HexBoard, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.board = board
        self.picture = HexPicture(cells=[HexCell()] * len(board))
        self.cell_w, self.cell_h = CELL_SIZES[-1]
        self.drawn_lines: list[Strip] | None = None
        self._origin = (0, 0)

    def board_shape(self) -> HexBoard:
        return self.board

    def show(self, picture: HexPicture) -> None:
        self.picture = picture
        show_changed(self)  # (only the lines the new picture changed are repainted)

    def cursor_moved(self) -> None:
        self.drawn_lines = None
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        # the first Resize comes after the first paint: a board already built at this
        # size is kept (no second build at the start)
        if self.drawn_lines is not None and getattr(self, "_built_size", None) == event.size:
            return
        self.drawn_lines = None
        self.refresh()

    # --- mouse ------------------------------------------------------------------------------
    def cell_at(self, x: int, y: int) -> int | None:
        """The index of the hex under widget coordinates (x, y), or None."""
        ox, oy = self._origin
        if x < ox or y < oy:
            return None
        hex_ = self.board.at_position((x - ox) // (self.cell_w // 2), (y - oy) // self.cell_h)
        return None if hex_ is None else self.board.index(hex_)

    # --- drawing ------------------------------------------------------------------------------
    def choose_cell_size(self, size: Size) -> tuple[int, int]:
        half_columns, rows = self.board.size()
        for w, h in CELL_SIZES:
            if half_columns * w // 2 <= size.width and rows * h <= size.height:
                return w, h
        return CELL_SIZES[-1]

    def render_line(self, y: int) -> Strip:
        if self.drawn_lines is None or self._built_size != self.size:  # (built by show() before a resize)
            self.drawn_lines = self.build_lines()
        if 0 <= y < len(self.drawn_lines):
            return self.drawn_lines[y]
        return Strip.blank(self.size.width, self.rich_style)

    def _style(self, kind: str) -> Style:
        return self.get_component_rich_style(f"hex-grid--{kind}", partial=True,
                                             default=self.get_component_rich_style("hex-grid--sea", partial=True))

    def build_lines(self) -> list[Strip]:
        self._built_size = self.size
        width, height = self.size.width, self.size.height
        cw, ch = self.choose_cell_size(self.size)
        self.cell_w, self.cell_h = cw, ch
        half_columns, rows = self.board.size()
        bw, bh = half_columns * cw // 2, rows * ch
        left, top = max(0, (width - bw) // 2), max(0, (height - bh) // 2)
        self._origin = (left, top)
        base = self.rich_style
        chars = [[" "] * bw for _ in range(bh)]
        styles = [[base] * bw for _ in range(bh)]
        cells = list(self.picture.cells) + [HexCell()] * (len(self.board) - len(self.picture.cells))
        cursor_style = self.get_component_rich_style("hex-grid--cursor", partial=True)
        for index, (x2, row) in enumerate(self.board.positions()):
            cell = cells[index]
            style = base + self._style(cell.kind)
            if index == self.cursor:
                style += cursor_style
            # cw - 1 characters of hex and one of gap, so neighbours read apart
            text = cell.text[: cw - 1]
            pad = (cw - 1 - len(text)) // 2
            line = (" " * pad + text).ljust(cw - 1)
            x0 = x2 * cw // 2
            for dy in range(ch):
                shown = line if dy == (ch - 1) // 2 else " " * (cw - 1)
                for dx in range(cw - 1):
                    chars[row * ch + dy][x0 + dx] = shown[dx]
                    styles[row * ch + dy][x0 + dx] = style
        strips = []
        for y in range(height):
            by = y - top
            if not 0 <= by < bh:
                strips.append(Strip.blank(width, base))
                continue
            segments = [Segment(" " * left, base)] if left else []
            start = 0
            for x in range(1, bw + 1):
                if x == bw or styles[by][x] != styles[by][start]:
                    segments.append(Segment("".join(chars[by][start:x]), styles[by][start]))
                    start = x
            strips.append(Strip(segments, left + bw).extend_cell_length(width, base).crop(0, width))
        return strips
