"""One full Survive state consistent with a seat's view (the hard bot's ``sample_hidden``).

What a seat cannot see: the treasure values it is not shown (each seat's are a
shuffle of the printed ``EXPLORER_VALUES``), and the backs of the land tiles other
than its own held ones.  Each terrain's backs, less the ones in its hand, are
dealt again: the tiles the others hold get red or defensive backs (a green one is
used at once), the rest go to the other tiles of that terrain.  The view does not
say which backs were already turned over with sunk tiles (that is in the public
history), so those may be drawn again for a tile still on the island: a small,
documented inexactness.  ``after_creature`` follows from ``red``: only a red tile
moves a creature before step 2.  The game's own stream is the caller's to replace.
"""

from __future__ import annotations

from collections import Counter

from ..rng import Rng
from . import data
from .state import SurviveState, SurviveView


def sample_hidden(view: SurviveView, rng: Rng) -> tuple[SurviveState, Rng]:
    seat = view.seat
    per = data.EXPLORERS_PER_SEAT
    values = list(view.values)
    for p in range(view.players):
        block = view.values[p * per:(p + 1) * per]
        if not any(block):
            values[p * per:(p + 1) * per], rng = rng.shuffled(data.EXPLORER_VALUES)
    backs = [""] * len(view.terrain)
    own = {held.tile: held.back for held in view.hand}
    for tile, back in own.items():
        backs[tile] = back
    others_held = {t for p, tiles in enumerate(view.held) if p != seat for t in tiles}
    for terrain, _ in data.TERRAIN_COUNTS:
        pool = Counter(data.backs_of(terrain))
        pool.subtract(back for tile, back in own.items() if view.terrain[tile] == terrain)
        left = sorted(pool.elements())
        held = [t for t in sorted(others_held) if view.terrain[t] == terrain]
        rest = [t for t, tt in enumerate(view.terrain) if tt == terrain and t not in own and t not in others_held]
        keepable = [i for i, b in enumerate(left) if data.BACK_KIND[b] != "green"]
        chosen, rng = rng.shuffled(keepable)
        chosen = set(chosen[:len(held)])
        for t, i in zip(held, sorted(chosen)):
            backs[t] = left[i]
        others, rng = rng.shuffled([b for i, b in enumerate(left) if i not in chosen])
        for t, b in zip(rest, others):
            backs[t] = b
    state = SurviveState(
        players=view.players, memory=view.memory, terrain=view.terrain, sunk=view.sunk,
        backs=tuple(backs), hands=view.held, values=tuple(values), explorer_hex=view.explorer_hex,
        explorer_boat=view.explorer_boat, boat_hex=view.boat_hex, creature_hex=view.creature_hex,
        turn=view.turn, phase=view.phase, round=view.round, points=view.points, swum=view.swum,
        red=view.red, creature_kind=view.creature_kind, mover=view.mover, steps=view.steps,
        after_creature="move" if view.red else "end", die=view.die, last_sunk=view.last_sunk,
        attack=view.attack, responders=view.responders, winners=view.winners,
        end_reason=view.end_reason, rng=rng)
    return state, rng
