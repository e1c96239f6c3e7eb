"""ChartGrid: a player's nautical chart -- a square grid of short cell labels.

The widget knows no rules.  The screen hands it a ``ChartPicture``: for every
cell of the grid (the map plus, optionally, a ring beyond its edge) a short text
(1-3 characters: a symbol, never colour alone), a foreground and a background
colour (None: the ``chart-grid--cell`` component class's), and a flag for shading
(cells the deduction assistant is sure of).  The widget's own colours (labels,
plain cells, the cursor) are component classes (the CSS below).

Modelled on Textual's ``DataTable`` like ``TileBoard``: a reactive ``cursor``
(a map cell; the ring is never under the cursor) moved by the arrows and hjkl,
and ``CellHighlighted`` / ``CellSelected`` messages posted up to the screen.  It
renders with the Line API from a cache of strips rebuilt only on change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Size
from textual.strip import Strip

from .cursor_grid import CursorGrid

COLUMN_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ROW_LABEL_WIDTH = 3
# (width, height) of a cell, largest first; the first that fits wins.
CELL_SIZES = ((7, 3), (5, 2), (4, 2), (3, 1), (2, 1))


@dataclass(frozen=True)
class ChartCell:
    text: str = ""
    fg: str | None = None     # None: the colours of the chart-grid--cell component class
    bg: str | None = None
    bold: bool = False
    shaded: bool = False      # drawn with a dotted underline: certain by deduction


@dataclass
class ChartPicture:
    """Cells of the whole drawn grid, row by row (``(n + 2*ring)`` squared)."""

    cells: Sequence[ChartCell] = ()
    ring: bool = True
    corner: str = ""          # a compass or note drawn above the grid, left
    footer: str = ""


class ChartGrid(CursorGrid):
    """A nautical chart with a cursor over the map cells."""

    COMPONENT_CLASSES = {"chart-grid--label", "chart-grid--cell", "chart-grid--cursor"}

    DEFAULT_CSS = """
    ChartGrid { width: 1fr; height: 1fr; }
    ChartGrid > .chart-grid--label { color: #7f9fb0; }
    ChartGrid > .chart-grid--cell { color: #c8d8e0; background: #0d2738; }
    ChartGrid > .chart-grid--cursor { text-style: reverse; }
    """

    def __init__(self, n: int = 6, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.n = n
        self.picture = ChartPicture(cells=[ChartCell()] * ((n + 2) ** 2))
        self.cell_w, self.cell_h, self.show_labels = 3, 1, True
        self._strips: list[Strip] | None = None
        self._origin = (0, 0)

    # --- data in -------------------------------------------------------------------
    def set_size(self, n: int) -> None:
        if n != self.n:
            self.n = n
            self.cursor = min(self.cursor, n * n - 1)
            self._strips = None
            self.refresh()

    def show(self, picture: ChartPicture) -> None:
        self.picture = picture
        self._strips = None
        self.refresh()

    def side(self) -> int:
        return self.n

    def cursor_moved(self) -> None:
        self._strips = None
        self.refresh()

    def _grid(self) -> int:
        return self.n + (2 if self.picture.ring else 0)

    def cell_at(self, x: int, y: int) -> int | None:
        ox, oy = self._origin
        col, row = (x - ox) // self.cell_w, (y - oy) // self.cell_h
        g = self._grid()
        if x < ox or y < oy or not (0 <= col < g and 0 <= row < g):
            return None
        if self.picture.ring:
            row, col = row - 1, col - 1
        if 0 <= row < self.n and 0 <= col < self.n:
            return row * self.n + col
        return None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        cell = self.cell_at(offset.x, offset.y)
        if cell is None:
            return
        if cell == self.cursor:
            self.action_select_cursor()
        else:
            self.cursor = cell

    def on_resize(self, event: events.Resize) -> None:
        self._strips = None
        self.refresh()

    # --- drawing -------------------------------------------------------------------------
    def choose_cell_size(self, size: Size) -> tuple[int, int, bool]:
        g = self._grid()
        extra_h = 1 if self.picture.corner else 0
        for labels in (True, False):
            lw = ROW_LABEL_WIDTH if labels else 0
            lh = 1 if labels else 0
            for w, h in CELL_SIZES:
                if w * g + lw <= size.width and h * g + lh + extra_h <= size.height:
                    return w, h, labels
        w, h = CELL_SIZES[-1]
        return w, h, False

    def render_line(self, y: int) -> Strip:
        if self._strips is None:
            self._strips = self._build()
        if 0 <= y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self.size.width, self.rich_style)

    def _build(self) -> list[Strip]:
        width, height = self.size.width, self.size.height
        cw, ch, labels = self.choose_cell_size(self.size)
        self.cell_w, self.cell_h, self.show_labels = cw, ch, labels
        g = self._grid()
        ring = 1 if self.picture.ring else 0
        lw = ROW_LABEL_WIDTH if labels else 0
        top_lines = (1 if self.picture.corner else 0) + (1 if labels else 0)
        bw, bh = lw + g * cw, top_lines + g * ch
        left = max(0, (width - bw) // 2)
        top = max(0, (height - bh) // 2)
        base = self.rich_style
        chars = [[" "] * bw for _ in range(bh)]
        styles = [[base] * bw for _ in range(bh)]
        part = self.get_component_rich_style
        label_style = base + part("chart-grid--label", partial=True)
        plain = part("chart-grid--cell", partial=True)
        cursor_style = part("chart-grid--cursor", partial=True)
        if self.picture.corner:
            for i, t in enumerate(self.picture.corner[:bw]):
                chars[0][i] = t
                styles[0][i] = label_style
        oy = top_lines
        self._origin = (left + lw, top + oy)
        if labels:
            for c in range(self.n):
                x = lw + (c + ring) * cw + cw // 2
                chars[oy - 1][x] = COLUMN_NAMES[c]
                styles[oy - 1][x] = label_style
            for r in range(self.n):
                text = f"{r + 1:>2}"
                y = oy + (r + ring) * ch + ch // 2
                for i, t in enumerate(text):
                    chars[y][i] = t
                    styles[y][i] = label_style
        cells = list(self.picture.cells) + [ChartCell()] * (g * g - len(self.picture.cells))
        cur_r, cur_c = divmod(self.cursor, self.n)
        cursor_cell = (cur_r + ring) * g + cur_c + ring
        for idx in range(g * g):
            r, c = divmod(idx, g)
            cell = cells[idx]
            style = Style(color=cell.fg or plain.color, bgcolor=cell.bg or plain.bgcolor,
                          bold=cell.bold, underline=cell.shaded)
            if idx == cursor_cell:
                style = style + cursor_style
            text = cell.text[:cw]
            pad = (cw - len(text)) // 2
            row_text = " " * pad + text + " " * (cw - pad - len(text))
            for dy in range(ch):
                y = oy + r * ch + dy
                line = row_text if dy == ch // 2 else " " * cw
                for dx in range(cw):
                    chars[y][lw + c * cw + dx] = line[dx]
                    styles[y][lw + c * cw + dx] = style
        strips = []
        for y in range(height):
            by = y - top
            if not 0 <= by < bh:
                strips.append(Strip.blank(width, base))
                continue
            segments = [Segment(" " * left, base)] if left else []
            row_chars, row_styles = chars[by], styles[by]
            start = 0
            for x in range(1, bw + 1):
                if x == bw or row_styles[x] != row_styles[start]:
                    segments.append(Segment("".join(row_chars[start:x]), row_styles[start]))
                    start = x
            strips.append(Strip(segments, left + bw).extend_cell_length(width, base).crop(0, width))
        return strips
