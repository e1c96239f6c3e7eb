"""Pathways: the state (everything, secrets too) and the view (what one seat may see),
and ``make_view``, the one place a view is made from the state."""

from __future__ import annotations

from ..core import View, maker, state_class
from ..rng import Rng


@state_class
class PathwaysState:
    players: int
    cells: tuple[int, ...]       # tile id per cell, EMPTY, or ATLANTIS
    masks: tuple[int, ...]       # open sides per cell (0 where no tile)
    pods: tuple[int, ...]        # cell per seat, IN_ATLANTIS once inside
    hands: tuple[tuple[int, ...], ...]
    draw: tuple[int, ...]        # face-down pile, next tile first
    discard: tuple[int, ...]     # used special tiles, face up
    turn: int
    phase: str                   # "play" | "move" | "over"
    plays_made: int
    plays_allowed: int
    pending: str                 # "" | "trade" | "move_own_3" | "move_other_3"
    mover: int                   # pod moving in the current move, -1 if none yet
    move_start: int              # cell the current move began on
    steps_left: int
    round: int
    max_rounds: int
    winners: tuple[int, ...]
    end_reason: str
    rng: Rng


@state_class
class PathwaysView(View):
    seat: int | None
    players: int
    cells: tuple[int, ...]
    masks: tuple[int, ...]
    pods: tuple[int, ...]
    hand: tuple[int, ...] | None  # own hand; None for a spectator
    hand_sizes: tuple[int, ...]
    draw_count: int
    discard: tuple[int, ...]
    turn: int
    phase: str
    plays_made: int
    plays_allowed: int
    pending: str
    mover: int
    move_start: int
    steps_left: int
    round: int
    max_rounds: int
    winners: tuple[int, ...]
    end_reason: str


_MAKE_VIEW = maker(PathwaysView)  # PathwaysView(*fields), without the frozen __init__


def make_view(state: PathwaysState, seat: int | None) -> PathwaysView:
    """What ``seat`` may see (``None``: a spectator): everything but the other hands and
    the draw pile, of which only the sizes."""
    hands = state.hands
    return _MAKE_VIEW(  # PathwaysView's fields in declaration order
        seat, state.players, state.cells, state.masks, state.pods,
        hands[seat] if seat is not None else None, tuple(map(len, hands)), len(state.draw),
        state.discard, state.turn, state.phase, state.plays_made, state.plays_allowed,
        state.pending, state.mover, state.move_start, state.steps_left, state.round,
        state.max_rounds, state.winners, state.end_reason,
    )
