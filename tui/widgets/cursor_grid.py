"""CursorGrid: what every board widget shares, square or hex (the DataTable model).

A reactive ``cursor`` (an index into the board shape's cells, see ``engine.geometry``),
``CellHighlighted`` when it moves and ``CellSelected`` on Enter.  Messages go up,
attributes go down: the screen decides what a chosen cell means.  A subclass says what
its board is (``board_shape()``; or just ``side()`` for a full square, whose index is
then ``row * side + column``) and draws it.

A move repaints through ``cursor_moved`` and posts ``CellHighlighted`` for the screen.
A click on a cell moves the cursor there and a click on the cursor's cell chooses it:
a subclass only says which cell it drew where (``cell_at``).

The cursor moves only over the board's cells: holes (cells not in the shape) are jumped
over, and a key that would leave the board leaves the cursor where it is.

Keys on a square board (ids in brackets, for keymaps)::

    Up / k     north   [grid-up]          Left / h   west    [grid-left]
    Down / j   south   [grid-down]        Right / l  east    [grid-right]
    Enter      choose the cell under the cursor            [grid-select]

Keys on a pointy-top hex board (rows of hexes, each row half a hex from the next)::

    Left / h    west     [grid-left]          Right / l   east     [grid-right]
    Home        north-west  [grid-northwest]  PageUp      north-east  [grid-northeast]
    End         south-west  [grid-southwest]  PageDown    south-east  [grid-southeast]
    Up / k      the row above: of its two neighbours there (NW, NE), the one nearer the
                column the run of Up/Down keys started from (the western one on a tie),
                so Up, Up, Up climbs a straight column in a zig-zag and Down, Down, Down
                comes back down the same hexes                          [grid-up]
    Down / j    the same, to the row below (SW, SE)                     [grid-down]
    Enter       choose the hex under the cursor                         [grid-select]

The four diagonals sit where they point: Home PgUp over End PgDn in the navigation
cluster, and 7 9 over 1 3 on the numeric keypad (which sends those keys, and the arrows
for 8 4 6 2, with Num Lock off), so the keypad around 5 is the six hexes around the
cursor.  (The roguelike y u b n were not used: ``u`` is undo on every screen.)  The
footer shows them as one entry on hex boards only; on a square board they are not
bound at all, so those keys reach the screen's own bindings.
"""

from __future__ import annotations

from engine.geometry import HEX_DIRECTION, HexBoard, SquareBoard, to_doubled
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


#: hex-only actions: not available (so not shown, and their keys fall through) on squares
HEX_ONLY = frozenset({"cursor_towards"})


