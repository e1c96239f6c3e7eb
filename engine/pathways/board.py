"""Pathways: the board as data -- path ends, the legal-move enumerations, and the data
derived from a board that they share.

Everything here works on states and views alike (their ``cells``, ``masks``, ``pods``
...), so ``legal(view)`` and the checks inside ``apply`` are the same code.  Two kinds of
derived data are kept *beside* the states, never in them (a state's fields are its
digest): for recent boards, which empty cells a tile could join (``needs``) and each
cell's Rotate actions.  Both are keyed by the identity of the board tuples (an entry
holds them, so an id is never reused while it is cached) and derived incrementally by
``apply`` from the board before a placement, rotation or removal, so a turn's ``legal``
finds its board ready.  They are caches only: every answer equals a fresh computation.
"""

from __future__ import annotations

from itertools import chain
from operator import itemgetter
from typing import Any, NamedTuple

from . import data as D

EMPTY = -1
ATLANTIS = -2
IN_ATLANTIS = -1  # pod position once inside the city


# --- actions --------------------------------------------------------------------
class Place(NamedTuple):
    tile: int
    rot: int
    cell: int


class Rotate(NamedTuple):
    cell: int
    rot: int


class Special(NamedTuple):
    tile: int


class Remove(NamedTuple):
    cell: int


class EndPlays(NamedTuple):
    pass


class Step(NamedTuple):
    pod: int
    side: int  # 0..3 = N, E, S, W


class EndMove(NamedTuple):
    pass


# --- board helpers (work on states and views alike) -----------------------------------
NB = D.NEIGHBOURS
SIDES = D.SIDES
OPP_INDEX = (2, 3, 0, 1)
# Precomputed for the hot helpers below (self-play runs them thousands of times a second):
# per cell, (own side bit, neighbour cell, neighbour's facing side bit) for on-board
# neighbours; per cell, the on-board neighbours; per tile id, its distinct
# (rotation, mask) pairs in rotation order (empty for special tiles).
_LINKS = tuple(tuple((SIDES[i], NB[c][i], SIDES[OPP_INDEX[i]]) for i in range(4) if NB[c][i] >= 0)
               for c in range(D.CELLS))
_ON_BOARD_NB = tuple(tuple(n for n in NB[c] if n >= 0) for c in range(D.CELLS))
# per cell and open-side mask: the (neighbour, neighbour's facing side bit) pairs
_OPEN_LINKS = tuple(tuple(tuple((n, opp) for bit, n, opp in _LINKS[c] if m & bit) for m in range(16))
                    for c in range(D.CELLS))
# per cell: fetches the on-board neighbours' values of a board tuple in one C call
# (every cell has at least two on-board neighbours, so it always returns a tuple)
_NB_VALUES = tuple(itemgetter(*_ON_BOARD_NB[c]) for c in range(D.CELLS))
# per cell: its N, E, S, W neighbours' values of a board tuple padded with one 0 at the
# end (index CELLS stands for "off the board")
_NB4_VALUES = tuple(itemgetter(*[n if n >= 0 else D.CELLS for n in NB[c]]) for c in range(D.CELLS))
_tuple_new = tuple.__new__  # builds NamedTuple actions without the Python-level __new__


def _distinct_rotations(shape: int) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for rot in range(4):
        m = D.rotate(shape, rot)
        if all(m != seen for _, seen in out):
            out.append((rot, m))
    return tuple(out)


_TILE_ROTS = tuple(_distinct_rotations(D.SHAPES[k]) if k in D.SHAPES else () for k in D.TILE_KIND)


