"""One full Atlantis state consistent with a seat's view (the hard bot's ``sample_hidden``).

What a seat cannot see: the other hands and the pile (every card not in its hand
or the discard, dealt by the public hand sizes), and the plates still under the
tops of double stacks.  Those are drawn from the plates of each half that are
neither on top nor collected; a plate sold back to the box is not in the view, so
it may be drawn again as one still under a top (a small, documented inexactness:
nothing a seat sees depends on it until that stack is uncovered).  The game's own
stream is the caller's to replace (``engine.search`` gives every sample a fresh one).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..components import redeal_hidden
from ..rng import Rng
from . import data
from .rules import AtlantisState, AtlantisView


def sample_hidden(view: AtlantisView, rng: Rng) -> tuple[AtlantisState, Rng]:
    seat = view.seat
    hidden = Counter(data.CARDS)
    hidden.subtract(view.hand)
    hidden.subtract(view.discard)
    cards = sorted(hidden.elements())
    # a skeleton: the hidden cards dealt in order, then shuffled by the game's re-dealer
    hands, i = [], 0
    for p, size in enumerate(view.hand_sizes):
        if p == seat:
            hands.append(view.hand)
            continue
        hands.append(tuple(cards[i:i + size]))
        i += size
    pile = tuple(cards[i:])
    hands, pile, rng = redeal_hidden(hands, pile, seat, rng, keep_sorted=True)
    held = {p for plates in view.plates for p in plates}
    unseen = []
    for half, spaces in enumerate(data.HALF_SPACES):
        under = sum(view.heights[i] - 1 for i in spaces if view.heights[i] > 1)
        pool = [p for p in data.HALF_PLATES[half] if p not in held and p not in view.tops]
        drawn, rng = rng.shuffled(pool)
        unseen.append(tuple(sorted(drawn[:under])))
    state = AtlantisState(
        players=view.players, tops=view.tops, heights=view.heights, unseen=tuple(unseen),
        figures=view.figures, bridges=view.bridges, plates=view.plates, hands=tuple(hands),
        pile=pile, discard=view.discard, sales_per_turn=view.sales_per_turn, turn=view.turn,
        phase=view.phase, sold=view.sold, mover=view.mover, start=view.start, cursor=view.cursor,
        played=view.played, owed=view.owed, paid=view.paid, passes=view.passes, round=view.round,
        debts=view.debts, winners=view.winners, end_reason=view.end_reason, rng=rng)
    return state, rng