class CursorGrid(Widget, can_focus=True):
    BINDINGS = [
        Binding("up,k", "cursor(0,-1)", "Up", show=False, id="grid-up"),
        Binding("down,j", "cursor(0,1)", "Down", show=False, id="grid-down"),
        Binding("left,h", "cursor(-1,0)", "Left", show=False, id="grid-left"),
        Binding("right,l", "cursor(1,0)", "Right", show=False, id="grid-right"),
        # One footer entry for the four (a Binding.Group ran the key names together).
        Binding("home", "cursor_towards('NW')", "Diagonals", key_display="Home PgUp End PgDn",
                id="grid-northwest"),
        Binding("pageup", "cursor_towards('NE')", "North-east", show=False, id="grid-northeast"),
        Binding("end", "cursor_towards('SW')", "South-west", show=False, id="grid-southwest"),
        Binding("pagedown", "cursor_towards('SE')", "South-east", show=False, id="grid-southeast"),
        Binding("enter", "select_cursor", "Choose", show=False, id="grid-select"),
    ]

    # repaint=False: ``cursor_moved`` repaints (a subclass may repaint only the lines of
    # the old and the new cursor; a reactive repaint would redraw the whole widget).
    cursor: reactive[int] = reactive(0, always_update=False, repaint=False)

    #: When False, Enter is left to the screen's own bindings (which then run in
    #: key order after the cursor keys, and can name what Enter does in the footer).
    enter_selects: bool = True

    class CellMessage(Message):
        """A message about one cell: ``cell`` is its index in the board shape,
        ``coordinate`` its grid coordinate ((col, row) on squares, axial (q, r) on hexes),
        and ``row`` / ``column`` are the square's row and column from 0 (on a hex board:
        ``r`` and ``q``)."""

        def __init__(self, grid: "CursorGrid", cell: int) -> None:
            super().__init__()
            self.grid = grid
            self.cell = cell
            self.coordinate = grid.board_shape().cell(cell)
            self.column, self.row = self.coordinate

        @property
        def control(self) -> "CursorGrid":
            return self.grid

    class CellHighlighted(CellMessage):
        """The cursor moved to ``cell``."""

    class CellSelected(CellMessage):
        """Enter (or a click on the cursor cell) chose ``cell``."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # The column (doubled-width x on hexes) a run of Up/Down keys started from, and
        # the cell that run last reached: any other move starts a new run.
        self._goal: tuple[int, int] | None = None

    # --- the board ------------------------------------------------------------------------
    def side(self) -> int:
        """Cells per row (and column) of a full square board."""
        raise NotImplementedError

    def board_shape(self) -> SquareBoard | HexBoard:
        """The cells the cursor moves over.  Default: a full ``side()`` x ``side()`` square."""
        return SquareBoard.rectangle(self.side())

    @property
    def cursor_cell(self) -> tuple[int, int]:
        """The grid coordinate under the cursor."""
        return self.board_shape().cell(self.cursor)

    def validate_cursor(self, cell: int) -> int:
        return max(0, min(len(self.board_shape()) - 1, cell))

    def watch_cursor(self, old: int, new: int) -> None:
        self.cursor_moved()
        self.post_message(self.CellHighlighted(self, new))

    def cursor_moved(self) -> None:
        """Redraw after the cursor moved (subclasses drop cached lines here)."""
        self.refresh()

    def _move_to(self, cell: tuple[int, int] | None) -> None:
        if cell is not None:
            self.cursor = self.board_shape().index(cell)

    # --- keys -------------------------------------------------------------------------------
    def action_cursor(self, dx: int, dy: int) -> None:
        """One step: on squares by (dx, dy); on hexes dx is west/east, dy the row
        above/below (see the module docstring)."""
        shape = self.board_shape()
        here = shape.cell(self.cursor)
        if shape.kind == "hex" and dy:
            self._move_vertically(shape, here, dy)
            return
        self._goal = None
        self._move_to(shape.first_along(here, (dx, dy)))

    def action_cursor_towards(self, direction: str) -> None:
        """One step in a named hex direction (NW, NE, SW, SE, E, W), over holes."""
        shape = self.board_shape()
        self._goal = None
        self._move_to(shape.first_along(shape.cell(self.cursor), HEX_DIRECTION[direction].delta))

    def _move_vertically(self, shape: HexBoard, here: tuple[int, int], dy: int) -> None:
        x_here = to_doubled(here)[0]
        if self._goal is None or self._goal[1] != self.cursor:
            goal_x = x_here
        else:
            goal_x = self._goal[0]
        west, east = ("NW", "NE") if dy < 0 else ("SW", "SE")
        # Of the two neighbours in that row (or the first hexes beyond a hole), the one
        # nearer the goal column; on a tie the western one.
        options = [shape.first_along(here, HEX_DIRECTION[name].delta) for name in (west, east)]
        options = [h for h in options if h is not None]
        if not options:
            return
        target = min(options, key=lambda h: (abs(to_doubled(h)[0] - goal_x), to_doubled(h)[0]))
        self._move_to(target)
        self._goal = (goal_x, self.cursor)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "select_cursor" and not self.enter_selects:
            return False
        if action in HEX_ONLY and self.board_shape().kind != "hex":
            return False
        return True

    def action_select_cursor(self) -> None:
        self.post_message(self.CellSelected(self, self.cursor))

    # --- mouse ------------------------------------------------------------------------------
    def cell_at(self, x: int, y: int) -> int | None:
        """The index of the cell drawn at content coordinates (x, y), or None (a label,
        a gap, outside the board).  Each board knows its own drawing; default: none."""
        return None

    def on_click(self, event: events.Click) -> None:
        """A click on a cell moves the cursor there; a click on the cursor's cell
        chooses it, as Enter does."""
        offset = event.get_content_offset(self)
        cell = None if offset is None else self.cell_at(offset.x, offset.y)
        if cell is None:
            return
        if cell == self.cursor:
            self.action_select_cursor()
        else:
            self.cursor = cell

