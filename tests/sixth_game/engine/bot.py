"""The bots: ``normal`` wins when it can, blocks when it must, else takes the best free
square; ``random`` takes any free square."""

from __future__ import annotations

from typing import Any

from engine.core import Bot
from engine.rng import Rng

from .rules import winning_line

PREFERENCE = (4, 0, 2, 6, 8, 1, 3, 5, 7)


class TicTacToeBot(Bot):
    def __init__(self, seat: int, seed: int, level: str):
        self.seat, self.level = seat, level
        self.rng = Rng.from_seed(seed, f"hidden-tic-tac-toe-bot-{seat}")

    def choose(self, view: Any, legal: list[Any]) -> Any:
        if self.level == "random":
            index, self.rng = self.rng.below(len(legal))
            return legal[index]
        for mark in (self.seat, 1 - self.seat):  # win, else block
            for action in legal:
                board = tuple(mark if cell == action.cell else m for cell, m in enumerate(view.board))
                if winning_line(board):
                    return action
        free = {action.cell: action for action in legal}
        return free[next(cell for cell in PREFERENCE if cell in free)]


def make_bot(seat: int, seed: int, level: str = "normal") -> Bot:
    if level not in ("normal", "random"):
        raise ValueError(f"unknown bot level {level!r}; known: normal, random")
    return TicTacToeBot(seat, seed, level)
