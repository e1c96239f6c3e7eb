"""Survive: reading the board, and every legal action, stated once.

Each function here reads only fields that a state and a view share (pieces, terrain,
phase ...) plus the acting seat's own hand, so the same code gives ``legal(view)`` on a
client and checks an action inside ``apply`` on the host: legality is written once.
"""

from __future__ import annotations

from typing import Any, Sequence

from . import data
from . import lists
from .moves import moves as move_list
from .lists import water
from .actions import (
    Ashore, Board, Defend, DolphinStep, EndCreature, EndMoves, EndTile, NoDefence, NoTile, PlayTile,
    Roll, Sail, Swim, Walk, WindStep,
)

NB = data.NEIGHBOURS
TILE_AT = data.LAND_TILE_AT
SAFE_AT = data.SAFE_AT
ENTRANCE_OF = data.ENTRANCE_OF
END_TILE = EndTile()
END_CREATURE = EndCreature()
NO_TILE = NoTile()
NO_DEFENCE = NoDefence()
ROLL = Roll()
_new = tuple.__new__  # builds NamedTuple actions without the Python-level __new__

Hand = Sequence[tuple[int, str]]  # a seat's own tiles as (tile, back) pairs


# --- what is where ---------------------------------------------------------------------------
def is_land(view: Any, h: int) -> bool:
    t = TILE_AT[h]
    return t >= 0 and not view.sunk[t]


def is_sea(view: Any, h: int) -> bool:
    """Open water: not a land tile still on the island, not a safe island."""
    return h in water(view)


def has_creature(view: Any, h: int) -> bool:
    return h in view.creature_hex


def boat_at(view: Any, h: int) -> int:
    """The boat on hex ``h`` (one at most), or -1."""
    try:
        return view.boat_hex.index(h)
    except ValueError:
        return -1


def passengers(view: Any, b: int) -> list[int]:
    return [e for e, bb in enumerate(view.explorer_boat) if bb == b]


def swimmers_at(view: Any, h: int) -> list[int]:
    if not is_sea(view, h):
        return []
    eb = view.explorer_boat
    return [e for e, hh in enumerate(view.explorer_hex) if hh == h and eb[e] < 0]


def is_swimmer(view: Any, e: int) -> bool:
    h = view.explorer_hex[e]
    return h >= 0 and view.explorer_boat[e] < 0 and is_sea(view, h)


def seat_of(e: int) -> int:
    return e // data.EXPLORERS_PER_SEAT


def own_explorers(view: Any, seat: int) -> range:
    return range(seat * data.EXPLORERS_PER_SEAT, (seat + 1) * data.EXPLORERS_PER_SEAT)


