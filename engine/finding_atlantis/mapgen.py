"""The ocean map generator (the app's job in the original) and its checker.

The world is ``(n+2) x (n+2)``: the ``n x n`` map plus the ring beyond its edge,
which can never be entered and holds no trace but may be a seamount (next to a
trace on the edge), so Sonar reports it.  World cells are numbered row by row;
``inner(cell)`` / ``world(cell)`` convert map cells (``r*n+c``) to and from them.

Riddle (the constraints every map meets, see ``check_map``):

* ``k`` Atlantis spaces, connected orthogonally or diagonally, and ``k`` artifacts;
* traces (Atlantis and artifacts) lie on seamounts, every orthogonal neighbour of a
  trace is a seamount;
* every other space is deep ocean.
"""

from __future__ import annotations

from ..rng import Rng
from . import data


def world_of(n: int, cell: int) -> int:
    r, c = divmod(cell, n)
    return (r + 1) * (n + 2) + c + 1


def inner_of(n: int, w: int) -> int:
    """The map cell of world cell ``w``, or -1 for the ring."""
    r, c = divmod(w, n + 2)
    if 1 <= r <= n and 1 <= c <= n:
        return (r - 1) * n + c - 1
    return -1


def king_neighbours(n: int, cell: int) -> list[int]:
    r, c = divmod(cell, n)
    out = []
    for dr, dc in data.DIRS:
        rr, cc = r + dr, c + dc
        if 0 <= rr < n and 0 <= cc < n:
            out.append(rr * n + cc)
    return out


def generate(n: int, rng: Rng) -> tuple[tuple[int, ...], Rng]:
    """A random map of size ``n``: terrain per world cell."""
    k, arts = data.MAP_SIZES[n]
    cells = n * n
    start, rng = rng.below(cells)
    group = [start]
    taken = [False] * cells
    taken[start] = True
    frontier: list[int] = []
    for nb in king_neighbours(n, start):
        frontier.append(nb)
    while len(group) < k:
        i, rng = rng.below(len(frontier))
        cell = frontier.pop(i)
        if taken[cell]:
            continue
        taken[cell] = True
        group.append(cell)
        for nb in king_neighbours(n, cell):
            if not taken[nb]:
                frontier.append(nb)
    artifacts = []
    while len(artifacts) < arts:
        cell, rng = rng.below(cells)
        if not taken[cell]:
            taken[cell] = True
            artifacts.append(cell)
    w = n + 2
    terrain = [data.DEEP] * (w * w)
    for cell, kind in [(c, data.ATLANTIS) for c in group] + [(c, data.ARTIFACT) for c in artifacts]:
        x = world_of(n, cell)
        terrain[x] = kind
        for o in (-w, 1, w, -1):
            if terrain[x + o] == data.DEEP:
                terrain[x + o] = data.SEAMOUNT
    return tuple(terrain), rng


def check_map(terrain: tuple[int, ...], n: int) -> list[str]:
    """Every way ``terrain`` breaks the riddle (empty list: a good map)."""
    problems = []
    w = n + 2
    if len(terrain) != w * w:
        return [f"world has {len(terrain)} cells, not {w * w}"]
    k, arts = data.MAP_SIZES[n]
    atl = [x for x, t in enumerate(terrain) if t == data.ATLANTIS]
    art = [x for x, t in enumerate(terrain) if t == data.ARTIFACT]
    if len(atl) != k:
        problems.append(f"{len(atl)} Atlantis spaces, not {k}")
    if len(art) != arts:
        problems.append(f"{len(art)} artifacts, not {arts}")
    traces = set(atl) | set(art)
    for x in sorted(traces):
        if inner_of(n, x) < 0:
            problems.append(f"trace beyond the edge at {x}")
    for x, t in enumerate(terrain):
        r, c = divmod(x, w)
        ortho = [(r + dr) * w + c + dc for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1))
                 if 0 <= r + dr < w and 0 <= c + dc < w]
        near_trace = any(o in traces for o in ortho)
        if x in traces:
            for o in ortho:
                if terrain[o] == data.DEEP:
                    problems.append(f"trace at {x} has a deep neighbour at {o}")
        elif t == data.SEAMOUNT and not near_trace:
            problems.append(f"seamount at {x} is not next to a trace")
        elif t == data.DEEP and near_trace:
            problems.append(f"deep ocean at {x} next to a trace")
    # Atlantis connected orthogonally or diagonally
    if atl:
        seen = {atl[0]}
        todo = [atl[0]]
        atl_set = set(atl)
        while todo:
            x = todo.pop()
            r, c = divmod(x, w)
            for dr, dc in data.DIRS:
                y = (r + dr) * w + c + dc
                if y in atl_set and y not in seen:
                    seen.add(y)
                    todo.append(y)
        if len(seen) != len(atl):
            problems.append("Atlantis is not one connected group")
    return problems
