"""Pathways: the actions, each one small step of a turn (``legal`` stays short).

Actions are immutable values, so ``legal`` hands out shared ones (``END_PLAYS``,
``END_MOVE`` and the tables in ``board``)."""

from __future__ import annotations

from typing import NamedTuple


class Place(NamedTuple):
    tile: int
    rot: int
    cell: int


class Rotate(NamedTuple):
    cell: int
    rot: int


class Special(NamedTuple):
    tile: int


class Remove(NamedTuple):
    cell: int


class EndPlays(NamedTuple):
    """Stop playing tiles this turn (allowed once two are played, or none can be)."""


class Step(NamedTuple):
    pod: int
    side: int  # 0..3 = N, E, S, W


class EndMove(NamedTuple):
    """Stop moving: the turn ends and the hand is drawn back up to 4."""


END_PLAYS = EndPlays()
END_MOVE = EndMove()

# the action kinds by their name on the wire and in records
ACTIONS = {
    "place": Place, "rotate": Rotate, "special": Special, "remove": Remove,
    "end_plays": EndPlays, "step": Step, "end_move": EndMove,
}
