"""Finding Atlantis -- the whole state, and what one seat may see of it.

``FAState`` holds everything, the map included; it is a frozen slots dataclass,
rebuilt with ``engine.core.replace``.  Its field order is part of the canonical
digest stored in every record: add fields at the end, never reorder them.
``FAView`` is whitelisted from it field by field (``view_of``): the seat's own
chart, hand, position and mine, and the public table; never the map.
"""

from __future__ import annotations


from ..core import View, make, state_class
from ..rng import Rng
from . import data


@state_class
class FAState:
    n: int
    k: int
    players: int
    pirate: bool
    roaming: bool
    paper: bool                         # display options: no rule depends on them
    assistant: bool
    max_rounds: int
    terrain: tuple[int, ...]            # per world cell (data.DEEP ...)
    pos: tuple[int, ...]                # map cell per seat
    lost: tuple[bool, ...]              # seat does not know where it is
    lost_obs: tuple[tuple[tuple[int, int, int], ...], ...]  # (dr, dc, facts) from the landing space
    lost_disp: tuple[tuple[int, int], ...]                  # own moves since landing
    charts: tuple[tuple[int, ...], ...]  # facts per world cell, per seat
    hands: tuple[tuple[str, ...], ...]  # action cards (and "captain") in hand
    played: tuple[tuple[tuple[str, int], ...], ...]  # discard pile: (card, burn dir or -1)
    captain: tuple[str, ...]
    offers: tuple[tuple[str, ...], ...]
    captain_shown: tuple[bool, ...]
    arts: tuple[tuple[tuple[str, int], ...], ...]   # unused artifacts held: (id, map cell found)
    used: tuple[tuple[str, ...], ...]
    deck: tuple[str, ...]
    taken: tuple[int, ...]              # artifact spaces already looted (map cells, sorted)
    mines: tuple[int, ...]              # map cell per seat, -1 none
    monsters: tuple[int, ...]           # map cells
    starts: tuple[int, ...]
    surfaced: tuple[int, ...]           # last surfacing cell per seat, -1 none
    trail: tuple[tuple[str, ...], ...]  # public moves since the last known position
    may_declare: tuple[bool, ...]
    picks: tuple[tuple[int, ...], ...]
    failed: tuple[tuple[int, tuple[int, ...]], ...]
    phase: str
    first: int
    turn: int
    actions_left: int
    skip: tuple[int, ...]
    round: int
    winners: tuple[int, ...]
    end_reason: str
    rng: Rng


@state_class
class PlayerPublic:
    start: int
    last_played: tuple[tuple[str, int], ...]   # the last 2 cards, oldest first
    played_count: int
    hand_count: int
    artifacts_held: int
    used: tuple[str, ...]
    captain: str                  # "" until shown
    surfaced: int
    trail: tuple[str, ...]
    has_mine: bool
    lost: bool
    skip: int


@state_class
class FAView(View):
    seat: int | None
    n: int
    k: int
    players: int
    pirate: bool
    roaming: bool
    paper: bool
    assistant: bool
    max_rounds: int
    phase: str
    turn: int
    first: int
    actions_left: int
    round: int
    public: tuple[PlayerPublic, ...]
    monsters: tuple[int, ...]
    deck_count: int
    failed: tuple[tuple[int, tuple[int, ...]], ...]
    winners: tuple[int, ...]
    end_reason: str
    # own (None / empty for a spectator)
    pos: int                      # -1 when unknown to the seat
    chart: tuple[int, ...]
    lost_obs: tuple[tuple[int, int, int], ...]
    lost_disp: tuple[int, int]
    hand: tuple[str, ...]
    captain: str
    offers: tuple[str, ...]
    artifacts: tuple[str, ...]
    mine: int
    may_declare: bool
    picks: tuple[int, ...]
    truth: tuple[int, ...] = ()   # the whole map (world terrain), for everyone once the game is over


def _public_row(state: FAState, seat: int) -> PlayerPublic:
    """The public row of ``seat``: what every player may know of that seat."""
    pile = state.played[seat]
    return make(
        PlayerPublic, start=state.starts[seat], last_played=pile[-2:], played_count=len(pile),
        hand_count=len(state.hands[seat]), artifacts_held=len(state.arts[seat]), used=state.used[seat],
        captain=state.captain[seat] if state.captain_shown[seat] else "", surfaced=state.surfaced[seat],
        trail=state.trail[seat], has_mine=state.mines[seat] >= 0, lost=state.lost[seat], skip=state.skip[seat])


def public_of(state: FAState) -> tuple[PlayerPublic, ...]:
    """Every seat's public row (``FAView.public``)."""
    return tuple(_public_row(state, seat) for seat in range(len(state.hands)))


def view_of(state: FAState, seat: int | None) -> FAView:
    """What ``seat`` may know (``None``: a spectator)."""
    common = dict(
        seat=seat, n=state.n, k=state.k, players=state.players, pirate=state.pirate, roaming=state.roaming,
        paper=state.paper, assistant=state.assistant, max_rounds=state.max_rounds, phase=state.phase,
        turn=state.turn, first=state.first, actions_left=state.actions_left, round=state.round,
        public=public_of(state), monsters=state.monsters, deck_count=len(state.deck), failed=state.failed,
        winners=state.winners, end_reason=state.end_reason,
        truth=state.terrain if state.phase == "over" else ())
    if seat is None:
        return make(FAView, **common, pos=-1, chart=(), lost_obs=(), lost_disp=(0, 0), hand=(), captain="", offers=(),
                      artifacts=(), mine=-1, may_declare=False, picks=())
    return make(FAView, **common, pos=-1 if state.lost[seat] else state.pos[seat], chart=state.charts[seat],
                  lost_obs=state.lost_obs[seat], lost_disp=state.lost_disp[seat], hand=state.hands[seat],
                  captain=state.captain[seat], offers=state.offers[seat],
                  artifacts=tuple(name for name, _ in state.arts[seat]), mine=state.mines[seat],
                  may_declare=state.may_declare[seat], picks=state.picks[seat])


def hand_for(pirate: bool) -> tuple[str, ...]:
    """A full hand: every action card of the mode, and the captain."""
    return data.BASE_CARDS + (data.PIRATE_CARDS if pirate else ()) + ("captain",)
