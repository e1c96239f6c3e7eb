"""TileBoard: a square grid of path tiles drawn with box-drawing characters.

The widget is generic: it is told, per cell, which sides of the tile there have
a path (or that the cell is empty), which cells form labelled blocks (a city in
the middle of the board), which short markers stand on which cells (pawns, as a
letter in the owner's colour), which cells to highlight as legal targets, and
an optional ghost tile (a preview of a tile in hand or a tile being turned).
It knows no game rules.

Modelled on Textual's ``DataTable``: a reactive ``cursor`` moved by the arrow
keys and hjkl, and ``CellHighlighted`` / ``CellSelected`` messages posted up to
the screen, which decides what they mean.  It renders with the Line API from a
cache of strips rebuilt only when something changes, so redraws are cheap.

Every cell is a box of ``cell_w`` x ``cell_h`` characters; the path arms run to
the box edges, so paths of neighbouring tiles visibly join.  The cell size is
chosen from the space the widget gets: big boxes on a big terminal, down to one
character row per cell on a small one.

Sides are bits: N=1, E=2, S=4, W=8.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Region, Size
from textual.strip import Strip

from .changed_lines import show_changed
from .cursor_grid import CursorGrid
from .seat_styles import recent_style

N, E, S, W = 1, 2, 4, 8

# The centre glyph of a tile by its open sides.
GLYPHS = {0: "·", 1: "╵", 2: "╶", 4: "╷", 8: "╴", 5: "│", 10: "─", 3: "└", 6: "┌", 12: "┐", 9: "┘",
          7: "├", 14: "┬", 13: "┤", 11: "┴", 15: "┼"}

# Cell sizes (width, height) tried from the largest down; the first that fits wins.
CELL_SIZES = ((9, 4), (7, 3), (5, 3), (7, 2), (5, 2), (4, 2), (3, 1))
ROW_LABEL_WIDTH = 3  # "10 "
COLUMN_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def tile_picture(mask: int | None, width: int, height: int) -> list[str]:
    """The characters of one cell: path arms from the centre to the open sides.

    ``None`` is an empty cell (a faint dot in the middle)."""
    cx, cy = width // 2, height // 2
    if mask is None:
        rows = [" " * width for _ in range(height)]
        rows[cy] = " " * cx + "·" + " " * (width - cx - 1)
        return rows
    rows = []
    for y in range(height):
        if y == cy:
            left = ("─" if mask & W else " ") * cx
            right = ("─" if mask & E else " ") * (width - cx - 1)
            rows.append(left + GLYPHS[mask] + right)
        else:
            open_side = N if y < cy else S
            arm = "│" if mask & open_side else " "
            rows.append(" " * cx + arm + " " * (width - cx - 1))
    return rows


#: The cursor's glyphs in its cell's free top corners (a plain-text copy of the screen
#: shows it too); a fit mark in the right corner ('+', 'x') is kept.
CURSOR_LEFT, CURSOR_RIGHT = "▸", "◂"
NO_FIT = "x"


def cursor_corners(row: list[str], x0: int, width: int) -> list[str]:
    """The top line of the cursor's cell, ``width`` characters from ``x0``, with the
    cursor's corner glyphs."""
    row = list(row)
    row[x0] = CURSOR_LEFT
    if row[x0 + width - 1] == " ":
        row[x0 + width - 1] = CURSOR_RIGHT
    return row


def off_board_gaps(rows: list[str], mask: int | None, row: int, column: int, n: int) -> list[str]:
    """A tile on the board's edge, its arms that point off the board stopping one
    character short (so they do not run into the row names or the column letters)."""
    if mask is None:
        return rows
    rows = list(rows)
    cy = len(rows) // 2
    if column == 0 and mask & W:
        rows[cy] = " " + rows[cy][1:]
    if column == n - 1 and mask & E:
        rows[cy] = rows[cy][:-1] + " "
    if row == 0 and mask & N and cy > 0:
        rows[0] = " " * len(rows[0])
    if row == n - 1 and mask & S and len(rows) - 1 > cy:
        rows[-1] = " " * len(rows[-1])
    return rows


