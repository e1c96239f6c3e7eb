"""Survive: the state and the view (with every field documented for the
screen that draws it).

Pieces live in flat per-piece tuples of hex indices (``data.BOARD`` order), with the
codes ``NOT_PLACED`` (-1), ``SAVED`` (-2) and ``LOST`` (-3) from ``data``:

* explorer ``e`` (``e // 10`` is its seat): ``explorer_hex[e]`` and ``explorer_boat[e]``
  (the boat it sits in, or -1).  On a land hex it stands on land; on a sea hex without a
  boat it is a *swimmer*.
* boat ``b``: ``boat_hex[b]`` (-1 in the reserve, -3 destroyed).  Boats 2s and 2s+1 are
  seat s's at setup; the rest are the reserve that "boat" tiles bring into play.
* creature ``c`` (kind ``data.CREATURE_KIND[c]``): ``creature_hex[c]`` (-1 not yet in
  play, -3 driven off by a repellent).
* land tile ``t`` (0-39) starts on hex ``data.LAND_HEX_INDEX[t]``: ``terrain[t]`` (public,
  fixed), ``sunk[t]`` (1 once removed) and, in the state only, ``backs[t]``.
"""

from __future__ import annotations

from typing import NamedTuple

from ..core import View, state_class
from ..rng import Rng


class Attack(NamedTuple):
    """An attack waiting for answers (public: the same for every seat).

    ``kind`` "shark" (on the swimmers in ``hex``) or "whale" (on the boat ``boat`` in
    ``hex``); ``creature`` the attacker; ``victims`` the seats whose explorers are
    attacked; ``resume`` the phase that follows once it is over."""
    kind: str
    creature: int
    hex: int
    boat: int
    victims: tuple[int, ...]
    resume: str


# --- the state ---------------------------------------------------------------------------
@state_class
class SurviveState:
    players: int
    memory: bool
    terrain: tuple[int, ...]          # per land tile: BEACH / FOREST / MOUNTAIN
    sunk: tuple[int, ...]             # per land tile: 1 once taken off the island
    backs: tuple[str, ...]            # per land tile: what its back shows (secret)
    hands: tuple[tuple[int, ...], ...]  # per seat: held land tiles (ids), oldest first
    values: tuple[int, ...]           # per explorer: its treasure value (secret)
    explorer_hex: tuple[int, ...]
    explorer_boat: tuple[int, ...]
    boat_hex: tuple[int, ...]
    creature_hex: tuple[int, ...]
    turn: int                         # the seat whose turn (or setup placement) it is
    phase: str
    round: int
    points: int                       # move points left in step 2
    swum: tuple[int, ...]             # explorers that swam this turn (sorted)
    red: str                          # the red tile being resolved, "" if none
    creature_kind: str                # the kind being moved in phase "creature"
    mover: int                        # the piece moving in a multi-hex move, -1 if none yet
    steps: int                        # hexes it has moved so far
    after_creature: str               # where the creature move leads: "move" or "end"
    die: str                          # the last roll ("" before the first)
    last_sunk: int                    # the tile taken off last, -1 if none
    attack: Attack | None
    responders: tuple[int, ...]       # seats still to answer ``attack``, in order
    winners: tuple[int, ...]
    end_reason: str
    rng: Rng


# --- the view ----------------------------------------------------------------------------
class HeldTile(NamedTuple):
    """A tile in your own hand: its id, the terrain on its face, and its back."""
    tile: int
    terrain: int
    back: str


@state_class
class SurviveView(View):
    """What one seat may know (``seat=None``: a spectator).  Drawing guide:

    * ``seat``: whose view this is; ``players``: 2-4; ``memory``: the memory option.
    * ``terrain[t]``/``sunk[t]``: land tile t (on hex ``data.LAND_HEX_INDEX[t]``) is beach 1,
      forest 2 or mountain 3; once ``sunk`` its hex is sea.
    * ``explorer_hex``/``explorer_boat``: per explorer (seat ``e // 10``), its hex index or
      NOT_PLACED / SAVED / LOST, and the boat it sits in (-1: on land or swimming).
    * ``values[e]``: explorer e's treasure value where this seat may see it, else 0
      (its own during setup with ``memory`` on, always with it off; everyone's at the end).
    * ``boat_hex[b]``: per boat, its hex, -1 in reserve or -3 destroyed.
    * ``creature_hex[c]``: per creature (kind ``data.CREATURE_KIND[c]``), its hex, -1 not in
      play, -3 gone.
    * ``held[s]``: the tile ids seat s holds (their terrain is face up; the back is hidden).
    * ``hand``: this seat's own held tiles with their backs (None for a spectator).
    * ``turn``, ``phase`` ("place_explorer", "place_boat", "tile", "red", "move", "sink",
      "roll", "creature", "respond", "over"), ``round``.
    * ``points``: move points left (phase "move"); ``swum``: explorers that already swam.
    * ``red``: the red tile being resolved (phase "red", or "creature" from a red tile).
    * ``creature_kind``: the kind the die (or the tile) lets the player move.
    * ``mover``/``steps``: the piece in a multi-hex move (creature, dolphin's swimmer, boat
      in the wind), -1 before the first step, and how many hexes it has gone.
    * ``die``: the last roll; ``last_sunk``: the tile taken off last.
    * ``attack``/``responders``: an attack waiting for answers, and who is still to answer
      (the first one is to act).  It looks the same for every seat.
    * ``scores``: saved treasure per seat (0 until the end); ``winners``, ``end_reason``.
    """

    seat: int | None
    players: int
    memory: bool
    terrain: tuple[int, ...]
    sunk: tuple[int, ...]
    explorer_hex: tuple[int, ...]
    explorer_boat: tuple[int, ...]
    values: tuple[int, ...]
    boat_hex: tuple[int, ...]
    creature_hex: tuple[int, ...]
    held: tuple[tuple[int, ...], ...]
    hand: tuple[HeldTile, ...] | None
    turn: int
    phase: str
    round: int
    points: int
    swum: tuple[int, ...]
    red: str
    creature_kind: str
    mover: int
    steps: int
    die: str
    last_sunk: int
    attack: Attack | None
    responders: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    end_reason: str
