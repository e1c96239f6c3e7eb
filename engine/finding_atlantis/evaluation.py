"""How a position stands for each seat, for the hard bot's shortened rollouts: how
much its chart holds (facts noted about the map), a seat free to declare well ahead."""

from __future__ import annotations

from ..evaluation import margin_values, shares
from .state import FAState

DECLARE = 15.0   # facts a seat allowed to declare is worth
SCALE = 6.0


def evaluate(state: FAState) -> tuple[float, ...]:
    if state.phase == "over":
        return shares(state.winners, state.players)
    scores = [sum(bin(facts).count("1") for facts in state.charts[p]) + (DECLARE if state.may_declare[p] else 0.0)
              for p in range(state.players)]
    return margin_values(scores, SCALE)
