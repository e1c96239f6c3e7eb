"""How a position stands for each seat, for the hard bot's shortened rollouts: the
treasure already on safe islands, plus part of what is still alive (more for an
explorer in a boat)."""

from __future__ import annotations

from ..evaluation import margin_values, shares
from . import data
from .state import SurviveState

PER_SEAT = data.EXPLORERS_PER_SEAT
IN_BOAT = 0.6      # of an explorer's value, while it sits in a boat
ALIVE = 0.35       # ... while it is on land or swimming
SCALE = 3.0


def evaluate(state: SurviveState) -> tuple[float, ...]:
    if state.phase == "over":
        return shares(state.winners, state.players)
    scores = [0.0] * state.players
    for e, h in enumerate(state.explorer_hex):
        if h == data.LOST:
            continue
        share = 1.0 if h == data.SAVED else IN_BOAT if state.explorer_boat[e] >= 0 else ALIVE
        scores[e // PER_SEAT] += share * state.values[e]
    return margin_values(scores, SCALE)
