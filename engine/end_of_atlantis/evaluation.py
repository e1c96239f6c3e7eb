"""How a position stands for each seat, for the hard bot's shortened rollouts: its
victory points, what its special cards would add if the game ended now, and half of
what its refugees aboard ships at sea would score on arrival."""

from __future__ import annotations

from ..evaluation import margin_values, shares
from .events import end_bonus
from .ships import arrival_scores
from .state import EoaState, Stage, senate_order

AT_SEA = 0.5
SCALE = 4.0


def evaluate(state: EoaState) -> tuple[float, ...]:
    if state.stage == Stage.OVER:
        return shares(state.game_winners, state.players)
    players = state.players
    first = senate_order(state)[0]
    scores = [float(state.vp[p]) + sum(end_bonus(state, p, c, first) for c in state.specials[p])
              for p in range(players)]
    for ship in state.ships:
        if ship.at_sea:
            for p, points in enumerate(arrival_scores(ship.cubes, players, False)):
                scores[p] += AT_SEA * points
    return margin_values(scores, SCALE)
