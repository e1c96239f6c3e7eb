"""Square and hex grids as data: cells, neighbours, distances, lines, rings, board shapes.

Pure and deterministic: plain tuples in, sorted or walk-ordered tuples out (never a set's
iteration order), exact rational arithmetic for lines (no float ties), stdlib only.

Square grids
    A cell is ``(col, row)``: ``col`` grows to the east (right), ``row`` to the south (down),
    both from 0 at the north-west corner.  On a full rectangle ``index = row * cols + col``
    (row-major, the order of a flat tuple in a state).  Directions in a fixed order, clockwise
    from north: ``SQUARE4`` = N E S W, ``SQUARE8`` = N NE E SE S SW W NW.

Hex grids
    Axial coordinates ``(q, r)`` of **pointy-top** hexes (redblobgames' "Hexagonal Grids"
    guide): hexes sit in horizontal rows, as the Survive island's rows of 4, 5, 8, 7, 8, 5, 4
    do.  ``q`` grows to the east along a row, ``r`` grows to the south from row to row; the
    third cube coordinate is ``s = -q - r``.  The six directions in a fixed order,
    counter-clockwise from east (the guide's ``axial_direction_vectors``)::

        E (+1, 0)   NE (+1, -1)   NW (0, -1)   W (-1, 0)   SW (-1, +1)   SE (0, +1)

    Screen positions use "doubled width" coordinates ``(x2, y) = (2q + r, r)``: a hex is two
    half-columns wide, and each row is shifted half a hex from the one above, which is how a
    terminal draws offset rows (``x2 * cell_width // 2`` characters from the left).  Offset
    ("odd-r") coordinates are there too, for tables written by row and column.

Board shapes (``SquareBoard``, ``HexBoard``)
    The cells a game uses, with a stable index order (reading order: by row, then west to
    east), so a state can keep one flat tuple entry per cell; holes are simply cells that are
    not in the shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import ClassVar, Iterable, Iterator, NamedTuple, Sequence

Cell = tuple[int, int]      # a square cell (col, row)
Hex = tuple[int, int]       # an axial hex (q, r)


class Direction(NamedTuple):
    """A named step: ``name`` ("N", "SE", ...) and the change of coordinates ``delta``."""

    name: str
    delta: tuple[int, int]


# --- square grids -----------------------------------------------------------------------
SQUARE4: tuple[Direction, ...] = (
    Direction("N", (0, -1)), Direction("E", (1, 0)), Direction("S", (0, 1)), Direction("W", (-1, 0)),
)
SQUARE8: tuple[Direction, ...] = (
    Direction("N", (0, -1)), Direction("NE", (1, -1)), Direction("E", (1, 0)), Direction("SE", (1, 1)),
    Direction("S", (0, 1)), Direction("SW", (-1, 1)), Direction("W", (-1, 0)), Direction("NW", (-1, -1)),
)
SQUARE_DIRECTION = {d.name: d for d in SQUARE8}


def step(cell: tuple[int, int], delta: tuple[int, int], times: int = 1) -> tuple[int, int]:
    """``cell`` moved ``times`` steps of ``delta`` (works for squares and axial hexes alike)."""
    return (cell[0] + delta[0] * times, cell[1] + delta[1] * times)


def manhattan(a: Cell, b: Cell) -> int:
    """Steps between two squares moving only N, E, S or W."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def chebyshev(a: Cell, b: Cell) -> int:
    """Steps between two squares when diagonal steps are allowed (a king's move)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def square_neighbours(cell: Cell, diagonal: bool = False) -> tuple[Cell, ...]:
    """The 4 (or, with ``diagonal``, 8) neighbours in ``SQUARE4`` / ``SQUARE8`` order;
    unbounded: a board shape drops the ones it does not have."""
    return tuple(step(cell, d.delta) for d in (SQUARE8 if diagonal else SQUARE4))


def _round_half_up(x: Fraction) -> int:
    """Nearest integer, ties towards +infinity (a rule about the point, not the direction
    of travel, so a line drawn backwards is the same line)."""
    return (2 * x.numerator + x.denominator) // (2 * x.denominator)


def square_line(a: Cell, b: Cell) -> tuple[Cell, ...]:
    """The squares from ``a`` to ``b`` inclusive, each a king's step from the one before
    (``chebyshev(a, b) + 1`` of them); ``square_line(b, a)`` is the same squares reversed."""
    n = chebyshev(a, b)
    if n == 0:
        return (a,)
    return tuple(
        (_round_half_up(Fraction(a[0] * (n - i) + b[0] * i, n)),
         _round_half_up(Fraction(a[1] * (n - i) + b[1] * i, n)))
        for i in range(n + 1)
    )


def square_ring(center: Cell, k: int, diagonal: bool = True) -> tuple[Cell, ...]:
    """The squares at distance exactly ``k`` from ``center``: Chebyshev (a square outline,
    ``8k`` of them) or, with ``diagonal=False``, Manhattan (a diamond, ``4k``).  Walk order,
    clockwise, starting from the square straight north of ``center``."""
    if k < 0:
        raise ValueError("a ring's radius is 0 or more")
    if k == 0:
        return (center,)
    cx, cy = center
    out: list[Cell] = []
    if diagonal:
        # north edge from the middle eastwards, then east, south, west edges, back to the start
        x, y = cx, cy - k
        for (dx, dy), length in (((1, 0), k), ((0, 1), 2 * k), ((-1, 0), 2 * k), ((0, -1), 2 * k),
                                 ((1, 0), k)):
            for _ in range(length):
                out.append((x, y))
                x, y = x + dx, y + dy
    else:
        x, y = cx, cy - k
        for dx, dy in ((1, 1), (-1, 1), (-1, -1), (1, -1)):
            for _ in range(k):
                out.append((x, y))
                x, y = x + dx, y + dy
    return tuple(out)


# --- hex grids -------------------------------------------------------------------------
HEX_DIRECTIONS: tuple[Direction, ...] = (
    Direction("E", (1, 0)), Direction("NE", (1, -1)), Direction("NW", (0, -1)),
    Direction("W", (-1, 0)), Direction("SW", (-1, 1)), Direction("SE", (0, 1)),
)
HEX_DIRECTION = {d.name: d for d in HEX_DIRECTIONS}


def hex_neighbour(h: Hex, direction: int | str) -> Hex:
    """The hex next to ``h`` in ``direction`` (an index into ``HEX_DIRECTIONS`` or a name)."""
    d = HEX_DIRECTION[direction] if isinstance(direction, str) else HEX_DIRECTIONS[direction]
    return step(h, d.delta)


def hex_neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours of ``h`` in ``HEX_DIRECTIONS`` order (unbounded)."""
    return tuple(step(h, d.delta) for d in HEX_DIRECTIONS)


