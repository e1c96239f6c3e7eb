"""engine.geometry: square and hex grids as data, checked against their definitions
(distance is the length of a shortest path, rings are 6k hexes, lines join their ends)."""

from __future__ import annotations

import random
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.geometry import (
    HEX_DIRECTIONS, SQUARE4, SQUARE8, HexBoard, SquareBoard, chebyshev, from_doubled, from_offset,
    hex_direction_between, hex_distance, hex_line, hex_neighbour, hex_neighbours, hex_ring, hex_spiral,
    hex_within, manhattan, square_line, square_neighbours, square_ring, to_doubled, to_offset,
)

coord = st.integers(min_value=-30, max_value=30)
point = st.tuples(coord, coord)
radius = st.integers(min_value=0, max_value=12)

SURVIVE_ROWS = (4, 5, 8, 7, 8, 5, 4)


def bfs_distances(start, neighbours, limit):
    """Shortest path lengths from ``start`` over ``neighbours``, up to ``limit`` steps."""
    seen = {start: 0}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        if seen[here] == limit:
            continue
        for there in neighbours(here):
            if there not in seen:
                seen[there] = seen[here] + 1
                todo.append(there)
    return seen


# --- square grids -------------------------------------------------------------------------
def test_square_directions_are_clockwise_from_north():
    assert [d.name for d in SQUARE4] == ["N", "E", "S", "W"]
    assert [d.name for d in SQUARE8] == ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    assert SQUARE4[0].delta == (0, -1) and SQUARE4[1].delta == (1, 0)   # rows grow southwards


@given(point, st.booleans())
def test_square_neighbours_are_symmetric(cell, diagonal):
    for other in square_neighbours(cell, diagonal):
        assert cell in square_neighbours(other, diagonal)
    assert len(set(square_neighbours(cell, diagonal))) == (8 if diagonal else 4)


def test_manhattan_and_chebyshev_are_shortest_path_lengths():
    start = (0, 0)
    by_4 = bfs_distances(start, lambda c: square_neighbours(c), 8)
    by_8 = bfs_distances(start, lambda c: square_neighbours(c, True), 8)
    for cell, d in by_4.items():
        assert manhattan(start, cell) == d
    for cell, d in by_8.items():
        assert chebyshev(start, cell) == d


@given(point, point)
def test_a_square_line_joins_its_ends_by_king_steps(a, b):
    line = square_line(a, b)
    assert line[0] == a and line[-1] == b
    assert len(line) == chebyshev(a, b) + 1
    assert all(chebyshev(p, q) == 1 for p, q in zip(line, line[1:]))
    assert square_line(b, a) == line[::-1]


def test_a_straight_or_diagonal_square_line_is_the_obvious_one():
    assert square_line((0, 0), (3, 0)) == ((0, 0), (1, 0), (2, 0), (3, 0))
    assert square_line((0, 0), (2, 2)) == ((0, 0), (1, 1), (2, 2))


@given(point, radius)
def test_square_rings_are_8k_or_4k_cells_at_distance_k_walked_in_order(center, k):
    ring = square_ring(center, k)
    diamond = square_ring(center, k, diagonal=False)
    assert len(ring) == len(set(ring)) == (8 * k if k else 1)
    assert len(diamond) == len(set(diamond)) == (4 * k if k else 1)
    assert all(chebyshev(center, c) == k for c in ring)
    assert all(manhattan(center, c) == k for c in diamond)
    if k:
        assert ring[0] == diamond[0] == (center[0], center[1] - k)     # starts due north
        assert all(chebyshev(p, q) == 1 for p, q in zip(ring, ring[1:] + ring[:1]))


def test_a_rectangle_indexes_row_major_like_a_flat_tuple():
    board = SquareBoard.rectangle(4, 3)
    assert len(board) == 12
    for index, (col, row) in enumerate(board.cells):
        assert index == row * 4 + col == board.index((col, row))
    assert board.neighbours((0, 0)) == ((1, 0), (0, 1))                 # E, S: corners have 2
    assert len(SquareBoard.rectangle(4, 3, diagonal=True).neighbours((1, 1))) == 8


def test_a_square_board_with_holes_skips_them_in_its_index_and_moves():
    board = SquareBoard.rectangle(5, 1, holes=[(2, 0)])
    assert (2, 0) not in board and len(board) == 4
    assert board.index((3, 0)) == 2
    assert board.first_along((1, 0), (1, 0)) == (3, 0)                  # over the hole
    assert board.first_along((4, 0), (1, 0)) is None                     # off the board


