"""Pathways tiles as the screen sees them: kinds, masks, rotations, the specials' hints."""

from __future__ import annotations

from engine.pathways import data

SPECIAL_HINT = {  # one line each, for the narrow side panel
    "trade": "take an unlocked, empty tile off the board.",
    "move_other_3": "move another player's subpod up to 3 spaces.",
    "play_2_more": "play up to two more tiles this turn.",
    "move_own_3": "move your own subpod up to 3 spaces.",
}


def kind_of(tile: int) -> str:
    return data.TILE_KIND[tile]


def is_special(tile: int) -> bool:
    return kind_of(tile) in data.SPECIAL_KINDS


def tile_mask(tile: int, rot: int) -> int:
    return data.rotate(data.SHAPES[kind_of(tile)], rot)


def rotation_of(tile: int, mask: int) -> int:
    """How far a placed tile is turned, from its open sides."""
    for rot in range(4):
        if tile_mask(tile, rot) == mask:
            return rot
    return 0
