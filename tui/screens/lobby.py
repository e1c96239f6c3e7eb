"""What the two lobbies share: a title, the tables in a list with a row cursor, a status
line under it and an error line, and Enter on a row joins it.

The LAN lobby (``tui.lan.screens.LobbyScreen``: tables announced on the LAN, an
address box) and a table server's lobby (``tui.ssh.lobby.ServerLobbyScreen``: the
server's tables, new table, watch, seat token) each say which columns they show, what a
row's cells are, what joining means and what else the screen holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, TypeVar

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

Row = TypeVar("Row")
Answer = TypeVar("Answer")


class TablesLobby(Screen[Answer], Generic[Answer, Row]):
    """A list of tables to join.  A subclass sets ``COLUMNS`` and ``WAITING`` (the status
    before the first list), gives ``title_text()`` and ``action_join()``, and may add
    widgets under the status line (``compose_fields``)."""

    DEFAULT_CSS = """
    TablesLobby { align: center top; }
    TablesLobby #box { width: 100%; max-width: 110; height: 100%; padding: 0 1; }
    TablesLobby #title { text-style: bold; color: $ink-gold; margin: 1 0 0 0; }
    TablesLobby #tables { height: 1fr; min-height: 4; border: round $primary; }
    TablesLobby #status { color: $ink-muted; height: auto; }
    TablesLobby #error { color: $error; height: auto; }
    """
    AUTO_FOCUS = "#tables"

    COLUMNS: Sequence[str] = ()
    WAITING = ""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[Row] = []

    def title_text(self) -> str:
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield Static(self.title_text(), id="title")
            tables = DataTable(id="tables", cursor_type="row", zebra_stripes=True)
            tables.add_columns(*self.COLUMNS)
            yield tables
            yield Static(self.WAITING, id="status")
            yield from self.compose_fields()
            yield Static("", id="error")
        yield Footer()

    def compose_fields(self) -> Iterable[Any]:
        """Widgets under the status line (none here)."""
        return ()

    # --- what the screen shows ------------------------------------------------------------
    def show_rows(self, rows: Iterable[Row], cells: Callable[[Row], Sequence[str]],
                  cursor: int | None = None) -> None:
        """The list anew, one line of ``cells(row)`` a row; the cursor stays on the same
        line (or goes to line ``cursor``)."""
        tables = self.query_one("#tables", DataTable)
        keep = tables.cursor_row if cursor is None else cursor
        tables.clear()
        self.rows = list(rows)
        for row in self.rows:
            tables.add_row(*cells(row))
        if self.rows:
            tables.move_cursor(row=min(max(keep, 0), len(self.rows) - 1))

    def selected(self) -> Row | None:
        """The row under the cursor, if any."""
        row = self.query_one("#tables", DataTable).cursor_row
        return self.rows[row] if 0 <= row < len(self.rows) else None

    def say(self, text: str) -> None:
        self.query_one("#status", Static).update(text)

    def show_error(self, text: str) -> None:
        if self.is_mounted:
            self.query_one("#error", Static).update(text)

    # --- keys ----------------------------------------------------------------------------------
    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_join()

    def action_join(self) -> None:
        raise NotImplementedError