def hex_distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_direction_between(a: Hex, b: Hex) -> str | None:
    """The name of the direction from ``a`` to its neighbour ``b`` (None if not neighbours)."""
    delta = (b[0] - a[0], b[1] - a[1])
    return next((d.name for d in HEX_DIRECTIONS if d.delta == delta), None)


# A nudge far smaller than any gap between the rational points of a line, in cube
# coordinates (it sums to zero): a point exactly on an edge between two hexes always
# rounds to the same side (the guide's epsilon trick, made exact).
_NUDGE = (Fraction(1, 10 ** 12), Fraction(2, 10 ** 12), Fraction(-3, 10 ** 12))


def hex_round(q: Fraction, r: Fraction) -> Hex:
    """The hex containing the (fractional) axial point ``(q, r)``: cube rounding (a
    coordinate exactly halfway rounds half to even, as Python's ``round``; ``hex_line``
    nudges its points so that never happens)."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return (int(rq), int(rr))


def hex_line(a: Hex, b: Hex) -> tuple[Hex, ...]:
    """The hexes from ``a`` to ``b`` inclusive, each next to the one before
    (``hex_distance(a, b) + 1`` of them): linear interpolation with cube rounding, exact.
    ``hex_line(b, a)`` is the same hexes reversed."""
    n = hex_distance(a, b)
    if n == 0:
        return (a,)
    nq, nr, _ = _NUDGE
    out = []
    for i in range(n + 1):
        q = Fraction(a[0] * (n - i) + b[0] * i, n) + nq
        r = Fraction(a[1] * (n - i) + b[1] * i, n) + nr
        out.append(hex_round(q, r))
    return tuple(out)


def hex_ring(center: Hex, k: int) -> tuple[Hex, ...]:
    """The hexes at distance exactly ``k`` from ``center`` (``6k`` of them, or ``center``
    alone for 0), in walk order: from ``k`` steps to the SW, then E, NE, NW, W, SW, SE."""
    if k < 0:
        raise ValueError("a ring's radius is 0 or more")
    if k == 0:
        return (center,)
    h = step(center, HEX_DIRECTION["SW"].delta, k)
    out = []
    for d in HEX_DIRECTIONS:
        for _ in range(k):
            out.append(h)
            h = step(h, d.delta)
    return tuple(out)


def hex_spiral(center: Hex, k: int) -> tuple[Hex, ...]:
    """``center``, then ring 1, ring 2, ... ring ``k``: every hex within ``k``
    (``1 + 3k(k+1)`` of them) in spiral order."""
    return tuple(h for radius in range(k + 1) for h in hex_ring(center, radius))


def hex_within(center: Hex, k: int) -> tuple[Hex, ...]:
    """Every hex within ``k`` of ``center``, sorted in reading order (by row, then q)."""
    return tuple(sorted(hex_spiral(center, k), key=_reading_order))


# conversions: doubled width (for screens) and odd-r offset (rows of a table)
def to_doubled(h: Hex) -> tuple[int, int]:
    """``(x2, y)``: half-hex columns from x2 = 0 and rows; ``x2`` and ``y`` have equal parity."""
    return (2 * h[0] + h[1], h[1])


def from_doubled(x2: int, y: int) -> Hex:
    """The hex at doubled-width ``(x2, y)``; ``x2`` must have the parity of ``y``."""
    if (x2 - y) % 2:
        raise ValueError(f"no hex centre at doubled ({x2}, {y}): x2 and y differ in parity")
    return ((x2 - y) // 2, y)


def to_offset(h: Hex) -> tuple[int, int]:
    """Odd-r offset ``(col, row)``: odd rows shoved half a hex to the east."""
    q, r = h
    return (q + (r - (r & 1)) // 2, r)


def from_offset(col: int, row: int) -> Hex:
    """The hex at odd-r offset ``(col, row)``."""
    return (col - (row - (row & 1)) // 2, row)


def _reading_order(h: tuple[int, int]) -> tuple[int, int]:
    """Sort key: by row, then west to east (true for (col, row) squares and (q, r) hexes)."""
    return (h[1], h[0])


# --- board shapes --------------------------------------------------------------------------
@dataclass(frozen=True)
class _Shape:
    """A set of cells with a stable index order (reading order), shared by both grids."""

    cells: tuple[tuple[int, int], ...]
    _index: dict = field(init=False, repr=False, compare=False)
    _bounds: tuple[int, int, int, int] = field(init=False, repr=False, compare=False)

    kind: ClassVar[str] = ""
    directions: ClassVar[tuple[Direction, ...]] = ()

    def __post_init__(self) -> None:
        cells = tuple(sorted(set(self.cells), key=_reading_order))
        if not cells:
            raise ValueError("a board has at least one cell")
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "_index", {c: i for i, c in enumerate(cells)})
        xs, ys = [c[0] for c in cells], [c[1] for c in cells]
        object.__setattr__(self, "_bounds", (min(xs), max(xs), min(ys), max(ys)))

    def __len__(self) -> int:
        return len(self.cells)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self.cells)

    def __contains__(self, cell: object) -> bool:
        return cell in self._index

    def __hash__(self) -> int:
        return hash((self.kind, self.cells))

    def index(self, cell: tuple[int, int]) -> int:
        """The position of ``cell`` in ``cells`` (``KeyError`` if it is not on the board)."""
        return self._index[cell]

    def cell(self, index: int) -> tuple[int, int]:
        return self.cells[index]

    def neighbour(self, cell: tuple[int, int], direction: str) -> tuple[int, int] | None:
        """The board cell one step from ``cell`` in the named direction, or None."""
        d = next(d for d in self.directions if d.name == direction)
        there = step(cell, d.delta)
        return there if there in self._index else None

    def neighbours(self, cell: tuple[int, int]) -> tuple[tuple[int, int], ...]:
        """The board cells next to ``cell``, in the grid's direction order."""
        return tuple(c for c in (step(cell, d.delta) for d in self.directions) if c in self._index)

    def first_along(self, cell: tuple[int, int], delta: tuple[int, int]) -> tuple[int, int] | None:
        """The first board cell from ``cell`` in steps of ``delta``, jumping over holes;
        None if the steps never meet one (they leave the board's bounding box for good)."""
        if delta == (0, 0):
            return None
        lo_x, hi_x, lo_y, hi_y = self._bounds
        dx, dy = delta
        here = step(cell, delta)
        while True:
            x, y = here
            if (x > hi_x and dx >= 0) or (x < lo_x and dx <= 0) or (y > hi_y and dy >= 0) \
                    or (y < lo_y and dy <= 0):
                return None       # past the board, or beside it and not getting nearer
            if here in self._index:
                return here
            here = step(here, delta)

    def rows(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """The cells row by row (north to south), each row west to east."""
        out: dict[int, list] = {}
        for c in self.cells:
            out.setdefault(c[1], []).append(c)
        return tuple(tuple(out[y]) for y in sorted(out))


@dataclass(frozen=True, eq=False)
class SquareBoard(_Shape):
    """Square cells ``(col, row)``; ``diagonal`` says whether corners touch (8 neighbours)."""

    diagonal: bool = False
    kind: ClassVar[str] = "square"

    @property
    def directions(self) -> tuple[Direction, ...]:     # type: ignore[override]
        return SQUARE8 if self.diagonal else SQUARE4

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SquareBoard) and (self.cells, self.diagonal) == (other.cells, other.diagonal)

    __hash__ = _Shape.__hash__

    @staticmethod
    def rectangle(cols: int, rows: int | None = None, *, diagonal: bool = False,
                  holes: Iterable[Cell] = ()) -> "SquareBoard":
        """A ``cols`` x ``rows`` rectangle (square if ``rows`` is omitted) less ``holes``."""
        return _rectangle(cols, cols if rows is None else rows, diagonal, tuple(sorted(holes)))

    def distance(self, a: Cell, b: Cell) -> int:
        return chebyshev(a, b) if self.diagonal else manhattan(a, b)

    def positions(self) -> tuple[tuple[int, int], ...]:
        """Where each cell (index order) is drawn, in cells from the top-left of the board."""
        x0 = min(c[0] for c in self.cells)
        y0 = min(c[1] for c in self.cells)
        return tuple((c[0] - x0, c[1] - y0) for c in self.cells)


