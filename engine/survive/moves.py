"""Survive: the move phase's legal list, kept up to date from the last one (``board``
states the rule: ``explorer_moves`` of each own explorer in order, then ``boat_moves``
of every boat in order, then ``EndMoves``).

The list is asked for at every move point (~60 actions) and one point changes little:
a walk or a swim moves one explorer, a sail one boat and the explorers in it.  So each
seat's last list is kept as its pieces' parts (one short list per own explorer, one per
boat) together with the position it was made for, and the next one is made by diffing
the new position against it and remaking only the parts the change can reach:

* an explorer's part depends on its own hex, boat and whether it swam (a swimmer that
  did has used its one sea hex: no swim, no step ashore), and on what is
  on its hex and the six around it: land or water (``sunk``), a creature, a boat one
  may board (``spots``);
* a boat's part depends on its own hex, on whether the seat may move it (the counts of
  explorers aboard: ``explorer_boat``), and on the water, creatures and boats around it.

What is on each hex is one byte (``env_of``: land, safe island, sea, a creature, a full
boat, a boat one may board); a part is a pure function of its piece, its hex and the
bytes of that hex and its neighbours (one ``itemgetter`` call), remembered in a bounded
table.  Within a turn the list is patched: after a walk or a swim only the explorers
that moved (or swam) are remade; after a sail, the pieces on or next to the hexes the
boat left and entered.  Any other change (a new turn) remakes every part from the table.

The hexes where anything of that changed (tiles sunk, creatures, boats or boarding spots
that came or went) make one set; a part is remade when its piece changed or the set
holds its hex or a neighbour (``AROUND``).  The diffs are C-level (``map``/``compress``
over the tuples, set operations): a Python loop over a seat's ten explorers costs as
much as remaking a few parts.  Nothing here depends on which game a
position came from: another game's position is only a bigger diff.  The memory is one
tuple per seat, replaced whole (threads), bounded by the seats.
``tests/test_survive_legal_fast.py`` checks every list against a slow enumeration, also
over positions taken out of order and from interleaved games.
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import itemgetter, ne
from typing import Any

from . import data as D
from .lists import ASHORE, BOARDS, END_MOVES, SAILS, SWIMS, WALKS

NB = D.NEIGHBOURS
ENTRANCE_OF = D.ENTRANCE_OF
PER_SEAT = D.EXPLORERS_PER_SEAT
CAPACITY = D.BOAT_CAPACITY
LAND_HEX = D.LAND_HEX_INDEX
BOAT_IDS = tuple(range(D.BOATS))
OWN = tuple(range(PER_SEAT))

# --- what is on each hex, as one byte: the board as the move phase sees it -------------------
SEA, LAND, SAFE, CREATURE, FULL, SPOT = 0, 1, 2, 3, 4, 8   # SPOT + b: boat b, one may board it
# land tiles on the island, safe islands, the rest sea; three more bytes at the end take
# the writes of pieces off the board (hex codes -1..-3 index them)
_START = bytes(LAND if D.LAND_TILE_AT[h] >= 0 else SAFE if D.SAFE_AT[h] >= 0 else SEA
               for h in range(D.HEXES)) + bytes(3)
_SPOT_CODES = tuple(SPOT + b for b in BOAT_IDS)
_CREATURE_CODES = (CREATURE,) * D.CREATURES
# hex -> it and its neighbours; the piece codes -1..-3 -> nothing
AROUND = tuple(frozenset((h,) + NB[h]) for h in range(D.HEXES)) + (frozenset(),) * 3
_around = AROUND.__getitem__
# hex -> the bytes of it and its neighbours (one C call)
LOCAL = tuple(itemgetter(h, *NB[h]) for h in range(D.HEXES))
_LAST_BASE: list = [(None, None)]      # one tuple each, replaced whole (threads)
_LAST_EB: list = [(None, None, None)]
_LAST_ENV: list = [(None,) * 5]


def aboard_of(eb: tuple) -> tuple[dict, dict]:
    """(boat -> explorers aboard per seat, for the occupied boats; seat -> the boats it
    may not move, filled when asked) for ``explorer_boat``."""
    last = _LAST_EB[0]
    if last[0] is eb:
        return last[1], last[2]
    taken = set(eb)
    taken.discard(-1)
    by_seat = [eb[lo:lo + PER_SEAT] for lo in range(0, len(eb), PER_SEAT)]
    occupied = {b: [mine.count(b) for mine in by_seat] for b in taken}
    out = (occupied, {})
    _LAST_EB[0] = (eb,) + out
    return out


def no_move(eb: tuple, seat: int) -> frozenset:
    """The boats ``seat`` may not move (as ``board.may_move_boat``): occupied, with fewer
    of its explorers aboard than someone else's."""
    occupied, stuck = aboard_of(eb)
    out = stuck.get(seat)
    if out is None:
        out = stuck[seat] = frozenset(b for b, per in occupied.items() if per[seat] < max(per))
    return out


