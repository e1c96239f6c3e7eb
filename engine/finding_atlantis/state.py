"""Finding Atlantis -- the options, the whole state, and what one seat may see of it.

``FAState`` holds everything, the map included; it is a frozen slots dataclass,
rebuilt with ``engine.core.replace``.  Its field order is part of the canonical
digest stored in every record: add fields at the end, never reorder them.
``FAView`` is whitelisted from it field by field (``view_of``): the seat's own
chart, hand, position and mine, and the public table; never the map.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter

from ..core import View, maker
from ..rng import Rng
from . import data as D


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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


_SPECTATOR_OWN = (-1, (), (), (0, 0), (), "", (), (), -1, False, ())

# ``view_of`` runs for a seat after every move (self-play, bots, every screen), so it is
# built by positional construction (``engine.core.maker``) and shares what is public.
_make_public = maker(PlayerPublic)
_make_view = maker(FAView)
# The public row of each seat is made from per-seat fields of the state, and only from
# them: the "hot" ones change with most actions, the others seldom.
_COLD = attrgetter("starts", "arts", "used", "captain", "captain_shown", "mines", "lost", "skip")
# The last table seen: its cold fields, its hot ones and its ``PlayerPublic`` rows.  A row
# whose fields are those of the last table is the same value, so it is shared (public
# values only; the next table replaces the entry, whatever the match).
_last_public: tuple = (None, (), (), (), (), ())


def public_of(state: FAState) -> tuple[PlayerPublic, ...]:
    """Every seat's public row (``FAView.public``)."""
    global _last_public
    cold = _COLD(state)
    hands, played, trail, surfaced = state.hands, state.played, state.trail, state.surfaced
    last_cold, last_hands, last_played, last_trail, last_surfaced, last_pub = _last_public
    same = cold == last_cold  # then the seats are the same too (``starts``)
    out = []
    for s in range(len(hands)):
        if same and hands[s] is last_hands[s] and played[s] is last_played[s] \
                and trail[s] is last_trail[s] and surfaced[s] == last_surfaced[s]:
            out.append(last_pub[s])
            continue
        pile = played[s]
        out.append(_make_public(
            cold[0][s], pile[-2:], len(pile), len(hands[s]), len(cold[1][s]), cold[2][s],
            cold[3][s] if cold[4][s] else "", surfaced[s], trail[s], cold[5][s] >= 0, cold[6][s],
            cold[7][s]))
    pub = tuple(out)
    _last_public = (cold, hands, played, trail, surfaced, pub)
    return pub


def view_of(state: FAState, seat: int | None) -> FAView:
    """What ``seat`` may know (``None``: a spectator), field by field in declaration order."""
    terrain = state.terrain if state.phase == "over" else ()
    if seat is None:
        return _make_view(
            None, state.n, state.k, state.players, state.pirate, state.roaming, state.paper,
            state.assistant, state.max_rounds, state.phase, state.turn, state.first,
            state.actions_left, state.round, public_of(state), state.monsters, len(state.deck),
            state.failed, state.winners, state.end_reason, *_SPECTATOR_OWN, terrain)
    arts = state.arts[seat]
    return _make_view(
        seat, state.n, state.k, state.players, state.pirate, state.roaming, state.paper,
        state.assistant, state.max_rounds, state.phase, state.turn, state.first,
        state.actions_left, state.round, public_of(state), state.monsters, len(state.deck),
        state.failed, state.winners, state.end_reason,
        -1 if state.lost[seat] else state.pos[seat], state.charts[seat], state.lost_obs[seat],
        state.lost_disp[seat], state.hands[seat], state.captain[seat], state.offers[seat],
        tuple([a for a, _ in arts]) if arts else (), state.mines[seat], state.may_declare[seat],
        state.picks[seat], terrain)


def hand_for(pirate: bool) -> tuple[str, ...]:
    """A full hand: every action card of the mode, and the captain."""
    return D.BASE_CARDS + (D.PIRATE_CARDS if pirate else ()) + ("captain",)


def __getattr__(name: str) -> type:
    """``FindingAtlantisOptions`` lives in ``options.py``, imported on first use (pydantic: start time)."""
    if name == "FindingAtlantisOptions":
        from .options import FindingAtlantisOptions

        return FindingAtlantisOptions
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
