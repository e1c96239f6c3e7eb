"""From a Survive view to the hex board's picture (attributes go down).

Reads only the seat's ``SurviveView`` and the board data; the widget gets plain
``HexSpot`` values (terrain names, creature kinds, seat letters with their styles).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from engine.survive import data

from ..seat_labels import SEAT_LETTERS, seat_style
from ..widgets.seat_styles import themed
from .hex_board import HexBoardPicture, HexSpot

TERRAIN = {data.BEACH: "beach", data.FOREST: "forest", data.MOUNTAIN: "mountain"}


def terrain_of(view: Any, h: int) -> str:
    """The terrain name the widget draws on hex ``h``."""
    if data.SAFE_AT[h] >= 0:
        return "safe"
    t = data.LAND_TILE_AT[h]
    if t >= 0 and not view.sunk[t]:
        return TERRAIN[view.terrain[t]]
    if data.ENTRANCE_OF[h] >= 0:
        return "entrance"
    return "sea"


def spots(view: Any, variables: Mapping[str, str] | None = None) -> list[HexSpot]:
    on_foot: dict[int, list[int]] = {}          # hex -> seats of explorers not in a boat
    aboard: dict[int, list[int]] = {}           # boat -> seats of its passengers
    for e, h in enumerate(view.explorer_hex):
        if h < 0:
            continue
        b = view.explorer_boat[e]
        if b >= 0:
            aboard.setdefault(b, []).append(e // data.EXPLORERS_PER_SEAT)
        else:
            on_foot.setdefault(h, []).append(e // data.EXPLORERS_PER_SEAT)
    boat_at = {h: b for b, h in enumerate(view.boat_hex) if h >= 0}
    creatures: dict[int, list[str]] = {}
    for c, h in enumerate(view.creature_hex):
        if h >= 0:
            creatures.setdefault(h, []).append(data.CREATURE_KIND[c])
    out = []
    for h in range(data.HEXES):
        seats = on_foot.get(h, [])
        explorers = tuple((SEAT_LETTERS[s], themed(seat_style(s), variables), seats.count(s)) for s in sorted(set(seats)))
        boat = None
        if h in boat_at:
            boat = tuple((SEAT_LETTERS[s], themed(seat_style(s), variables)) for s in sorted(aboard.get(boat_at[h], [])))
        kinds = creatures.get(h, [])
        out.append(HexSpot(terrain=terrain_of(view, h),
                           creatures=tuple(k for k in ("serpent", "shark", "whale") if k in kinds),
                           explorers=explorers, boat=boat))
    return out


def board_picture(view: Any, targets: Iterable[int] = (), selected: int | None = None,
                  recent: Iterable[int] = (), variables: Mapping[str, str] | None = None) -> HexBoardPicture:
    """``variables``: the app's theme variables (seat colours drawn in its theme)."""
    return HexBoardPicture(spots=spots(view, variables), targets=tuple(targets), selected=selected,
                           recent=tuple(recent), row_labels=tuple("ABCDEFGHIJKLM"[:len(data.BOARD.rows())]),
                           column_numbers=True)
