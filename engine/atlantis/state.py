"""Atlantis: the state (everything, secrets too) and the view (what one seat may see),
and ``make_view``, the one place a view is made from the state."""

from __future__ import annotations

from operator import sub

from ..core import View, maker, state_class
from ..rng import Rng
from . import route


@state_class
class AtlantisState:
    players: int
    tops: tuple[int, ...]             # top plate id per space, -1 when empty
    heights: tuple[int, ...]          # plates per space: 0, 1 or 2
    unseen: tuple[tuple[int, ...], tuple[int, ...]]  # per half: plates still under a top
    figures: tuple[tuple[int, ...], ...]  # per seat, per figure: ATLANTIS, a space, MAINLAND
    bridges: tuple[int, ...]          # per seat: a space inside the bridged gap, -1 unbuilt
    plates: tuple[tuple[int, ...], ...]   # per seat: collected plate ids, sorted
    hands: tuple[tuple[int, ...], ...]    # per seat: card colours, sorted
    pile: tuple[int, ...]             # face-down cards, sorted (drawn at random)
    discard: tuple[int, ...]          # played and paid cards, sorted, face up
    sales_per_turn: int
    turn: int
    phase: str                        # "start" | "move" | "bridge" | "pay" | "over"
    sold: int                         # plates sold this turn
    mover: int                        # the figure moving (-1 before one is chosen)
    start: int                        # where it stood when the move began
    cursor: int                       # where it stands now in the move
    played: tuple[int, ...]           # card colours played in this move
    owed: int                         # water still to pay
    paid: int                         # water paid so far in this move
    passes: int                       # turns passed in a row
    round: int
    debts: tuple[int, ...]            # at the end: water owed by figures left behind
    winners: tuple[int, ...]
    end_reason: str
    rng: Rng


@state_class
class AtlantisView(View):
    """What one seat may know: the whole route (top plates, stack heights), figures,
    bridges, everyone's plates and hand sizes, its own hand, the move in progress."""

    seat: int | None
    players: int
    tops: tuple[int, ...]
    heights: tuple[int, ...]
    figures: tuple[tuple[int, ...], ...]
    bridges: tuple[int, ...]
    plates: tuple[tuple[int, ...], ...]
    hand: tuple[int, ...] | None      # own cards (colours, sorted); None for a spectator
    hand_sizes: tuple[int, ...]
    pile_count: int
    discard: tuple[int, ...]
    sales_per_turn: int
    turn: int
    phase: str
    sold: int
    mover: int
    start: int
    cursor: int
    played: tuple[int, ...]
    owed: int
    paid: int
    passes: int
    round: int
    scores: tuple[int, ...]           # plates + cards (- debts at the end), public
    debts: tuple[int, ...]
    winners: tuple[int, ...]
    end_reason: str


def make_view(state: AtlantisState, seat: int | None) -> AtlantisView:
    """Whitelisted field by field into a fresh view (``maker``'s positional constructor
    fills the slots in declaration order without the frozen ``__init__``)."""
    hands, plates, debts = state.hands, state.plates, state.debts
    sizes = tuple(map(len, hands))
    worth = tuple(map(sub, map(route.resources, sizes, plates), debts))
    return _MAKE_VIEW(
        seat, state.players, state.tops, state.heights, state.figures, state.bridges, plates,
        hands[seat] if seat is not None else None, sizes, len(state.pile), state.discard,
        state.sales_per_turn, state.turn, state.phase, state.sold, state.mover, state.start,
        state.cursor, state.played, state.owed, state.paid, state.passes, state.round, worth, debts,
        state.winners, state.end_reason,
    )


_MAKE_VIEW = maker(AtlantisView)  # AtlantisView(*fields), without the frozen __init__
