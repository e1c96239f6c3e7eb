"""The Factions phase: in Senate order each player takes a Faction token (paying by
position) or passes; those who passed then take one free.  Tokens nobody took turn to
their +1 side.  Then the end-of-Factions abilities, in the order Archont, Basileus,
Demiurgos, each skipped when it could do nothing.  Senate Favour and Night Boarding
are played here, on the player's own turn.
"""

from __future__ import annotations

from typing import Any, Callable

from ..components import bump, put, without
from ..core import Event, replace
from . import data
from .actions import (
    DECK_SLOT, PASS, SHIP_TARGETS, TAKE, USE_ABILITY, Discard, Faction, Pass, PlaySpecial, TakeSpecial,
    Target, UseAbility,
)
from .cards import draw_politics, gain_special, spend_special, special_available, take_special_choices
from .ships import put_refugees
from .state import (
    FREE_AFTER_PASS, FREE_SECOND, PAID, AbilityTurn, EoaState, FactionTurn, Stage, in_port_with_room,
    one_per_kind, senate_order_of,
)
from .voting import begin_laying_cards

FACTIONS = range(len(data.FACTIONS))
NO_HOLDERS = (-1,) * len(data.FACTIONS)


def begin_factions(state: EoaState, **changes: Any) -> tuple[EoaState, list[Event]]:
    """The Senate order now is the order of the whole phase (and sets the costs).  Two
    players: each takes two tokens, the first paid."""
    order = tuple(senate_order_of(changes.get("senate_pool", state.senate_pool), state.markers))
    if state.players == 2:
        queue = (FactionTurn(order[0], PAID), FactionTurn(order[1], PAID),
                 FactionTurn(order[0], FREE_SECOND), FactionTurn(order[1], FREE_SECOND))
    else:
        queue = tuple(FactionTurn(p, PAID) for p in order)
    changes.update(faction_order=order, faction_queue=queue, faction_pos=0, faction_passers=(),
                   favour_seat=-1, faction_holders=NO_HOLDERS, stage=Stage.FACTIONS)
    return replace(state, **changes), []


def faction_cost(view: Any, seat: int) -> int:
    """What ``seat``'s paid token costs: by its place in the phase's Senate order."""
    if view.favour_seat == seat:
        return 0
    return data.FACTION_COST[view.players][view.faction_order.index(seat)]


def faction_choices(view: Any, seat: int) -> list[Any]:
    kind = view.faction_queue[view.faction_pos].kind
    open_factions = [TAKE[f] for f in FACTIONS if view.faction_holders[f] < 0]
    if kind != PAID:
        return open_factions
    out: list[Any] = open_factions if view.screen[seat] >= faction_cost(view, seat) else []
    out.append(PASS)
    for c in sorted(set(view.specials_of(seat))):
        out += FACTION_SPECIAL_CHOICES.get(data.SPECIAL_KEY[c], _none)(view, seat, c)
    return out


def _none(view: Any, seat: int, card: int) -> list[Any]:
    return []


FACTION_SPECIAL_CHOICES: dict[str, Callable[[Any, int, int], list[Any]]] = {
    "favour": lambda view, seat, card: [PlaySpecial(card)] if view.favour_seat != seat else [],
    "boarding": lambda view, seat, card: ([PlaySpecial(card, i) for i in in_port_with_room(view.ships)]
                                          if view.screen[seat] > 0 else []),
}


def take_faction(state: EoaState, seat: int, action: Faction) -> tuple[EoaState, list[Event]]:
    f = action.faction
    cost = faction_cost(state, seat) if state.faction_queue[state.faction_pos].kind == PAID else 0
    bonus = 1 if state.plus_one[f] else 0
    event = Event("faction", {"seat": seat, "faction": f, "cost": cost, "bonus": bonus})
    state, events = _next_faction_turn(
        state, screen=bump(state.screen, seat, -cost), buildings=bump(state.buildings, seat, cost),
        faction_holders=put(state.faction_holders, f, seat), markers=put(state.markers, seat, f),
        vp=bump(state.vp, seat, bonus), plus_one=put(state.plus_one, f, False) if bonus else state.plus_one)
    return state, [event, *events]


def pass_faction(state: EoaState, seat: int, action: Pass) -> tuple[EoaState, list[Event]]:
    state, events = _next_faction_turn(state, faction_passers=state.faction_passers + (seat,))
    return state, [Event("faction_pass", {"seat": seat}), *events]


def play_faction_special(state: EoaState, seat: int, action: PlaySpecial) -> tuple[EoaState, list[Event]]:
    """Senate Favour or Night Boarding; the player then still chooses a Faction or passes."""
    key = data.SPECIAL_KEY[action.card]
    state = replace(state, **spend_special(state, seat, action.card))
    event = Event("special", {"seat": seat, "card": action.card, "key": key, "ship": action.ship,
                              "tile": state.ships[action.ship].tile if action.ship >= 0 else -1})
    return FACTION_SPECIALS[key](state, seat, action), [event]


FACTION_SPECIALS: dict[str, Callable[[EoaState, int, PlaySpecial], EoaState]] = {
    "favour": lambda state, seat, action: replace(state, favour_seat=seat),
    "boarding": lambda state, seat, action: replace(state, **put_refugees(state, seat, action.ship, 1)),
}


