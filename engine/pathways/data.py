"""Pathways of the Deep: component lists and board geometry, as data.

Sides are bits: N=1, E=2, S=4, W=8.  A tile's shape is the set of sides its
paths open onto; rotating a quarter turn clockwise moves N->E->S->W->N.
Figures follow RULES-DECISIONS (pathways): a 10x10 board, Atlantis the 2x2 block
at rows/columns 4-5, 100 tiles.
"""

from __future__ import annotations

SIZE = 10
CELLS = SIZE * SIZE
ATLANTIS_CELLS = (44, 45, 54, 55)

N, E, S, W = 1, 2, 4, 8
SIDES = (N, E, S, W)
SIDE_NAMES = ("north", "east", "south", "west")
DR = (-1, 0, 1, 0)
DC = (0, 1, 0, -1)
OPPOSITE = {N: S, E: W, S: N, W: E}

# Path tile shapes at rotation 0.
SHAPES = {
    "start": N | E,       # the four corner elbows
    "straight": N | S,
    "elbow": N | E,
    "tee": N | E | S,
    "cross": N | E | S | W,
}

# How many of each tile (RULES-DECISIONS: 4 start + 80 path + 16 special = 100).
PATH_COUNTS = (("straight", 20), ("elbow", 24), ("tee", 24), ("cross", 12))
SPECIAL_KINDS = ("trade", "move_other_3", "play_2_more", "move_own_3")
SPECIAL_COUNT_EACH = 4
SPECIAL_TEXT = {
    "trade": "Trade this for a used tile: take one unlocked, empty tile off the board (it goes back into the draw pile).",
    "move_other_3": "Move someone 3 spaces: move another player's subpod up to 3 spaces along paths.",
    "play_2_more": "Play 2 more tiles: you may play up to two extra tiles this turn.",
    "move_own_3": "Move up to 3 spaces: move your own subpod up to 3 spaces along paths now.",
}
SPECIAL_SHORT = {
    "trade": "TRADE",
    "move_other_3": "MOVE 3*",
    "play_2_more": "+2 TILES",
    "move_own_3": "MOVE 3",
}

HAND_SIZE = 4
BASE_PLAYS = 2
EXTRA_PLAYS = 2
OWN_MOVE = 2
OTHER_MOVE = 1
SPECIAL_MOVE = 3

# Start corners in seat order, with the open sides of the elbow placed there.
START_CORNERS = ((0, S | E), (99, N | W), (9, S | W), (90, N | E))


def build_tiles() -> tuple[str, ...]:
    """Tile kind by tile id: ids 0-3 start elbows, then path tiles, then specials."""
    kinds = ["start"] * 4
    for kind, count in PATH_COUNTS:
        kinds += [kind] * count
    for kind in SPECIAL_KINDS:
        kinds += [kind] * SPECIAL_COUNT_EACH
    return tuple(kinds)


TILE_KIND = build_tiles()
assert len(TILE_KIND) == 100


def rotate(mask: int, quarter_turns: int) -> int:
    """Rotate a side mask clockwise by quarter turns."""
    q = quarter_turns % 4
    return ((mask << q) | (mask >> (4 - q))) & 15


def rotations(kind: str) -> tuple[int, ...]:
    """Distinct masks of a shape, in rotation order (straights have 2, crosses 1)."""
    seen: list[int] = []
    for q in range(4):
        m = rotate(SHAPES[kind], q)
        if m not in seen:
            seen.append(m)
    return tuple(seen)


def neighbours() -> tuple[tuple[int, ...], ...]:
    """For each cell, the neighbour cell on each side (N,E,S,W) or -1 off the board."""
    out = []
    for cell in range(CELLS):
        r, c = divmod(cell, SIZE)
        row = []
        for i in range(4):
            rr, cc = r + DR[i], c + DC[i]
            row.append(rr * SIZE + cc if 0 <= rr < SIZE and 0 <= cc < SIZE else -1)
        out.append(tuple(row))
    return tuple(out)


NEIGHBOURS = neighbours()


def cell_name(cell: int) -> str:
    r, c = divmod(cell, SIZE)
    return f"{'ABCDEFGHIJ'[c]}{r + 1}"


def atlantis_distance(cell: int) -> int:
    """Manhattan distance from a cell to the nearest cell next to... Atlantis itself."""
    r, c = divmod(cell, SIZE)
    dr = 0 if 4 <= r <= 5 else (4 - r if r < 4 else r - 5)
    dc = 0 if 4 <= c <= 5 else (4 - c if c < 4 else c - 5)
    return dr + dc


ATLANTIS_DISTANCE = tuple(atlantis_distance(c) for c in range(CELLS))
