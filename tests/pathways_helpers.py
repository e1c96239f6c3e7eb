"""Builders for Pathways positions used by the rule tests.

Every position starts from a real ``setup`` and is changed with
``dataclasses.replace``; the builders keep each of the 100 tiles in exactly one
place (board, a hand, the draw pile or the used pile), so the states they make
are ones the rules could have reached.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Sequence

from engine.core import Event
from engine.pathways import data
from engine.pathways.actions import EndMove, EndPlays, Step
from engine.pathways.board import ATLANTIS, EMPTY
from engine.pathways.rules import PathwaysGame
from engine.pathways.state import PathwaysState

GAME = PathwaysGame()
NAMES = ("Red", "Blue", "Green", "Yellow")
N_, E_, S_, W_ = 0, 1, 2, 3  # side indexes used by Step
SIDE_BIT = {N_: data.N, E_: data.E, S_: data.S, W_: data.W}


def cell(row: int, col: int) -> int:
    return row * data.SIZE + col


def fresh(players: int = 2, seed: int = 1, **options: Any) -> PathwaysState:
    return GAME.setup(GAME.parse_options(options), players, seed)


def tile_place(state: PathwaysState, tile: int) -> str:
    """Where a tile is: 'board', 'hand<seat>', 'draw' or 'discard'."""
    if tile in state.cells:
        return "board"
    for seat, hand in enumerate(state.hands):
        if tile in hand:
            return f"hand{seat}"
    if tile in state.draw:
        return "draw"
    if tile in state.discard:
        return "discard"
    return "nowhere"


def assert_tiles_conserved(state: PathwaysState) -> None:
    """Every one of the 100 tiles is in exactly one place (the start elbows of
    empty corners are shuffled into the pile)."""
    held = [c for c in state.cells if c >= 0]
    held += [t for h in state.hands for t in h]
    held += list(state.draw) + list(state.discard)
    expected = list(range(100))
    assert sorted(held) == expected, "tiles were lost or duplicated"


def _free_tile(state: PathwaysState, kind: str, avoid: Iterable[int] = ()) -> int:
    """A tile of ``kind`` that lies in the draw pile (and not in ``avoid``)."""
    avoid = set(avoid)
    for t in state.draw:
        if data.TILE_KIND[t] == kind and t not in avoid:
            return t
    raise LookupError(f"no {kind} tile left in the draw pile")


def with_hand(state: PathwaysState, seat: int, kinds: Sequence[str]) -> PathwaysState:
    """Give ``seat`` a hand of tiles of these kinds, taken from the draw pile;
    the old hand goes back to the bottom of the pile."""
    old = state.hands[seat]
    draw = list(state.draw) + list(old)
    pile_state = replace(state, draw=tuple(draw))
    chosen: list[int] = []
    for kind in kinds:
        chosen.append(_free_tile(pile_state, kind, chosen))
    draw = [t for t in draw if t not in chosen]
    hands = state.hands[:seat] + (tuple(chosen),) + state.hands[seat + 1:]
    return replace(state, hands=hands, draw=tuple(draw))


def with_tiles(state: PathwaysState, tiles: dict[int, tuple[str, int]]) -> PathwaysState:
    """Lay tiles on empty cells: ``{cell: (kind, open-sides mask)}``; the tiles
    come out of the draw pile."""
    cells = list(state.cells)
    masks = list(state.masks)
    draw = list(state.draw)
    for c, (kind, mask) in tiles.items():
        assert cells[c] == EMPTY, f"cell {c} is not empty"
        assert mask in data.rotations(kind), f"{kind} cannot open {mask}"
        tile = _free_tile(replace(state, draw=tuple(draw)), kind)
        draw.remove(tile)
        cells[c] = tile
        masks[c] = mask
    return replace(state, cells=tuple(cells), masks=tuple(masks), draw=tuple(draw))


def clear_cells(state: PathwaysState, cells_to_clear: Iterable[int]) -> PathwaysState:
    """Take tiles off the board back onto the draw pile."""
    cells = list(state.cells)
    masks = list(state.masks)
    draw = list(state.draw)
    for c in cells_to_clear:
        if cells[c] >= 0:
            draw.append(cells[c])
            cells[c] = EMPTY
            masks[c] = 0
    return replace(state, cells=tuple(cells), masks=tuple(masks), draw=tuple(draw))


def with_pods(state: PathwaysState, **by_seat: int) -> PathwaysState:
    """``with_pods(s, p0=12, p1=45)``."""
    pods = list(state.pods)
    for key, value in by_seat.items():
        pods[int(key[1:])] = value
    return replace(state, pods=tuple(pods))


def in_move_phase(state: PathwaysState) -> PathwaysState:
    return replace(state, phase="move", pending="", mover=-1, move_start=-1, steps_left=data.OWN_MOVE)


def hand_tile(state: PathwaysState, seat: int, kind: str) -> int:
    for t in state.hands[seat]:
        if data.TILE_KIND[t] == kind:
            return t
    raise LookupError(f"seat {seat} holds no {kind}")


def rot_for(kind: str, mask: int) -> int:
    """The rotation that gives a tile of ``kind`` the open sides ``mask``."""
    for q in range(4):
        if data.rotate(data.SHAPES[kind], q) == mask:
            return q
    raise ValueError(f"{kind} cannot open {mask}")


def run(state: PathwaysState, seat: int, *actions: Any) -> tuple[PathwaysState, list[Event]]:
    """Apply several actions of one seat, collecting the events."""
    events: list[Event] = []
    for action in actions:
        state, evs = GAME.apply(state, seat, action)
        events += evs
    return state, events


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def corridor(state: PathwaysState, path: Sequence[int]) -> PathwaysState:
    """Lay tiles so that the cells in ``path`` (each next to the previous one)
    form one connected path.  Cells that already hold a tile must already open
    the needed sides; a dead end gets a straight tile (it also opens opposite)."""
    want: dict[int, int] = {c: 0 for c in path}
    for a, b in zip(path, path[1:]):
        side = data.NEIGHBOURS[a].index(b)
        want[a] |= data.SIDES[side]
        want[b] |= data.OPPOSITE[data.SIDES[side]]
    tiles: dict[int, tuple[str, int]] = {}
    for c, mask in want.items():
        if state.cells[c] >= 0:
            assert state.masks[c] & mask == mask, f"cell {c} already holds a tile that does not fit"
            continue
        if bin(mask).count("1") == 1:
            mask |= data.OPPOSITE[mask]
        tiles[c] = (_kind_for(mask), mask)
    return with_tiles(state, tiles)


def _kind_for(mask: int) -> str:
    for kind in ("straight", "elbow", "tee", "cross"):
        if mask in data.rotations(kind):
            return kind
    raise ValueError(mask)


def blank_board(state: PathwaysState) -> PathwaysState:
    """Only Atlantis and the start elbows remain (this is the setup board)."""
    return clear_cells(state, [c for c in range(data.CELLS) if state.cells[c] >= 4])


__all__ = [
    "ATLANTIS", "EMPTY", "EndMove", "EndPlays", "GAME", "NAMES", "Step",
    "N_", "E_", "S_", "W_", "SIDE_BIT",
]
