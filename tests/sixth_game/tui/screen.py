"""The screen: one widget, the board, with your card under it; keys 1-9 mark a square."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import Static

from tui.commands import Command
from tui.screens.game import GameScreen

MARKS = {-1: " ", 0: "X", 1: "O"}


class TicTacToeScreen(GameScreen):
    GAME_KEYS = tuple(
        Command(f"mark-{cell + 1}", str(cell + 1), "Mark", f"mark({cell})",
                "Mark a square (1-9, row by row)." if cell == 0 else "", show=cell == 0, key_display="1-9")
        for cell in range(9))

    def compose_board(self) -> ComposeResult:
        yield Static(id="board")

    def refresh_board(self, view: Any, legal: list[Any]) -> None:
        rows = [" | ".join(MARKS[view.board[row * 3 + col]] if view.board[row * 3 + col] >= 0
                           else str(row * 3 + col + 1) for col in range(3)) for row in range(3)]
        card = f"Your lucky square: {view.card + 1}" if view.card >= 0 else "Cards are hidden."
        self.query_one("#board", Static).update("\n---+---+---\n".join(rows) + f"\n\n{card}")

    def action_mark(self, cell: int) -> None:
        chosen = [action for action in self.link.legal() if action.cell == cell]
        if not chosen:
            self.say("Choose an empty square, on your turn.")
            self.app.bell()
            return
        self.send(chosen[0])
