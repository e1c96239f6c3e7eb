"""engine/pathways/_tables.py is written from data.py ahead of time (a table's start no
longer builds it); it must be what the generator writes today."""

from __future__ import annotations

from engine.pathways import board
from engine.pathways import data
from engine.pathways import tables_gen


def test_the_generated_board_tables_are_what_the_generator_writes_from_todays_data():
    assert tables_gen.PATH.read_text(encoding="utf-8") == tables_gen.source(), (
        "engine/pathways/_tables.py is stale: run `python -m engine.pathways.tables_gen`")


def test_the_tables_answer_as_the_rules_describe_them():
    # open links: for each open side of a cell, its on-board neighbour and that
    # neighbour's facing side; rotation tables: the rotations that change the tile and
    # still meet a path end
    for c in range(data.CELLS):
        for m in range(16):
            want = [(data.NEIGHBOURS[c][i], data.SIDES[(i + 2) % 4]) for i in range(4)
                    if m & data.SIDES[i] and data.NEIGHBOURS[c][i] >= 0]
            assert list(board._OPEN_LINKS[c][m]) == want
    for t, kind in enumerate(data.TILE_KIND):
        if kind not in data.SHAPES:
            assert board._TILE_ROTS[t] == () and board._ROT_CHOICES[t] is None
            continue
        masks = [data.rotate(data.SHAPES[kind], r) for r in range(4)]
        assert [m for _, m in board._TILE_ROTS[t]] == list(dict.fromkeys(masks))
        for current in range(16):
            for facing in range(16):
                bits = board._ROT_CHOICES[t][current * 16 + facing]
                assert bits == sum(1 << r for r, m in board._TILE_ROTS[t] if m != current and m & facing)