def _rotation_table(rots: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    """Indexed by ``current mask * 16 + facing sides``: the rotations (in rotation order)
    that change the tile and still meet a neighbour's path end."""
    return tuple(tuple(rot for rot, m in rots if m != current and m & facing)
                 for current in range(16) for facing in range(16))


_SHAPE_TABLES: dict[str, tuple[tuple[int, ...], ...]] = {}
# per tile id: its rotation table (None for special tiles), shared by tiles of one kind
# (built once per kind: ``setdefault(k, table)`` built it for each of the 100 tiles)
_ROT_CHOICES = tuple((_SHAPE_TABLES.get(k) or _SHAPE_TABLES.setdefault(k, _rotation_table(_TILE_ROTS[t])))
                     if _TILE_ROTS[t] else None for t, k in enumerate(D.TILE_KIND))
# per cell, per rotation: the Rotate action (actions are immutable values: shared)
_ROTATES = tuple(tuple(Rotate(c, r) for r in range(4)) for c in range(D.CELLS))


def connects(masks: tuple[int, ...], cells: tuple[int, ...], cell: int, mask: int) -> bool:
    """Does ``mask`` at ``cell`` join at least one open path end of a neighbouring tile?"""
    for bit, n, opp in _LINKS[cell]:
        if mask & bit and cells[n] >= 0 and masks[n] & opp:
            return True
    return False


# Derived data kept beside the states rather than in them (a state's fields are its
# digest): the ``needs`` of recent boards, keyed by the board tuples' identity (the entry
# holds the tuples, so an id cannot be reused while it is here).  ``_place`` derives the
# next board's entry from the last one; a turn's play phase then finds its board here.
_NEEDS: dict[int, tuple[tuple[int, ...], tuple[int, ...], dict[int, int]]] = {}
_NEEDS_KEPT = 64


def _remember(cache: dict, cells: tuple[int, ...], masks: tuple[int, ...], derived: Any) -> None:
    if len(cache) >= _NEEDS_KEPT:
        cache.clear()
    cache[id(cells)] = (cells, masks, derived)


def _remember_needs(cells: tuple[int, ...], masks: tuple[int, ...], need: dict[int, int]) -> None:
    _remember(_NEEDS, cells, masks, need)


def needs(masks: tuple[int, ...], cells: tuple[int, ...]) -> dict[int, int]:
    """For each empty cell next to an open path end: the sides that would connect.
    (The dict may be shared with later calls on the same board: read it, never change it.)"""
    hit = _NEEDS.get(id(cells))
    if hit is not None and hit[0] is cells and hit[1] is masks:
        return hit[2]
    out: dict[int, int] = {}
    for cell, m in enumerate(masks):
        if not m or cells[cell] < 0:
            continue
        for n, opp in _OPEN_LINKS[cell][m]:
            if cells[n] == EMPTY:
                out[n] = out.get(n, 0) | opp
    _remember_needs(cells, masks, out)
    return out


def _needs_after_place(old_cells: tuple[int, ...], old_masks: tuple[int, ...], cells: tuple[int, ...],
                       masks: tuple[int, ...], cell: int, mask: int) -> None:
    """If the board before a placement has its ``needs`` at hand, derive the next one's:
    ``cell`` is no longer empty, and its open ends reach the empty cells beside it."""
    hit = _NEEDS.get(id(old_cells))
    if hit is None or hit[0] is not old_cells or hit[1] is not old_masks:
        return
    need = dict(hit[2])
    need.pop(cell, None)
    for n, opp in _OPEN_LINKS[cell][mask]:
        if cells[n] == EMPTY:
            need[n] = need.get(n, 0) | opp
    _remember_needs(cells, masks, need)


def _needs_after_rotate(cells: tuple[int, ...], old_masks: tuple[int, ...], masks: tuple[int, ...],
                        cell: int, old: int, new: int) -> None:
    """As ``_needs_after_place`` for a tile turned at ``cell`` (from mask ``old`` to
    ``new``): an empty cell's side facing ``cell`` is needed because of ``cell`` alone."""
    hit = _NEEDS.get(id(cells))
    if hit is None or hit[0] is not cells or hit[1] is not old_masks:
        return
    need = dict(hit[2])
    for n, opp in _OPEN_LINKS[cell][old]:
        if cells[n] == EMPTY:
            left = need[n] & ~opp
            if left:
                need[n] = left
            else:
                del need[n]
    for n, opp in _OPEN_LINKS[cell][new]:
        if cells[n] == EMPTY:
            need[n] = need.get(n, 0) | opp
    _remember_needs(cells, masks, need)


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
    return D.rotate(D.SHAPES[D.TILE_KIND[tile]], rot)


# --- enumerations shared by legal() and validation ---------------------------------------
def play_actions(view) -> list[Any]:
    """Every Place and Special the owner of ``view`` could make now."""
    out: list[Any] = []
    hand = view.hands[view.turn] if hasattr(view, "hands") else view.hand  # a state, or a view
    if not hand:
        return out
    need = needs(view.masks, view.cells)
    need_items = None
    seen_kinds: set[str] = set()
    for tile in hand:
        kind = D.TILE_KIND[tile]
        if kind in seen_kinds:
            continue
        seen_kinds.add(kind)
        if kind in D.SPECIAL_KINDS:
            if kind != "trade" or _any_removable(view):
                out.append(Special(tile))
            continue
        if need_items is None:
            need_items = sorted(need.items())
        for rot, m in _TILE_ROTS[tile]:
            out += [_tuple_new(Place, (tile, rot, cell)) for cell, sides in need_items if sides & m]
    return out


def _rotation_row(cells: tuple[int, ...], masks: tuple[int, ...], padded: tuple[int, ...],
                  cell: int) -> tuple[Rotate, ...]:
    """The Rotate actions of one cell: a tile, not locked, turned to a new way that
    still meets a neighbour's path end."""
    tile = cells[cell]
    if tile < 0 or EMPTY not in _NB_VALUES[cell](cells):  # empty or locked
        return ()
    # the sides on which a neighbour's path end faces this cell (same test as
    # connects(): only tiles have non-zero masks)
    m_n, m_e, m_s, m_w = _NB4_VALUES[cell](padded)
    facing = ((m_n & 4) >> 2) | ((m_e & 8) >> 2) | ((m_s & 1) << 2) | ((m_w & 2) << 2)
    rots = _ROT_CHOICES[tile][masks[cell] * 16 + facing]
    if not rots:
        return ()
    row = _ROTATES[cell]
    return tuple([row[r] for r in rots])


# Per board (as _NEEDS): every cell's Rotate actions.  A change at one cell changes the
# rows of that cell and its neighbours only, so apply derives the next board's rows.
_ROWS: dict[int, tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[Rotate, ...], ...]]] = {}
_AFFECTED = tuple((c, *_ON_BOARD_NB[c]) for c in range(D.CELLS))


