"""Finding Atlantis -- what each artifact does (``ARTIFACT_EFFECTS``, keyed like
``data.ARTIFACTS``), and using one.

Each artifact space gives one artifact card, to its first explorer.  An artifact
is used once; using it wakes a sea monster on the space where it was found.
Some are free (no action spent).  An effect is ``effect(state, seat, action) ->
(state, events)``; the artifact is already among the seat's used ones.
"""

from __future__ import annotations

from typing import Callable

from ..components import put
from ..core import Event, IllegalAction, replace
from . import data
from .actions import UseArtifact, check_cell, check_dir, check_other_seat
from .board import beneath, explore_facts, note, note_cell, regain, result, rod_fact
from .mapgen import world_of
from .moving import move
from .state import FAState
from .turns import discard_random, refill, spend

Effect = Callable[[FAState, int, UseArtifact], tuple[FAState, list[Event]]]


def seed_of_youth(state: FAState, seat: int, action: UseArtifact):
    return refill(state, seat), []


def trident(state: FAState, seat: int, action: UseArtifact):
    facts = [(dr, dc, rod_fact(state, seat, dr, dc)) for dr, dc in data.DIRS]
    return note(state, seat, facts), [result(seat, "trident", facts)]


def crystal_orb(state: FAState, seat: int, action: UseArtifact):
    facts = [(dr, dc, beneath(state, seat, dr, dc)) for dr, dc in data.DIRS]
    return note(state, seat, facts), [result(seat, "orb", facts)]


def golden_compass(state: FAState, seat: int, action: UseArtifact):
    state, events = regain(state, seat)
    return state, events + [result(seat, "compass", [], cell=state.pos[seat], n=state.n)]


def pearl(state: FAState, seat: int, action: UseArtifact):
    check_dir(action.arg)
    return move(state, seat, action.arg, 1, public_dir=False, label="pearl")


def echo_conch(state: FAState, seat: int, action: UseArtifact):
    cells = tuple((o, state.pos[o]) for o in range(state.players) if o != seat)
    return state, [result(seat, "conch", [], subs=cells, n=state.n)]


def whirlpool(state: FAState, seat: int, action: UseArtifact):
    t = check_other_seat(state.players, seat, action.arg)
    check_dir(action.dir)
    events = [Event("whirlpool", {"seat": seat, "target": t, "dir": action.dir})]
    after, more = move(state, t, action.dir, 1, public_dir=True, label="pushed")
    return after, events + more


def siren(state: FAState, seat: int, action: UseArtifact):
    t = check_other_seat(state.players, seat, action.arg)
    state, card = discard_random(state, t)
    return state, [Event("siren", {"seat": seat, "target": t, "card": card})]


def map_fragment(state: FAState, seat: int, action: UseArtifact):
    check_cell(state.n, action.arg)
    f = explore_facts(state.terrain[world_of(state.n, action.arg)])
    state = note_cell(state, seat, action.arg, f)
    return state, [result(seat, "fragment", [], cell=action.arg, facts=f, n=state.n)]


def warp_beacon(state: FAState, seat: int, action: UseArtifact):
    """Go to the chosen space and know it (notes taken while lost are dropped)."""
    check_cell(state.n, action.arg)
    state = replace(state, pos=put(state.pos, seat, action.arg), lost=put(state.lost, seat, False),
                    lost_obs=put(state.lost_obs, seat, ()), lost_disp=put(state.lost_disp, seat, (0, 0)),
                    trail=put(state.trail, seat, state.trail[seat] + ("beacon",)))
    moved = {"seat": seat, "steps": 0, "of": 0, "dir": -1, "stop": "", "to": action.arg, "n": state.n}
    return state, [Event("moved", moved, to=(seat,))]


ARTIFACT_EFFECTS: dict[str, Effect] = {
    "seed": seed_of_youth, "trident": trident, "orb": crystal_orb, "compass": golden_compass,
    "pearl": pearl, "conch": echo_conch, "whirlpool": whirlpool, "siren": siren,
    "fragment": map_fragment, "beacon": warp_beacon,
}


def use_artifact(state: FAState, seat: int, action: UseArtifact) -> tuple[FAState, list[Event]]:
    """Use an unused artifact the seat holds; a monster wakes where it was found."""
    held = [x for x, _ in state.arts[seat]]
    if action.artifact not in held:
        raise IllegalAction("You do not hold that artifact.")
    free = data.ARTIFACTS[action.artifact][2]
    if not free and state.actions_left <= 0:
        raise IllegalAction("You have no actions left this turn.")
    i = held.index(action.artifact)
    found = state.arts[seat][i][1]
    after = replace(state, arts=put(state.arts, seat, state.arts[seat][:i] + state.arts[seat][i + 1:]),
                    used=put(state.used, seat, state.used[seat] + (action.artifact,)))
    events = [Event("artifact_used", {"seat": seat, "artifact": action.artifact})]
    after, more = ARTIFACT_EFFECTS[action.artifact](after, seat, action)
    events += more
    if found not in after.monsters:
        after = replace(after, monsters=after.monsters + (found,))
        events.append(Event("monster_woke", {"cell": found, "n": after.n}))
    return spend(after, seat, events, free=free)
