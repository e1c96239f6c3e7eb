"""Re-drawing what a seat cannot know (the leak tests' ``rerandomise``).

For seat ``p`` the other submarines' positions, their mines, their unplayed
captains (and dealt offers), which artifact cards they hold and the order of the
artifact deck are drawn again; so is ``p``'s own position while ``p`` is lost.
The map is drawn again, consistent with everything ``p`` has learned (its chart,
looted artifact spaces, failed declarations): Atlantis and the artifacts are
placed only where ``p``'s facts allow a trace (known ones kept), then the whole
map is checked against every fact; if no such map turns up within ``MAP_TRIES``
tries the map stays (the canary tests cover the map in every state).
Once the game is over nothing is secret any more (every view shows the map): the
state is returned as it is.
"""

from __future__ import annotations

from ..rng import Rng
from . import data
from .mapgen import inner_of, world_of
from ..core import replace

MAP_TRIES = 40


def consistent(terrain, state, seat: int) -> bool:
    chart = state.charts[seat]
    for x, f in enumerate(chart):
        if not f:
            continue
        t = terrain[x]
        if f & data.SEA and t == data.DEEP or f & data.DEEP_F and t != data.DEEP:
            return False
        if f & data.TRACE and t < data.ARTIFACT or f & data.NOTRACE and t >= data.ARTIFACT and inner_of(state.n, x) >= 0:
            return False
        if f & data.ATL and t != data.ATLANTIS or f & data.ART and t != data.ARTIFACT:
            return False
    for cell in state.taken:
        if terrain[world_of(state.n, cell)] != data.ARTIFACT:
            return False
    if state.failed:
        atl = tuple(sorted(inner_of(state.n, x) for x, t in enumerate(terrain) if t == data.ATLANTIS))
        if any(atl == f for _, f in state.failed):
            return False
    if state.lost_obs[seat]:
        return False
    return True


def rerandomise(state, seat: int, rng: Rng):
    if state.phase == "over":
        return state
    cells = state.n * state.n
    pos = list(state.pos)
    mines = list(state.mines)
    for o in range(state.players):
        if o != seat or state.lost[seat]:
            pos[o], rng = rng.below(cells)
        if o != seat and mines[o] >= 0:
            mines[o], rng = rng.below(cells)
    # artifact cards held by others, and the deck
    pool = list(state.deck) + [a for o in range(state.players) if o != seat for a, _ in state.arts[o]]
    mixed, rng = rng.shuffled(pool)
    i = 0
    arts = []
    for o in range(state.players):
        if o == seat:
            arts.append(state.arts[o])
            continue
        held = []
        for _, found in state.arts[o]:
            held.append((mixed[i], found))
            i += 1
        arts.append(tuple(held))
    deck = tuple(mixed[i:])
    # captains
    mine_known = set(state.offers[seat]) | {state.captain[seat]}
    shown = {state.captain[o] for o in range(state.players) if state.captain_shown[o]}
    cpool = [c for c in data.CAPTAINS if c not in mine_known and c not in shown]
    cmixed, rng = rng.shuffled(cpool)
    j = 0
    captain = list(state.captain)
    offers = list(state.offers)
    for o in range(state.players):
        if o == seat:
            continue
        if state.captain[o] and not state.captain_shown[o]:
            captain[o] = cmixed[j]
            j += 1
        if state.offers[o]:
            offers[o] = tuple(cmixed[j:j + len(state.offers[o])])
            j += len(state.offers[o])
    terrain = state.terrain
    if not state.lost_obs[seat]:
        for _ in range(MAP_TRIES):
            cand, rng = constrained_map(state, seat, rng)
            if cand is not None and consistent(cand, state, seat):
                terrain = cand
                break
    return replace(state, pos=tuple(pos), mines=tuple(mines), arts=tuple(arts), deck=deck,
                   captain=tuple(captain), offers=tuple(offers), terrain=terrain)


def constrained_map(state, seat: int, rng: Rng):
    """A random map that puts traces only where the seat's chart allows them and
    keeps the traces it knows (``consistent`` still checks every fact)."""
    n = state.n
    w = n + 2
    k, arts = data.MAP_SIZES[n]
    chart = state.charts[seat]
    cells = n * n
    wx = [world_of(n, c) for c in range(cells)]

    def may_trace(c: int) -> bool:
        x = wx[c]
        if chart[x] & (data.NOTRACE | data.DEEP_F):
            return False
        return not any(chart[x + o] & data.DEEP_F for o in (-w, 1, w, -1))

    allowed = [c for c in range(cells) if may_trace(c)]
    atl_must = [c for c in range(cells) if chart[wx[c]] & data.ATL]
    art_must = sorted({c for c in range(cells) if chart[wx[c]] & data.ART} | set(state.taken))
    atl_ok = set(c for c in allowed if c not in art_must)
    if len(atl_ok) < k or len(art_must) > arts:
        return None, rng
    if atl_must:
        start = atl_must[0]
    else:
        pool = sorted(atl_ok)
        start, rng = rng.choice(pool)
    group = [start]
    inside = {start}
    frontier = []
    for _ in range(k - 1):
        frontier = sorted({o for c in group for o in _king(n, c) if o in atl_ok and o not in inside})
        if not frontier:
            return None, rng
        nxt, rng = rng.choice(frontier)
        group.append(nxt)
        inside.add(nxt)
    if any(c not in inside for c in atl_must):
        return None, rng
    free = [c for c in allowed if c not in inside and c not in art_must]
    chosen = list(art_must)
    while len(chosen) < arts:
        if not free:
            return None, rng
        i, rng = rng.below(len(free))
        chosen.append(free.pop(i))
    terrain = [data.DEEP] * (w * w)
    for cs, kind in ((group, data.ATLANTIS), (chosen, data.ARTIFACT)):
        for c in cs:
            x = wx[c]
            terrain[x] = kind
            for o in (-w, 1, w, -1):
                if terrain[x + o] == data.DEEP:
                    terrain[x + o] = data.SEAMOUNT
    return tuple(terrain), rng


def _king(n: int, c: int):
    r, col = divmod(c, n)
    for dr, dc in data.DIRS:
        if 0 <= r + dr < n and 0 <= col + dc < n:
            yield (r + dr) * n + col + dc
