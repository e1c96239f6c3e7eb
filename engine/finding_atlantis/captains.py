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


def _ray(s: FAState, seat: int, d: int) -> Facts:
    """Along direction d from the seat: no trace up to the nearest trace (inclusive)."""
    facts = []
    dr, dc = data.DIRS[d]
    i = 1
    while True:
        cell = step_rel(s.n, s.pos[seat], dr * i, dc * i)
        if cell < 0:
            return facts
        if s.terrain[world_of(s.n, cell)] >= data.ARTIFACT:
            facts.append((dr * i, dc * i, data.TRACE))
            return facts
        facts.append((dr * i, dc * i, data.NOTRACE))
        i += 1


def navy(s: FAState, seat: int, a: UseCaptain):
    check_axis(a.arg)
    facts, dists = [], []
    for d in data.AXES[a.arg]:
        ray = _ray(s, seat, d)
        facts += ray
        dists.append(len(ray) if ray and ray[-1][2] == data.TRACE else 0)
    return note(s, seat, facts), [result(seat, "navy", facts, axis=a.arg, dists=tuple(dists))]


def geologist(s: FAState, seat: int, a: UseCaptain):
    facts = []
    for d in data.ORTHO:
        dr, dc = data.DIRS[d]
        t = terrain_at(s, seat, 2 * dr, 2 * dc)
        if t is not None:
            facts.append((2 * dr, 2 * dc, data.DEEP_F if t == data.DEEP else data.SEA))
    return note(s, seat, facts), [result(seat, "geologist", facts)]


def diver(s: FAState, seat: int, a: UseCaptain):
    check_dir(a.arg)
    dr, dc = data.DIRS[a.arg]
    facts = [(dr, dc, beneath(s, seat, dr, dc))]
    return note(s, seat, facts), [result(seat, "diver", facts)]


def racer(s: FAState, seat: int, a: UseCaptain):
    check_dir(a.arg)
    if not 1 <= a.steps <= 3:
        raise IllegalAction("The Speed Captain moves 1 to 3 spaces.")
    return move(s, seat, a.arg, a.steps, public_dir=False, label="racer")


def listener(s: FAState, seat: int, a: UseCaptain):
    r, c = divmod(s.pos[seat], s.n)
    best = None
    for o in range(s.players):
        if o != seat:
            ro, co = divmod(s.pos[o], s.n)
            dist = max(abs(ro - r), abs(co - c))
            best = dist if best is None else min(best, dist)
    return s, [result(seat, "listener", [], distance=best)]


def saboteur(s: FAState, seat: int, a: UseCaptain):
    t = check_other_seat(s.players, seat, a.arg)
    return replace(s, skip=put(s.skip, t, min(data.ACTIONS_PER_TURN, s.skip[t] + 1))), [
        Event("sabotaged", {"seat": seat, "target": t})]


def spotter(s: FAState, seat: int, a: UseCaptain):
    t = check_other_seat(s.players, seat, a.arg)
    return s, [result(seat, "spotter", [], target=t, cell=s.pos[t], n=s.n)]


def quartermaster(s: FAState, seat: int, a: UseCaptain):
    back = [c for c, _ in s.played[seat] if c != "captain"][-2:]
    played = list(s.played[seat])
    for card in back:
        i = max(j for j, (c, _) in enumerate(played) if c == card)
        played.pop(i)
    hand = tuple(c for c in hand_for(s.pirate) if c in s.hands[seat] or c in back)
    return replace(s, hands=put(s.hands, seat, hand), played=put(s.played, seat, tuple(played))), [
        Event("took_back", {"seat": seat, "cards": tuple(back)})]


CAPTAIN_EFFECTS: dict[str, Effect] = {
    "navy": navy, "geologist": geologist, "diver": diver, "racer": racer, "listener": listener,
    "saboteur": saboteur, "spotter": spotter, "quartermaster": quartermaster,
}


def use_captain(state: FAState, seat: int, a: UseCaptain) -> tuple[FAState, list[Event]]:
    """Play the captain card for the kept captain's ability, for one action."""
    if "captain" not in state.hands[seat]:
        raise IllegalAction("Your captain is spent: surface to take the card back.")
    cap = state.captain[seat]
    s = play_card(state, seat, "captain", -1)
    events = [Event("played", {"seat": seat, "card": "captain", "captain": cap})]
    s, more = CAPTAIN_EFFECTS[cap](s, seat, a)
    return spend(s, seat, events + more)
