"""One full Pathways state consistent with a seat's view (the hard bot's ``sample_hidden``).

What a seat cannot see: the other hands and the draw pile.  The tiles there are
every tile (ids 0-99) not on the board, in its hand or among the used specials,
dealt by the public hand sizes and shuffled by the game's re-dealer.  The game's
own stream is the caller's to replace (``engine.search`` gives every sample a fresh one).
"""

from __future__ import annotations

from ..components import redeal_hidden
from ..rng import Rng
from .rules import PathwaysState, PathwaysView

TILES = 100


def sample_hidden(view: PathwaysView, rng: Rng) -> tuple[PathwaysState, Rng]:
    seat = view.seat
    seen = {c for c in view.cells if 0 <= c < TILES}
    seen.update(view.hand)
    seen.update(view.discard)
    hidden = [t for t in range(TILES) if t not in seen]
    hands, i = [], 0
    for p, size in enumerate(view.hand_sizes):
        if p == seat:
            hands.append(view.hand)
            continue
        hands.append(tuple(hidden[i:i + size]))
        i += size
    hands, draw, rng = redeal_hidden(hands, tuple(hidden[i:]), seat, rng)
    state = PathwaysState(
        players=view.players, cells=view.cells, masks=view.masks, pods=view.pods, hands=hands,
        draw=draw, discard=view.discard, turn=view.turn, phase=view.phase,
        plays_made=view.plays_made, plays_allowed=view.plays_allowed, pending=view.pending,
        mover=view.mover, move_start=view.move_start, steps_left=view.steps_left,
        round=view.round, max_rounds=view.max_rounds, winners=view.winners,
        end_reason=view.end_reason, rng=rng)
    return state, rng
