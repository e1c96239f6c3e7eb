"""The shared part of every game's position evaluation (``evaluate(state)`` in
``engine/<game>/evaluation.py``, named by the manifest).

The hard bot's search cuts its rollouts short and scores where they stopped: a
game's evaluation turns a full (sampled) state into one value per seat in [0, 1],
like a finished game's share of the win.  Each game supplies a projected score
per seat from what the state holds; ``margin_values`` turns those into values,
so that only the lead over the best other seat counts.
"""

from __future__ import annotations

import math
from typing import Sequence


def shares(winners: Sequence[int], players: int) -> tuple[float, ...]:
    """A finished game's values: the winners share 1."""
    return tuple(1.0 / len(winners) if p in winners else 0.0 for p in range(players))


def margin_values(scores: Sequence[float], scale: float) -> tuple[float, ...]:
    """Per seat, a logistic of its projected score's lead over the best other seat's
    (``scale``: the lead worth about three to one)."""
    out = []
    for p, mine in enumerate(scores):
        best_other = max(s for q, s in enumerate(scores) if q != p)
        x = (mine - best_other) / scale
        out.append(1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x)))))
    return tuple(out)
