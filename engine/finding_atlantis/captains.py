"""Finding Atlantis -- what each captain does (``CAPTAIN_EFFECTS``, keyed like
``data.CAPTAINS``), and playing the captain card.

The captain is a card in the hand: playing it costs an action and shows the
captain to everyone; it comes back on surfacing.  An effect is
``effect(state, seat, action) -> (state, events)``.
"""

from __future__ import annotations

from typing import Callable

from ..components import put
from ..core import Event, IllegalAction, replace
from . import data
from .actions import UseCaptain, check_axis, check_dir, check_other_seat
from .board import Facts, beneath, note, result, step_rel, terrain_at
from .mapgen import world_of
from .moving import move
from .state import FAState, hand_for
from .turns import play_card, spend

Effect = Callable[[FAState, int, UseCaptain], tuple[FAState, list[Event]]]


def _ray(state: FAState, seat: int, d: int) -> Facts:
    """Along direction d from the seat: no trace up to the nearest trace (inclusive)."""
    facts = []
    dr, dc = data.DIRS[d]
    i = 1
    while True:
        cell = step_rel(state.n, state.pos[seat], dr * i, dc * i)
        if cell < 0:
            return facts
        if state.terrain[world_of(state.n, cell)] >= data.ARTIFACT:
            facts.append((dr * i, dc * i, data.TRACE))
            return facts
        facts.append((dr * i, dc * i, data.NOTRACE))
        i += 1


def navy(state: FAState, seat: int, action: UseCaptain):
    check_axis(action.arg)
    facts, dists = [], []
    for d in data.AXES[action.arg]:
        ray = _ray(state, seat, d)
        facts += ray
        dists.append(len(ray) if ray and ray[-1][2] == data.TRACE else 0)
    return note(state, seat, facts), [result(seat, "navy", facts, axis=action.arg, dists=tuple(dists))]


def geologist(state: FAState, seat: int, action: UseCaptain):
    facts = []
    for d in data.ORTHO:
        dr, dc = data.DIRS[d]
        t = terrain_at(state, seat, 2 * dr, 2 * dc)
        if t is not None:
            facts.append((2 * dr, 2 * dc, data.DEEP_F if t == data.DEEP else data.SEA))
    return note(state, seat, facts), [result(seat, "geologist", facts)]


def diver(state: FAState, seat: int, action: UseCaptain):
    check_dir(action.arg)
    dr, dc = data.DIRS[action.arg]
    facts = [(dr, dc, beneath(state, seat, dr, dc))]
    return note(state, seat, facts), [result(seat, "diver", facts)]


def racer(state: FAState, seat: int, action: UseCaptain):
    check_dir(action.arg)
    if not 1 <= action.steps <= 3:
        raise IllegalAction("The Speed Captain moves 1 to 3 spaces.")
    return move(state, seat, action.arg, action.steps, public_dir=False, label="racer")


def listener(state: FAState, seat: int, action: UseCaptain):
    r, c = divmod(state.pos[seat], state.n)
    best = None
    for o in range(state.players):
        if o != seat:
            ro, co = divmod(state.pos[o], state.n)
            dist = max(abs(ro - r), abs(co - c))
            best = dist if best is None else min(best, dist)
    return state, [result(seat, "listener", [], distance=best)]


def saboteur(state: FAState, seat: int, action: UseCaptain):
    t = check_other_seat(state.players, seat, action.arg)
    return replace(state, skip=put(state.skip, t, min(data.ACTIONS_PER_TURN, state.skip[t] + 1))), [
        Event("sabotaged", {"seat": seat, "target": t})]


def spotter(state: FAState, seat: int, action: UseCaptain):
    t = check_other_seat(state.players, seat, action.arg)
    return state, [result(seat, "spotter", [], target=t, cell=state.pos[t], n=state.n)]


def quartermaster(state: FAState, seat: int, action: UseCaptain):
    back = [c for c, _ in state.played[seat] if c != "captain"][-2:]
    played = list(state.played[seat])
    for card in back:
        i = max(j for j, (c, _) in enumerate(played) if c == card)
        played.pop(i)
    hand = tuple(c for c in hand_for(state.pirate) if c in state.hands[seat] or c in back)
    return replace(state, hands=put(state.hands, seat, hand), played=put(state.played, seat, tuple(played))), [
        Event("took_back", {"seat": seat, "cards": tuple(back)})]


CAPTAIN_EFFECTS: dict[str, Effect] = {
    "navy": navy, "geologist": geologist, "diver": diver, "racer": racer, "listener": listener,
    "saboteur": saboteur, "spotter": spotter, "quartermaster": quartermaster,
}


def use_captain(state: FAState, seat: int, action: UseCaptain) -> tuple[FAState, list[Event]]:
    """Play the captain card for the kept captain's ability, for one action."""
    if "captain" not in state.hands[seat]:
        raise IllegalAction("Your captain is spent: surface to take the card back.")
    cap = state.captain[seat]
    after = play_card(state, seat, "captain", -1)
    events = [Event("played", {"seat": seat, "card": "captain", "captain": cap})]
    after, more = CAPTAIN_EFFECTS[cap](after, seat, action)
    return spend(after, seat, events + more)
