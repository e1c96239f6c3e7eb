"""Finding Atlantis -- what each action card does (``CARD_EFFECTS``), playing one,
and burning one for a public move.

An effect is ``effect(state, seat, action) -> (state, events)``; the card has
already left the hand.  Results go to the player alone (``board.result``).
"""

from __future__ import annotations

from typing import Any, Callable

from ..components import put
from ..core import Event, IllegalAction, replace
from . import data
from .actions import Burn, CARD_OF_ACTION, DropMine, JellyRod, LongSilent, Silent, check_axis, check_dir
from .board import explore_facts, note, regain, result, rod_fact, step_rel, terrain_at
from .mapgen import world_of
from .moving import move
from .state import FAState
from .turns import play_card, refill, spend

Effect = Callable[[FAState, int, Any], tuple[FAState, list[Event]]]


def sonar(s: FAState, seat: int, a: Any):
    facts = []
    for dr, dc in data.DIRS:
        t = terrain_at(s, seat, dr, dc)
        facts.append((dr, dc, data.DEEP_F if t == data.DEEP else data.SEA))
    return note(s, seat, facts), [result(seat, "sonar", facts)]


def jelly_rod(s: FAState, seat: int, a: JellyRod):
    check_axis(a.axis)
    facts = [(data.DIRS[d][0], data.DIRS[d][1], rod_fact(s, seat, *data.DIRS[d])) for d in data.AXES[a.axis]]
    return note(s, seat, facts), [result(seat, "rod", facts, axis=a.axis)]


def explore(s: FAState, seat: int, a: Any):
    """What lies beneath; the first explorer of an artifact space draws its card;
    on Atlantis the explorer may declare."""
    t = s.terrain[world_of(s.n, s.pos[seat])]
    facts = [(0, 0, explore_facts(t))]
    s = note(s, seat, facts)
    events = [result(seat, "explore", facts)]
    here = s.pos[seat]
    if t == data.ARTIFACT and here not in s.taken and s.deck:
        card = s.deck[0]
        s = replace(s, deck=s.deck[1:], taken=tuple(sorted(s.taken + (here,))),
                    arts=put(s.arts, seat, s.arts[seat] + ((card, here),)))
        events.append(Event("artifact_drawn", {"seat": seat}))
        events.append(Event("artifact_card", {"seat": seat, "artifact": card}, to=(seat,)))
    elif t == data.ARTIFACT:
        events.append(Event("artifact_gone", {"seat": seat}, to=(seat,)))
    if t == data.ATLANTIS:
        s = replace(s, may_declare=put(s.may_declare, seat, True), picks=put(s.picks, seat, ()))
    return s, events


def silent_running(s: FAState, seat: int, a: Silent):
    check_dir(a.dir)
    return move(s, seat, a.dir, 1, public_dir=False, label="silent")


def long_silent_running(s: FAState, seat: int, a: LongSilent):
    check_dir(a.dir)
    return move(s, seat, a.dir, 2, public_dir=False, label="long")


def surface(s: FAState, seat: int, a: Any):
    """Cards and captain back in hand; the seat learns where it is, and so does everyone."""
    s = refill(s, seat)
    s, ev = regain(s, seat)
    where = s.pos[seat]
    s = replace(s, surfaced=put(s.surfaced, seat, where), trail=put(s.trail, seat, ()))
    return s, ev + [Event("surfaced", {"seat": seat, "cell": where, "n": s.n})]


def periscope(s: FAState, seat: int, a: Any):
    facts = []
    for dr, dc in data.DIRS:
        cell = step_rel(s.n, s.pos[seat], dr, dc)
        danger = cell >= 0 and (cell in s.monsters or cell in s.mines)
        facts.append((dr, dc, data.DANGER if danger else 0))
    return note(s, seat, facts, clear=data.DANGER), [result(seat, "periscope", facts)]


def drop_mine(s: FAState, seat: int, a: DropMine):
    check_dir(a.dir)
    s = replace(s, mines=put(s.mines, seat, s.pos[seat]))
    s, ev = move(s, seat, a.dir, 1, public_dir=False, label="mine")
    return s, [Event("mine_dropped", {"seat": seat})] + ev


CARD_EFFECTS: dict[str, Effect] = {
    "sonar": sonar, "rod": jelly_rod, "explore": explore, "silent": silent_running,
    "long": long_silent_running, "surface": surface, "periscope": periscope, "mine": drop_mine,
}


def play(state: FAState, seat: int, action: Any) -> tuple[FAState, list[Event]]:
    """Play the action card that ``action`` names, for one action."""
    card = CARD_OF_ACTION[type(action)]
    if card in data.PIRATE_CARDS and not state.pirate:
        raise IllegalAction("That card is only used in pirate mode.")
    if card not in state.hands[seat]:
        raise IllegalAction(f"{data.CARDS[card][0]} is not in your hand: surface to take it back.")
    s = play_card(state, seat, card, -1)
    events = [Event("played", {"seat": seat, "card": card})]
    s, more = CARD_EFFECTS[card](s, seat, action)
    return spend(s, seat, events + more)


def burn(state: FAState, seat: int, a: Burn) -> tuple[FAState, list[Event]]:
    """Any card but Surface (the captain too) for a 1-space move in a public direction."""
    check_dir(a.dir)
    if a.card not in state.hands[seat]:
        raise IllegalAction("You can only burn a card in your hand.")
    if a.card in data.UNBURNABLE:
        raise IllegalAction("The Surface card cannot be burnt.")
    s = play_card(state, seat, a.card, a.dir)
    burnt = {"seat": seat, "card": a.card, "dir": a.dir}
    if a.card == "captain":
        burnt["captain"] = state.captain[seat]
    events = [Event("burnt", burnt)]
    s, more = move(s, seat, a.dir, 1, public_dir=True, label="burn")
    return spend(s, seat, events + more)