def _next_faction_turn(state: EoaState, **changes: Any) -> tuple[EoaState, list[Event]]:
    """The next choice of the queue; then those who passed, free; then the abilities.
    (``changes``: the last choice, not yet in ``state``.)"""
    pos = state.faction_pos + 1
    if pos < len(state.faction_queue):
        return replace(state, faction_pos=pos, **changes), []
    passers = changes.get("faction_passers", state.faction_passers)
    if passers:
        order = state.faction_order
        queue = tuple(FactionTurn(p, FREE_AFTER_PASS) for p in sorted(passers, key=order.index))
        changes.update(faction_queue=queue, faction_passers=(), faction_pos=0)
        return replace(state, **changes), []
    holders = changes.get("faction_holders", state.faction_holders)
    plus_one = changes.get("plus_one", state.plus_one)
    changes.update(faction_pos=pos, favour_seat=-1,
                   ability_queue=tuple(AbilityTurn(holders[f], f) for f in data.END_OF_FACTIONS_ABILITIES
                                       if holders[f] >= 0),
                   plus_one=tuple(plus_one[f] or holders[f] < 0 for f in FACTIONS))
    return _next_ability(state, **changes)


# --- end-of-Factions abilities -------------------------------------------------------------------
ABILITY_APPLIES: dict[int, Callable[[EoaState, int], bool]] = {
    data.ARCHONT: lambda state, seat: bool(state.deck or state.discard),
    data.BASILEUS: lambda state, seat: state.screen[seat] > 0 and bool(in_port_with_room(state.ships)),
    data.DEMIURGOS: lambda state, seat: special_available(state),
}


def _next_ability(state: EoaState, **changes: Any) -> tuple[EoaState, list[Event]]:
    """Skip the abilities that could do nothing; the Voting phase follows the last."""
    state = replace(state, **changes) if changes else state
    queue = state.ability_queue
    while queue and not ABILITY_APPLIES[queue[0].faction](state, queue[0].seat):
        queue = queue[1:]
    if queue:
        return replace(state, stage=Stage.ABILITIES, ability_queue=queue), []
    return begin_laying_cards(state, ability_queue=queue)


def ability_choices(view: Any, seat: int) -> list[Any]:
    return ABILITY_CHOICES.get(view.ability_queue[0].faction, _use_or_pass)(view, seat)


def _use_or_pass(view: Any, seat: int) -> list[Any]:
    return [USE_ABILITY, PASS]


def _demiurgos_choices(view: Any, seat: int) -> list[Any]:
    if not view.revealed_specials:
        return _use_or_pass(view, seat)
    return [*take_special_choices(view), PASS]


ABILITY_CHOICES: dict[int, Callable[[Any, int], list[Any]]] = {
    data.BASILEUS: lambda view, seat: [*(SHIP_TARGETS[i] for i in in_port_with_room(view.ships)), PASS],
    data.DEMIURGOS: _demiurgos_choices,
}


def pass_ability(state: EoaState, seat: int, action: Pass) -> tuple[EoaState, list[Event]]:
    event = Event("ability_pass", {"seat": seat, "faction": state.ability_queue[0].faction})
    state, events = _next_ability(state, ability_queue=state.ability_queue[1:])
    return state, [event, *events]


def use_ability(state: EoaState, seat: int, action: UseAbility) -> tuple[EoaState, list[Event]]:
    return USE[state.ability_queue[0].faction](state, seat)


def _archont(state: EoaState, seat: int) -> tuple[EoaState, list[Event]]:
    """Draw 5, then discard as many (one ``Discard`` each)."""
    changes, events, drawn = draw_politics(state, seat, data.ARCHONT_DRAW)
    events.append(Event("archont", {"seat": seat, "count": drawn}))
    if drawn:
        return replace(state, archont_discards=drawn, stage=Stage.ARCHONT, **changes), events
    state, more = _next_ability(state, archont_discards=drawn, ability_queue=state.ability_queue[1:], **changes)
    return state, events + more


def _demiurgos(state: EoaState, seat: int, slot: int = DECK_SLOT) -> tuple[EoaState, list[Event]]:
    state, events = gain_special(state, seat, slot)
    state, more = _next_ability(state, ability_queue=state.ability_queue[1:])
    return state, [Event("demiurgos", {"seat": seat}), *events, *more]


USE: dict[int, Callable[[EoaState, int], tuple[EoaState, list[Event]]]] = {
    data.ARCHONT: _archont, data.DEMIURGOS: _demiurgos,
}


def demiurgos_take(state: EoaState, seat: int, action: TakeSpecial) -> tuple[EoaState, list[Event]]:
    """Tactical play: the Demiurgos chooses a face-up special card or the deck."""
    return _demiurgos(state, seat, action.slot)


def basileus(state: EoaState, seat: int, action: Target) -> tuple[EoaState, list[Event]]:
    event = Event("basileus", {"seat": seat, "ship": action.ship, "tile": state.ships[action.ship].tile})
    state, events = _next_ability(state, ability_queue=state.ability_queue[1:],
                                  **put_refugees(state, seat, action.ship, 1))
    return state, [event, *events]


def archont_choices(view: Any, seat: int) -> list[Discard]:
    return [Discard(c) for c in one_per_kind(view.hand_of(seat))]


def archont_discard(state: EoaState, seat: int, action: Discard) -> tuple[EoaState, list[Event]]:
    left = state.archont_discards - 1
    changes = dict(hands=put(state.hands, seat, without(state.hands[seat], action.card)),
                   discard=state.discard + (action.card,), archont_discards=left)
    event = Event("discarded", {"seat": seat, "card": action.card})
    if left > 0:
        return replace(state, **changes), [event]
    state, events = _next_ability(state, ability_queue=state.ability_queue[1:], **changes)
    return state, [event, *events]