def marker_columns(mask: int | None, width: int, height: int, count: int) -> list[int]:
    """Where to write ``count`` marker letters on a cell's middle row so that the
    path glyph at the centre stays visible: blank columns first (nearest the
    centre), then path arms, the centre itself only as a last resort."""
    row = tile_picture(mask, width, height)[height // 2]
    cx = width // 2
    if mask is None:
        order = sorted(range(width), key=lambda x: (abs(x - cx), x))
        return sorted(order[:count])
    others = sorted((x for x in range(width) if x != cx), key=lambda x: (abs(x - cx), x))
    blank = [x for x in others if row[x] == " "]
    arms = [x for x in others if row[x] != " "]
    return sorted((blank + arms + [cx])[:count])


@dataclass(frozen=True)
class Block:
    """Several cells drawn as one labelled piece (the labels are tried longest first)."""

    cells: tuple[int, ...]
    labels: tuple[str, ...] = ()
    marks: tuple[tuple[str, Style], ...] = ()   # letters drawn inside it (subpods in the city)


@dataclass(frozen=True)
class Ghost:
    """A tile drawn over ``cell`` as a preview; ``ok`` says whether it may go there."""

    cell: int
    mask: int
    ok: bool = True


@dataclass
class BoardPicture:
    """Everything the board draws; the screen builds a fresh one on every change."""

    tiles: Sequence[int | None] = ()                     # open sides per cell, None if empty
    blocks: Sequence[Block] = ()
    markers: Mapping[int, Sequence[tuple[str, Style]]] = field(default_factory=dict)
    targets: Iterable[int] = ()
    ghost: Ghost | None = None
    recent: Iterable[int] = ()                           # cells another seat changed lately


class TileBoard(CursorGrid):
    """A square grid of path tiles with a cursor.

    Its colours are component classes (the CSS below).  Colour never carries meaning
    alone: every marker is a letter, targets are marked with '+', the cursor is drawn in
    reverse video."""

    COMPONENT_CLASSES = {
        "tile-board--label",                                     # row and column names
        "tile-board--sea", "tile-board--sea-alt",                # empty cells, checkered
        "tile-board--tile", "tile-board--tile-alt",              # placed tiles, checkered
        "tile-board--target-sea", "tile-board--target-tile",     # legal targets
        "tile-board--target-mark",                               # the '+' on a target
        "tile-board--target-underline",                          # a target with no room for '+'
        "tile-board--cursor-dot",                                # an empty cell's dot under the cursor
        "tile-board--ghost-ok", "tile-board--ghost-bad",         # a previewed tile
        "tile-board--block",                                     # a labelled piece (the city)
        "tile-board--cursor",
    }

    DEFAULT_CSS = """
    TileBoard { width: 1fr; height: 1fr; }
    """

    def __init__(self, grid: int = 10, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.grid = grid
        self.picture = BoardPicture(tiles=[None] * (grid * grid))
        self.cell_w, self.cell_h, self.show_labels = CELL_SIZES[-1][0], CELL_SIZES[-1][1], True
        self.drawn_lines: list[Strip] | None = None
        self._origin = (0, 0)  # where cell (0, 0) starts, in widget coordinates
        # The last build, without the cursor: characters and styles of the board box, the
        # style a cell's plain characters take under the cursor, and where the box sits.
        self._chars: list[list[str]] = []
        self._styles: list[list[Style]] = []
        self._under_cursor: dict[tuple[int, int], Style] = {}
        self._box = (0, 0, 0, 0)          # left, top, width, height of the board box
        self._drawn_cursor: int | None = None
        self._base = self._reverse = Style()
        self._repaint = lambda cell: None
        self._block_cells: frozenset[int] = frozenset()

    # --- data in ----------------------------------------------------------------------
    def show(self, picture: BoardPicture) -> None:
        """Draw a new picture of the board (the same picture again costs nothing; one
        whose ghost tile alone moved repaints only the lines of its old and new cells)."""
        if picture == self.picture:
            return
        old, self.picture = self.picture, picture
        cells = self._changed_cells(old, picture)
        if cells is not None:  # (a move: a few cells, their lines alone made again)
            self._tiles = list(picture.tiles) + [None] * (self.grid ** 2 - len(picture.tiles))
            self._targets, self._recent = set(picture.targets), set(picture.recent)
            for cell in cells:
                self._repaint(cell)
            self._restrip({self._cell_row(c) for c in cells})
            return
        show_changed(self)  # (only the lines the new picture changed are repainted)

    def _changed_cells(self, old: BoardPicture, new: BoardPicture) -> set[int] | None:
        """The cells whose drawing differs between two pictures, when they can be painted
        again alone over the last build (the same size and blocks, none of them in a
        block, a few of them); else None: build the board again."""
        n = self.grid ** 2
        if (self.drawn_lines is None or getattr(self, "_built_size", None) != self.size
                or old.blocks != new.blocks or len(old.tiles) != len(new.tiles) or len(new.tiles) > n):
            return None
        cells = {i for i, (a, b) in enumerate(zip(old.tiles, new.tiles)) if a != b}
        cells |= set(old.targets) ^ set(new.targets)
        cells |= set(old.recent) ^ set(new.recent)
        old_marks, new_marks = old.markers, new.markers
        cells |= {c for c in old_marks.keys() | new_marks.keys() if old_marks.get(c) != new_marks.get(c)}
        if old.ghost != new.ghost:
            cells |= {g.cell for g in (old.ghost, new.ghost) if g is not None}
        if len(cells) > 3 * self.grid or not cells.isdisjoint(self._block_cells) or not all(
                0 <= c < n for c in cells):
            return None
        return cells

    def side(self) -> int:
        return self.grid

    def cursor_moved(self) -> None:
        # Only the lines of the old and the new cursor cell change: keep the rest.
        if self.drawn_lines is None or self._drawn_cursor is None:
            self.refresh()
            return
        rows = {self._cell_row(self._drawn_cursor), self._cell_row(self.cursor)}
        self._drawn_cursor = self.cursor
        self._restrip(rows)

    def _restrip(self, rows: set[int]) -> None:
        """Make again the lines of the cell rows starting at widget lines ``rows``, and
        repaint them (one request for all)."""
        if self.drawn_lines is None:
            return
        width = self.size.width
        regions = []
        for first in sorted(rows):
            for y in range(first, first + self.cell_h):
                if 0 <= y < len(self.drawn_lines):
                    self.drawn_lines[y] = self._strip(y)
                    regions.append(Region(0, y, width, 1))
        if regions:
            self.refresh(*regions)

    def _cell_row(self, cell: int) -> int:
        """The widget line the top of ``cell`` is drawn on."""
        return self._origin[1] + (cell // self.grid) * self.cell_h

    @property
    def cursor_coordinate(self) -> tuple[int, int]:
        return divmod(self.cursor, self.grid)

    # --- mouse -------------------------------------------------------------------------
    def cell_at(self, x: int, y: int) -> int | None:
        """The cell under widget coordinates (x, y), or None."""
        ox, oy = self._origin
        col, row = (x - ox) // self.cell_w, (y - oy) // self.cell_h
        if x < ox or y < oy or not (0 <= col < self.grid and 0 <= row < self.grid):
            return None
        return row * self.grid + col

    # --- size ---------------------------------------------------------------------------
    def choose_cell_size(self, size: Size) -> tuple[int, int, bool]:
        """The biggest cell that fits ``size``: with row/column labels if possible."""
        for labels in (True, False):
            extra_w = ROW_LABEL_WIDTH if labels else 0
            extra_h = 1 if labels else 0
            for w, h in CELL_SIZES:
                if w * self.grid + extra_w <= size.width and h * self.grid + extra_h <= size.height:
                    return w, h, labels
        w, h = CELL_SIZES[-1]
        return w, h, False

    def drawn_width(self, size: Size) -> int:
        """How many columns the board (with its row labels) takes in a widget of ``size``."""
        cw, _, labels = self.choose_cell_size(size)
        return (ROW_LABEL_WIDTH if labels else 0) + self.grid * cw

    def on_resize(self, event: events.Resize) -> None:
        # the first Resize comes after the first paint: a board already built at this
        # size is kept (no second build at the start)
        if self.drawn_lines is not None and getattr(self, "_built_size", None) == event.size:
            return
        self.drawn_lines = None
        self.refresh()

    def notify_style_update(self) -> None:
        # new CSS (a theme): the kept lines and styles are the old ones
        super().notify_style_update()
        self.drawn_lines = None

    # --- drawing ------------------------------------------------------------------------
    def _part(self, name: str) -> Style:
        """The style of component ``tile-board--<name>`` alone (not mixed with the widget's)."""
        return self.get_component_rich_style(f"tile-board--{name}", partial=True)

    def render_line(self, y: int) -> Strip:
        if self.drawn_lines is None or self._built_size != self.size:  # (built by show() before a resize)
            self.drawn_lines = self.build_lines()
        if 0 <= y < len(self.drawn_lines):
            return self.drawn_lines[y]
        return Strip.blank(self.size.width, self.rich_style)

    def build_lines(self) -> list[Strip]:
        self._built_size = self.size
        width, height = self.size.width, self.size.height
        cw, ch, labels = self.choose_cell_size(self.size)
        self.cell_w, self.cell_h, self.show_labels = cw, ch, labels
        n = self.grid
        lw = ROW_LABEL_WIDTH if labels else 0
        bw, bh = lw + n * cw, (1 if labels else 0) + n * ch
        left = max(0, (width - bw) // 2)
        top = max(0, (height - bh) // 2)
        base = self.rich_style
        chars = [[" "] * bw for _ in range(bh)]
        styles = [[base] * bw for _ in range(bh)]
        # A plain character of an empty cell takes the path colour under the cursor, so
        # the reversed cell is bright: that style, kept aside for when the cursor comes.
        under: dict[tuple[int, int], Style] = {}
        oy = 1 if labels else 0
        self._origin = (left + lw, top + oy)

        part = self._part
        label_style = base + part("label")
        if labels:
            for c in range(n):
                x = lw + c * cw + cw // 2
                chars[0][x] = COLUMN_NAMES[c]
                styles[0][x] = label_style
            for r in range(n):
                text = f"{r + 1:>2}"
                for i, t in enumerate(text):
                    chars[oy + r * ch + ch // 2][i] = t
                    styles[oy + r * ch + ch // 2][i] = label_style

        pic = self.picture
        tiles = list(pic.tiles) + [None] * (n * n - len(pic.tiles))
        targets = set(pic.targets)
        recent = set(pic.recent)
        # (read by paint and mark at each call: show() repaints changed cells over this build)
        self._tiles, self._targets, self._recent = tiles, targets, recent
        block_of: dict[int, Block] = {c: b for b in pic.blocks for c in b.cells}
        recent_bg = recent_style(self.app.theme_variables)  # the shared tint of seats.tcss's `recent` class
        dot = part("cursor-dot")

        def put(cell: int, dx: int, dy: int, text: str, style: Style, dotted: bool = False) -> None:
            r, c = divmod(cell, n)
            y0 = oy + r * ch + dy
            x0 = lw + c * cw + dx
            for i, t in enumerate(text):
                chars[y0][x0 + i] = t
                styles[y0][x0 + i] = style
                if dotted:
                    under[(y0, x0 + i)] = style + dot
                else:
                    under.pop((y0, x0 + i), None)

        def paint(cell: int) -> None:
            """Cell ``cell`` (not a block's): its tile or sea, ghost, target mark."""
            r, c = divmod(cell, n)
            mask = self._tiles[cell]
            odd = (r + c) % 2
            target = cell in self._targets
            shown = self.picture.ghost  # (the current one: a moved ghost repaints alone)
            ghost = shown if shown is not None and shown.cell == cell else None
            if mask is None:
                style = part("target-sea" if target else ("sea-alt" if odd else "sea"))
            else:
                style = part("target-tile" if target else ("tile-alt" if odd else "tile"))
            if cell in self._recent and not target:
                style += recent_bg
            dotted = mask is None and ghost is None
            if ghost is not None:
                rows = tile_picture(ghost.mask, cw, ch)
                style = Style.from_color(bgcolor=style.bgcolor) + part("ghost-ok" if ghost.ok else "ghost-bad")
            else:
                rows = tile_picture(mask, cw, ch)
            rows = off_board_gaps(rows, mask if ghost is None else ghost.mask, r, c, n)
            for dy, row in enumerate(rows):
                put(cell, 0, dy, row, style, dotted)
            if target:
                self._mark_target(put, cell, mask is None and ghost is None, style, cw, ch)
            elif ghost is not None and not ghost.ok and ch >= 2 and cw >= 4:
                put(cell, cw - 1, 0, NO_FIT, style)     # (colour is not the only cue)

        def mark(cell: int) -> None:
            """The markers on cell ``cell`` (over its tile or block)."""
            marks = self.picture.markers.get(cell)
            if not marks or not 0 <= cell < n * n:
                return
            text_styles = list(marks)[:cw]
            for x, (letter, mstyle) in zip(marker_columns(self._tiles[cell], cw, ch, len(text_styles)), text_styles):
                put(cell, x, ch // 2, letter[:1], mstyle)

        for cell in range(n * n):
            if cell not in block_of:
                paint(cell)

        for block in pic.blocks:
            self._draw_block(block, chars, styles, lw, oy, targets)

        for cell in pic.markers:
            mark(cell)
        # a move or a ghost that moves repaints only the cells it changed
        self._repaint = lambda cell: (paint(cell), mark(cell))
        self._block_cells = frozenset(block_of)

        self._chars, self._styles, self._under_cursor = chars, styles, under
        # the styles a cursor move needs, read once here (reading them from Textual is
        # slow, and a key repaints several lines)
        self._base, self._reverse = base, part("cursor")
        self._box = (left, top, bw, bh)
        self._drawn_cursor = self.cursor
        return [self._strip(y) for y in range(height)]

    def _strip(self, y: int) -> Strip:
        """Line ``y`` of the last build, with the cursor cell reversed if it is on it."""
        width = self.size.width
        blank_style = self._base
        left, top, bw, bh = self._box
        by = y - top
        if not 0 <= by < bh:
            return Strip.blank(width, blank_style)
        row_chars, row_styles = self._chars[by], self._styles[by]
        n, cw, ch = self.grid, self.cell_w, self.cell_h
        cr, cc = divmod(self.cursor, n)
        oy = self._origin[1] - top
        if oy + cr * ch <= by < oy + (cr + 1) * ch:
            row_styles = list(row_styles)
            reverse = self._reverse
            x0 = self._origin[0] - left + cc * cw
            for x in range(x0, x0 + cw):
                row_styles[x] = self._under_cursor.get((by, x), row_styles[x]) + reverse
            if by == oy + cr * ch and ch >= 2 and cw >= 4:
                row_chars = cursor_corners(row_chars, x0, cw)
        segments = [Segment(" " * left, blank_style)] if left else []
        run_start = 0
        for x in range(1, bw + 1):
            if x == bw or row_styles[x] is not row_styles[run_start] and row_styles[x] != row_styles[run_start]:
                segments.append(Segment("".join(row_chars[run_start:x]), row_styles[run_start]))
                run_start = x
        strip = Strip(segments, left + bw)
        return strip.extend_cell_length(width, blank_style).crop(0, width)

    def _mark_target(self, put, cell: int, empty: bool, style: Style, cw: int, ch: int) -> None:
        """A '+' that reads without colour: in the middle of an empty cell, else beside
        the tile on its middle row (the row of the row label, not the gap line above it)
        where no arm or marker is, else in the free top corners (or underlined when the
        cell is a single row)."""
        mark = style + self._part("target-mark")
        if empty:
            put(cell, cw // 2, ch // 2, "+", mark)
        elif ch >= 2 and cw >= 4:
            middle = tile_picture(self.picture.tiles[cell], cw, ch)[ch // 2]
            free = [x for x in (0, cw - 1) if middle[x] == " "] if not self.picture.markers.get(cell) else []
            for x, y in [(x, ch // 2) for x in free] or [(0, 0), (cw - 1, 0)]:
                put(cell, x, y, "+", mark)
        else:
            row = tile_picture(self.picture.tiles[cell], cw, ch)[ch // 2]
            put(cell, 0, ch // 2, row, style + self._part("target-underline"))

    def _draw_block(self, block: Block, chars, styles, lw: int, oy: int, targets: set[int]) -> None:
        """A block is one piece: a double-line frame (when there is room) around its label,
        so it reads as different from the single-line paths even without colour."""
        n, cw, ch = self.grid, self.cell_w, self.cell_h
        part = self._part
        rows = [divmod(c, n)[0] for c in block.cells]
        cols = [divmod(c, n)[1] for c in block.cells]
        r0, c0 = min(rows), min(cols)
        bw = (max(cols) - c0 + 1) * cw
        bh = (max(rows) - r0 + 1) * ch
        x0, y0 = lw + c0 * cw, oy + r0 * ch
        label_y = y0 + (bh - 1) // 2
        style = part("block")
        target_bg = Style.from_color(bgcolor=part("target-tile").bgcolor)
        frame = bh >= 3 and bw >= 4
        for cell in block.cells:
            r, c = divmod(cell, n)
            tstyle = style + target_bg if cell in targets else style
            for dy in range(ch):
                for dx in range(cw):
                    y, x = oy + r * ch + dy, lw + c * cw + dx
                    chars[y][x] = " "
                    if frame:
                        top, bottom = y == y0, y == y0 + bh - 1
                        left, right = x == x0, x == x0 + bw - 1
                        if top or bottom:
                            chars[y][x] = ("╔" if left else "╗" if right else "═") if top else (
                                "╚" if left else "╝" if right else "═")
                        elif left or right:
                            chars[y][x] = "║"
                    styles[y][x] = tstyle
        label = next((t for t in block.labels if len(t) <= bw - (2 if frame else 0)), "")
        if not label:
            label = next((t for t in block.labels if len(t) <= bw), "")
        if label:
            x = x0 + (bw - len(label)) // 2
            for i, t in enumerate(label):
                chars[label_y][x + i] = t
                styles[label_y][x + i] = style
        inside = range(y0 + 1, y0 + bh - 1) if frame else range(y0, y0 + bh)
        free_rows = [y for y in inside if y != label_y] or [label_y]
        if block.marks and len(block.marks) <= bw - 2:
            y, x = free_rows[-1], x0 + (bw - len(block.marks)) // 2
            for i, (letter, mark_style) in enumerate(block.marks):
                chars[y][x + i] = letter[:1]
                styles[y][x + i] = style + mark_style
        for cell in block.cells:
            if cell not in targets:
                continue
            r, c = divmod(cell, n)
            mark = styles[oy + r * ch][lw + c * cw] + part("target-mark")
            for dy in (ch // 2, 0, ch - 1):
                y, x = oy + r * ch + dy, lw + c * cw + cw // 2
                if y != label_y:
                    chars[y][x] = "+"
                    styles[y][x] = mark
                    break
