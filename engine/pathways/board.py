"""Pathways: the board as data -- path ends, and what is legal on a board.

Everything here works on states and views alike (their ``cells``, ``masks``, ``pods``
...), so ``legal(view)`` and the checks inside ``apply`` are the same code: each
stage's choices (``play_choices``, ``trade_choices``, ``move_choices``) are the
``choices`` column of ``rules.STAGES``.  ``legal`` hands out shared, prebuilt action
values (immutable).
"""

from __future__ import annotations

import functools

from itertools import chain, compress
from operator import itemgetter
from struct import Struct
from typing import Any

from . import data
from .actions import END_MOVE, END_PLAYS, Place, Remove, Rotate, Special, Step
from ._tables import EXITS as _EXITS, FACING as _FACING, OPEN_LINKS as _OPEN_LINKS
from ._tables import ROT_CHOICES as _ROT_CHOICES, TILE_ROTS as _TILE_ROTS

EMPTY = -1
ATLANTIS = -2
IN_ATLANTIS = -1  # pod position once inside the city


# --- board helpers (work on states and views alike) -----------------------------------
NB = data.NEIGHBOURS
SIDES = data.SIDES
OPP_INDEX = (2, 3, 0, 1)
# Precomputed for the helpers below, which every legal list and every check in apply use:
# per cell, (own side bit, neighbour cell, neighbour's facing side bit) for on-board
# neighbours; per cell, the on-board neighbours.
_LINKS = tuple(tuple((SIDES[i], NB[c][i], SIDES[OPP_INDEX[i]]) for i in range(4) if NB[c][i] >= 0)
               for c in range(data.CELLS))
_ON_BOARD_NB = tuple(tuple(n for n in NB[c] if n >= 0) for c in range(data.CELLS))
# per cell: fetches the on-board neighbours' values of a board tuple in one C call
# (every cell has at least two on-board neighbours, so it always returns a tuple)
_NB_VALUES = tuple(itemgetter(*_ON_BOARD_NB[c]) for c in range(data.CELLS))
# Worked out from data.py ahead of time (engine/pathways/tables_gen.py; imported above):
# per cell, its ``facing(masks)`` and ``exits(masks)`` functions (``_FACING``, ``_EXITS``)
# and, per open-side mask, its (neighbour, facing side bit) pairs (``_OPEN_LINKS``); per
# tile id, its distinct (rotation, mask) pairs (``_TILE_ROTS``) and its rotation table
# (``_ROT_CHOICES``, indexed by current mask * 16 + facing sides: the rotations that
# change the tile and still meet a neighbour's path end, a bit each).

_tuple_new = tuple.__new__  # builds NamedTuple actions without the Python-level __new__
_CELL_IDS = range(data.CELLS)


# per cell, per set of rotations (a bit each): its Rotate actions in rotation order
# (actions are immutable values: shared)
_BIT_SETS = tuple(tuple(bits >> r & 1 for r in range(4)) for bits in range(16))
_ROTATE_SETS = tuple([tuple([tuple(compress(row, bits)) for bits in _BIT_SETS])
                      for row in [[_tuple_new(Rotate, (c, r)) for r in range(4)] for c in range(data.CELLS)]])


def connects(masks: tuple[int, ...], cells: tuple[int, ...], cell: int, mask: int) -> bool:
    """Does ``mask`` at ``cell`` join at least one open path end of a neighbouring tile?"""
    for bit, n, opp in _LINKS[cell]:
        if mask & bit and cells[n] >= 0 and masks[n] & opp:
            return True
    return False


def needs(masks: tuple[int, ...], cells: tuple[int, ...]) -> dict[int, int]:
    """For each empty cell next to an open path end: the sides that would connect."""
    out: dict[int, int] = {}
    for cell, m in enumerate(masks):
        if not m or cells[cell] < 0:
            continue
        for n, opp in _OPEN_LINKS[cell][m]:
            if cells[n] == EMPTY:
                out[n] = out.get(n, 0) | opp
    return out


def is_locked(cells: tuple[int, ...], cell: int) -> bool:
    """Locked: every side touches a tile, the border or Atlantis."""
    return EMPTY not in _NB_VALUES[cell](cells)


def step_target(masks, cells, pos: int, side: int) -> int | None:
    """Where a subpod at ``pos`` ends after one step to ``side``: a cell,
    IN_ATLANTIS, or None if the paths do not join that way."""
    if pos < 0 or not masks[pos] & SIDES[side]:
        return None
    n = NB[pos][side]
    if n < 0:
        return None
    if cells[n] == ATLANTIS:
        return IN_ATLANTIS
    if cells[n] >= 0 and masks[n] & SIDES[OPP_INDEX[side]]:
        return n
    return None


