"""Survive: the long legal lists, made fast (``board`` states the rules; this module
builds the same lists, in the same order, from tables and small caches).

Everything here is a pure function of a few immutable fields of a state or a view:

* ``water(x)``: the open-water hexes, a function of ``sunk`` (one tile sinks a turn).
* the actions themselves: immutable NamedTuples, so one object per (piece, hex) serves
  every list (tables filled on first use; bounded by pieces x hexes).
* ``moves(x, seat)``: the move phase's list (~60 actions, asked for every move point).
  Walking and swimming (a third of move points) leave the boats, the creatures, who sits
  where and the water as they were (the same tuples, by identity): where one may board
  and each seat's sails are remembered for the last such position (a sail keeps who
  sits where: the count of explorers per boat is kept across it).
* ``sinkable(x)``: a function of ``terrain`` and ``sunk``, remembered for the last pair
  (``legal`` asks it, then ``apply`` checks the chosen tile against it).

Caches hold only answers to pure questions and are bounded (the last position's boats,
the last sink pair, ``water`` for at most 4096 ``sunk`` tuples, tables of at most pieces
x hexes).  ``tests/test_survive_legal_fast.py`` checks every list against a slow,
obvious enumeration.
"""

from __future__ import annotations

from itertools import compress
from typing import Any

from . import data as D
from .state import Ashore, Board, CreatureStep, EndMoves, PlaceBoat, PlaceExplorer, Sail, Sink, Swim, Walk

NB = D.NEIGHBOURS
TILE_AT = D.LAND_TILE_AT
SAFE_AT = D.SAFE_AT
ENTRANCE_OF = D.ENTRANCE_OF
PER_SEAT = D.EXPLORERS_PER_SEAT
END_MOVES = EndMoves()
_new = tuple.__new__  # builds NamedTuple actions without the Python-level __new__


# --- open water ------------------------------------------------------------------------------
_ALWAYS_SEA = frozenset(h for h in range(D.HEXES) if TILE_AT[h] < 0 and SAFE_AT[h] < 0)
_WATER: dict[tuple, frozenset] = {}
_LAST: list = [(None, None)]     # the last sunk tuple asked about (usually the same object)


def water(x: Any) -> frozenset:
    """Every open-water hex now (a set to test membership in, never to iterate): a
    function of which tiles have sunk, remembered for the few dozen a game has."""
    sunk = x.sunk
    last = _LAST[0]               # one tuple, replaced whole (threads)
    if sunk is last[0]:
        return last[1]
    w = _WATER.get(sunk)
    if w is None:
        if len(_WATER) > 4096:
            _WATER.clear()
        w = _WATER[sunk] = _ALWAYS_SEA | {D.LAND_HEX_INDEX[t] for t, k in enumerate(sunk) if k}
    _LAST[0] = (sunk, w)
    return w


# --- the actions, made once --------------------------------------------------------------------
def _table(make: Any) -> dict:
    class Table(dict):
        __slots__ = ()

        def __missing__(self, key: Any) -> Any:
            value = self[key] = make(key)
            return value
    return Table()


# (e, h) -> (neighbour, ``Walk`` there or None for a safe island) for explorer e on h
WALKS = _table(lambda k: tuple((n, None if SAFE_AT[n] >= 0 else _new(Walk, (k[0], n))) for n in NB[k[1]]))
SWIMS = _table(lambda k: tuple((n, _new(Swim, (k[0], n))) for n in NB[k[1]]))
SAILS = _table(lambda k: tuple((n, _new(Sail, (k[0], n))) for n in NB[k[1]]))
CREATURE_STEPS = _table(lambda k: tuple((n, _new(CreatureStep, (k[0], n))) for n in NB[k[1]]))
BOARDS = _table(lambda e: tuple(_new(Board, (e, b)) for b in range(D.BOATS)))
ASHORE = _table(lambda e: _new(Ashore, (e,)))
PLACES = _table(lambda e: tuple(_new(PlaceExplorer, (e, h)) for h in D.LAND_HEX_INDEX))
PLACE_BOAT = tuple(_new(PlaceBoat, (h,)) for h in range(D.HEXES))
SINKS = tuple(_new(Sink, (t,)) for t in range(len(D.LAND_HEX_INDEX)))


# --- the move phase --------------------------------------------------------------------------
# Walking and swimming change neither the boats, the creatures, who sits where nor the
# water: what those decide (where one may board, and each seat's sails) is remembered for
# the last (``sunk``, ``creature_hex``, ``boat_hex``, ``explorer_boat``) seen.
_LAST_BOATS: list = [(None,) * 7]   # one tuple, replaced whole (threads)


