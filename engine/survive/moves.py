"""Survive: the move phase's legal list (``board`` states the rule: ``explorer_moves``
of each own explorer in order, then ``boat_moves`` of every boat in order, then
``EndMoves``), made fast from tables.

The list is asked for at every move point (~60 actions).  What is on each hex is one
byte (``env_of``: land, safe island, sea, a creature, a full boat, a boat one may
board); a piece's part of the list is a pure function of the piece, its hex and the
bytes of that hex and its neighbours (one ``itemgetter`` call), kept by
``functools.lru_cache``: most pieces stand where they stood a point ago.
``tests/test_survive_legal_fast.py`` checks every list against a slow enumeration, also
over positions taken out of order and from interleaved games.
"""

from __future__ import annotations

import functools

from itertools import compress, repeat
from operator import itemgetter
from typing import Any

from . import data
from .lists import ASHORE, BOARDS, END_MOVES, SAILS, SWIMS, WALKS

NB = data.NEIGHBOURS
ENTRANCE_OF = data.ENTRANCE_OF
PER_SEAT = data.EXPLORERS_PER_SEAT
CAPACITY = data.BOAT_CAPACITY
LAND_HEX = data.LAND_HEX_INDEX
BOAT_IDS = tuple(range(data.BOATS))

# --- what is on each hex, as one byte: the board as the move phase sees it -------------------
SEA, LAND, SAFE, CREATURE, FULL, SPOT = 0, 1, 2, 3, 4, 8   # SPOT + b: boat b, one may board it
# land tiles on the island, safe islands, the rest sea; three more bytes at the end take
# the writes of pieces off the board (hex codes -1..-3 index them)
_START = bytes(LAND if data.LAND_TILE_AT[h] >= 0 else SAFE if data.SAFE_AT[h] >= 0 else SEA
               for h in range(data.HEXES)) + bytes(3)
_SPOT_CODES = tuple(SPOT + b for b in BOAT_IDS)
_CREATURE_CODES = (CREATURE,) * data.CREATURES
# hex -> the bytes of it and its neighbours (one C call)
LOCAL = tuple(itemgetter(h, *NB[h]) for h in range(data.HEXES))


def no_move(eb: tuple, seat: int) -> frozenset:
    """The boats ``seat`` may not move (as ``board.may_move_boat``): occupied, with fewer
    of its explorers aboard than someone else's."""
    by_seat = [eb[lo:lo + PER_SEAT] for lo in range(0, len(eb), PER_SEAT)]
    stuck = set()
    for b in set(eb):
        if b >= 0:
            aboard = [mine.count(b) for mine in by_seat]
            if aboard[seat] < max(aboard):
                stuck.add(b)
    return frozenset(stuck)


def env_of(view: Any) -> bytearray:
    """Per hex (``HEXES`` bytes, then 3 spare): LAND (a tile still on the island), SAFE,
    CREATURE (open water with a creature), FULL (with a boat and no room), SPOT + b (with
    boat b, room and no creature: as ``board.boarding_spots``) or SEA."""
    sunk, ch, bh, eb = view.sunk, view.creature_hex, view.boat_hex, view.explorer_boat
    env = bytearray(_START)
    any(map(env.__setitem__, compress(LAND_HEX, sunk), repeat(SEA)))
    any(map(env.__setitem__, bh, _SPOT_CODES))         # boats in play (the rest: spare bytes)
    for b in set(eb):
        if b >= 0 and eb.count(b) >= CAPACITY:
            env[bh[b]] = FULL
    any(map(env.__setitem__, ch, _CREATURE_CODES))     # a creature: no boarding, no sailing in
    return env


# --- one piece's part, from the bytes around it ----------------------------------------------
@functools.lru_cache(maxsize=65536)
def explorer_part(e: int, h: int, in_boat: bool, swam: bool, around: tuple) -> tuple:
    """``board.explorer_moves`` of explorer ``e`` on hex ``h`` (``around``: the bytes of
    ``h`` and its neighbours)."""
    here, codes = around[0], around[1:]
    moves: list[Any] = []
    if not in_boat and here == LAND:                   # on land: walk, board a boat next to it,
        for walk, swim, c in zip(WALKS[e, h], SWIMS[e, h], codes):  # or step into the sea
            if c == LAND:
                moves.append(walk)
                continue
            if c >= SPOT:
                moves.append(BOARDS[e][c - SPOT])
            if c == SEA or c >= FULL:
                moves.append(swim)
    elif in_boat:                                      # into a boat next to it, or ashore
        moves += [BOARDS[e][c - SPOT] for c in codes if c >= SPOT]
        if ENTRANCE_OF[h] >= 0:
            moves.append(ASHORE[e])
    else:                                              # swimming: the boat here, then its one
        if here >= SPOT:                               # hex: a swim or the step ashore
            moves.append(BOARDS[e][here - SPOT])
        if not swam:                                   # to open water without a creature
            moves += [swim for swim, c in zip(SWIMS[e, h], codes) if c == SEA or c >= FULL]
            if ENTRANCE_OF[h] >= 0:
                moves.append(ASHORE[e])
    return tuple(moves)


@functools.lru_cache(maxsize=65536)
def boat_part(b: int, h: int, around: tuple) -> tuple:
    """``board.boat_moves`` of a boat the seat may move, on hex ``h``: to open water with
    no boat and no creature."""
    return tuple(sail for sail, c in zip(SAILS[b, h], around[1:]) if c == SEA)


# --- the whole list ----------------------------------------------------------------------------
def moves(view: Any, seat: int) -> list[Any]:
    """Every move of the move phase for ``seat`` (the list ``board.moves`` states)."""
    eh, eb, swum, bh = view.explorer_hex, view.explorer_boat, view.swum, view.boat_hex
    env = env_of(view)
    out: list[Any] = []
    for e in range(seat * PER_SEAT, (seat + 1) * PER_SEAT):
        h = eh[e]
        if h >= 0:
            out += explorer_part(e, h, eb[e] >= 0, e in swum, LOCAL[h](env))
    stuck = no_move(eb, seat)
    for b, h in enumerate(bh):
        if h >= 0 and b not in stuck:
            out += boat_part(b, h, LOCAL[h](env))
    out.append(END_MOVES)
    return out
