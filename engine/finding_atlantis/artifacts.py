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


def seed_of_youth(s: FAState, seat: int, a: UseArtifact):
    return refill(s, seat), []


def trident(s: FAState, seat: int, a: UseArtifact):
    facts = [(dr, dc, rod_fact(s, seat, dr, dc)) for dr, dc in data.DIRS]
    return note(s, seat, facts), [result(seat, "trident", facts)]


def crystal_orb(s: FAState, seat: int, a: UseArtifact):
    facts = [(dr, dc, beneath(s, seat, dr, dc)) for dr, dc in data.DIRS]
    return note(s, seat, facts), [result(seat, "orb", facts)]


def golden_compass(s: FAState, seat: int, a: UseArtifact):
    s, ev = regain(s, seat)
    return s, ev + [result(seat, "compass", [], cell=s.pos[seat], n=s.n)]


def pearl(s: FAState, seat: int, a: UseArtifact):
    check_dir(a.arg)
    return move(s, seat, a.arg, 1, public_dir=False, label="pearl")


def echo_conch(s: FAState, seat: int, a: UseArtifact):
    cells = tuple((o, s.pos[o]) for o in range(s.players) if o != seat)
    return s, [result(seat, "conch", [], subs=cells, n=s.n)]


def whirlpool(s: FAState, seat: int, a: UseArtifact):
    t = check_other_seat(s.players, seat, a.arg)
    check_dir(a.dir)
    ev = [Event("whirlpool", {"seat": seat, "target": t, "dir": a.dir})]
    s2, more = move(s, t, a.dir, 1, public_dir=True, label="pushed")
    return s2, ev + more


def siren(s: FAState, seat: int, a: UseArtifact):
    t = check_other_seat(s.players, seat, a.arg)
    s, card = discard_random(s, t)
    return s, [Event("siren", {"seat": seat, "target": t, "card": card})]


def map_fragment(s: FAState, seat: int, a: UseArtifact):
    check_cell(s.n, a.arg)
    f = explore_facts(s.terrain[world_of(s.n, a.arg)])
    s = note_cell(s, seat, a.arg, f)
    return s, [result(seat, "fragment", [], cell=a.arg, facts=f, n=s.n)]


def warp_beacon(s: FAState, seat: int, a: UseArtifact):
    """Go to the chosen space and know it (notes taken while lost are dropped)."""
    check_cell(s.n, a.arg)
    s = replace(s, pos=put(s.pos, seat, a.arg), lost=put(s.lost, seat, False),
                lost_obs=put(s.lost_obs, seat, ()), lost_disp=put(s.lost_disp, seat, (0, 0)),
                trail=put(s.trail, seat, s.trail[seat] + ("beacon",)))
    return s, [Event("moved", {"seat": seat, "steps": 0, "of": 0, "dir": -1, "stop": "", "to": a.arg, "n": s.n},
                     to=(seat,))]


ARTIFACT_EFFECTS: dict[str, Effect] = {
    "seed": seed_of_youth, "trident": trident, "orb": crystal_orb, "compass": golden_compass,
    "pearl": pearl, "conch": echo_conch, "whirlpool": whirlpool, "siren": siren,
    "fragment": map_fragment, "beacon": warp_beacon,
}


def use_artifact(state: FAState, seat: int, a: UseArtifact) -> tuple[FAState, list[Event]]:
    """Use an unused artifact the seat holds; a monster wakes where it was found."""
    held = [x for x, _ in state.arts[seat]]
    if a.artifact not in held:
        raise IllegalAction("You do not hold that artifact.")
    free = data.ARTIFACTS[a.artifact][2]
    if not free and state.actions_left <= 0:
        raise IllegalAction("You have no actions left this turn.")
    i = held.index(a.artifact)
    found = state.arts[seat][i][1]
    s = replace(state, arts=put(state.arts, seat, state.arts[seat][:i] + state.arts[seat][i + 1:]),
                used=put(state.used, seat, state.used[seat] + (a.artifact,)))
    events = [Event("artifact_used", {"seat": seat, "artifact": a.artifact})]
    s, more = ARTIFACT_EFFECTS[a.artifact](s, seat, a)
    events += more
    if found not in s.monsters:
        s = replace(s, monsters=s.monsters + (found,))
        events.append(Event("monster_woke", {"cell": found, "n": s.n}))
    return spend(s, seat, events, free=free)