def _boats(x: Any) -> tuple:
    """(hex -> the boat there one may board, seat -> its sails (made when first asked),
    explorers aboard per boat and seat) for this position."""
    sunk, ch, bh, eb = x.sunk, x.creature_hex, x.boat_hex, x.explorer_boat
    last = _LAST_BOATS[0]
    if last[0] is bh and last[1] is eb and last[2] is ch and last[3] is sunk:
        return last[4:]
    players = len(eb) // PER_SEAT
    if last[1] is eb:                                  # a sail: nobody changed boats
        aboard = last[6]
    else:
        aboard = [0] * (D.BOATS * players)             # explorers aboard, per boat and seat
        for e, b in enumerate(eb):
            if b >= 0:
                aboard[b * players + e // PER_SEAT] += 1
    spots = {h: b for b, h in enumerate(bh)             # as boarding_spots
             if h >= 0 and h not in ch and sum(aboard[b * players:(b + 1) * players]) < D.BOAT_CAPACITY}
    out = (spots, {}, aboard)
    _LAST_BOATS[0] = (bh, eb, ch, sunk) + out
    return out


def _sails(x: Any, w: frozenset, seat: int, aboard: list) -> list:
    """Every sail of every boat ``seat`` may move (as ``board.boat_moves``, boat by boat)."""
    bh = x.boat_hex
    blocked = {*bh, *x.creature_hex}
    players = x.players
    out: list[Any] = []
    for b, h in enumerate(bh):
        if h >= 0:
            per = aboard[b * players:(b + 1) * players]
            if per[seat] >= max(per):                  # as may_move_boat (an empty boat: 0 >= 0)
                out += [sail for n, sail in SAILS[b, h] if n in w and n not in blocked]
    return out


def moves(x: Any, seat: int) -> list[Any]:
    """Every move of the move phase: ``board.explorer_moves`` of each own explorer in
    order, then ``board.boat_moves`` of every boat in order, then ``EndMoves``."""
    out: list[Any] = []
    append = out.append
    eh, eb, ch, swum = x.explorer_hex, x.explorer_boat, x.creature_hex, x.swum
    w = water(x)
    spots, sails, aboard = _boats(x)
    first = seat * PER_SEAT
    for e in range(first, first + PER_SEAT):
        h = eh[e]
        if h < 0:
            continue
        in_boat = eb[e]
        if in_boat < 0 and h not in w:                 # on land
            boards = None
            for n, walk in WALKS[e, h]:
                if n not in w:
                    if walk is not None:
                        append(walk)
                elif n in spots:
                    if boards is None:
                        boards = BOARDS[e]
                    append(boards[spots[n]])
            continue
        if in_boat >= 0:                               # in a boat: into a boat next to it
            for n in NB[h]:
                if n in spots:
                    append(BOARDS[e][spots[n]])
        else:                                          # swimming
            if h in spots:
                append(BOARDS[e][spots[h]])
            if e not in swum:
                for n, swim in SWIMS[e, h]:
                    if n in w and n not in ch:
                        append(swim)
        if ENTRANCE_OF[h] >= 0:
            append(ASHORE[e])
    mine = sails.get(seat)
    if mine is None:
        mine = sails[seat] = _sails(x, w, seat, aboard)
    out += mine
    append(END_MOVES)
    return out


# --- sinking ---------------------------------------------------------------------------------
_TILE_NB = tuple(NB[h] for h in D.LAND_HEX_INDEX)
_BY_TERRAIN: dict[tuple, tuple] = {}
_SINKABLE: list = [(None, None, ())]


def sinkable(x: Any) -> tuple[int, ...]:
    """The tiles that may be taken off now (the rule: ``board.sinkable``)."""
    terrain, sunk = x.terrain, x.sunk
    last = _SINKABLE[0]
    if last[0] is sunk and last[1] is terrain:
        return last[2]
    by = _BY_TERRAIN.get(terrain)
    if by is None:
        if len(_BY_TERRAIN) > 1024:
            _BY_TERRAIN.clear()
        by = _BY_TERRAIN[terrain] = tuple(tuple(t for t, tt in enumerate(terrain) if tt == k)
                                          for k in D.SINK_ORDER)
    w = water(x)
    ok: tuple[int, ...] = ()
    for tiles in by:
        ok = tuple(t for t in tiles if not sunk[t] and not w.isdisjoint(_TILE_NB[t]))
        if ok:
            break
    _SINKABLE[0] = (sunk, terrain, ok)
    return ok


# --- creatures -------------------------------------------------------------------------------
_OF_KIND = {k: tuple(c for c, kk in enumerate(D.CREATURE_KIND) if kk == k) for k in D.CREATURE_REACH}


def creature_steps_of(x: Any, c: int, w: frozenset) -> list[Any]:
    return [step for n, step in CREATURE_STEPS[c, x.creature_hex[c]] if n in w]


def kind_steps(x: Any, kind: str) -> list[Any]:
    """Every one-hex step of every creature of ``kind`` in play, creature by creature."""
    w, ch = water(x), x.creature_hex
    out: list[Any] = []
    for c in _OF_KIND[kind]:
        h = ch[c]
        if h >= 0:
            out += [step for n, step in CREATURE_STEPS[c, h] if n in w]
    return out


# --- setup -----------------------------------------------------------------------------------
def explorer_placements(x: Any, seat: int, values: Any) -> list[Any]:
    """As ``board.explorer_placements``: per own unplaced explorer of a value not seen
    before, its placement on every land hex nobody stands on."""
    eh = x.explorer_hex
    free = bytearray(b"\x01" * len(D.LAND_HEX_INDEX))    # per land tile: nobody stands there
    for h in set(eh):
        if h >= 0:
            t = TILE_AT[h]
            if t >= 0:
                free[t] = 0
    seen: set[int] = set()
    out: list[Any] = []
    first = seat * PER_SEAT
    for e in range(first, first + PER_SEAT):
        if eh[e] != D.NOT_PLACED:
            continue
        v = values[e]
        if v in seen:
            continue
        seen.add(v)
        out += compress(PLACES[e], free)
    return out