def _rotation_rows(cells: tuple[int, ...], masks: tuple[int, ...]) -> tuple[tuple[Rotate, ...], ...]:
    hit = _ROWS.get(id(cells))
    if hit is not None and hit[0] is cells and hit[1] is masks:
        return hit[2]
    padded = masks + (0,)
    rows = tuple([_rotation_row(cells, masks, padded, c) for c in range(D.CELLS)])
    _remember(_ROWS, cells, masks, rows)
    return rows


def _rows_after_change(old_cells: tuple[int, ...], old_masks: tuple[int, ...], cells: tuple[int, ...],
                       masks: tuple[int, ...], cell: int) -> None:
    hit = _ROWS.get(id(old_cells))
    if hit is None or hit[0] is not old_cells or hit[1] is not old_masks:
        return
    rows = list(hit[2])
    padded = masks + (0,)
    for c in _AFFECTED[cell]:
        rows[c] = _rotation_row(cells, masks, padded, c)
    _remember(_ROWS, cells, masks, tuple(rows))


def rotate_actions(view) -> list[Rotate]:
    return list(chain.from_iterable(_rotation_rows(view.cells, view.masks)))


def _any_removable(view) -> bool:
    """``bool(removable_cells(view))``, stopping at the first one."""
    cells, pods = view.cells, view.pods
    for c, tile in enumerate(cells):
        if tile >= 0 and EMPTY in _NB_VALUES[c](cells) and c not in pods:
            return True
    return False


def removable_cells(view) -> list[int]:
    cells = view.cells
    pods = view.pods
    return [c for c, tile in enumerate(cells)
            if tile >= 0 and EMPTY in _NB_VALUES[c](cells) and c not in pods]


def step_actions(view) -> list[Step]:
    out = []
    me = view.turn
    pending = view.pending
    if view.mover >= 0:
        candidates = [view.mover] if view.steps_left > 0 else []
    elif pending == "move_own_3":
        candidates = [me]
    elif pending == "move_other_3":
        candidates = [p for p in range(view.players) if p != me]
    else:
        candidates = list(range(view.players))
    for pod in candidates:
        pos = view.pods[pod]
        if pos == IN_ATLANTIS:
            continue
        start = view.move_start if view.mover >= 0 else pos
        for side in range(4):
            t = step_target(view.masks, view.cells, pos, side)
            if t is not None and t != start:
                out.append(Step(pod, side))
    return out
