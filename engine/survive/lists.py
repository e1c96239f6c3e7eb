"""Survive: the long legal lists, made fast (``board`` states the rules; this module
builds the same lists, in the same order, from tables).

Everything here is a pure function of a few immutable fields of a state or a view:

* ``water(x)``: the open-water hexes, a function of ``sunk`` (one tile sinks a turn).
* the actions themselves: immutable NamedTuples, so one object per (piece, hex) serves
  every list (tables filled on first use; bounded by pieces x hexes).
* the move phase's list (~60 actions, asked for every move point): ``moves.py``, from
  these tables.
* ``sinkable(x)``: a function of ``terrain`` and ``sunk``.

``tests/test_survive_legal_fast.py`` checks every list against a slow, obvious
enumeration.
"""

from __future__ import annotations

from itertools import compress
from typing import Any

from . import data
from .actions import Ashore, Board, CreatureStep, EndMoves, PlaceBoat, PlaceExplorer, Sail, Sink, Swim, Walk

NB = data.NEIGHBOURS
TILE_AT = data.LAND_TILE_AT
SAFE_AT = data.SAFE_AT
ENTRANCE_OF = data.ENTRANCE_OF
PER_SEAT = data.EXPLORERS_PER_SEAT
END_MOVES = EndMoves()
_new = tuple.__new__  # builds NamedTuple actions without the Python-level __new__


# --- open water ------------------------------------------------------------------------------
_ALWAYS_SEA = frozenset(h for h in range(data.HEXES) if TILE_AT[h] < 0 and SAFE_AT[h] < 0)


def water(view: Any) -> frozenset:
    """Every open-water hex now (a set to test membership in, never to iterate)."""
    return _ALWAYS_SEA.union(compress(data.LAND_HEX_INDEX, view.sunk))


# --- the actions, made once --------------------------------------------------------------------
def _table(make: Any) -> dict:
    class Table(dict):
        __slots__ = ()

        def __missing__(self, key: Any) -> Any:
            value = self[key] = make(key)
            return value
    return Table()


# (e, h) -> per neighbour of h (in ``NEIGHBOURS`` order): explorer e's ``Walk`` there (None
# onto a safe island), its ``Swim`` there; (b, h) -> boat b's ``Sail`` there
WALKS = _table(lambda k: tuple(None if SAFE_AT[n] >= 0 else _new(Walk, (k[0], n)) for n in NB[k[1]]))
SWIMS = _table(lambda k: tuple(_new(Swim, (k[0], n)) for n in NB[k[1]]))
SAILS = _table(lambda k: tuple(_new(Sail, (k[0], n)) for n in NB[k[1]]))
CREATURE_STEPS = _table(lambda k: tuple((n, _new(CreatureStep, (k[0], n))) for n in NB[k[1]]))
BOARDS = _table(lambda e: tuple(_new(Board, (e, b)) for b in range(data.BOATS)))
ASHORE = _table(lambda e: _new(Ashore, (e,)))
PLACES = _table(lambda e: tuple(_new(PlaceExplorer, (e, h)) for h in data.LAND_HEX_INDEX))
PLACE_BOAT = tuple(_new(PlaceBoat, (h,)) for h in range(data.HEXES))
SINKS = tuple(_new(Sink, (t,)) for t in range(len(data.LAND_HEX_INDEX)))


# --- sinking ---------------------------------------------------------------------------------
_TILE_NB = tuple(NB[h] for h in data.LAND_HEX_INDEX)


def sinkable(view: Any) -> tuple[int, ...]:
    """The tiles that may be taken off now (the rule: ``board.sinkable``)."""
    terrain, sunk = view.terrain, view.sunk
    w = water(view)
    ok: tuple[int, ...] = ()
    for k in data.SINK_ORDER:
        ok = tuple(t for t, tt in enumerate(terrain)
                   if tt == k and not sunk[t] and not w.isdisjoint(_TILE_NB[t]))
        if ok:
            break
    return ok


# --- creatures -------------------------------------------------------------------------------
_OF_KIND = {k: tuple(c for c, kk in enumerate(data.CREATURE_KIND) if kk == k) for k in data.CREATURE_REACH}


def creature_steps_of(view: Any, c: int, w: frozenset) -> list[Any]:
    return [step for n, step in CREATURE_STEPS[c, view.creature_hex[c]] if n in w]


def kind_steps(view: Any, kind: str) -> list[Any]:
    """Every one-hex step of every creature of ``kind`` in play, creature by creature."""
    w, ch = water(view), view.creature_hex
    out: list[Any] = []
    for c in _OF_KIND[kind]:
        h = ch[c]
        if h >= 0:
            out += [step for n, step in CREATURE_STEPS[c, h] if n in w]
    return out


# --- setup -----------------------------------------------------------------------------------
def explorer_placements(view: Any, seat: int, values: Any) -> list[Any]:
    """As ``board.explorer_placements``: per own unplaced explorer of a value not seen
    before, its placement on every land hex nobody stands on."""
    eh = view.explorer_hex
    free = bytearray(b"\x01" * len(data.LAND_HEX_INDEX))    # per land tile: nobody stands there
    for h in set(eh):
        if h >= 0:
            t = TILE_AT[h]
            if t >= 0:
                free[t] = 0
    seen: set[int] = set()
    out: list[Any] = []
    first = seat * PER_SEAT
    for e in range(first, first + PER_SEAT):
        if eh[e] != data.NOT_PLACED:
            continue
        v = values[e]
        if v in seen:
            continue
        seen.add(v)
        out += compress(PLACES[e], free)
    return out
