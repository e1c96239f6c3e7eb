"""engine/pathways/_tables.py is written from data.py ahead of time (a table's start no
longer builds it: issue 15, item 2); it must be what the generator writes today."""

from __future__ import annotations

from engine.pathways import board as B
from engine.pathways import data as D
from engine.pathways import tables_gen


def test_the_generated_board_tables_are_what_the_generator_writes_from_todays_data():
    assert tables_gen.PATH.read_text(encoding="utf-8") == tables_gen.source(), (
        "engine/pathways/_tables.py is stale: run `python -m engine.pathways.tables_gen`")


def test_the_tables_answer_as_the_rules_describe_them():
    # open links: for each open side of a cell, its on-board neighbour and that
    # neighbour's facing side; rotation tables: the rotations that change the tile and
    # still meet a path end
    for c in range(D.CELLS):
        for m in range(16):
            want = [(D.NEIGHBOURS[c][i], D.SIDES[(i + 2) % 4]) for i in range(4)
                    if m & D.SIDES[i] and D.NEIGHBOURS[c][i] >= 0]
            assert list(B._OPEN_LINKS[c][m]) == want
    for t, kind in enumerate(D.TILE_KIND):
        if kind not in D.SHAPES:
            assert B._TILE_ROTS[t] == () and B._ROT_CHOICES[t] is None
            continue
        masks = [D.rotate(D.SHAPES[kind], r) for r in range(4)]
        assert [m for _, m in B._TILE_ROTS[t]] == list(dict.fromkeys(masks))
        for current in range(16):
            for facing in range(16):
                bits = B._ROT_CHOICES[t][current * 16 + facing]
                assert bits == sum(1 << r for r, m in B._TILE_ROTS[t] if m != current and m & facing)
