"""Ships and the cubes aboard: boarding, discarding, sailing, arriving in the Promised
Land (and scoring it), wrecks, and the advanced Ark's neutral.  Used by the cards,
the Faction abilities, the events and the Doom phase alike.

Each function takes the state and ``changes`` (fields already changed in this step and
not yet rebuilt into a state: it reads through them) and returns the changes grown, so
a step that moves several cubes and ships rebuilds the state once
(``replace(state, **changes)``).
"""

from __future__ import annotations

from typing import Any

from ..components import bump, put
from ..core import Event
from . import data
from .state import EoaState, Ship, free, immune

ADVANCED_ARK = data.ARK + data.ADVANCED
ADVANCED_SCIENCE = data.SCIENCE + data.ADVANCED
ADVANCED_ROYAL = data.ROYAL_VESSEL + data.ADVANCED
ADVANCED_AIRSHIP = data.AIRSHIP + data.ADVANCED
ADVANCED_WARSHIP = data.WARSHIP + data.ADVANCED
EMPTY = (0,) * data.COLOURS

Changes = dict[str, Any]


def put_refugees(state: EoaState, seat: int, ship: int, count: int, **changes: Any) -> Changes:
    """``count`` of ``seat``'s cubes go from behind the screen onto ``ship``."""
    ships = changes.get("ships", state.ships)
    sh = ships[ship]
    changes["ships"] = put(ships, ship, sh._replace(cubes=bump(sh.cubes, seat, count)))
    changes["screen"] = bump(changes.get("screen", state.screen), seat, -count)
    return changes


def discard_cubes(state: EoaState, ship: int, colour: int, count: int = 1, **changes: Any) -> Changes:
    """Cubes thrown off a ship: a player's go to their Faction building (they come home
    in the Doom phase), a neutral back to the camp."""
    ships = changes.get("ships", state.ships)
    sh = ships[ship]
    changes["ships"] = put(ships, ship, sh._replace(cubes=bump(sh.cubes, colour, -count)))
    if colour == data.NEUTRAL:
        changes["camp"] = changes.get("camp", state.camp) + count
    else:
        changes["buildings"] = bump(changes.get("buildings", state.buildings), colour, count)
    return changes


def ark_refill(state: EoaState, ship: int, **changes: Any) -> Changes:
    """The advanced Ark always carries a neutral refugee while the camp has one."""
    ships = changes.get("ships", state.ships)
    camp = changes.get("camp", state.camp)
    sh = ships[ship]
    if sh.tile == ADVANCED_ARK and sh.cubes[data.NEUTRAL] == 0 and camp > 0 and free(sh) > 0:
        changes["ships"] = put(ships, ship, sh._replace(cubes=bump(sh.cubes, data.NEUTRAL, 1)))
        changes["camp"] = camp - 1
    return changes


def wreck(state: EoaState, ship: int, spare_immune: bool = True, **changes: Any) -> tuple[Changes, int]:
    """Everyone aboard is discarded (but cubes immune to red cards, when
    ``spare_immune``) and the ship goes back to port; also returns the cubes lost."""
    sh = changes.get("ships", state.ships)[ship]
    lost = 0
    for c in range(data.COLOURS):
        if sh.cubes[c] and not (spare_immune and immune(state, c)):
            lost += sh.cubes[c]
            changes = discard_cubes(state, ship, c, sh.cubes[c], **changes)
    ships = changes.get("ships", state.ships)
    changes["ships"] = put(ships, ship, ships[ship]._replace(at_sea=False))
    return ark_refill(state, ship, **changes), lost


def arrival_scores(cubes: tuple[int, ...], players: int, royal: bool) -> list[int]:
    """Per player: the chart for their refugees aboard (at most 5 count) plus 1 for every
    other colour aboard (neutral counts)."""
    chart = data.ROYAL_CHART if royal else data.CHART
    present = sum(1 for c in cubes if c > 0)
    return [chart[min(cubes[p], 5) - 1] + present - 1 if cubes[p] else 0 for p in range(players)]


def move_ship(state: EoaState, ship: int, mover: int, royal: bool = False, **changes: Any
              ) -> tuple[Changes, list[Event], bool]:
    """Move ``ship`` one area (port -> ocean -> Promised Land; the advanced Airship flies
    from port straight there).  ``mover`` is the seat whose card moved it, or -1 in the
    Doom phase.  Also returns whether the mover earns a special card (advanced Royal
    Vessel moved off the ocean)."""
    ships = changes.get("ships", state.ships)
    sh = ships[ship]
    if not sh.at_sea and sh.tile != ADVANCED_AIRSHIP:
        changes["ships"] = put(ships, ship, sh._replace(at_sea=True))
        return changes, [Event("sailed", {"ship": ship, "tile": sh.tile, "seat": mover})], False
    from_ocean = sh.at_sea
    changes, events = arrive(state, ship, mover, royal, **changes)
    if mover >= 0 and from_ocean and sh.tile == ADVANCED_SCIENCE:
        changes["vp"] = bump(changes["vp"], mover, data.SCIENCE_BONUS)
        events.append(Event("score", {"seat": mover, "n": data.SCIENCE_BONUS, "why": "science"}))
    return changes, events, mover >= 0 and from_ocean and sh.tile == ADVANCED_ROYAL


def arrive(state: EoaState, ship: int, mover: int, royal: bool, **changes: Any) -> tuple[Changes, list[Event]]:
    """``ship`` reaches the Promised Land: everyone aboard scores, the mover 1 more; the
    refugees stay there until the Doom phase and the ship returns to port empty."""
    ships = changes.get("ships", state.ships)
    sh = ships[ship]
    gains = arrival_scores(sh.cubes, state.players, royal)
    if mover >= 0:
        gains[mover] += data.MOVER_BONUS
    land = changes.get("promised_land", state.promised_land)
    changes.update(
        vp=tuple(v + g for v, g in zip(changes.get("vp", state.vp), gains)),
        promised_land=tuple(p + sh.cubes[q] for q, p in enumerate(land)),
        promised_land_neutrals=changes.get("promised_land_neutrals", state.promised_land_neutrals)
        + sh.cubes[data.NEUTRAL],
        ships=put(ships, ship, Ship(sh.tile, False, EMPTY)))
    event = Event("arrived", {"ship": ship, "tile": sh.tile, "seat": mover, "royal": royal,
                              "cubes": sh.cubes, "gains": tuple(gains)})
    return ark_refill(state, ship, **changes), [event]
