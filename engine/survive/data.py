"""Survive: Escape from Atlantis -- the board, the components and the die, as data.

The board (RULES-DECISIONS, survive) is one ``HexBoard`` of pointy-top hexes in axial
coordinates (``engine.geometry``): 13 rows, alternately 15 and 14 hexes wide, so that
its four corners each touch exactly two other hexes.  The island in the middle is 7
rows of 4, 5, 8, 7, 8, 5, 4 hexes (41): 40 land hexes and the sea hex at its centre.
The four corner hexes are the safe islands; the two hexes touching each are its
entrances.  Everything else is open sea (at least 3 hexes on every side of the island).

Hex *indices* (positions in ``BOARD.cells``, reading order) are what states and views
hold.  Land tiles are numbered 0-39 in reading order of their starting hexes
(``LAND_HEXES``): tile ``t`` starts on hex ``LAND_HEX_INDEX[t]``.
"""

from __future__ import annotations

from engine.geometry import HexBoard, from_doubled, hex_distance

# --- the board --------------------------------------------------------------------------
ISLAND_ROWS = (4, 5, 8, 7, 8, 5, 4)
SEA_ROWS = 13            # rows -6 .. 6
WIDE_ROW = 15            # even rows (r even) hold 15 hexes, odd rows 14


def _sea_hexes() -> tuple[tuple[int, int], ...]:
    cells = []
    for r in range(-(SEA_ROWS // 2), SEA_ROWS // 2 + 1):
        n = WIDE_ROW if r % 2 == 0 else WIDE_ROW - 1
        cells += [from_doubled(-(n - 1) + 2 * j, r) for j in range(n)]
    return tuple(cells)


ISLAND = HexBoard.from_rows(ISLAND_ROWS)
CENTRE = (0, 0)
LAND_HEXES = tuple(h for h in ISLAND.cells if h != CENTRE)
BOARD = HexBoard(_sea_hexes())
HEXES = len(BOARD)
assert len(LAND_HEXES) == 40 and all(h in BOARD for h in ISLAND.cells)

# The safe islands: the four corners, in the order NW, NE, SW, SE.
SAFE_NAMES = ("north-west", "north-east", "south-west", "south-east")
_corners = BOARD.rows()
SAFE_HEXES = (_corners[0][0], _corners[0][-1], _corners[-1][0], _corners[-1][-1])
ENTRANCES = tuple(BOARD.neighbours(h) for h in SAFE_HEXES)
assert all(len(e) == 2 for e in ENTRANCES)


def _serpent_start(safe: tuple[int, int], entrances) -> tuple[int, int]:
    """The sea hex touching both entrances of a safe island (other than the island)."""
    a, b = entrances
    both = [h for h in BOARD.neighbours(a) if h in BOARD.neighbours(b) and h != safe]
    assert len(both) == 1
    return both[0]


SERPENT_STARTS = (CENTRE,) + tuple(_serpent_start(s, e) for s, e in zip(SAFE_HEXES, ENTRANCES))

# --- indices (what states hold) ----------------------------------------------------------
INDEX = {h: i for i, h in enumerate(BOARD.cells)}
NEIGHBOURS = tuple(tuple(INDEX[n] for n in BOARD.neighbours(h)) for h in BOARD.cells)
LAND_HEX_INDEX = tuple(INDEX[h] for h in LAND_HEXES)
LAND_TILE_AT = tuple(LAND_HEX_INDEX.index(i) if i in LAND_HEX_INDEX else -1 for i in range(HEXES))
SAFE_INDEX = tuple(INDEX[h] for h in SAFE_HEXES)
SAFE_AT = tuple(SAFE_INDEX.index(i) if i in SAFE_INDEX else -1 for i in range(HEXES))
ENTRANCE_INDEX = tuple(tuple(INDEX[h] for h in e) for e in ENTRANCES)
# per hex: the safe island it is an entrance of, or -1
ENTRANCE_OF = tuple(next((s for s, e in enumerate(ENTRANCE_INDEX) if i in e), -1) for i in range(HEXES))
CENTRE_INDEX = INDEX[CENTRE]
SERPENT_START_INDEX = tuple(INDEX[h] for h in SERPENT_STARTS)
# per hex: hex distance to the nearest safe-island entrance (0 on an entrance), and to
# the nearest safe island itself (bots read these)
DIST_TO_ENTRANCE = tuple(min(hex_distance(h, BOARD.cells[e]) for es in ENTRANCE_INDEX for e in es)
                         for h in BOARD.cells)


def _distances(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    """``hex_distance(a, b)`` for every two hexes, row by row (every table's start imports
    it).  A distance depends only on the offset ``b - a``:
    one table of distances by offset, and each hex's row reads it at its hexes'
    positions shifted by the hex's own (two maps in C, no Python call per pair)."""
    q0, r0 = min(q for q, _ in cells), min(r for _, r in cells)
    wide = max(q for q, _ in cells) - q0 + 1
    high = max(r for _, r in cells) - r0 + 1
    span = 2 * wide - 1  # offsets -(wide-1) .. wide-1 in q, -(high-1) .. high-1 in r
    by_offset = [hex_distance((dq, dr), (0, 0)) for dr in range(1 - high, high) for dq in range(1 - wide, wide)]
    at = [(q - q0) + (r - r0) * span for q, r in cells]
    middle = (wide - 1) + (high - 1) * span  # where the offset (0, 0) is
    get = by_offset.__getitem__
    return tuple(tuple(map(get, map((middle - a).__add__, at))) for a in at)


DISTANCE = _distances(BOARD.cells)

# --- land tiles ----------------------------------------------------------------------------
BEACH, FOREST, MOUNTAIN = 1, 2, 3
TERRAIN_NAMES = {BEACH: "beach", FOREST: "forest", MOUNTAIN: "mountain"}
TERRAIN_COUNTS = ((BEACH, 16), (FOREST, 16), (MOUNTAIN, 8))
SINK_ORDER = (BEACH, FOREST, MOUNTAIN)   # beaches go first, then forests, then mountains

# What is printed on the back of the tiles of each terrain (RULES-DECISIONS).
BACKS = {
    BEACH: (("shark", 3), ("whale", 3), ("boat", 1), ("dolphin", 3), ("wind", 2),
            ("move_serpent", 1), ("move_shark", 1), ("move_whale", 1), ("shark_repellent", 1)),
    FOREST: (("shark", 3), ("whale", 2), ("boat", 3), ("whirlpool", 2), ("dolphin", 2), ("wind", 1),
             ("move_serpent", 1), ("whale_repellent", 2)),
    MOUNTAIN: (("volcano", 1), ("whirlpool", 4), ("dolphin", 1), ("shark_repellent", 1),
               ("whale_repellent", 1)),
}
# When a back is used: "green" at once (shown to all), "red" at the start of one of the
# owner's later turns, "defence" on another player's turn.
BACK_KIND = {
    "shark": "green", "whale": "green", "boat": "green", "whirlpool": "green", "volcano": "green",
    "dolphin": "red", "wind": "red", "move_serpent": "red", "move_shark": "red", "move_whale": "red",
    "shark_repellent": "defence", "whale_repellent": "defence",
}
RED_BACKS = tuple(b for b, k in BACK_KIND.items() if k == "red")
DEFENCE_BACKS = tuple(b for b, k in BACK_KIND.items() if k == "defence")
# the creature a defensive tile turns away, and the creature a red "move" tile moves
REPELS = {"shark_repellent": "shark", "whale_repellent": "whale"}
MOVES_CREATURE = {"move_serpent": "serpent", "move_shark": "shark", "move_whale": "whale"}
RED_REACH = 3            # a dolphin or the wind: up to 3 hexes


def backs_of(terrain: int) -> tuple[str, ...]:
    """Every back of that terrain's tiles, sorted (a multiset)."""
    return tuple(sorted(b for b, n in BACKS[terrain] for _ in range(n)))


assert all(len(backs_of(t)) == n for t, n in TERRAIN_COUNTS)

# --- pieces ------------------------------------------------------------------------------
EXPLORER_VALUES = (1, 1, 1, 2, 2, 3, 3, 4, 5, 6)     # printed under each player's 10 explorers
EXPLORERS_PER_SEAT = len(EXPLORER_VALUES)
BOATS = 12
BOATS_PER_SEAT = 2
BOAT_CAPACITY = 3
MOVE_POINTS = 3

CREATURE_COUNTS = (("serpent", 5), ("shark", 6), ("whale", 5))
CREATURE_KIND = tuple(k for k, n in CREATURE_COUNTS for _ in range(n))   # by creature id
CREATURES = len(CREATURE_KIND)
# how far each creature moves when the die (or a red tile) says so: (at least, at most);
# a creature that starts moving must make its "at least" when it can
CREATURE_REACH = {"serpent": (1, 1), "shark": (0, 2), "whale": (1, 3)}
DIE_FACES = ("serpent", "serpent", "shark", "shark", "whale", "whale")

# --- where pieces are (codes in the per-piece tuples) ---------------------------------------
NOT_PLACED = -1          # an explorer before setup placed it; a boat or creature not yet in play
SAVED = -2               # an explorer on a safe island
LOST = -3                # an explorer taken by the sea; a boat or creature out of the game


# --- names --------------------------------------------------------------------------------
def _hex_names() -> tuple[str, ...]:
    """Row letter (A at the north) and place in the row from the west: "G8" is the centre."""
    names = []
    for r, row in enumerate(BOARD.rows()):
        names += [f"{'ABCDEFGHIJKLM'[r]}{i + 1}" for i in range(len(row))]
    return tuple(names)


HEX_NAMES = _hex_names()
assert HEX_NAMES[CENTRE_INDEX] == "G8"
