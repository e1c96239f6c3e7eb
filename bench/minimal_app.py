"""The reference for the app's figures: a tiny Textual app with a few widgets, laid out as
a game screen is (a header, a board with a cursor, a status line, a log, a footer).  A
cursor key moves the board's cursor; Enter makes "a move": it marks the cell, says so in
the status line and adds a line to the log."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Footer, Header, Log, Static

SIDE = 8


class MinimalApp(App):
    CSS = """
    #board { width: 2fr; border: round $primary; }
    #side { width: 1fr; }
    #status { height: 3; border: round $secondary; }
    """
    BINDINGS = [
        Binding("up", "cursor(0, -1)", "Up"), Binding("down", "cursor(0, 1)", "Down"),
        Binding("left", "cursor(-1, 0)", "Left"), Binding("right", "cursor(1, 0)", "Right"),
        Binding("enter", "move", "Move"),
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.cursor = (0, 0)
        self.marked: set[tuple[int, int]] = set()
        self.moves = 0

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            yield Static(self.board(), id="board")
            log = Log(id="side")
            log.can_focus = False  # (the arrows are the board's, as in a game screen)
            yield log
        yield Static("Your move.", id="status")
        yield Footer()

    def board(self) -> str:
        return "\n".join(" ".join("@" if (x, y) == self.cursor else "#" if (x, y) in self.marked else "."
                                  for x in range(SIDE)) for y in range(SIDE))

    def action_cursor(self, dx: int, dy: int) -> None:
        x, y = self.cursor
        self.cursor = ((x + dx) % SIDE, (y + dy) % SIDE)
        self.query_one("#board", Static).update(self.board())

    def action_move(self) -> None:
        self.marked ^= {self.cursor}
        self.moves += 1
        self.query_one("#board", Static).update(self.board())
        self.query_one("#status", Static).update(f"Move {self.moves}: you marked {self.cursor}.")
        self.query_one("#side", Log).write_line(f"{self.moves}. {self.cursor}")


if __name__ == "__main__":
    MinimalApp().run()