# --- hex grids ----------------------------------------------------------------------------
def test_hex_directions_are_named_counter_clockwise_from_east_with_opposites_three_apart():
    assert [d.name for d in HEX_DIRECTIONS] == ["E", "NE", "NW", "W", "SW", "SE"]
    for i, d in enumerate(HEX_DIRECTIONS):
        opposite = HEX_DIRECTIONS[(i + 3) % 6]
        assert (d.delta[0] + opposite.delta[0], d.delta[1] + opposite.delta[1]) == (0, 0)
    assert hex_neighbour((0, 0), "NE") == hex_neighbour((0, 0), 1) == (1, -1)


@given(point)
def test_hex_neighbours_are_six_at_distance_one_and_symmetric(h):
    near = hex_neighbours(h)
    assert len(set(near)) == 6
    for i, other in enumerate(near):
        assert hex_distance(h, other) == 1
        assert h in hex_neighbours(other)
        assert hex_direction_between(h, other) == HEX_DIRECTIONS[i].name
    assert hex_direction_between(h, h) is None


def test_hex_distance_is_the_length_of_a_shortest_path():
    start = (2, -1)
    for h, d in bfs_distances(start, hex_neighbours, 7).items():
        assert hex_distance(start, h) == d


@given(point, point, point)
def test_hex_distance_is_a_metric(a, b, c):
    assert hex_distance(a, b) == hex_distance(b, a) >= 0
    assert (hex_distance(a, b) == 0) == (a == b)
    assert hex_distance(a, c) <= hex_distance(a, b) + hex_distance(b, c)


@given(point, point)
def test_a_hex_line_joins_its_ends_through_neighbours_on_a_shortest_path(a, b):
    line = hex_line(a, b)
    n = hex_distance(a, b)
    assert line[0] == a and line[-1] == b and len(line) == n + 1
    assert all(hex_distance(p, q) == 1 for p, q in zip(line, line[1:]))
    assert all(hex_distance(a, p) + hex_distance(p, b) == n for p in line)
    assert hex_line(b, a) == line[::-1]


def test_a_hex_line_along_an_edge_breaks_ties_the_same_way_every_time():
    # (0,0) -> (1,1) runs exactly between (1,0) and (0,1); the nudge picks one, always.
    line = hex_line((0, 0), (1, 1))
    assert len(line) == 3 and line[1] in ((1, 0), (0, 1))
    assert hex_line((5, 5), (6, 6))[1] == (line[1][0] + 5, line[1][1] + 5)


@given(point, radius)
def test_hex_rings_are_6k_hexes_at_distance_k_walked_round(center, k):
    ring = hex_ring(center, k)
    assert len(ring) == len(set(ring)) == (6 * k if k else 1)
    assert all(hex_distance(center, h) == k for h in ring)
    if k:
        assert all(hex_distance(p, q) == 1 for p, q in zip(ring, ring[1:] + ring[:1]))


@given(point, st.integers(min_value=0, max_value=8))
def test_a_spiral_is_every_hex_within_k_centre_first(center, k):
    spiral = hex_spiral(center, k)
    assert spiral[0] == center
    assert len(spiral) == len(set(spiral)) == 1 + 3 * k * (k + 1)
    assert set(spiral) == set(bfs_distances(center, hex_neighbours, k))
    within = hex_within(center, k)
    assert set(within) == set(spiral) and list(within) == sorted(within, key=lambda h: (h[1], h[0]))


@given(point)
def test_doubled_and_offset_coordinates_go_there_and_back(h):
    x2, y = to_doubled(h)
    assert (x2 - y) % 2 == 0 and from_doubled(x2, y) == h
    assert from_offset(*to_offset(h)) == h


def test_doubled_width_puts_neighbours_where_a_screen_draws_them():
    assert to_doubled(hex_neighbour((0, 0), "E")) == (2, 0)
    assert to_doubled(hex_neighbour((0, 0), "NE")) == (1, -1)
    assert to_doubled(hex_neighbour((0, 0), "NW")) == (-1, -1)
    assert to_doubled(hex_neighbour((0, 0), "SW")) == (-1, 1)
    with pytest.raises(ValueError):
        from_doubled(1, 0)


