"""Writes ``engine/pathways/_tables.py``: the board tables ``board.py`` reads, worked out
from ``data.py`` ahead of time (``python -m engine.pathways.tables_gen``).

They are data worked out once from the board's geometry, kept as a module so that a
table's start reads them instead of running the nested loops of the link and rotation
tables.
``tests/test_pathways_tables.py`` checks that the file is what this writes from the data
of today, so an edit to ``data.py`` cannot leave it stale.
"""

from __future__ import annotations

from pathlib import Path

from . import data

PATH = Path(__file__).with_name("_tables.py")
OPP_INDEX = (2, 3, 0, 1)


def links(c: int) -> tuple[tuple[int, int, int], ...]:
    """(own side bit, neighbour cell, neighbour's facing side bit) of ``c``'s on-board neighbours."""
    nb, sides = data.NEIGHBOURS, data.SIDES
    return tuple((sides[i], nb[c][i], sides[OPP_INDEX[i]]) for i in range(4) if nb[c][i] >= 0)


def open_links() -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...]:
    """Per cell and open-side mask: the (neighbour, neighbour's facing side bit) pairs."""
    return tuple(tuple(tuple((n, opp) for bit, n, opp in links(c) if m & bit) for m in range(16))
                 for c in range(data.CELLS))


def distinct_rotations(shape: int) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for rot in range(4):
        m = data.rotate(shape, rot)
        if all(m != seen for _, seen in out):
            out.append((rot, m))
    return tuple(out)


def tile_rotations() -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per tile id, its distinct (rotation, mask) pairs in rotation order (empty for special tiles)."""
    return tuple(distinct_rotations(data.SHAPES[k]) if k in data.SHAPES else () for k in data.TILE_KIND)


def rotation_table(rots: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """Indexed by ``current mask * 16 + facing sides``: the rotations that change the
    tile and still meet a neighbour's path end, as a bit per rotation."""
    return tuple(sum(1 << rot for rot, m in rots if m != current and m & facing)
                 for current in range(16) for facing in range(16))


def cell_function_source(c: int) -> tuple[str, str]:
    """The two functions of a board's masks for cell ``c``, written out with its
    neighbours as constants (one Python call, no loop): ``facing(masks)``, the sides on
    which a neighbouring tile's open path end faces the cell (only tiles have non-zero
    masks), and ``exits(masks)``, the open sides of the cell's own tile that a subpod can
    step through (the neighbour's path meets it, or the neighbour is Atlantis)."""
    terms, atlantis = [], 0
    for i in range(4):
        n = data.NEIGHBOURS[c][i]
        if n < 0:
            continue
        if n in data.ATLANTIS_CELLS:  # (Atlantis has no mask: it never faces a cell)
            atlantis |= data.SIDES[i]
            continue
        opp = data.SIDES[OPP_INDEX[i]]
        terms.append(f"((m[{n}] & {opp}) {'>>' if opp > data.SIDES[i] else '<<'} 2)")
    facing = f"def _facing_{c}(m): return {' | '.join(terms) or '0'}\n"
    exits = f"def _exits_{c}(m): return m[{c}] & ({' | '.join(terms + [str(atlantis)])})\n"
    return facing, exits


def _rows(name: str, rows: tuple, comment: str) -> str:
    body = "".join(f"    {row!r},\n" for row in rows)
    return f"# {comment}\n{name} = (\n{body})\n"


def source() -> str:
    rots = tile_rotations()
    kinds: dict[str, int] = {}  # kind -> index in ROTATION_TABLES (one table per kind of path tile)
    tables: list[tuple[int, ...]] = []
    choice = []
    for t, k in enumerate(data.TILE_KIND):
        if not rots[t]:
            choice.append(None)
            continue
        if k not in kinds:
            kinds[k] = len(tables)
            tables.append(rotation_table(rots[t]))
        choice.append(kinds[k])
    functions = [cell_function_source(c) for c in range(data.CELLS)]
    return "".join([
        '"""Pathways board tables, written by ``python -m engine.pathways.tables_gen`` from\n'
        '``data.py`` (do not edit: run it again; tests/test_pathways_tables.py checks it)."""\n\n'
        "# ruff: noqa\n# fmt: off\n\n",
        *(f for f, _ in functions), "\n",
        *(e for _, e in functions), "\n",
        "# per cell: the sides on which a neighbouring tile's open path end faces it\n",
        "FACING = (", ", ".join(f"_facing_{c}" for c in range(data.CELLS)), ")\n",
        "# per cell: the open sides of its tile a subpod can step through\n",
        "EXITS = (", ", ".join(f"_exits_{c}" for c in range(data.CELLS)), ")\n",
        _rows("OPEN_LINKS", open_links(),
              "per cell and open-side mask: the (neighbour, neighbour's facing side bit) pairs"),
        _rows("TILE_ROTS", rots, "per tile id: its distinct (rotation, mask) pairs in rotation order"),
        _rows("ROTATION_TABLES", tuple(tables),
              "per kind of path tile: rotation_table() of its rotations (see tables_gen)"),
        "# per tile id: its rotation table (None for special tiles), shared by tiles of one kind\n",
        "ROT_CHOICES = tuple(None if i is None else ROTATION_TABLES[i] for i in ",
        repr(tuple(choice)), ")\n",
    ])


def main() -> None:
    PATH.write_text(source(), encoding="utf-8")
    print(f"wrote {PATH}")


if __name__ == "__main__":
    main()
