"""Finding Atlantis -- the ocean around a submarine, and the seat's own chart.

Map cells count ``0 .. n*n-1`` row by row; the world adds a ring beyond the edge
(``mapgen.world_of``).  A look at the sea gives facts (``data.SEA`` ... bits)
relative to the looker, ``(dr, dc, facts)``; ``note`` writes them on the seat's
chart, or keeps them aside while the seat is lost, and ``regain`` puts those on
the chart once it knows where it is again.
"""

from __future__ import annotations

from typing import Any

from ..components import put
from ..core import Event, replace
from . import data
from .mapgen import world_of
from .state import FAState

Facts = list[tuple[int, int, int]]


def step(n: int, cell: int, d: int) -> int:
    """The map cell one step from ``cell`` in direction ``d``, or -1 off the map."""
    r, c = divmod(cell, n)
    dr, dc = data.DIRS[d]
    r, c = r + dr, c + dc
    if 0 <= r < n and 0 <= c < n:
        return r * n + c
    return -1


def step_rel(n: int, cell: int, dr: int, dc: int) -> int:
    """The map cell ``(dr, dc)`` away from ``cell``, or -1 off the map."""
    r, c = divmod(cell, n)
    r, c = r + dr, c + dc
    return r * n + c if 0 <= r < n and 0 <= c < n else -1


def inner_ok(n: int, cell: int, dr: int, dc: int) -> bool:
    return step_rel(n, cell, dr, dc) >= 0


def explore_facts(t: int) -> int:
    """What exploring a space of terrain ``t`` tells."""
    if t == data.DEEP:
        return data.DEEP_F | data.NOTRACE
    if t == data.SEAMOUNT:
        return data.SEA | data.NOTRACE
    if t == data.ARTIFACT:
        return data.SEA | data.TRACE | data.ART
    return data.SEA | data.TRACE | data.ATL


def terrain_at(state: FAState, seat: int, dr: int, dc: int) -> int | None:
    """The terrain ``(dr, dc)`` from the seat (the ring beyond the edge included),
    None outside the world."""
    n, w = state.n, state.n + 2
    r, c = divmod(state.pos[seat], n)
    rr, cc = r + 1 + dr, c + 1 + dc
    if 0 <= rr < w and 0 <= cc < w:
        return state.terrain[rr * w + cc]
    return None


def beneath(state: FAState, seat: int, dr: int, dc: int) -> int:
    """What lies beneath the space ``(dr, dc)`` from the seat, as explored (no
    artifact card); beyond the edge only seamount or deep ocean, and no trace."""
    t = terrain_at(state, seat, dr, dc)
    if inner_ok(state.n, state.pos[seat], dr, dc):
        return explore_facts(t)
    return data.NOTRACE | (data.DEEP_F if t == data.DEEP else data.SEA)


def rod_fact(state: FAState, seat: int, dr: int, dc: int) -> int:
    """Jelly Rod on one space: trace or not; in pirate mode a mine reads as a trace."""
    t = terrain_at(state, seat, dr, dc)
    trace = t is not None and t >= data.ARTIFACT
    if state.pirate:
        cell = step_rel(state.n, state.pos[seat], dr, dc)
        mine = cell >= 0 and cell in state.mines
        return data.ROD if trace or mine else data.NOTRACE
    return data.TRACE if trace else data.NOTRACE


def note(state: FAState, seat: int, facts: Facts, clear: int = 0) -> FAState:
    """Write results (dr, dc, fact bits) relative to the seat's own position on its
    chart, or keep them aside (relative to the landing space) while it is lost.
    ``clear`` bits are removed first (a Periscope's fresh look replaces the old)."""
    if state.lost[seat]:
        dr0, dc0 = state.lost_disp[seat]
        obs = state.lost_obs[seat] + tuple((dr + dr0, dc + dc0, f) for dr, dc, f in facts)
        return replace(state, lost_obs=put(state.lost_obs, seat, obs))
    n, w = state.n, state.n + 2
    r, c = divmod(state.pos[seat], n)
    chart = list(state.charts[seat])
    for dr, dc, f in facts:
        rr, cc = r + 1 + dr, c + 1 + dc
        if 0 <= rr < w and 0 <= cc < w:
            x = rr * w + cc
            chart[x] = (chart[x] & ~clear) | f
    return replace(state, charts=put(state.charts, seat, tuple(chart)))


def note_cell(state: FAState, seat: int, cell: int, facts: int) -> FAState:
    """Facts about one map cell, whatever the seat knows of its own position."""
    x = world_of(state.n, cell)
    chart = list(state.charts[seat])
    chart[x] |= facts
    return replace(state, charts=put(state.charts, seat, tuple(chart)))


def result(seat: int, what: str, cells: Facts, **extra: Any) -> Event:
    """The private event telling the seat what a look found."""
    return Event("result", {"seat": seat, "what": what, "cells": tuple(cells), **extra}, to=(seat,))


def regain(state: FAState, seat: int) -> tuple[FAState, list[Event]]:
    """The seat learns where it is; notes taken while lost go onto its chart."""
    if not state.lost[seat]:
        return state, []
    dr0, dc0 = state.lost_disp[seat]
    r, c = divmod(state.pos[seat], state.n)
    origin_r, origin_c = r - dr0, c - dc0
    w = state.n + 2
    chart = list(state.charts[seat])
    for dr, dc, f in state.lost_obs[seat]:
        rr, cc = origin_r + 1 + dr, origin_c + 1 + dc
        if 0 <= rr < w and 0 <= cc < w:
            chart[rr * w + cc] |= f
    state = replace(state, lost=put(state.lost, seat, False), lost_obs=put(state.lost_obs, seat, ()),
                    lost_disp=put(state.lost_disp, seat, (0, 0)), charts=put(state.charts, seat, tuple(chart)))
    return state, [Event("found_self", {"seat": seat, "cell": state.pos[seat], "n": state.n}, to=(seat,))]