@lru_cache(maxsize=64)
def _rectangle(cols: int, rows: int, diagonal: bool, holes: tuple[Cell, ...]) -> SquareBoard:
    gone = set(holes)
    return SquareBoard(tuple((c, r) for r in range(rows) for c in range(cols) if (c, r) not in gone),
                       diagonal)


@dataclass(frozen=True, eq=False)
class HexBoard(_Shape):
    """Pointy-top hexes in axial ``(q, r)``; index order is reading order (rows north to
    south, each west to east)."""

    kind: ClassVar[str] = "hex"
    directions: ClassVar[tuple[Direction, ...]] = HEX_DIRECTIONS

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HexBoard) and self.cells == other.cells

    __hash__ = _Shape.__hash__

    @staticmethod
    def from_rows(lengths: Sequence[int]) -> "HexBoard":
        """Rows of hexes, each centred under the one above, the middle row at ``r = 0``
        and the board's centre at ``x2 = 0``.  A row whose length cannot be centred
        exactly (its length has the wrong parity for its row) sits half a hex east."""
        cells = []
        top = -(len(lengths) // 2)
        for i, n in enumerate(lengths):
            r = top + i
            x2 = -(n - 1)
            if (x2 - r) % 2:
                x2 += 1
            cells += [from_doubled(x2 + 2 * j, r) for j in range(n)]
        return HexBoard(tuple(cells))

    @staticmethod
    def offset_rectangle(cols: int, rows: int, origin: tuple[int, int] = (0, 0)) -> "HexBoard":
        """``rows`` rows of ``cols`` hexes in odd-r offset layout (odd rows half a hex east),
        the north-west hex at offset ``origin``: the rectangular sea of a printed hex map."""
        c0, r0 = origin
        return HexBoard(tuple(from_offset(c0 + c, r0 + r) for r in range(rows) for c in range(cols)))

    @staticmethod
    def hexagon(radius: int, center: Hex = (0, 0)) -> "HexBoard":
        """Every hex within ``radius`` of ``center``."""
        return HexBoard(hex_spiral(center, radius))

    def grown(self, k: int) -> "HexBoard":
        """This board plus every hex within ``k`` of it (an island with ``k`` rings of sea)."""
        return HexBoard(tuple(h for c in self.cells for h in hex_spiral(c, k)))

    def border(self, k: int = 1) -> tuple[Hex, ...]:
        """The hexes not on the board within ``k`` of it, in reading order."""
        return tuple(h for h in self.grown(k).cells if h not in self)

    def edge(self) -> tuple[Hex, ...]:
        """The board's hexes with fewer than six board neighbours (they touch the outside)."""
        return tuple(h for h in self.cells if len(self.neighbours(h)) < 6)

    @staticmethod
    def distance(a: Hex, b: Hex) -> int:
        return hex_distance(a, b)

    def positions(self) -> tuple[tuple[int, int], ...]:
        """Where each hex (index order) is drawn: doubled-width ``(x2, y)`` from the board's
        top-left, so ``x2 = 0`` is the westmost half-column and ``y = 0`` the top row.  A hex
        ``w`` characters wide starts ``x2 * w // 2`` characters from the left."""
        x0, y0 = self._origin()
        return tuple((2 * q + r - x0, r - y0) for q, r in self.cells)

    def size(self) -> tuple[int, int]:
        """(half-columns, rows) covered by ``positions``: a hex spans half-columns x2 and x2+1."""
        pos = self.positions()
        return (max(x for x, _ in pos) + 2, max(y for _, y in pos) + 1)

    def at_position(self, x2: int, y: int) -> Hex | None:
        """The board hex covering half-column ``x2`` of row ``y`` (positions' coordinates),
        or None: for hit-testing a mouse click."""
        x0, y0 = self._origin()
        ax, ay = x2 + x0, y + y0
        if (ax - ay) % 2:
            ax -= 1          # the right half of the hex that starts one half-column west
        h = from_doubled(ax, ay)
        return h if h in self else None

    def _origin(self) -> tuple[int, int]:
        return (min(2 * q + r for q, r in self.cells), min(r for _, r in self.cells))
