"""How a position stands for each seat, for the hard bot's shortened rollouts: every
explorer's treasure times how safe it is where it stands (the normal bot's measure:
saved 1, in a boat near a safe island about 0.6, stranded far from a boat near 0)."""

from __future__ import annotations

from ..evaluation import margin_values, shares
from . import data
from .bot import room_and_danger, safety
from .state import SurviveState

PER_SEAT = data.EXPLORERS_PER_SEAT
SCALE = 3.0


def evaluate(state: SurviveState) -> tuple[float, ...]:
    if state.phase == "over":
        return shares(state.winners, state.players)
    room, danger = room_and_danger(state)
    scores = [0.0] * state.players
    for e, h in enumerate(state.explorer_hex):
        if h != data.LOST and h != data.NOT_PLACED:
            scores[e // PER_SEAT] += state.values[e] * max(0.0, safety(state, e, room, danger)) / 100.0
    return margin_values(scores, SCALE)