def env_of(x: Any) -> bytearray:
    """Per hex (``HEXES`` bytes, then 3 spare): LAND (a tile still on the island), SAFE,
    CREATURE (open water with a creature), FULL (with a boat and no room), SPOT + b (with
    boat b, room and no creature: as ``board.boarding_spots``) or SEA; remembered for the
    last position (never written once made)."""
    sunk, ch, bh, eb = x.sunk, x.creature_hex, x.boat_hex, x.explorer_boat
    last = _LAST_ENV[0]
    if last[0] is bh and last[1] is eb and last[2] is ch and last[3] is sunk:
        return last[4]
    base = _LAST_BASE[0]
    if base[0] is not sunk:
        start = bytearray(_START)
        any(map(start.__setitem__, compress(LAND_HEX, sunk), repeat(SEA)))
        base = _LAST_BASE[0] = (sunk, bytes(start))
    env = bytearray(base[1])
    any(map(env.__setitem__, bh, _SPOT_CODES))         # boats in play (the rest: spare bytes)
    for b, per in aboard_of(eb)[0].items():
        if sum(per) >= CAPACITY:
            env[bh[b]] = FULL
    any(map(env.__setitem__, ch, _CREATURE_CODES))     # a creature: no boarding, no sailing in
    _LAST_ENV[0] = (bh, eb, ch, sunk, env)
    return env


# --- one piece's part, from the bytes around it ----------------------------------------------
_PARTS: dict = {}       # (explorer, hex, in a boat, swam, bytes around) -> its moves
_SAILS_OF: dict = {}    # (boat, hex, bytes around) -> its sails


def explorer_part(e: int, h: int, in_boat: bool, swam: bool, around: tuple) -> tuple:
    """``board.explorer_moves`` of explorer ``e`` on hex ``h`` (``around``: the bytes of
    ``h`` and its neighbours), remembered."""
    key = (e, h, in_boat, swam, around)
    out = _PARTS.get(key)
    if out is not None:
        return out
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
    if len(_PARTS) > 65536:
        _PARTS.clear()
    out = _PARTS[key] = tuple(moves)
    return out


def boat_part(b: int, h: int, around: tuple) -> tuple:
    """``board.boat_moves`` of a boat the seat may move, on hex ``h``: to open water with
    no boat and no creature."""
    key = (b, h, around)
    out = _SAILS_OF.get(key)
    if out is None:
        if len(_SAILS_OF) > 65536:
            _SAILS_OF.clear()
        out = _SAILS_OF[key] = tuple(sail for sail, c in zip(SAILS[b, h], around[1:]) if c == SEA)
    return out


# --- the whole list ----------------------------------------------------------------------------
# seat -> (players, sunk, creature_hex, boat_hex, explorer_boat, explorer_hex, swum, bytes,
#          explorer parts, boat parts, the explorers' moves, the sails)
_MEMO: dict[int, tuple] = {}


def moves(x: Any, seat: int) -> list[Any]:
    """Every move of the move phase for ``seat`` (the list ``board.moves`` states)."""
    sunk, ch, bh, eb, eh, swum = x.sunk, x.creature_hex, x.boat_hex, x.explorer_boat, x.explorer_hex, x.swum
    first = seat * PER_SEAT
    last = _MEMO.get(seat)
    if last is not None and last[1] is sunk and last[2] is ch and last[4] is eb and last[0] == x.players:
        players, _, _, bh0, _, eh0, swum0, env, parts, boats, walks, sails = last
        redo: Any = ()                                 # own explorers (0-9) to remake
        if bh is not bh0:                              # a sail (or the wind): boats moved
            env = env_of(x)
            again = set(compress(BOAT_IDS, map(ne, bh, bh0)))
            near = set().union(*map(_around, compress(bh, map(ne, bh, bh0))),
                               *map(_around, compress(bh0, map(ne, bh, bh0))))
            again.update(compress(BOAT_IDS, map(near.__contains__, bh)))
            redo = set(compress(OWN, map(near.__contains__, eh[first:first + PER_SEAT])))
            boats = list(boats)
            stuck = no_move(eb, seat)
            for b in again:
                h = bh[b]
                boats[b] = () if h < 0 or b in stuck else boat_part(b, h, LOCAL[h](env))
            sails = sum(boats, ())
        # else a walk or a swim: only explorers moved
        if eh is not eh0:                              # every own explorer that moved
            changed = compress(OWN, map(ne, eh[first:first + PER_SEAT], eh0[first:first + PER_SEAT]))
            redo = set(redo)
            redo.update(changed)
        if swum is not swum0:                          # or swam
            redo = set(redo)
            redo.update([e - first for e in set(swum) ^ set(swum0) if first <= e < first + PER_SEAT])
        if redo:
            parts = list(parts)
            for i in redo:
                e = first + i
                h = eh[e]
                parts[i] = () if h < 0 else explorer_part(e, h, eb[e] >= 0, e in swum, LOCAL[h](env))
            walks = sum(parts, ())
    else:                                              # anything else: every part, from the bytes
        players, env = x.players, env_of(x)
        parts = []
        for e in range(first, first + PER_SEAT):
            h = eh[e]
            parts.append(() if h < 0 else explorer_part(e, h, eb[e] >= 0, e in swum, LOCAL[h](env)))
        stuck = no_move(eb, seat)
        boats = [() if h < 0 or b in stuck else boat_part(b, h, LOCAL[h](env)) for b, h in enumerate(bh)]
        walks, sails = sum(parts, ()), sum(boats, ())
    _MEMO[seat] = (players, sunk, ch, bh, eb, eh, swum, env, parts, boats, walks, sails)
    return [*walks, *sails, END_MOVES]
