"""Survive: the actions, one small step each (so ``legal`` stays short and a screen
offers one piece's next hex at a time)."""

from __future__ import annotations

from typing import NamedTuple


class PlaceExplorer(NamedTuple):
    """Setup: put explorer ``explorer`` on the empty land hex ``hex``."""
    explorer: int
    hex: int


class PlaceBoat(NamedTuple):
    """Setup: put your next boat on the free sea hex ``hex`` next to land."""
    hex: int


class PlayTile(NamedTuple):
    """Step 1: play a red tile from your hand (``back`` names what you know is on it)."""
    tile: int
    back: str


class NoTile(NamedTuple):
    """Step 1: play no tile this turn."""


class DolphinStep(NamedTuple):
    """A dolphin carries your swimmer one hex (to a sea hex, or onto a safe island)."""
    explorer: int
    to: int


class WindStep(NamedTuple):
    """The wind blows a boat you may move one hex."""
    boat: int
    to: int


class EndTile(NamedTuple):
    """Stop the dolphin or the wind before its 3 hexes are used."""


class Walk(NamedTuple):
    """Step 2, one point: an explorer on land walks to a neighbouring land hex."""
    explorer: int
    to: int


class Board(NamedTuple):
    """Step 2, one point: an explorer climbs into a boat (next to its land hex or its
    boat, or in the hex where it swims)."""
    explorer: int
    boat: int


class Swim(NamedTuple):
    """Step 2, one point: a swimmer swims to a neighbouring sea hex, or an explorer on
    land steps into one and swims from now on (one sea hex a turn)."""
    explorer: int
    to: int


class Ashore(NamedTuple):
    """Step 2, one point: an explorer in a boat or swimming at a safe island's entrance
    steps onto the safe island: saved (a swimmer only if it has not swum this turn:
    that step is its one sea hex)."""
    explorer: int


class Sail(NamedTuple):
    """Step 2, one point: a boat you may move sails one hex with everyone in it."""
    boat: int
    to: int


class EndMoves(NamedTuple):
    """Step 2: keep the points you have not used (they are lost)."""


class Sink(NamedTuple):
    """Step 3: take land tile ``tile`` off the island."""
    tile: int


class Roll(NamedTuple):
    """Step 4: roll the creature die."""


class CreatureStep(NamedTuple):
    """Step 4 (or a red "move" tile): move creature ``creature`` one hex."""
    creature: int
    to: int


class EndCreature(NamedTuple):
    """Stop the creature (once it has made its shortest move)."""


class Defend(NamedTuple):
    """Answer an attack on your pieces with a defensive tile from your hand."""
    tile: int
    back: str


class NoDefence(NamedTuple):
    """Answer an attack on your pieces by letting it happen."""


# the action kinds by their name on the wire and in records
ACTIONS = {
    "place_explorer": PlaceExplorer, "place_boat": PlaceBoat, "play_tile": PlayTile,
    "no_tile": NoTile, "dolphin_step": DolphinStep, "wind_step": WindStep, "end_tile": EndTile,
    "walk": Walk, "board": Board, "swim": Swim, "ashore": Ashore, "sail": Sail,
    "end_moves": EndMoves, "sink": Sink, "roll": Roll, "creature_step": CreatureStep,
    "end_creature": EndCreature, "defend": Defend, "no_defence": NoDefence,
}
