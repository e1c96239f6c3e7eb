"""The rules: two players take turns putting their mark on a 3x3 board; three in a row
wins.  At setup each player is dealt a card naming a lucky square, seen by its owner only;
a winning line through the winner's own lucky square scores 2 instead of 1."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from engine.core import ActionCodec, Event, Game, IllegalAction, Result, View
from engine.options import options_class
from engine.rng import Rng

from . import MANIFEST
from .options import FIELDS

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
EMPTY = -1


class Place(NamedTuple):
    cell: int


TicTacToeOptions = options_class("TicTacToeOptions", __name__, FIELDS)


@dataclass(frozen=True, slots=True)
class TicTacToeState:
    board: tuple[int, ...]  # per cell: the seat whose mark it holds, or EMPTY
    cards: tuple[int, ...]  # per seat: its lucky square (hidden from the other seat)
    turn: int
    rng: Rng


@dataclass(frozen=True, slots=True)
class TicTacToeView(View):
    seat: int | None
    board: tuple[int, ...]
    turn: int
    card: int  # the seat's own lucky square (EMPTY for a spectator)
    line: tuple[int, ...]  # the winning line, once there is one


def winning_line(board: tuple[int, ...]) -> tuple[int, ...]:
    return next((line for line in LINES if board[line[0]] != EMPTY
                 and board[line[0]] == board[line[1]] == board[line[2]]), ())


def over(board: tuple[int, ...]) -> bool:
    return bool(winning_line(board)) or EMPTY not in board


def rerandomise(state: TicTacToeState, seat: int, rng: Rng) -> TicTacToeState:
    """The leak harness's re-draw: every card but ``seat``'s own."""
    cards = list(state.cards)
    for other in range(len(cards)):
        if other != seat:
            cards[other], rng = rng.below(9)
    return replace(state, cards=tuple(cards))


class TicTacToeGame(Game):
    manifest = MANIFEST
    rules_version = "1"
    options_model = TicTacToeOptions
    codec = ActionCodec({"place": Place})
    view_type = TicTacToeView

    def setup(self, options: Any, seats: int, seed: int) -> TicTacToeState:
        rng = Rng.from_seed(seed, "hidden-tic-tac-toe")
        cards = []
        for _ in range(seats):
            card, rng = rng.below(9)
            cards.append(card)
        return TicTacToeState((EMPTY,) * 9, tuple(cards), 0, rng)

    def view(self, state: TicTacToeState, seat: int | None) -> TicTacToeView:
        return TicTacToeView(seat, state.board, state.turn, EMPTY if seat is None else state.cards[seat],
                             winning_line(state.board))

    def legal(self, view: TicTacToeView) -> list[Any]:
        if view.seat != view.turn or over(view.board):
            return []
        return [Place(cell) for cell in range(9) if view.board[cell] == EMPTY]

    def to_act(self, state: TicTacToeState) -> frozenset[int]:
        return frozenset() if over(state.board) else frozenset({state.turn})

    def apply(self, state: TicTacToeState, seat: int, action: Any) -> tuple[TicTacToeState, list[Event]]:
        if seat not in self.to_act(state):
            raise IllegalAction("It is not your turn.")
        if type(action) is not Place or not 0 <= action.cell < 9 or state.board[action.cell] != EMPTY:
            raise IllegalAction("Choose an empty square.")
        board = tuple(seat if cell == action.cell else mark for cell, mark in enumerate(state.board))
        events = [Event("placed", {"seat": seat, "cell": action.cell})]
        if winning_line(board):
            events.append(Event("won", {"seat": seat}))
        return replace(state, board=board, turn=1 - seat), events

    def result(self, state: TicTacToeState) -> Result | None:
        if not over(state.board):
            return None
        line = winning_line(state.board)
        if not line:
            return Result((0.0, 0.0), (), "the board is full")
        winner = state.board[line[0]]
        score = 2.0 if state.cards[winner] in line else 1.0
        return Result(tuple(score if seat == winner else 0.0 for seat in range(2)), (winner,), "three in a row")
