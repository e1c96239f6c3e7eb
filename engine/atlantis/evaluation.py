"""How a position stands for each seat, for the hard bot's shortened rollouts: what
a seat could pay with (cards and plates' values) less the water its figures still
on the road would owe to reach the mainland now."""

from __future__ import annotations

from ..evaluation import margin_values, shares
from . import route
from .rules import final_debts
from .state import AtlantisState

#: A lead of this many points is worth about three to one.
SCALE = 4.0


def evaluate(state: AtlantisState) -> tuple[float, ...]:
    if state.phase == "over":
        return shares(state.winners, state.players)
    debts = final_debts(state)
    return margin_values([route.resources(len(state.hands[p]), state.plates[p]) - state.debts[p] - debts[p]
                          for p in range(state.players)], SCALE)
