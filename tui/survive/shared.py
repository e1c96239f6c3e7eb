"""Names the Survive screen and its words share: pieces, moves, short tile names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.survive import data

PER_SEAT = data.EXPLORERS_PER_SEAT
SHORT_BACK = {  # one word or two, for the one-row hand
    "dolphin": "dolphin", "wind": "wind", "move_serpent": "move §", "move_shark": "move Δ",
    "move_whale": "move Ω", "shark_repellent": "Δ repel", "whale_repellent": "Ω repel",
}
TERRAIN_WORD = {data.BEACH: "beach", data.FOREST: "forest", data.MOUNTAIN: "mountain"}
BOARD_WIDTH = 60        # the board in 3-character hexes: below this the side panel shrinks
SIDE_WIDE, SIDE_NARROW = 34, 20
BIG_BOARD_WIDTH = 94    # the board in its biggest (6-character) hexes, and a margin
SIDE_ROOMY = 60         # beside a big board: the players in full words, a wide log


def side_width(width: int) -> int:
    """The side panel's width on a terminal ``width`` wide: roomy beside the biggest
    hexes when both fit (160 columns), else 34 beside 3-character hexes, else less."""
    if width - SIDE_ROOMY >= BIG_BOARD_WIDTH:
        return SIDE_ROOMY
    if width - SIDE_WIDE >= BOARD_WIDTH:
        return SIDE_WIDE
    return max(SIDE_NARROW, width - BOARD_WIDTH)


@dataclass(frozen=True)
class Piece:
    """Something the player can move: ("explorer", e), ("boat", b) or ("creature", c)."""

    kind: str
    id: int


@dataclass(frozen=True)
class Move:
    """One legal action seen as "this piece goes from here to there"."""

    piece: Piece | None
    start: int           # hex index (-1: from nowhere, a setup placement or a tile)
    to: int
    action: Any
