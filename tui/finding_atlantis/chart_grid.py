"""ChartGrid: a player's nautical chart -- a square grid of short cell labels.

The widget knows no rules.  The screen hands it a ``ChartPicture``: for every
cell of the grid (the map plus, optionally, a ring beyond its edge) a main text
(the seat's own result: 1-2 characters, never colour alone) and its component
part, the markers that share the cell (other submarines, a mine, a monster, your
own submarine: each a short text and a part), a background part, and a flag for
shading (cells the deduction assistant is sure of).  Markers never cover the main
text: in a cell two rows high they sit on the row below it, in a cell one row high
beside it (the main text first, so it is the last thing cut off).  Under the grid
the picture's legend is drawn (symbol, part, words), wrapped to the width.

Every colour is a component class (the CSS below); a part named ``seat-N`` is
seat ``N``'s colour from ``seats.tcss``, and ``recent`` (what the other seats did
since your last action) is the shared tint of the ``recent`` class there.

Modelled on Textual's ``DataTable`` like ``TileBoard``: a reactive ``cursor``
(a map cell; the ring is never under the cursor) moved by the arrows and hjkl,
and ``CellHighlighted`` / ``CellSelected`` messages posted up to the screen.  It
renders with the Line API from a cache of strips rebuilt only on change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Region, Size
from textual.strip import Strip

from ..widgets.changed_lines import show_changed
from ..widgets.cursor_grid import CursorGrid
from ..widgets.seat_styles import seat_style

COLUMN_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ROW_LABEL_WIDTH = 3
#: The row label of the ring's rows (beyond the map's edge: Sonar reads them, no one enters).
OFF_MAP = "off"
# (width, height) of a cell, largest first; the first that fits wins.
CELL_SIZES = ((7, 3), (5, 2), (4, 2), (3, 1), (2, 1))

Piece = tuple[str, str]   # (text, part)


@dataclass(frozen=True)
class ChartCell:
    text: str = ""                    # the main symbol: the seat's own result (never covered)
    part: str = "cell"                # its component part (chart-grid--<part>)
    marks: tuple[Piece, ...] = ()     # markers sharing the cell, drawn beside or below the text
    back: str = ""                    # background part ("" the cell's own)
    bold: bool = False
    shaded: bool = False              # underlined: certain by deduction


@dataclass
class ChartPicture:
    """Cells of the whole drawn grid, row by row (``(n + 2*ring)`` squared)."""

    cells: Sequence[ChartCell] = ()
    ring: bool = True
    corner: str = ""                  # a compass ("N↑") or a title drawn above the grid, left
    legend: Sequence[tuple[str, str, str]] = field(default_factory=tuple)  # (symbol, part, words)
    cursor: bool = True               # draw the cursor
    # rows kept for the legend whatever it lists (a longer one is cut), so that the cell
    # size depends on the widget's size only; None: as many as the legend needs
    legend_room: int | None = None


class ChartGrid(CursorGrid):
    """A nautical chart with a cursor over the map cells."""

    COMPONENT_CLASSES = {
        "chart-grid--label", "chart-grid--cell", "chart-grid--cursor", "chart-grid--sea-alt",
        "chart-grid--ring", "chart-grid--shade", "chart-grid--pick", "chart-grid--recent",
        "chart-grid--atlantis", "chart-grid--artifact", "chart-grid--trace", "chart-grid--rod",
        "chart-grid--seamount", "chart-grid--deep", "chart-grid--notrace", "chart-grid--danger",
        "chart-grid--empty", "chart-grid--deduced", "chart-grid--mark", "chart-grid--sub",
        "chart-grid--mine", "chart-grid--monster", "chart-grid--right", "chart-grid--wrong",
        "chart-grid--legend",
    }

    DEFAULT_CSS = """
    ChartGrid { width: 1fr; height: 1fr; }
    """

    def __init__(self, n: int = 6, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.n = n
        self.picture = ChartPicture(cells=[ChartCell()] * ((n + 2) ** 2))
        self.cell_w, self.cell_h, self.show_labels = 3, 1, True
        self.legend_rows = 0
        self.drawn_lines: list[Strip] | None = None
        self._origin = (0, 0)
        # The last build: characters and styles of the drawn box, where it sits, how its
        # cells are laid out, the styles it used, and the cell the cursor was drawn on (a
        # cursor move repaints only those two cells' lines).
        self._chars: list[list[str]] = []
        self._styles: list[list[Style]] = []
        self._box = (0, 0, 0, 0)                 # left, top, width, height
        self._cells: list[ChartCell] = []
        self._grid_at = (0, 0)                   # (x, y) of the first cell in the box
        self._cache: dict[str, Style] = {}
        self._base = Style()
        self._drawn_cursor: int | None = None    # the grid index drawn reversed (-1: none)
        # A grid drawn beside another (the true map beside a chart) follows it: cells no
        # taller than its cells and map rows on the same lines, so row 1 reads across.
        self.follows: ChartGrid | None = None
        self._followers: list[ChartGrid] = []
        self._followed: tuple[int, int] | None = None   # (cell height, row 1's line) drawn with

    def follow(self, leader: "ChartGrid") -> None:
        """Draw this grid's map rows on the same lines as ``leader``'s."""
        self.follows = leader
        leader._followers.append(self)

    def row_one(self) -> tuple[int, int] | None:
        """(cell height, the line of map row 1) as last drawn, None before a build."""
        if not self._chars:
            return None
        ring = 1 if self.picture.ring else 0
        return self.cell_h, self._box[1] + self._grid_at[1] + ring * self.cell_h

    # --- data in -------------------------------------------------------------------
    def set_size(self, n: int) -> None:
        if n != self.n:
            self.n = n
            self.cursor = min(self.cursor, n * n - 1)
            self.drawn_lines = None
            self.refresh()

    def show(self, picture: ChartPicture) -> None:
        """Draw a new picture of the chart (the same picture again costs nothing)."""
        if picture == self.picture:
            return
        self.picture = picture
        show_changed(self)  # (only the lines the new picture changed are repainted)

    def side(self) -> int:
        return self.n

    def cursor_moved(self) -> None:
        # Only the lines of the old and the new cursor cell change: keep the rest.
        if self.drawn_lines is None or self._drawn_cursor is None:
            self.refresh()
            return
        old, new = self._drawn_cursor, self._cursor_index()
        if old == new:
            return
        self._drawn_cursor = new
        left = self._paint_cell(old) if old >= 0 else set()
        under = self._paint_cell(new) if new >= 0 else set()   # the lines the cursor is on now
        top, width = self._box[1], self.size.width
        regions = []
        for by in sorted(left | under):
            y = top + by
            if 0 <= y < len(self.drawn_lines):
                kept = None if by in under else self._plain.get((by, width))
                self.drawn_lines[y] = kept if kept is not None else self._strip(by, plain=by not in under)
                regions.append(Region(0, y, width, 1))
        if regions:
            self.refresh(*regions)

    def _cursor_index(self) -> int:
        """The grid index (ring included) the cursor is drawn on, -1 for none."""
        if not self.picture.cursor:
            return -1
        ring = 1 if self.picture.ring else 0
        r, c = divmod(self.cursor, self.n)
        return (r + ring) * self._grid() + c + ring

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

    def on_resize(self, event: events.Resize) -> None:
        self.drawn_lines = None
        self.refresh()

    def notify_style_update(self) -> None:
        # new CSS (a theme, focus): the kept lines hold the old styles
        super().notify_style_update()
        self.drawn_lines = None

    # --- size --------------------------------------------------------------------------
    def legend_lines(self, width: int) -> list[list[Piece]]:
        """The legend wrapped to ``width``: lines of (text, part) pieces.  An item with no
        words shares the next item's words ("B C started/surfaced"), on the same line."""
        lines: list[list[Piece]] = []
        used = 0
        legend = list(self.picture.legend)
        for i, (symbol, part, words) in enumerate(legend):
            joined = i > 0 and not legend[i - 1][2]   # the previous symbol waits for these words
            sep = 1 if joined else 2
            item = len(symbol) + (1 + len(words) if words else 0)
            group, j = item, i   # an item with no words wraps together with the next ones
            while not legend[j][2] and j + 1 < len(legend):
                j += 1
                group += 1 + len(legend[j][0]) + (1 + len(legend[j][2]) if legend[j][2] else 0)
            if not lines or used and not joined and used + sep + group > width:
                lines.append([])
                used = 0
            if used:
                lines[-1].append((" " * sep, "legend"))
                used += sep
            lines[-1].append((symbol, part))
            if words:
                lines[-1].append((" " + words, "legend"))
            used += item
        return lines

    def _top_lines(self, labels: bool) -> int:
        corner = self.picture.corner
        if labels:
            return 1 + (1 if len(corner) > ROW_LABEL_WIDTH else 0)
        return 1 if corner else 0

    def choose_cell_size(self, size: Size) -> tuple[int, int, bool]:
        g = self._grid()
        room = self.picture.legend_room
        legend = len(self.legend_lines(size.width)) if room is None else room
        self.legend_rows = legend
        lead = self.follows.row_one() if self.follows is not None else None
        for labels in (True, False):
            lw = ROW_LABEL_WIDTH if labels else 0
            for w, h in CELL_SIZES:
                if lead is not None and h > lead[0]:
                    continue
                if w * g + lw <= size.width and h * g + self._top_lines(labels) + legend <= size.height:
                    return w, h, labels
        w, h = CELL_SIZES[-1]
        self.legend_rows = max(0, min(legend, size.height - h * g))
        return w, h, False

    # --- drawing -------------------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        if self.drawn_lines is None or self._built_size != self.size:  # (built by show() before a resize)
            self.drawn_lines = self.build_lines()
        if 0 <= y < len(self.drawn_lines):
            return self.drawn_lines[y]
        return Strip.blank(self.size.width, self.rich_style)

    def _style_of(self, part: str, cache: dict[str, Style]) -> Style:
        style = cache.get(part)
        if style is None:
            if part.startswith("seat-"):
                style = seat_style(int(part[5:]), self.app.theme_variables)
            else:
                style = self.get_component_rich_style(f"chart-grid--{part}", partial=True)
            cache[part] = style
        return style

    def _cell_lines(self, cell: ChartCell, cw: int, ch: int, base: Style,
                    cache: dict[str, Style]) -> list[list[tuple[str, Style]]]:
        """The ``ch`` rows of one cell, each ``cw`` (char, style) pairs."""
        main = [(t, base + self._style_of(cell.part, cache)) for t in cell.text]
        marks = [(t, base + self._style_of(part, cache)) for text, part in cell.marks for t in text]
        blank = (" ", base)
        rows = [[blank] * cw for _ in range(ch)]

        def put(row: list, chars: list) -> None:
            chars = chars[:cw]
            pad = (cw - len(chars)) // 2
            row[pad:pad + len(chars)] = chars

        mid = (ch - 1) // 2   # the main text's row (and the row labels')
        if ch >= 2 and len(main) + len(marks) > cw - 1:   # (a column left free between spaces)
            put(rows[mid], main)
            put(rows[mid + 1], marks)   # no room beside: on the next row, inside the cell
        else:   # side by side, the result first (cut last), where it stands alone if there is room
            start = max(0, min((cw - len(main)) // 2, cw - len(main) - len(marks)))
            chars = (main + marks)[:cw]
            rows[mid][start:start + len(chars)] = chars
        return rows

    def build_lines(self) -> list[Strip]:
        self._built_size = self.size
        width, height = self.size.width, self.size.height
        cw, ch, labels = self.choose_cell_size(self.size)
        self.cell_w, self.cell_h, self.show_labels = cw, ch, labels
        g = self._grid()
        ring = 1 if self.picture.ring else 0
        lw = ROW_LABEL_WIDTH if labels else 0
        top_lines = self._top_lines(labels)
        legend = self.legend_lines(width)[:self.legend_rows]
        if self.picture.legend_room is not None:   # the same box whatever the legend lists
            legend += [[] for _ in range(self.legend_rows - len(legend))]
        gw = lw + g * cw
        bw = max([gw] + [sum(len(t) for t, _ in line) for line in legend])
        bh = top_lines + g * ch + len(legend)
        left = max(0, (width - bw) // 2)
        top = max(0, (height - bh) // 2)
        lead = self.follows.row_one() if self.follows is not None else None
        self._followed = lead
        if lead is not None and lead[0] == ch:
            aligned = lead[1] - top_lines - ring * ch   # the box's top with row 1 on lead's line
            if 0 <= aligned and aligned + bh <= height:
                top = aligned
        base = self.rich_style
        cache: dict[str, Style] = {}
        chars = [[" "] * bw for _ in range(bh)]
        styles = [[base] * bw for _ in range(bh)]
        label_style = base + self._style_of("label", cache)
        corner = self.picture.corner
        oy = top_lines
        gx = (bw - gw) // 2
        if corner:
            cx = gx if len(corner) <= ROW_LABEL_WIDTH else 0
            for i, t in enumerate(corner[:bw - cx]):
                chars[0][cx + i] = t
                styles[0][cx + i] = label_style
        self._origin = (left + gx + lw, top + oy)
        if labels:
            for c in range(self.n):
                x = gx + lw + (c + ring) * cw + cw // 2
                chars[oy - 1][x] = COLUMN_NAMES[c]
                styles[oy - 1][x] = label_style
            rows = [(r + ring, f"{r + 1:>2}") for r in range(self.n)]
            if ring:   # the ring's rows lie beyond the map's edge: said, not left blank
                rows += [(0, OFF_MAP), (self.n + 1, OFF_MAP)]
            for at, text in rows:
                y = oy + at * ch + (ch - 1) // 2
                for i, t in enumerate(text):
                    chars[y][gx + i] = t
                    styles[y][gx + i] = label_style
        self._cells = list(self.picture.cells) + [ChartCell()] * (g * g - len(self.picture.cells))
        self._chars, self._styles, self._cache, self._base = chars, styles, cache, base
        self._grid_at = (gx + lw, oy)
        self._drawn_cursor = self._cursor_index()
        self._plain = {}
        under: set[int] = set()
        for idx in range(g * g):
            lines = self._paint_cell(idx)
            if idx == self._drawn_cursor:
                under = lines
        for i, line in enumerate(legend):
            y = oy + g * ch + i
            x = 0
            for text, part in line:
                st = base + self._style_of(part, cache)
                for t in text:
                    if x < bw:
                        chars[y][x] = t
                        styles[y][x] = st
                    x += 1
        self._box = (left, top, bw, bh)
        for other in self._followers:
            if other._chars and other._followed != self.row_one():   # drawn against an older layout
                other.drawn_lines = None
                other.refresh()
        blank = Strip.blank(width, base)
        return [self._strip(y - top, plain=y - top not in under) if 0 <= y - top < bh else blank
                for y in range(height)]

    def _paint_cell(self, idx: int) -> set[int]:
        """Draw grid cell ``idx`` (ring included) of the last build into its characters
        and styles, reversed if the cursor is on it; the box lines it covers."""
        cw, ch = self.cell_w, self.cell_h
        x0, y0 = self._grid_at
        r, c = divmod(idx, self._grid())
        cell, cache = self._cells[idx], self._cache
        style = self._style_of("cell", cache) + (self._style_of(cell.back, cache) if cell.back else Style())
        style += Style(bold=cell.bold or None, underline=cell.shaded or None)
        if idx == self._drawn_cursor:
            style = style + self._style_of("cursor", cache)
        lines = set()
        for dy, row in enumerate(self._cell_lines(cell, cw, ch, style, cache)):
            y = y0 + r * ch + dy
            lines.add(y)
            row_chars, row_styles = self._chars[y], self._styles[y]
            for dx, (t, st) in enumerate(row):
                row_chars[x0 + c * cw + dx] = t
                row_styles[x0 + c * cw + dx] = st
        return lines

    _plain: dict[tuple[int, int], Strip] = {}   # (box line, width) -> the line without the cursor (this build's)

    def _strip(self, by: int, plain: bool = False) -> Strip:
        """Line ``by`` of the drawn box, as the widget's line (padded to its width); kept
        for the next cursor move off it when it is ``plain`` (the cursor is not on it)."""
        width, base = self.size.width, self._base   # (the build's: a refresh drops Textual's cache)
        left, _, bw, _ = self._box
        segments = [Segment(" " * left, base)] if left else []
        row_chars, row_styles = self._chars[by], self._styles[by]
        start = 0
        for x in range(1, bw + 1):
            if x == bw or row_styles[x] is not row_styles[start] and row_styles[x] != row_styles[start]:
                segments.append(Segment("".join(row_chars[start:x]), row_styles[start]))
                start = x
        strip = Strip(segments, left + bw).extend_cell_length(width, base).crop(0, width)
        if plain:
            self._plain[by, width] = strip
        return strip