def test_a_board_has_one_index_order_whatever_order_its_cells_came_in():
    cells = list(hex_spiral((0, 0), 3))
    shuffled = cells[:]
    random.Random(7).shuffle(shuffled)
    a, b = HexBoard(tuple(cells)), HexBoard(tuple(shuffled))
    assert a.cells == b.cells and a == b and hash(a) == hash(b)
    assert list(a.cells) == sorted(cells, key=lambda h: (h[1], h[0]))
    assert [a.index(h) for h in a.cells] == list(range(len(a)))


def test_board_neighbours_are_symmetric_and_in_direction_order():
    board = HexBoard.hexagon(3)
    for h in board:
        near = board.neighbours(h)
        assert near == tuple(n for n in hex_neighbours(h) if n in board)
        for other in near:
            assert h in board.neighbours(other)
    assert len(board.neighbours((0, 0))) == 6 and len(board.neighbours((3, 0))) == 3
    assert len(board.edge()) == 18


def test_an_offset_rectangle_has_straight_rows_and_alternating_shoves():
    board = HexBoard.offset_rectangle(6, 4)
    assert [len(row) for row in board.rows()] == [6, 6, 6, 6]
    positions = dict(zip(board.cells, board.positions()))
    assert sorted(x for (q, r), (x, y) in positions.items() if y == 0) == [0, 2, 4, 6, 8, 10]
    assert sorted(x for (q, r), (x, y) in positions.items() if y == 1) == [1, 3, 5, 7, 9, 11]


# --- the Survive island: 7 rows of 4, 5, 8, 7, 8, 5, 4 hexes in open sea -----------------------
def test_the_survive_island_is_seven_centred_rows_around_a_centre_hex():
    island = HexBoard.from_rows(SURVIVE_ROWS)
    assert len(island) == 41 and (0, 0) in island                       # 40 land + the centre
    rows = island.rows()
    assert tuple(len(row) for row in rows) == SURVIVE_ROWS
    assert [row[0][1] for row in rows] == [-3, -2, -1, 0, 1, 2, 3]
    for row in rows:                                                       # no gaps in a row
        assert all(hex_neighbour(h, "E") == nxt for h, nxt in zip(row, row[1:]))
        xs = [to_doubled(h)[0] for h in row]
        assert xs[0] == -xs[-1]                                             # centred
    assert all((-q, -r) in island for q, r in island)                       # half-turn symmetric
    assert all(from_doubled(-to_doubled(h)[0], h[1]) in island for h in island)   # mirror symmetric
    assert len(island.neighbours((0, 0))) == 6                              # the centre is inland
    reach = bfs_distances((0, 0), island.neighbours, 99)
    assert set(reach) == set(island)                                        # one piece of land


def test_the_survive_island_sits_in_a_sea_three_hexes_wide():
    island = HexBoard.from_rows(SURVIVE_ROWS)
    board = island.grown(3)
    sea = [h for h in board if h not in island]
    assert set(sea) == set(island.border(3))
    assert all(1 <= min(hex_distance(s, land) for land in island) <= 3 for s in sea)
    assert all(len(board.neighbours(land)) == 6 for land in island)       # sea on every side
    coast = island.border(1)
    assert all(any(hex_distance(c, land) == 1 for land in island) for c in coast)
    # the flat tuple a state keeps: one entry per hex, in the board's index order
    terrain = tuple("land" if h in island else "sea" for h in board.cells)
    assert terrain.count("land") == 41 and len(terrain) == len(board)


def test_hex_screen_positions_are_offset_rows_and_hit_testing_finds_the_hex():
    island = HexBoard.from_rows(SURVIVE_ROWS)
    positions = island.positions()
    assert len(set(positions)) == len(island)
    assert min(x for x, _ in positions) == 0 and min(y for _, y in positions) == 0
    assert island.size() == (16, 7)
    for h, (x2, y) in zip(island.cells, positions):
        assert island.at_position(x2, y) == h
        assert island.at_position(x2 + 1, y) == h                             # its right half
    assert island.at_position(0, 0) is None                                 # sea left of row 1


@settings(max_examples=50)
@given(st.lists(point, min_size=1, max_size=40), point, st.sampled_from([d.delta for d in HEX_DIRECTIONS]))
def test_first_along_finds_the_nearest_board_cell_in_that_direction(cells, start, delta):
    board = HexBoard(tuple(cells))
    found = board.first_along(start, delta)
    ahead = [(start[0] + delta[0] * i, start[1] + delta[1] * i) for i in range(1, 200)]
    expected = next((h for h in ahead if h in board), None)
    assert found == expected