def tile_rot_mask(tile: int, rot: int) -> int:
    return data.rotate(data.SHAPES[data.TILE_KIND[tile]], rot)


# --- enumerations shared by legal() and validation ---------------------------------------
# Actions are immutable values, so legal() hands out shared ones instead of building each:
# per tile, its Special (None for a path tile); per pod and side, its Step; per cell, its
# Remove; per tile, lazily, its Place actions (see _place_plan).
_SPECIAL_OF = tuple(Special(t) if k in data.SPECIAL_KINDS else None for t, k in enumerate(data.TILE_KIND))
_IS_TRADE = tuple(k == "trade" for k in data.TILE_KIND)
_KINDS = tuple(sorted(set(data.TILE_KIND)))
_KIND_BIT = tuple(1 << _KINDS.index(k) for k in data.TILE_KIND)  # a bit per tile kind
_STEPS = tuple(tuple(Step(p, s) for s in range(4)) for p in range(4))
_REMOVES = tuple(Remove(c) for c in range(data.CELLS))
# per pod and set of sides (a bit each): its Step actions in side order
_STEP_SETS = tuple(tuple(tuple(steps[i] for i in range(4) if bits >> i & 1) for bits in range(16))
                   for steps in _STEPS)
_STEPS_THEN_END = tuple(tuple(steps + (END_MOVE,) for steps in sets) for sets in _STEP_SETS)
# per cell and the cell a move began on: the sides a step may take (all but the one
# back onto the start)
def _away(cell: int) -> tuple[int, ...]:
    row = [15] * data.CELLS
    for i, n in enumerate(NB[cell]):
        if n >= 0:
            row[n] = 15 & ~SIDES[i]
    return tuple(row)


_AWAY = tuple(map(_away, range(data.CELLS)))
# per path tile, once it is first played: its (mask, Place actions indexed by cell) for
# each distinct rotation, in rotation order (100 tuples a rotation, built on first use)
@functools.cache
def _place_plan(tile: int) -> tuple[tuple[int, tuple[Place, ...]], ...]:
    return tuple((m, tuple([_tuple_new(Place, (tile, rot, c)) for c in range(data.CELLS)]))
                 for rot, m in _TILE_ROTS[tile])


def play_actions(view) -> list[Any]:
    """Every Place and Special the owner of ``view`` could make now: for each kind of
    tile in the hand (its first tile), a Special, or a Place for each distinct rotation
    (in rotation order) and each empty cell it would join (in cell order)."""
    hand = view.hands[view.turn] if hasattr(view, "hands") else view.hand  # a state, or a view
    if not hand:
        return []
    return _play_actions(hand, view)


def _play_actions(hand: tuple[int, ...], view) -> list[Any]:
    out: list[Any] = []
    need = needs(view.masks, view.cells)
    order = None
    seen = 0
    for tile in hand:
        bit = _KIND_BIT[tile]
        if seen & bit:
            continue
        seen |= bit
        special = _SPECIAL_OF[tile]
        if special is not None:
            if not _IS_TRADE[tile] or any_removable(view):
                out.append(special)
            continue
        if order is None:
            order = sorted(need)
        for m, row in _place_plan(tile):
            out += [row[c] for c in order if need[c] & m]
    return out


def trade_choices(view, seat: int) -> list[Remove]:
    """A trade tile was played: every tile that may be traded away, in cell order."""
    return [_REMOVES[c] for c in removable_cells(view)]


def move_choices(view, seat: int) -> list[Any]:
    """The move (or a special tile's move): every Step, then End move."""
    mover = view.mover
    if mover >= 0:  # (step_actions, inlined for the move going on: most moves)
        pos = view.pods[mover]
        if view.steps_left <= 0 or pos < 0:
            return [END_MOVE]
        return list(_STEPS_THEN_END[mover][_EXITS[pos](view.masks) & _AWAY[pos][view.move_start]])
    out = step_actions(view)
    out.append(END_MOVE)
    return out


def play_choices(view, seat: int) -> list[Any]:
    """Playing tiles: every Place and Special, End plays once two tiles are played or
    none can be, and every Rotate before the first play."""
    hand = view.hand
    out = _play_actions(hand, view) if hand else []
    plays_made = view.plays_made
    if plays_made >= data.BASE_PLAYS or not out:
        out.append(END_PLAYS)
    if plays_made == 0:
        out += _rotations_in_order(_rotation_rows(view.cells, view.masks))
    return out