def may_move_boat(view: Any, seat: int, b: int) -> bool:
    """Anyone may move an empty boat; an occupied one only a player with at least as
    many explorers aboard as anybody else."""
    eb = view.explorer_boat
    if b not in eb:
        return True
    aboard = [0] * view.players
    for e, bb in enumerate(eb):
        if bb == b:
            aboard[e // data.EXPLORERS_PER_SEAT] += 1
    return aboard[seat] >= max(aboard)


def coastal(view: Any, t: int) -> bool:
    """Land tile ``t`` (still on the island) touches open water."""
    w = water(view)
    return any(n in w for n in NB[data.LAND_HEX_INDEX[t]])


def sinkable(view: Any) -> list[int]:
    """The tiles that may be taken off now: touching the sea, of the lowest terrain
    left (beach, then forest, then mountain); if no tile of the lowest terrain left
    touches the sea, the next terrain's coastal tiles (our decision).  (Made by
    ``lists.sinkable``.)"""
    return list(lists.sinkable(view))


def open_water(view: Any, h: int) -> bool:
    """A sea hex a boat or a swimmer may enter: open water without a creature."""
    return h in water(view) and h not in view.creature_hex


# sea hexes that touch a land tile's hex (the only places a setup boat can go)
_NEAR_LAND = tuple(h for h in range(data.HEXES)
                   if TILE_AT[h] < 0 and any(TILE_AT[n] >= 0 for n in NB[h]))


# --- setup -------------------------------------------------------------------------------------
def placement_ok(view: Any, seat: int, values: Sequence[int], e: int, h: int) -> bool:
    """Is ``PlaceExplorer(e, h)`` among ``explorer_placements`` (same rule, one pair)?"""
    eh = view.explorer_hex
    if not (isinstance(e, int) and isinstance(h, int)) or seat_of(e) != seat or e < 0 \
            or e >= len(eh) or eh[e] != data.NOT_PLACED or TILE_AT_OK.get(h) is None or h in eh:
        return False
    first = next(o for o in own_explorers(view, seat) if eh[o] == data.NOT_PLACED and values[o] == values[e])
    return first == e


TILE_AT_OK = {h: t for t, h in enumerate(data.LAND_HEX_INDEX)}


def explorer_placements(view: Any, seat: int, values: Sequence[int]) -> list[Any]:
    """One action per (explorer, empty land hex).  Explorers whose value the seat sees
    and that are worth the same are interchangeable: only the first of them is offered.
    (Made by ``lists.explorer_placements``.)"""
    return lists.explorer_placements(view, seat, values)


def boat_placements(view: Any) -> list[Any]:
    """A sea hex next to land with no boat and no creature."""
    sunk, w = view.sunk, water(view)
    coast = [h for h in _NEAR_LAND      # is_sea, then is_land of a neighbour
             if h in w and any(TILE_AT[n] >= 0 and not sunk[TILE_AT[n]] for n in NB[h])]
    blocked, place = {*view.boat_hex, *view.creature_hex}, lists.PLACE_BOAT
    return [place[h] for h in coast if h not in blocked]


# --- step 1: a red tile ------------------------------------------------------------------------
def tile_plays(view: Any, seat: int, hand: Sequence[tuple[int, str]]) -> list[Any]:
    """The red tiles in the hand that can do something now, and playing none."""
    out: list[Any] = []
    for tile, back in hand:
        if back in data.RED_BACKS and red_tile_useful(view, seat, back):
            out.append(_new(PlayTile, (tile, back)))
    out.append(NO_TILE)
    return out


def red_tile_useful(view: Any, seat: int, back: str) -> bool:
    if back == "dolphin":
        return any(dolphin_targets(view, e) for e in own_explorers(view, seat) if is_swimmer(view, e))
    if back == "wind":
        return any(sail_targets(view, b) for b in range(data.BOATS)
                   if view.boat_hex[b] >= 0 and may_move_boat(view, seat, b))
    return any(creature_targets(view, c) for c in creatures_of(view, data.MOVES_CREATURE[back]))


def dolphin_targets(view: Any, e: int) -> list[int]:
    h = view.explorer_hex[e]
    out = [n for n in NB[h] if open_water(view, n)]
    s = ENTRANCE_OF[h]
    if s >= 0:
        out.append(data.SAFE_INDEX[s])
    return out


def red_steps(view: Any, seat: int) -> list[Any]:
    """Phase "red": the dolphin's or the wind's next hex, or stopping."""
    out: list[Any] = []
    if view.red == "dolphin":
        pieces = ([view.mover] if view.mover >= 0
                  else [e for e in own_explorers(view, seat) if is_swimmer(view, e)])
        for e in pieces:
            out += [_new(DolphinStep, (e, h)) for h in dolphin_targets(view, e)]
    else:
        if view.mover >= 0:
            pieces = [view.mover]
        else:
            pieces = [b for b in range(data.BOATS) if view.boat_hex[b] >= 0 and may_move_boat(view, seat, b)]
        for b in pieces:
            out += [_new(WindStep, (b, h)) for h in sail_targets(view, b)]
    out.append(END_TILE)
    return out


# --- step 2: moving ------------------------------------------------------------------------------
def sail_targets(view: Any, b: int) -> list[int]:
    bh, ch, w = view.boat_hex, view.creature_hex, water(view)
    return [n for n in NB[bh[b]] if n in w and n not in ch and n not in bh]


def boardable(view: Any, b: int) -> bool:
    """Boat ``b`` has room and no creature shares its hex."""
    h = view.boat_hex[b]
    return h >= 0 and h not in view.creature_hex and view.explorer_boat.count(b) < data.BOAT_CAPACITY


def boarding_spots(view: Any) -> dict[int, int]:
    """hex -> the boat there that an explorer may climb into (room, no creature)."""
    ch, eb = view.creature_hex, view.explorer_boat
    return {h: b for b, h in enumerate(view.boat_hex)
            if h >= 0 and h not in ch and eb.count(b) < data.BOAT_CAPACITY}


def explorer_moves(view: Any, seat: int, e: int, spots: dict[int, int] | None = None) -> list[Any]:
    """Every one-point move of explorer ``e`` (of ``seat``) now (``spots``: the
    ``boarding_spots``, when the caller has them already)."""
    h = view.explorer_hex[e]
    if h < 0 or seat_of(e) != seat:
        return []
    if spots is None:
        spots = boarding_spots(view)
    out: list[Any] = []
    in_boat = view.explorer_boat[e]
    w = water(view)
    ch = view.creature_hex
    if in_boat < 0 and h not in w:                     # on land
        for n in NB[h]:
            if n not in w:
                if SAFE_AT[n] < 0:
                    out.append(_new(Walk, (e, n)))
                continue
            if n in spots:                             # into a boat next to it
                out.append(_new(Board, (e, spots[n])))
            if n not in ch:                            # or into the sea: its one sea hex
                out.append(_new(Swim, (e, n)))
        return out
    if in_boat >= 0:                                   # in a boat: into a boat next to it
        for n in NB[h]:
            if n in spots:
                out.append(_new(Board, (e, spots[n])))
    else:                                              # swimming
        if h in spots:
            out.append(_new(Board, (e, spots[h])))
        if e in view.swum:                                # its one sea hex is used
            return out
        out += [_new(Swim, (e, n)) for n in NB[h] if n in w and n not in ch]
    if ENTRANCE_OF[h] >= 0:
        out.append(_new(Ashore, (e,)))
    return out


def boat_moves(view: Any, seat: int, b: int) -> list[Any]:
    if view.boat_hex[b] < 0 or not may_move_boat(view, seat, b):
        return []
    return [_new(Sail, (b, h)) for h in sail_targets(view, b)]


# --- step 2: the move phase's whole list --------------------------------------------------------
def moves(view: Any, seat: int) -> list[Any]:
    """Every move of the move phase: ``explorer_moves`` of each own explorer in order,
    then ``boat_moves`` of every boat in order, then ``EndMoves`` (made by ``moves.moves``
    from tables: it is long and asked for every point)."""
    return move_list(view, seat)


# --- step 3: sinking -----------------------------------------------------------------------------
def sinks(view: Any) -> list[Any]:
    sink = lists.SINKS
    return [sink[t] for t in lists.sinkable(view)]


# --- step 4: creatures ---------------------------------------------------------------------------
def creatures_of(view: Any, kind: str) -> list[int]:
    return [c for c, h in enumerate(view.creature_hex) if h >= 0 and data.CREATURE_KIND[c] == kind]


def creature_targets(view: Any, c: int) -> list[int]:
    """Creatures swim anywhere on open water (other creatures, boats and swimmers
    included); never onto land or a safe island."""
    w = water(view)
    return [n for n in NB[view.creature_hex[c]] if n in w]


def creature_steps(view: Any) -> list[Any]:
    kind = view.creature_kind
    least, most = data.CREATURE_REACH[kind]
    out: list[Any] = []
    if view.mover >= 0:
        if view.steps < most:
            out = lists.creature_steps_of(view, view.mover, water(view))
    else:
        out = lists.kind_steps(view, kind)
    if view.steps >= least or not out:
        out.append(END_CREATURE)
    return out


def can_any_creature_move(view: Any, kind: str) -> bool:
    return any(creature_targets(view, c) for c in creatures_of(view, kind))


# --- answering an attack ------------------------------------------------------------------------
def responses(view: Any, seat: int, hand: Sequence[tuple[int, str]]) -> list[Any]:
    """The defensive tiles that turn this attacker away, and letting it happen."""
    kind = view.attack.kind
    out: list[Any] = [_new(Defend, (t, back)) for t, back in hand if data.REPELS.get(back) == kind]
    out.append(NO_DEFENCE)
    return out


# Actions that ``choices`` lists in every position of their phase (so checking the phase
# is checking them): ending the moves, playing no tile, stopping the dolphin or the wind,
# rolling, letting an attack happen.
ALWAYS_LISTED = {EndMoves: "move", NoTile: "tile", EndTile: "red", Roll: "roll", NoDefence: "respond"}


# --- each phase's choices, as the stage table (``rules.STAGES``) asks for them -----------------
# ``(view, seat, hand, values)``: a state or a view, the acting seat, its own hand as (tile,
# back) pairs and the explorer values it sees.
def placement_choices(view: Any, seat: int, hand: Hand, values: Sequence[int]) -> list[Any]:
    return explorer_placements(view, seat, values)


def boat_choices(view: Any, seat: int, hand: Hand, values: Sequence[int]) -> list[Any]:
    return boat_placements(view)


def tile_choices(view: Any, seat: int, hand: Hand, values: Sequence[int]) -> list[Any]:
    return tile_plays(view, seat, hand)


def red_choices(view: Any, seat: int, hand: Hand, values: Sequence[int]) -> list[Any]:
    if view.red in data.MOVES_CREATURE:
        return creature_steps(view)
    return red_steps(view, seat)


def move_choices(view: Any, seat: int, hand: Hand, values: Sequence[int]) -> list[Any]:
    return moves(view, seat)


def sink_choices(view: Any, seat: int, hand: Hand, values: Sequence[int]) -> list[Any]:
    return sinks(view)


def roll_choices(view: Any, seat: int, hand: Hand, values: Sequence[int]) -> list[Any]:
    return [ROLL]


def creature_choices(view: Any, seat: int, hand: Hand, values: Sequence[int]) -> list[Any]:
    return creature_steps(view)


def response_choices(view: Any, seat: int, hand: Hand, values: Sequence[int]) -> list[Any]:
    return responses(view, seat, hand)
