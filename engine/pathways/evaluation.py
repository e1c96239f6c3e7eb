"""How a position stands for each seat, for the hard bot's shortened rollouts: the
race to Atlantis, each subpod's cost of the cheapest way in (a step along a path, a
tile still to lay: the normal bot's measure), the seat to play a little nearer."""

from __future__ import annotations

from ..evaluation import margin_values, shares
from .board import IN_ATLANTIS
from .routes import goal_field
from .state import PathwaysState

VCAP = 60        # cost of a subpod with no way in at all
TEMPO = 2.0      # the seat whose turn it is: about one step ahead
SCALE = 3.0


def evaluate(state: PathwaysState) -> tuple[float, ...]:
    if state.phase == "over":
        return shares(state.winners, state.players)
    field = goal_field(state.cells, state.masks)
    scores = []
    for p, pos in enumerate(state.pods):
        cost = 0 if pos == IN_ATLANTIS else VCAP if pos < 0 else min(field[pos], VCAP)
        scores.append(-cost + (TEMPO if p == state.turn else 0.0))
    return margin_values(scores, SCALE)