def _rotation_row(cells: tuple[int, ...], masks: tuple[int, ...], cell: int) -> tuple[Rotate, ...]:
    """The Rotate actions of one cell: a tile, not locked, turned to a new way that
    still meets a neighbour's path end."""
    tile = cells[cell]
    if tile < 0 or EMPTY not in _NB_VALUES[cell](cells):  # empty or locked
        return ()
    # (_FACING: the sides on which a neighbour's path end faces this cell, the same test
    # as connects(): only tiles have non-zero masks)
    return _ROTATE_SETS[cell][_ROT_CHOICES[tile][masks[cell] * 16 + _FACING[cell](masks)]]


def _rotation_rows(cells: tuple[int, ...], masks: tuple[int, ...]) -> dict[int, tuple[Rotate, ...]]:
    """Cell -> its Rotate actions, for the cells that have any."""
    rows = {}
    for c in range(data.CELLS):
        row = _rotation_row(cells, masks, c)
        if row:
            rows[c] = row
    return rows


def _rotations_in_order(rows: dict[int, tuple[Rotate, ...]]) -> chain:
    return chain.from_iterable(map(rows.__getitem__, sorted(rows)))


def rotate_actions(view) -> list[Rotate]:
    """Every Rotate, by cell then rotation."""
    return list(_rotations_in_order(_rotation_rows(view.cells, view.masks)))


def any_removable(view) -> bool:
    """``bool(removable_cells(view))``: a tile beside an empty cell, with no subpod on it."""
    cells, pods = view.cells, view.pods
    free = _unlocked_tiles(cells)
    for p in pods:
        if p >= 0 and free >> (8 * p) & 1:
            free ^= 1 << (8 * p)
    return free != 0


def is_removable(view, cell: int) -> bool:
    """``cell in removable_cells(view)``, for one cell."""
    cells = view.cells
    return (0 <= cell < data.CELLS and cells[cell] >= 0 and EMPTY in _NB_VALUES[cell](cells)
            and cell not in view.pods)


# Removable tiles by bit arithmetic on the board as one integer, a byte per cell: the
# cells as signed bytes are 0..99 for a tile, 0xFF for EMPTY and 0xFE for Atlantis, so a
# byte's top bit says "no tile" and, with its low bit, "empty".  Each mask below has a 1
# in the low bit of the bytes it selects.
_ONES = int.from_bytes(bytes([1] * data.CELLS), "little")
_NOT_COL0 = int.from_bytes(bytes(int(c % data.SIZE != 0) for c in range(data.CELLS)), "little")
_NOT_COL9 = int.from_bytes(bytes(int(c % data.SIZE != data.SIZE - 1) for c in range(data.CELLS)), "little")
_ROW_SHIFT = 8 * data.SIZE
_PACK_CELLS = Struct(f"{data.CELLS}b").pack


def _unlocked_tiles(cells: tuple[int, ...]) -> int:
    """The tiles with an empty cell beside them (not locked), a low bit per cell's byte."""
    board = int.from_bytes(_PACK_CELLS(*cells), "little")
    empty = (board >> 7) & board & _ONES
    beside = (((empty >> 8) & _NOT_COL9) | ((empty << 8) & _NOT_COL0)
              | (empty >> _ROW_SHIFT) | (empty << _ROW_SHIFT))
    return beside & (~board >> 7) & _ONES


def removable_cells(view) -> list[int]:
    """Tiles that may be traded away: not locked, no subpod on them (in cell order)."""
    free = _unlocked_tiles(view.cells)
    for p in view.pods:
        if p >= 0 and free >> (8 * p) & 1:
            free ^= 1 << (8 * p)
    return list(compress(_CELL_IDS, free.to_bytes(data.CELLS, "little")))


def step_actions(view) -> list[Step]:
    """Every Step: for each subpod that may move (in seat order), each side (N, E, S, W)
    whose path joins the next tile or Atlantis, never back onto the move's start."""
    masks, pods = view.masks, view.pods
    mover = view.mover
    if mover >= 0:  # the move goes on: that subpod, never back onto the move's start
        pos = pods[mover]
        if view.steps_left <= 0 or pos < 0:
            return []
        return list(_STEP_SETS[mover][_EXITS[pos](masks) & _AWAY[pos][view.move_start]])
    pending = view.pending
    me = view.turn
    if pending == "move_own_3":
        candidates: Any = (me,)
    elif pending == "move_other_3":
        candidates = [p for p in range(view.players) if p != me]
    else:
        candidates = range(view.players)
    out: list[Step] = []
    for pod in candidates:  # (a first step never returns to the start: it leaves it)
        pos = pods[pod]
        if pos >= 0:  # (not IN_ATLANTIS)
            out += _STEP_SETS[pod][_EXITS[pos](masks)]
    return out
