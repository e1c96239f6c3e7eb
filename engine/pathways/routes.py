"""Route costs on the Pathways board, for the bot: how far each cell is from Atlantis
counting steps along open paths and tiles still to lay (``goal_field``), how far a
subpod can get (``reach_field``), and the walks a move can take.  Pure functions of
the board (cells and masks), so a bot computes them from its view alone."""

from __future__ import annotations

from typing import Sequence

from . import data
from .board import ATLANTIS, EMPTY, IN_ATLANTIS

STEP = 2          # one step along a path
BUILD = 3         # one tile still to lay
INF = 1 << 20

_RING = STEP + BUILD + 1  # bucket ring of the field searches: larger than any step cost

SIDES = data.SIDES
NB = data.NEIGHBOURS
_OPP = (2, 3, 0, 1)
_ATL = frozenset(data.ATLANTIS_CELLS)

# per cell: (neighbour, side bit from cell to neighbour, side bit from neighbour back),
# for neighbours on the board that are not Atlantis
_ADJ = tuple(
    tuple((NB[c][i], SIDES[i], SIDES[_OPP[i]]) for i in range(4) if NB[c][i] >= 0 and NB[c][i] not in _ATL)
    for c in range(data.CELLS)
)
# per cell: (side index, neighbour) for every on-board neighbour (Atlantis included)
_SIDE_NB = tuple(tuple((i, NB[c][i]) for i in range(4) if NB[c][i] >= 0) for c in range(data.CELLS))
# cells touching Atlantis, with the side bit that faces it
_ATL_ENTRY = tuple(
    (c, SIDES[i]) for c in range(data.CELLS) if c not in _ATL
    for i in range(4) if NB[c][i] in _ATL
)


# --- fields -------------------------------------------------------------------------------
def goal_field(cells: Sequence[int], masks: Sequence[int], stop: Sequence[int] = ()) -> list[int]:
    """Cost from each cell into Atlantis (see the module docstring).

    With ``stop``, the search ends once every cell in it is settled (only those are
    exact then).  Dijkstra with a ring of buckets (Dial): the only step costs are
    STEP and STEP + BUILD, both below the ring's size, so the buckets never collide."""
    h_of = [INF] * data.CELLS
    ring: list[list[int]] = [[] for _ in range(_RING)]
    first = ring[STEP % _RING]
    for x, bit in _ATL_ENTRY:
        c = cells[x]
        if c == EMPTY or (c >= 0 and masks[x] & bit):
            h_of[x] = STEP
            first.append(x)
    left = len(stop)
    h = STEP
    idle = 0
    while idle < _RING:
        slot = h % _RING
        bucket = ring[slot]
        if not bucket:
            idle += 1
            h += 1
            continue
        idle = 0
        ring[slot] = []
        for y in bucket:
            if h_of[y] != h:
                continue  # reached more cheaply since
            if left and y in stop:
                left -= sum(1 for s in stop if s == y)
                if left <= 0:
                    return h_of
            if cells[y] == EMPTY:
                enter, my = h + STEP + BUILD, 15
            else:
                enter, my = h + STEP, masks[y]
            nxt = ring[enter % _RING]
            for x, b_yx, b_xy in _ADJ[y]:
                if my & b_yx and enter < h_of[x] and (cells[x] == EMPTY or masks[x] & b_xy):
                    h_of[x] = enter
                    nxt.append(x)
        h += 1
    return h_of


def reach_field(cells: Sequence[int], masks: Sequence[int], src: int) -> list[int]:
    """Cost from ``src`` to stand on each cell (an empty cell's tile included)."""
    f_of = [INF] * data.CELLS
    f_of[src] = 0
    ring: list[list[int]] = [[] for _ in range(_RING)]
    ring[0].append(src)
    f = 0
    idle = 0
    while idle < _RING:
        slot = f % _RING
        bucket = ring[slot]
        if not bucket:
            idle += 1
            f += 1
            continue
        idle = 0
        ring[slot] = []
        for x in bucket:
            if f_of[x] != f:
                continue
            mx = 15 if cells[x] == EMPTY else masks[x]
            for y, b_xy, b_yx in _ADJ[x]:
                if mx & b_xy:
                    if cells[y] == EMPTY:
                        nf = f + STEP + BUILD
                    elif masks[y] & b_yx:
                        nf = f + STEP
                    else:
                        continue
                    if nf < f_of[y]:
                        f_of[y] = nf
                        ring[nf % _RING].append(y)
        f += 1
    return f_of


def step_to(cells: Sequence[int], masks: Sequence[int], pos: int, side: int) -> int | None:
    """Same as ``rules.step_target``: the cell a step reaches, IN_ATLANTIS, or None."""
    bit = SIDES[side]
    if not masks[pos] & bit:
        return None
    n = NB[pos][side]
    if n < 0:
        return None
    c = cells[n]
    if c == ATLANTIS:
        return IN_ATLANTIS
    if c >= 0 and masks[n] & SIDES[_OPP[side]]:
        return n
    return None


def walks(cells, masks, pos: int, steps: int, start: int, into_atlantis: bool = True):
    """Every way to walk up to ``steps`` steps from ``pos`` without stepping onto
    ``start``: a list of ``(final cell, first side or -1, steps)``, staying put first."""
    out = [(pos, -1, 0)]
    stack = [(pos, -1, 0)]
    while stack:
        cur, first, n = stack.pop()
        if n >= steps:
            continue
        for side in range(4):
            t = step_to(cells, masks, cur, side)
            if t is None or t == start:
                continue
            if t == IN_ATLANTIS and not into_atlantis:
                continue
            item = (t, side if first < 0 else first, n + 1)
            out.append(item)
            if t != IN_ATLANTIS:
                stack.append(item)
    return out


