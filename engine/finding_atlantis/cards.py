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


def sonar(state: FAState, seat: int, action: Any):
    facts = []
    for dr, dc in data.DIRS:
        t = terrain_at(state, seat, dr, dc)
        facts.append((dr, dc, data.DEEP_F if t == data.DEEP else data.SEA))
    return note(state, seat, facts), [result(seat, "sonar", facts)]


def jelly_rod(state: FAState, seat: int, action: JellyRod):
    check_axis(action.axis)
    facts = [(data.DIRS[d][0], data.DIRS[d][1], rod_fact(state, seat, *data.DIRS[d])) for d in data.AXES[action.axis]]
    return note(state, seat, facts), [result(seat, "rod", facts, axis=action.axis)]


def explore(state: FAState, seat: int, action: Any):
    """What lies beneath; the first explorer of an artifact space draws its card;
    on Atlantis the explorer may declare."""
    t = state.terrain[world_of(state.n, state.pos[seat])]
    facts = [(0, 0, explore_facts(t))]
    state = note(state, seat, facts)
    events = [result(seat, "explore", facts)]
    here = state.pos[seat]
    if t == data.ARTIFACT and here not in state.taken and state.deck:
        card = state.deck[0]
        state = replace(state, deck=state.deck[1:], taken=tuple(sorted(state.taken + (here,))),
                        arts=put(state.arts, seat, state.arts[seat] + ((card, here),)))
        events.append(Event("artifact_drawn", {"seat": seat}))
        events.append(Event("artifact_card", {"seat": seat, "artifact": card}, to=(seat,)))
    elif t == data.ARTIFACT:
        events.append(Event("artifact_gone", {"seat": seat}, to=(seat,)))
    if t == data.ATLANTIS:
        state = replace(state, may_declare=put(state.may_declare, seat, True), picks=put(state.picks, seat, ()))
    return state, events


def silent_running(state: FAState, seat: int, action: Silent):
    check_dir(action.dir)
    return move(state, seat, action.dir, 1, public_dir=False, label="silent")


def long_silent_running(state: FAState, seat: int, action: LongSilent):
    check_dir(action.dir)
    return move(state, seat, action.dir, 2, public_dir=False, label="long")


def surface(state: FAState, seat: int, action: Any):
    """Cards and captain back in hand; the seat learns where it is, and so does everyone."""
    state = refill(state, seat)
    state, events = regain(state, seat)
    where = state.pos[seat]
    state = replace(state, surfaced=put(state.surfaced, seat, where), trail=put(state.trail, seat, ()))
    return state, events + [Event("surfaced", {"seat": seat, "cell": where, "n": state.n})]


def periscope(state: FAState, seat: int, action: Any):
    facts = []
    for dr, dc in data.DIRS:
        cell = step_rel(state.n, state.pos[seat], dr, dc)
        danger = cell >= 0 and (cell in state.monsters or cell in state.mines)
        facts.append((dr, dc, data.DANGER if danger else 0))
    return note(state, seat, facts, clear=data.DANGER), [result(seat, "periscope", facts)]


def drop_mine(state: FAState, seat: int, action: DropMine):
    check_dir(action.dir)
    state = replace(state, mines=put(state.mines, seat, state.pos[seat]))
    state, events = move(state, seat, action.dir, 1, public_dir=False, label="mine")
    return state, [Event("mine_dropped", {"seat": seat})] + events


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
    after = play_card(state, seat, card, -1)
    events = [Event("played", {"seat": seat, "card": card})]
    after, more = CARD_EFFECTS[card](after, seat, action)
    return spend(after, seat, events + more)


def burn(state: FAState, seat: int, action: Burn) -> tuple[FAState, list[Event]]:
    """Any card but Surface (the captain too) for a 1-space move in a public direction."""
    check_dir(action.dir)
    if action.card not in state.hands[seat]:
        raise IllegalAction("You can only burn a card in your hand.")
    if action.card in data.UNBURNABLE:
        raise IllegalAction("The Surface card cannot be burnt.")
    after = play_card(state, seat, action.card, action.dir)
    burnt = {"seat": seat, "card": action.card, "dir": action.dir}
    if action.card == "captain":
        burnt["captain"] = state.captain[seat]
    events = [Event("burnt", burnt)]
    after, more = move(after, seat, action.dir, 1, public_dir=True, label="burn")
    return spend(after, seat, events + more)
