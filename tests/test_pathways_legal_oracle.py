"""Pathways ``legal()`` is built from tables, shared actions and per-board caches
(engine/pathways/board.py) for self-play speed.  Here it is compared, position by
position in random games, with a slow enumeration written straight from the rules:
same actions, same order (the random bot picks by index, so goldens depend on it)."""

from __future__ import annotations

from engine.core import SeatInfo
from engine.match import Match
from engine.pathways import board
from engine.pathways import data
from engine.pathways.actions import EndMove, EndPlays, Place, Remove, Rotate, Special, Step
from engine.pathways.board import ATLANTIS, EMPTY, IN_ATLANTIS
from pathways_helpers import GAME


def _neighbour(cell: int, side: int) -> int | None:
    r, c = divmod(cell, data.SIZE)
    r, c = r + data.DR[side], c + data.DC[side]
    return r * data.SIZE + c if 0 <= r < data.SIZE and 0 <= c < data.SIZE else None


def _opposite(side: int) -> int:
    return (side + 2) % 4


def slow_legal(view) -> list:
    """Every legal action, enumerated cell by cell and side by side."""
    if view.phase == "over" or view.seat != view.turn or view.hand is None:
        return []
    cells, masks, pods = view.cells, view.masks, view.pods

    def locked(cell):
        return all(cells[n] != EMPTY for i in range(4) if (n := _neighbour(cell, i)) is not None)

    def removable(cell):
        return cells[cell] >= 0 and not locked(cell) and cell not in pods

    def joins(cell, mask):  # meets an open path end of a neighbouring tile
        for i in range(4):
            n = _neighbour(cell, i)
            if mask & data.SIDES[i] and n is not None and cells[n] >= 0 \
                    and masks[n] & data.SIDES[_opposite(i)]:
                return True
        return False

    def distinct_rotations(tile):  # (rot, mask), the first rot of each mask
        out = []
        for rot in range(4):
            m = data.rotate(data.SHAPES[data.TILE_KIND[tile]], rot)
            if m not in [seen for _, seen in out]:
                out.append((rot, m))
        return out

    if view.pending == "trade":
        return [Remove(c) for c in range(data.CELLS) if removable(c)]
    if view.pending or view.phase == "move":
        if view.mover >= 0:
            movers = [view.mover] if view.steps_left > 0 else []
        elif view.pending == "move_own_3":
            movers = [view.turn]
        elif view.pending == "move_other_3":
            movers = [p for p in range(view.players) if p != view.turn]
        else:
            movers = list(range(view.players))
        out = []
        for pod in movers:
            pos = pods[pod]
            if pos == IN_ATLANTIS:
                continue
            start = view.move_start if view.mover >= 0 else pos
            for side in range(4):
                n = _neighbour(pos, side)
                if not masks[pos] & data.SIDES[side] or n is None:
                    continue
                if cells[n] == ATLANTIS:
                    target = IN_ATLANTIS
                elif cells[n] >= 0 and masks[n] & data.SIDES[_opposite(side)]:
                    target = n
                else:
                    continue
                if target != start:
                    out.append(Step(pod, side))
        return out + [EndMove()]
    out = []
    kinds_seen = []
    for tile in view.hand:
        kind = data.TILE_KIND[tile]
        if kind in kinds_seen:
            continue
        kinds_seen.append(kind)
        if kind in data.SPECIAL_KINDS:
            if kind != "trade" or any(removable(c) for c in range(data.CELLS)):
                out.append(Special(tile))
            continue
        for rot, m in distinct_rotations(tile):
            out += [Place(tile, rot, c) for c in range(data.CELLS) if cells[c] == EMPTY and joins(c, m)]
    if view.plays_made >= data.BASE_PLAYS or not out:
        out.append(EndPlays())
    if view.plays_made == 0:
        for c in range(data.CELLS):
            if cells[c] < 0 or locked(c):
                continue
            out += [Rotate(c, rot) for rot, m in distinct_rotations(cells[c])
                    if m != masks[c] and joins(c, m)]
    return out


def test_legal_equals_a_slow_enumeration_at_every_position_of_random_games():
    checked = 0
    kinds: set[str] = set()
    for seed in range(24):
        players = 2 + seed % 3
        match = Match(GAME, {}, [SeatInfo(f"P{i}", "bot") for i in range(players)], 500 + seed)
        bots = [GAME.make_bot(i, 500 + seed, "random") for i in range(players)]
        while match.result() is None and len(match.history) < 160:
            (seat,) = match.to_act()
            view = match.view(seat)
            legal = GAME.legal(view)
            assert legal == slow_legal(view), (seed, len(match.history))
            assert GAME.legal(match.view((seat + 1) % players)) == []
            assert GAME.legal(match.view(None)) == []
            kinds.update(type(a).__name__ for a in legal)
            checked += 1
            match.submit(seat, bots[seat].choose(view, legal))
    assert checked > 2000
    assert kinds == {"Place", "Rotate", "Special", "Remove", "EndPlays", "Step", "EndMove"}


def test_per_cell_facing_and_exit_functions_equal_a_side_by_side_check_on_random_boards():
    """``board._FACING`` / ``board._EXITS`` (one generated function per cell, used by the
    move phase's Steps and the Rotate rows) and ``board._AWAY`` against the rules read
    side by side, on random boards (tiles with random open sides, empty cells, Atlantis)."""
    from engine.rng import Rng

    rng = Rng.from_seed(7, "facing-oracle")
    for _ in range(60):
        cells, masks = [], []
        for c in range(data.CELLS):
            r, rng = rng.below(3)
            m, rng = rng.below(16)
            tile = c in data.ATLANTIS_CELLS and ATLANTIS or (EMPTY if r == 0 else c)
            cells.append(tile)
            masks.append(m if tile >= 0 else 0)
        cells, masks = tuple(cells), tuple(masks)
        for c in range(data.CELLS):
            facing = exits = 0
            for i in range(4):
                n = _neighbour(c, i)
                if n is None:
                    continue
                meets = cells[n] >= 0 and masks[n] & data.SIDES[_opposite(i)]
                facing |= data.SIDES[i] if meets else 0
                if masks[c] & data.SIDES[i] and (meets or cells[n] == ATLANTIS):
                    exits |= data.SIDES[i]
            assert board._FACING[c](masks) == facing, c
            assert board._EXITS[c](masks) == exits, c
    for c in range(data.CELLS):
        for start in range(data.CELLS):
            back = [i for i in range(4) if _neighbour(c, i) == start]
            assert board._AWAY[c][start] == 15 & ~sum(data.SIDES[i] for i in back), (c, start)
