"""What a seat can be sure of, computed from its own view only (never the map).

Used by the chart's deduction assistant (shading certain cells, warning before a
declaration that cannot be right) and by the U-Bot.  ``deduce(view)`` propagates
the riddle's rules over the seat's chart to a fixed point:

* a trace is a seamount, and so are its 4 straight neighbours;
* deep ocean holds no trace and has no trace straight next to it;
* a seamount without a trace has a trace straight next to it (if only one
  neighbour can still be a trace, it is one);
* a space with no trace whose straight neighbours all hold no trace is deep;
* there are exactly ``2k`` traces and ``k`` of them are Atlantis, one connected
  group (straight or diagonal); cells too far from known Atlantis spaces, or cut
  off from them, cannot be Atlantis;
* public facts: sea monsters that never roam sit on artifact spaces; a failed
  declaration was not the city.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import data

UNKNOWN = -1


@dataclass(frozen=True, slots=True)
class Knowledge:
    n: int
    trace: tuple[int, ...]   # per map cell: 1 trace, 0 none, -1 unknown
    sea: tuple[int, ...]     # per world cell: 1 seamount, 0 deep, -1 unknown
    atl: tuple[int, ...]     # per map cell: 1 Atlantis, 0 cannot be, -1 maybe
    solved: tuple[int, ...]  # the k Atlantis cells when certain, else ()
    contradiction: bool

    def certain(self, cell: int) -> bool:
        """Is everything about this map cell known (seamount/deep, trace, which trace)?"""
        r, c = divmod(cell, self.n)
        x = (r + 1) * (self.n + 2) + c + 1
        if self.sea[x] < 0 or self.trace[cell] < 0:
            return False
        return self.trace[cell] == 0 or self.atl[cell] >= 0


def _world(n: int, cell: int) -> int:
    r, c = divmod(cell, n)
    return (r + 1) * (n + 2) + c + 1


def deduce(view: Any) -> Knowledge:
    n, k = view.n, view.k
    w = n + 2
    cells = n * n
    chart = view.chart or (0,) * (w * w)
    trace = [UNKNOWN] * cells
    sea = [UNKNOWN] * (w * w)
    atl = [UNKNOWN] * cells
    bad = False
    wx = [_world(n, c) for c in range(cells)]
    ortho_w = [[x - w, x + 1, x + w, x - 1] for x in range(w * w)]
    # per map cell: its straight neighbours as map cells (-1 for the ring)
    ortho_c = []
    king = []
    for c in range(cells):
        r, cc = divmod(c, n)
        ortho_c.append([(r + dr) * n + cc + dc if 0 <= r + dr < n and 0 <= cc + dc < n else -1
                        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1))])
        king.append([(r + dr) * n + cc + dc for dr, dc in data.DIRS if 0 <= r + dr < n and 0 <= cc + dc < n])
    inner_of = {x: c for c, x in enumerate(wx)}

    def set_trace(c: int, v: int) -> bool:
        nonlocal bad
        if trace[c] == v:
            return False
        if trace[c] != UNKNOWN:
            bad = True
            return False
        trace[c] = v
        return True

    def set_sea(x: int, v: int) -> bool:
        nonlocal bad
        if sea[x] == v:
            return False
        if sea[x] != UNKNOWN:
            bad = True
            return False
        sea[x] = v
        return True

    def set_atl(c: int, v: int) -> bool:
        nonlocal bad
        if atl[c] == v:
            return False
        if atl[c] != UNKNOWN:
            bad = True
            return False
        atl[c] = v
        return True

    for x, f in enumerate(chart):
        if f & data.SEA:
            set_sea(x, 1)
        if f & data.DEEP_F:
            set_sea(x, 0)
        c = inner_of.get(x, -1)
        if c < 0:
            continue
        if f & data.TRACE:
            set_trace(c, 1)
        if f & data.NOTRACE:
            set_trace(c, 0)
        if f & data.ATL:
            set_atl(c, 1)
        if f & data.ART:
            set_atl(c, 0)
    if not view.roaming:
        for m in view.monsters:
            set_trace(m, 1)
            set_atl(m, 0)

    changed = True
    while changed and not bad:
        changed = False
        for c in range(cells):
            x = wx[c]
            t = trace[c]
            if t == 1:
                changed |= set_sea(x, 1)
                for y in ortho_w[x]:
                    changed |= set_sea(y, 1)
            elif t == 0:
                changed |= set_atl(c, 0)
            if sea[x] == 0:
                changed |= set_trace(c, 0)
                for o in ortho_c[c]:
                    if o >= 0:
                        changed |= set_trace(o, 0)
            if t == 0 or trace[c] == 0:
                nbs = [o for o in ortho_c[c] if o >= 0]
                if sea[x] == 1:
                    open_ = [o for o in nbs if trace[o] != 0]
                    if not open_:
                        bad = True
                    elif len(open_) == 1:
                        changed |= set_trace(open_[0], 1)
                if all(trace[o] == 0 for o in nbs):
                    changed |= set_sea(x, 0)
        # ring cells: seamount only next to a trace
        for x in range(w * w):
            if x in inner_of:
                continue
            nbs = [inner_of[y] for y in ortho_w[x] if 0 <= y < w * w and y in inner_of]
            if nbs and all(trace[o] == 0 for o in nbs):
                changed |= set_sea(x, 0)
            if sea[x] == 1:
                open_ = [o for o in nbs if trace[o] != 0]
                if len(open_) == 1:
                    changed |= set_trace(open_[0], 1)
        # counts
        known = trace.count(1)
        unknown = trace.count(UNKNOWN)
        if known > 2 * k or known + unknown < 2 * k:
            bad = True
            break
        if known == 2 * k and unknown:
            for c in range(cells):
                if trace[c] == UNKNOWN:
                    changed |= set_trace(c, 0)
        elif known + unknown == 2 * k and unknown:
            for c in range(cells):
                if trace[c] == UNKNOWN:
                    changed |= set_trace(c, 1)
        # Atlantis
        atl_known = [c for c in range(cells) if atl[c] == 1]
        arts_known = sum(1 for c in range(cells) if trace[c] == 1 and atl[c] == 0)
        if len(atl_known) > k or arts_known > k:
            bad = True
            break
        if len(atl_known) == k:
            for c in range(cells):
                if atl[c] == UNKNOWN:
                    changed |= set_atl(c, 0)
        elif arts_known == k:
            for c in range(cells):
                if trace[c] == 1 and atl[c] == UNKNOWN:
                    changed |= set_atl(c, 1)
        if atl_known and len(atl_known) < k:
            # cells that cannot join a connected group of k around the known ones
            budget = k - len(atl_known)
            dist = {c: 0 for c in atl_known}
            frontier = list(atl_known)
            while frontier:
                nxt = []
                for c in frontier:
                    for o in king[c]:
                        if o not in dist and atl[o] != 0 and dist[c] < budget:
                            dist[o] = dist[c] + 1
                            nxt.append(o)
                frontier = nxt
            for c in range(cells):
                if atl[c] == UNKNOWN and c not in dist:
                    changed |= set_atl(c, 0)
        maybe = [c for c in range(cells) if atl[c] != 0]
        if len(maybe) < k:
            bad = True
            break
        if len(maybe) == k:
            for c in maybe:
                changed |= set_atl(c, 1)
                changed |= set_trace(c, 1)
    solved: tuple[int, ...] = ()
    atl_cells = tuple(c for c in range(cells) if atl[c] == 1)
    if not bad and len(atl_cells) == k and _connected(atl_cells, king):
        if not any(tuple(sorted(f)) == atl_cells for _, f in view.failed):
            solved = atl_cells
    return Knowledge(n, tuple(trace), tuple(sea), tuple(atl), solved, bad)


def _connected(group, king) -> bool:
    if not group:
        return False
    g = set(group)
    seen = {group[0]}
    todo = [group[0]]
    while todo:
        c = todo.pop()
        for o in king[c]:
            if o in g and o not in seen:
                seen.add(o)
                todo.append(o)
    return len(seen) == len(g)


def check_declaration(view: Any, cells: tuple[int, ...], know: Knowledge | None = None) -> list[str]:
    """Why a declaration of ``cells`` cannot be right, from this seat's knowledge."""
    know = know or deduce(view)
    n = view.n
    out = []
    cols = "ABCDEFGH"
    name = lambda c: f"{cols[c % n]}{c // n + 1}"  # noqa: E731
    if len(cells) != view.k:
        out.append(f"Atlantis has {view.k} spaces; {len(cells)} picked.")
    for c in cells:
        if know.atl[c] == 0:
            out.append(f"{name(c)} cannot be Atlantis by your chart.")
    for c in range(n * n):
        if know.atl[c] == 1 and c not in cells:
            out.append(f"{name(c)} is Atlantis by your chart but not picked.")
    king = [[(c // n + dr) * n + c % n + dc for dr, dc in data.DIRS
             if 0 <= c // n + dr < n and 0 <= c % n + dc < n] for c in range(n * n)]
    if cells and not _connected(tuple(cells), king):
        out.append("The picked spaces are not one connected group.")
    if any(tuple(sorted(f)) == tuple(sorted(cells)) for _, f in view.failed):
        out.append("Someone already declared exactly these spaces, wrongly.")
    return out


def possible_positions(view: Any, know: Knowledge | None = None) -> list[int]:
    """Where a lost seat can be now, from the notes it took since it was swept away."""
    if view.pos >= 0:
        return [view.pos]
    n = view.n
    w = n + 2
    dr0, dc0 = view.lost_disp
    out = []
    for origin in range(n * n):
        r, c = divmod(origin, n)
        if not (0 <= r + dr0 < n and 0 <= c + dc0 < n):
            continue
        ok = True
        for dr, dc, f in view.lost_obs:
            rr, cc = r + 1 + dr, c + 1 + dc
            if not (0 <= rr < w and 0 <= cc < w):
                continue
            have = view.chart[rr * w + cc]
            if (f & data.SEA and have & data.DEEP_F) or (f & data.DEEP_F and have & data.SEA) or \
                    (f & data.TRACE and have & data.NOTRACE) or (f & data.NOTRACE and have & data.TRACE):
                ok = False
                break
        if ok:
            out.append((r + dr0) * n + c + dc0)
    return sorted(set(out))
