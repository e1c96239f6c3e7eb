"""CursorGrid: what every square board widget shares (the DataTable model).

A reactive ``cursor`` (a cell index, row-major) moved by arrows and hjkl,
``CellHighlighted`` when it moves and ``CellSelected`` on Enter.  Messages go up,
attributes go down: the screen decides what a chosen cell means.  Subclasses say
how wide the square is (``side``) and draw it.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


class CursorGrid(Widget, can_focus=True):
    BINDINGS = [
        Binding("up,k", "cursor(0,-1)", "Up", show=False, id="grid-up"),
        Binding("down,j", "cursor(0,1)", "Down", show=False, id="grid-down"),
        Binding("left,h", "cursor(-1,0)", "Left", show=False, id="grid-left"),
        Binding("right,l", "cursor(1,0)", "Right", show=False, id="grid-right"),
        Binding("enter", "select_cursor", "Choose", show=False, id="grid-select"),
    ]

    cursor: reactive[int] = reactive(0, always_update=False)

    #: When False, Enter is left to the screen's own bindings (which then run in
    #: key order after the cursor keys, and can name what Enter does in the footer).
    enter_selects: bool = True

    class CellMessage(Message):
        """A message about one cell (``row``/``column`` from 0)."""

        def __init__(self, grid: "CursorGrid", cell: int) -> None:
            super().__init__()
            self.grid = grid
            self.cell = cell
            self.row, self.column = divmod(cell, grid.side())

        @property
        def control(self) -> "CursorGrid":
            return self.grid

    class CellHighlighted(CellMessage):
        """The cursor moved to ``cell``."""

    class CellSelected(CellMessage):
        """Enter (or a click on the cursor cell) chose ``cell``."""

    def side(self) -> int:
        """Cells per row (and column) of the square."""
        raise NotImplementedError

    def validate_cursor(self, cell: int) -> int:
        side = self.side()
        return max(0, min(side * side - 1, cell))

    def watch_cursor(self, old: int, new: int) -> None:
        self.cursor_moved()
        self.post_message(self.CellHighlighted(self, new))

    def cursor_moved(self) -> None:
        """Redraw after the cursor moved (subclasses drop cached lines here)."""
        self.refresh()

    def action_cursor(self, dx: int, dy: int) -> None:
        side = self.side()
        row, col = divmod(self.cursor, side)
        row = max(0, min(side - 1, row + dy))
        col = max(0, min(side - 1, col + dx))
        self.cursor = row * side + col

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "select_cursor" and not self.enter_selects:
            return False
        return True

    def action_select_cursor(self) -> None:
        self.post_message(self.CellSelected(self, self.cursor))
