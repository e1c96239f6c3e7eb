"""HexBoard: a hex map of land and sea with pieces on it (Survive's island), on CursorGrid.

Generic in what it knows: the screen hands it a ``HexBoardPicture`` (attributes go
down), one ``HexSpot`` per hex of the board in its index order, saying the hex's terrain
(``sea``, ``entrance``, ``beach``, ``forest``, ``mountain``, ``safe``), the creatures in
it, the explorers standing or swimming there (as ``(letter, style, count)`` per seat)
and the boat there (its passengers' ``(letter, style)``).  It knows no rules: which
hexes a selected piece may go to come in the picture as ``targets``.  Keys and messages
are ``CursorGrid``'s; mouse hit-testing is ``HexGrid``'s (messages go up).

Readable without colour (monochrome SSH, colour-blind players): every terrain has a
glyph, every creature a symbol, a boat is a pair of brackets round its passengers'
letters, explorers are their seat's letter with a count, legal destinations carry a
``+`` (in the hex, or in the gap column east of it when the hex is full), the cursor
is reverse video with ``▸ ◂`` either side of its content::

    ~ sea   ≈ safe-island entrance   . beach   ♣ forest   ▲ mountain   ⌂ safe island
    § sea serpent   Δ shark   Ω whale   [RB] a boat with R and B aboard   R2 two of R's
    + a hex the selected piece can go to (a badge on land, the target colour on the sea)

The selected piece's hex and the hexes another player changed since this seat's last
move are tinted (``selected``, ``recent``): extra help for the eye, not the only sign
(the screen names the selected piece, and the log says what changed).

Each hex is ``cell_w`` characters wide (the last one a gap, so neighbours read apart)
and ``cell_h`` rows tall; the biggest size that fits is used (5x3 characters a hex on
a 160x48 terminal, 3x1 on 80x24), and the legend (``LEGEND``) is drawn under the board
when rows are left, wrapped to the widget's width.  Colours are component classes in
``DEFAULT_CSS``, never in Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.strip import Strip

from engine.geometry import HexBoard

from ..widgets.changed_lines import line_regions
from .hex_grid import HexGrid
from ..widgets.seat_styles import recent_style

# (width, height) of a hex, largest first.  Widths are even (half a hex is a whole
# number of characters); one column of each is the gap between neighbours.
CELL_SIZES = ((6, 3), (6, 2), (4, 2), (4, 1), (2, 1))

TERRAIN_GLYPH = {"sea": "~", "entrance": "≈", "beach": ".", "forest": "♣", "mountain": "▲", "safe": "⌂"}
LAND = frozenset({"beach", "forest", "mountain"})
CREATURE_GLYPH = {"serpent": "§", "shark": "Δ", "whale": "Ω"}
TARGET_MARK = "+"
CURSOR_MARKS = ("▸", "◂")   # in the gap columns west and east of the cursor hex

#: (glyph, component, words, short words) for the legend, in the order it is drawn; the
#: short words are used where the long ones would take more than two lines.
LEGEND: tuple[tuple[str, str, str, str], ...] = (
    ("~", "sea", "sea", "sea"), ("≈", "entrance", "entrance", "entry"),
    (".", "beach", "beach", "beach"), ("♣", "forest", "forest", "forest"),
    ("▲", "mountain", "mountain", "mountain"), ("⌂", "safe", "safe island", "safe"),
    ("§", "serpent", "serpent", "serpent"), ("Δ", "shark", "shark", "shark"),
    ("Ω", "whale", "whale", "whale"), ("[ ]", "boat", "boat (letters: aboard)", "boat"),
    ("R2", "", "2 explorers of R", "2 of R"), ("+", "target", "can go there", "go"),
    ("tint", "recent", "changed since your move", "changed"),   # (not "~": that is the sea)
    ("★", "", "treasure value: only you see yours, while placing", "value: hidden"),
)

Mark = tuple[str, Style]          # a seat's letter and its style
Run = list[tuple[str, str | Style]]  # text pieces: a component name or a ready style


@dataclass(frozen=True)
class HexSpot:
    """What one hex shows."""

    terrain: str = "sea"
    creatures: tuple[str, ...] = ()                     # "serpent", "shark", "whale"
    explorers: tuple[tuple[str, Style, int], ...] = ()  # (letter, style, count) not in a boat
    boat: tuple[Mark, ...] | None = None                # a boat: its passengers (() empty)


@dataclass
class HexBoardPicture:
    """Everything the board draws; the screen builds a fresh one on every change."""

    spots: Sequence[HexSpot] = ()
    targets: Iterable[int] = ()      # hexes the selected piece may go to
    selected: int | None = None      # the hex of the selected piece
    recent: Iterable[int] = ()       # hexes the other seats changed since your last action
    legend: bool = True              # draw the legend under the board when there is room
    row_labels: Sequence[str] = ()   # a label west of each row of hexes, where there is room
    column_numbers: bool = False     # number the hexes of a row from the west, over the board


class SurviveHexBoard(HexGrid):
    """The island, the sea and everything on them, with a cursor over the hexes."""

    COMPONENT_CLASSES = {
        "hex-board--sea", "hex-board--entrance", "hex-board--beach", "hex-board--forest",
        "hex-board--mountain", "hex-board--safe",
        "hex-board--serpent", "hex-board--shark", "hex-board--whale", "hex-board--boat",
        "hex-board--count",
        "hex-board--target", "hex-board--target-mark", "hex-board--selected",
        "hex-board--cursor", "hex-board--cursor-mark", "hex-board--legend",
    }

    DEFAULT_CSS = """
    SurviveHexBoard { width: 1fr; height: 1fr; }
    """

    # The diagonals are CursorGrid's; their footer entry is hidden here (a screen beside a
    # 60-column board has no room for it at 80 columns): the screen's help lists them.
    BINDINGS = [
        Binding("home", "cursor_towards('NW')", "North-west", show=False, id="grid-northwest"),
    ]

    def __init__(self, board: HexBoard, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(board, name=name, id=id, classes=classes)
        self.picture = HexBoardPicture(spots=[HexSpot()] * len(board))  # type: ignore[assignment]
        self.legend_rows = 0
        # The last build, without the cursor (a cursor move redraws only its hexes' lines).
        self._chars: list[list[str]] = []
        self._styles: list[list[Style]] = []
        self._box = (0, 0, 0, 0)              # left, top, width, height of the hexes
        self._hex_at: dict[int, tuple[int, int]] = {}  # hex index -> (x, y) in the box
        self._drawn_cursor: int | None = None
        self._base = self._reverse = Style()

    # --- size -------------------------------------------------------------------------------
    def legend_lines(self, width: int) -> list[list[tuple[str, str]]]:
        """The legend wrapped to ``width``: lines of (text, component) pieces (the
        long words if they take two lines at most, else the short ones)."""
        for short in (False, True):
            lines: list[list[tuple[str, str]]] = [[]]
            used = 0
            for glyph, part, words, brief in LEGEND:
                words = brief if short else words
                item = len(glyph) + 1 + len(words)
                gap = 2 if used else 0
                if used and used + gap + item > width:
                    lines.append([])
                    used, gap = 0, 0
                if gap:
                    lines[-1].append(("  ", "legend"))
                lines[-1].append((glyph, part))
                lines[-1].append((" " + words, "legend"))
                used += gap + item
            if len(lines) <= 2:
                break
        return lines

    def choose_cell_size(self, size: Size) -> tuple[int, int]:
        """The biggest hex that fits, leaving room for the legend when it can."""
        half_columns, rows = self.board.size()
        want_legend = getattr(self.picture, "legend", True)
        legend = len(self.legend_lines(size.width)) if want_legend else 0
        for extra in ((legend, 0) if legend else (0,)):
            for w, h in CELL_SIZES:
                if half_columns * w // 2 <= size.width and rows * h + extra <= size.height:
                    self.legend_rows = extra
                    return w, h
        self.legend_rows = 0
        # The last build, without the cursor (a cursor move redraws only its hexes' lines).
        self._chars: list[list[str]] = []
        self._styles: list[list[Style]] = []
        self._box = (0, 0, 0, 0)              # left, top, width, height of the hexes
        self._hex_at: dict[int, tuple[int, int]] = {}  # hex index -> (x, y) in the box
        self._drawn_cursor: int | None = None
        return CELL_SIZES[-1]

    # --- one hex ------------------------------------------------------------------------------
    def _part(self, name: str) -> Style:
        return self.get_component_rich_style(f"hex-board--{name}", partial=True)

    @staticmethod
    def _explorer_run(spot: HexSpot, counts: bool) -> Run:
        run: Run = []
        for letter, style, count in spot.explorers:
            run.append((letter, style))
            if counts:
                run.append((str(min(count, 9)), "count"))
        return run

    @staticmethod
    def _boat_run(spot: HexSpot, letters: bool) -> Run:
        if spot.boat is None:
            return []
        if letters or not spot.boat:
            inner: Run = [(letter, style) for letter, style in spot.boat] or [(" ", "boat")]
        else:
            inner = [(str(len(spot.boat)), "boat")]
        return [("[", "boat"), *inner, ("]", "boat")]

    @staticmethod
    def _creature_run(spot: HexSpot) -> Run:
        return [(CREATURE_GLYPH.get(kind, "?"), kind) for kind in spot.creatures]

    @staticmethod
    def _length(run: Run) -> int:
        return sum(len(text) for text, _ in run)

    def _fit(self, options: Sequence[Run], n: int) -> Run:
        """The first run that fits ``n`` characters, else the last one cut to fit."""
        for run in options:
            if self._length(run) <= n:
                return run
        out: Run = []
        left = n
        for text, style in options[-1]:
            if left <= 0:
                break
            out.append((text[:left], style))
            left -= len(text[:left])
        return out

    def hex_rows(self, spot: HexSpot, n: int, h: int) -> list[Run]:
        """The ``h`` rows (each at most ``n`` characters, not yet centred) of one hex."""
        glyph = TERRAIN_GLYPH.get(spot.terrain, "?")
        land = spot.terrain in LAND
        creatures = self._creature_run(spot)
        people = [self._explorer_run(spot, True), self._explorer_run(spot, False)]
        boat = [self._boat_run(spot, True), self._boat_run(spot, False)]
        fill: Run = [(glyph, spot.terrain)]
        empty = not (creatures or spot.explorers or spot.boat is not None)
        if h == 1:
            if empty:
                return [fill]
            head = fill if land else []
            options = [head + creatures + people[0] + boat[0], creatures + people[0] + boat[0],
                       creatures + people[1] + boat[0], creatures + people[1] + boat[1],
                       creatures[:1] + people[1] + boat[1]]
            return [self._fit(options, n)]
        rows: list[Run] = [[] for _ in range(h)]
        if h == 2:
            top = creatures + people[0]
            rows[0] = self._fit([(fill if land else []) + top, top, creatures + people[1]], n) \
                if top else fill
            if spot.boat is not None:
                rows[1] = self._fit(boat, n)
            elif land:
                rows[1] = fill if top else []
            return rows
        # three rows or more: creatures / explorers / the boat; land is textured
        if land:
            texture: Run = [(f"{glyph} {glyph}" if n >= 3 else glyph, spot.terrain)]
            rows[0] = rows[2] = texture
            rows[1] = self._fit(people, n) if spot.explorers else fill
            return rows
        if empty:
            rows[h // 2] = fill
            return rows
        # what is on the sea, centred on the hex's middle row (where its row letter is)
        shown = [self._fit([creatures], n) if creatures else [],
                 self._fit(people, n) if spot.explorers else [],
                 self._fit(boat, n) if spot.boat is not None else []]
        shown = [run for run in shown if run]
        start = max(0, (h - len(shown)) // 2)
        for i, run in enumerate(shown[:h]):
            rows[start + i] = run
        return rows

    # --- drawing ------------------------------------------------------------------------------
    def build_lines(self) -> list[Strip]:
        self._built_size = self.size
        width, height = self.size.width, self.size.height
        cw, ch = self.choose_cell_size(self.size)
        self.cell_w, self.cell_h = cw, ch
        half_columns, rows = self.board.size()
        bw, bh = half_columns * cw // 2, rows * ch
        headers = 2 if getattr(self.picture, "column_numbers", False) and height - bh - self.legend_rows >= 2 else 0
        total_h = headers + bh + self.legend_rows
        left, top = self._left_margin(width, bw), max(0, (height - total_h) // 2) + headers
        self._origin = (left, top)
        self._room = width - left   # (the board's columns on screen: the last gap may be cut)
        base = self.rich_style
        self._set_picture_sets()
        self._chars = [[" "] * bw for _ in range(bh)]
        self._styles = [[base] * bw for _ in range(bh)]
        self._paint_with = (base, recent_style(self.app.theme_variables))  # (the shared tint of seats.tcss's `recent` class)
        self._hex_at = {}
        self._positions = list(self.board.positions())
        for index in range(len(self._positions)):
            self._paint_hex(index)
        strips: list[Strip] = []
        legend = self.legend_lines(width) if self.legend_rows else []
        numbers = self._column_numbers(left, width) if headers else []
        for y in range(height):
            by = y - top
            if 0 <= by + len(numbers) < len(numbers):
                strips.append(Strip([Segment(numbers[by + len(numbers)], base + self._part("legend"))],
                                    width))
                continue
            if 0 <= by - bh < len(legend):
                strips.append(self._legend_strip(legend[by - bh], width, base, left))
                continue
            if not 0 <= by < bh:
                strips.append(Strip.blank(width, base))
                continue
            strips.append(None)  # type: ignore[arg-type]  (a board line: below, with the cursor)
        self._box = (left, top, bw, bh)
        self._drawn_cursor = self.cursor
        # the styles a cursor move needs, read once here (reading them from Textual is slow)
        self._base, self._reverse, self._label = base, self._part("cursor"), base + self._part("legend")
        self._cursor_mark = self._part("cursor-mark")
        self._plain = {}
        return [strip if strip is not None else self._board_strip(y) for y, strip in enumerate(strips)]

    _label = Style()
    _cursor_mark = Style()
    _room = 0

    def _left_margin(self, width: int, bw: int) -> int:
        """Columns west of the board: centred, and at least one for the row labels when the
        board's last gap column (east of the widest rows) can give it up."""
        left = max(0, (width - bw) // 2)
        if left == 0 and getattr(self.picture, "row_labels", ()) and width >= bw:
            left = 1
        return left

    def _column_numbers(self, left: int, width: int) -> list[str]:
        """Two lines over the board: each hex's place in its row from the west, under which
        the hexes of the first row (and every other row from it), then the second's."""
        lines = []
        for first in (0, 1):
            chars = [" "] * width
            place = 0
            for x2, row in self._positions:
                if row != first:
                    continue
                place += 1
                text = str(place)
                end = left + x2 * self.cell_w // 2 + (self.cell_w - 1) // 2
                for i, char in enumerate(text):
                    x = end - len(text) + 1 + i
                    if 0 <= x < width:
                        chars[x] = char
            lines.append("".join(chars))
        return lines
    _plain: dict[tuple[int, int], Strip] = {}   # (line, width) -> its strip without the cursor (this build's)

    def _set_picture_sets(self) -> None:
        """What ``_paint_hex`` reads of the picture, made once per picture."""
        pic: HexBoardPicture = self.picture  # type: ignore[assignment]
        self._spots = list(pic.spots) + [HexSpot()] * (len(self.board) - len(pic.spots))
        self._targets, self._recent = set(pic.targets), set(pic.recent)

    def _paint_hex(self, index: int) -> None:
        """Hex ``index`` of the picture into the last build's characters and styles."""
        base, recent_bg = self._paint_with
        part, cw, ch = self._part, self.cell_w, self.cell_h
        n = cw - 1
        x2, row = self._positions[index]
        spot = self._spots[index]
        bg = base + part(spot.terrain if spot.terrain in TERRAIN_GLYPH else "sea")
        if index in self._recent:
            bg += recent_bg
        if index == self.picture.selected:  # type: ignore[attr-defined]
            bg += part("selected")
        lines = self.hex_rows(spot, n, ch)
        marked = True
        gap_shown = x2 * cw // 2 + n < min(len(self._chars[0]), self._room or len(self._chars[0]))
        if index in self._targets:
            lines, marked = self._mark_target(lines, n, ch, room_east=gap_shown)
            # Land keeps its colour when its "+" badge fits; the sea (and a full
            # hex) takes the target colour, underlined.
            if not (marked and spot.terrain in LAND):
                bg += part("target")
        x0 = x2 * cw // 2
        self._hex_at[index] = (x0, row * ch)
        chars, styles = self._chars, self._styles
        if gap_shown:
            # The hex's frame: the gap column east of it carries the "+" of a full hex.
            for dy in range(ch):
                full_target = not marked and dy == (ch - 1) // 2
                chars[row * ch + dy][x0 + n] = TARGET_MARK if full_target else " "
                styles[row * ch + dy][x0 + n] = base + part("target-mark") if full_target else base
        for dy in range(ch):
            y = row * ch + dy
            run = lines[dy] if dy < len(lines) else []
            length = self._length(run)
            pad = (n - length) // 2
            cells: list[tuple[str, Style]] = [(" ", bg)] * n
            x = pad
            for text, style in run:
                st = bg + (part(style) if isinstance(style, str) else style)
                if isinstance(style, str) and style == spot.terrain:
                    st = bg
                for t in text:
                    if 0 <= x < n:
                        cells[x] = (t, st)
                    x += 1
            for dx, (t, st) in enumerate(cells):
                chars[y][x0 + dx] = t
                styles[y][x0 + dx] = st

    def _changed_hexes(self, old: HexBoardPicture, new: HexBoardPicture) -> set[int] | None:
        """The hexes whose drawing differs between two pictures, when they can be painted
        again alone over the last build (the same size, legend and labels, a few hexes);
        else None: build the board again."""
        count = len(self.board)
        if (self.drawn_lines is None or getattr(self, "_built_size", None) != self.size
                or old.legend != new.legend or list(old.row_labels) != list(new.row_labels)
                or getattr(old, "column_numbers", False) != getattr(new, "column_numbers", False)
                or len(old.spots) != len(new.spots) or len(new.spots) > count):
            return None
        hexes = {i for i, (a, b) in enumerate(zip(old.spots, new.spots)) if a != b}
        hexes |= set(old.targets) ^ set(new.targets)
        hexes |= set(old.recent) ^ set(new.recent)
        if old.selected != new.selected:
            hexes |= {h for h in (old.selected, new.selected) if h is not None}
        if len(hexes) > count // 3 or not all(0 <= h < count for h in hexes):
            return None
        return hexes

    def _board_strip(self, y: int) -> Strip:
        """Board line ``y`` of the last build, the cursor hex reversed where it is on it."""
        left, top, bw, bh = self._box
        by = y - top
        x0, y0 = self._hex_at.get(self.cursor, (0, -bh))
        on_cursor = y0 <= by < y0 + self.cell_h
        width, base = self.size.width, self._base
        kept = None if on_cursor else self._plain.get((y, width))
        if kept is not None:
            return kept   # (the cursor left this line: as this build drew it)
        chars, styles = self._chars[by], self._styles[by]
        if on_cursor:
            styles = list(styles)
            reverse = self._reverse
            for x in range(x0, min(bw, x0 + self.cell_w - 1)):
                styles[x] = styles[x] + reverse
            chars = self._cursor_frame(chars, x0)
            for x in range(max(0, x0 - 1), min(bw, x0 + self.cell_w)):
                if chars[x] in CURSOR_MARKS:
                    styles[x] = styles[x] + self._cursor_mark
        segments = [Segment(" " * left, base)] if left else []
        labels = getattr(self.picture, "row_labels", ())
        row, dy = divmod(by, self.cell_h)
        if left >= 1 and dy == self.cell_h // 2 and row < len(labels):
            label = labels[row].rjust(2)[:2] if left >= 3 else labels[row][:1]
            segments = [Segment(label.ljust(left), self._label)]
        start = 0
        for x in range(1, bw + 1):
            if x == bw or styles[x] is not styles[start] and styles[x] != styles[start]:
                segments.append(Segment("".join(chars[start:x]), styles[start]))
                start = x
        strip = Strip(segments, left + bw).extend_cell_length(width, base).crop(0, width)
        if not on_cursor:
            self._plain[y, width] = strip
        return strip

    def _cursor_frame(self, chars: list[str], x0: int) -> list[str]:
        """A board line with the cursor hex's content framed by CURSOR_MARKS: in the hex's
        blank cells beside its content, else in the gap columns either side of it (where
        no "+" of a full hex already stands), so the cursor shows without colour too."""
        chars = list(chars)
        n = self.cell_w - 1
        used = [x for x in range(x0, min(len(chars), x0 + n)) if chars[x] != " "]
        west, east = (used[0] - 1, used[-1] + 1) if used else (x0 - 1, x0 + n)
        if 0 <= west < len(chars) and chars[west] == " ":
            chars[west] = CURSOR_MARKS[0]
        if 0 <= east < len(chars) and chars[east] == " ":
            chars[east] = CURSOR_MARKS[1]
        return chars

    @property
    def labels_shown(self) -> bool:
        """Whether the board draws the row labels (a margin of 3 west of the board): as the
        last build drew it, or, not built since it was laid out (a table's start paints once,
        after the first view was drawn), as the build at its size will draw it."""
        if not getattr(self.picture, "row_labels", ()):
            return False
        if self.drawn_lines is None and self.size:
            cw, _ = self.choose_cell_size(self.size)
            half_columns, _ = self.board.size()
            return self._left_margin(self.size.width, half_columns * cw // 2) >= 1
        return getattr(self, "_box", (0,))[0] >= 1

    def show(self, picture: HexBoardPicture) -> None:  # type: ignore[override]
        """Draw a new picture (the same picture again costs nothing)."""
        if picture == self.picture:
            return
        old = self.picture
        hexes = self._changed_hexes(old, picture)  # type: ignore[arg-type]
        if hexes is None:
            super().show(picture)  # type: ignore[arg-type]
            return
        self.picture = picture  # (a move: its hexes painted again, their lines alone made anew)
        self._set_picture_sets()
        top, ch, width = self._box[1], self.cell_h, self.size.width
        lines = set()
        for index in hexes:
            self._paint_hex(index)
            y0 = top + self._positions[index][1] * ch
            lines.update(range(y0, y0 + ch))
        lines = {y for y in lines if 0 <= y < len(self.drawn_lines)}
        for y in lines:
            self._plain.pop((y, width), None)
            self.drawn_lines[y] = self._board_strip(y)
        if lines:
            self.refresh(*line_regions(lines, width, len(self.drawn_lines)))

    def cursor_moved(self) -> None:
        """Only the lines of the old and the new cursor hex change: keep the rest."""
        if self.drawn_lines is None or self._drawn_cursor is None:
            self.refresh()
            return
        top = self._box[1]
        rows = {self._hex_at.get(h, (0, None))[1] for h in (self._drawn_cursor, self.cursor)}
        self._drawn_cursor = self.cursor
        regions = []
        for y0 in sorted(rows - {None}):
            for y in range(top + y0, top + y0 + self.cell_h):
                if 0 <= y < len(self.drawn_lines):
                    self.drawn_lines[y] = self._board_strip(y)
                    regions.append(Region(0, y, self.size.width, 1))
        if regions:  # one request for all the lines
            self.refresh(*regions)

    def notify_style_update(self) -> None:
        # new CSS (a theme): the kept lines and styles are the old ones
        super().notify_style_update()
        self.drawn_lines = None

    def _mark_target(self, lines: list[Run], n: int, h: int, room_east: bool = True) -> tuple[list[Run], bool]:
        """A ``+`` on a free row (or beside the content, when there is room); and
        whether it found room.  A full hex is marked in the gap east of it; where that
        gap is off the screen (``room_east`` False), its middle row is cut to make room."""
        lines = [list(r) for r in lines] + [[] for _ in range(h - len(lines))]
        mark = (TARGET_MARK, "target-mark")
        free = [i for i, r in enumerate(lines) if not r]
        if free:
            lines[min(free, key=lambda i: abs(i - (h - 1) / 2))] = [mark]
            return lines, True
        for i, r in enumerate(lines):
            if self._length(r) < n:
                lines[i] = r + [mark]
                return lines, True
        if not room_east:
            middle = (h - 1) // 2
            lines[middle] = self._fit([lines[middle]], n - 1) + [mark]
            return lines, True
        return lines, False  # full: the "+" goes in the gap east of the hex

    def _legend_strip(self, pieces: list[tuple[str, str]], width: int, base: Style, left: int) -> Strip:
        """One legend line, starting under the board's west edge when it fits there."""
        length = sum(len(text) for text, _ in pieces)
        indent = max(0, min(left, width - length))
        segments = [Segment(" " * indent, base)] if indent else []
        used = indent
        for text, name in pieces:
            if name == "recent":
                style = base + recent_style(self.app.theme_variables)
            else:
                style = base + (self._part(name) if name else self._part("count"))
            if name in TERRAIN_GLYPH or name == "target":
                style = base + self._part(name)
                if name == "target":
                    style += self._part("target-mark")
            segments.append(Segment(text, style))
            used += len(text)
        strip = Strip(segments, used)
        return strip.extend_cell_length(width, base).crop(0, width)
