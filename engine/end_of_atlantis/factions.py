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


def begin_factions(s: EoaState, **changes: Any) -> tuple[EoaState, list[Event]]:
    """The Senate order now is the order of the whole phase (and sets the costs).  Two
    players: each takes two tokens, the first paid."""
    order = tuple(senate_order_of(changes.get("senate_pool", s.senate_pool), s.markers))
    if s.players == 2:
        queue = (FactionTurn(order[0], PAID), FactionTurn(order[1], PAID),
                 FactionTurn(order[0], FREE_SECOND), FactionTurn(order[1], FREE_SECOND))
    else:
        queue = tuple(FactionTurn(p, PAID) for p in order)
    changes.update(faction_order=order, faction_queue=queue, faction_pos=0, faction_passers=(),
                   favour_seat=-1, faction_holders=NO_HOLDERS, stage=Stage.FACTIONS)
    return replace(s, **changes), []


def faction_cost(x: Any, seat: int) -> int:
    """What ``seat``'s paid token costs: by its place in the phase's Senate order."""
    if x.favour_seat == seat:
        return 0
    return data.FACTION_COST[x.players][x.faction_order.index(seat)]


def faction_choices(x: Any, seat: int) -> list[Any]:
    kind = x.faction_queue[x.faction_pos].kind
    open_factions = [TAKE[f] for f in FACTIONS if x.faction_holders[f] < 0]
    if kind != PAID:
        return open_factions
    out: list[Any] = open_factions if x.screen[seat] >= faction_cost(x, seat) else []
    out.append(PASS)
    for c in sorted(set(x.specials_of(seat))):
        out += FACTION_SPECIAL_CHOICES.get(data.SPECIAL_KEY[c], _none)(x, seat, c)
    return out


def _none(x: Any, seat: int, card: int) -> list[Any]:
    return []


FACTION_SPECIAL_CHOICES: dict[str, Callable[[Any, int, int], list[Any]]] = {
    "favour": lambda x, seat, card: [PlaySpecial(card)] if x.favour_seat != seat else [],
    "boarding": lambda x, seat, card: ([PlaySpecial(card, i) for i in in_port_with_room(x.ships)]
                                       if x.screen[seat] > 0 else []),
}


def take_faction(s: EoaState, seat: int, a: Faction) -> tuple[EoaState, list[Event]]:
    f = a.faction
    cost = faction_cost(s, seat) if s.faction_queue[s.faction_pos].kind == PAID else 0
    bonus = 1 if s.plus_one[f] else 0
    event = Event("faction", {"seat": seat, "faction": f, "cost": cost, "bonus": bonus})
    s, events = _next_faction_turn(
        s, screen=bump(s.screen, seat, -cost), buildings=bump(s.buildings, seat, cost),
        faction_holders=put(s.faction_holders, f, seat), markers=put(s.markers, seat, f),
        vp=bump(s.vp, seat, bonus), plus_one=put(s.plus_one, f, False) if bonus else s.plus_one)
    return s, [event, *events]


def pass_faction(s: EoaState, seat: int, a: Pass) -> tuple[EoaState, list[Event]]:
    s, events = _next_faction_turn(s, faction_passers=s.faction_passers + (seat,))
    return s, [Event("faction_pass", {"seat": seat}), *events]


def play_faction_special(s: EoaState, seat: int, a: PlaySpecial) -> tuple[EoaState, list[Event]]:
    """Senate Favour or Night Boarding; the player then still chooses a Faction or passes."""
    key = data.SPECIAL_KEY[a.card]
    s = replace(s, **spend_special(s, seat, a.card))
    event = Event("special", {"seat": seat, "card": a.card, "key": key, "ship": a.ship,
                              "tile": s.ships[a.ship].tile if a.ship >= 0 else -1})
    return FACTION_SPECIALS[key](s, seat, a), [event]


FACTION_SPECIALS: dict[str, Callable[[EoaState, int, PlaySpecial], EoaState]] = {
    "favour": lambda s, seat, a: replace(s, favour_seat=seat),
    "boarding": lambda s, seat, a: replace(s, **put_refugees(s, seat, a.ship, 1)),
}


def _next_faction_turn(s: EoaState, **changes: Any) -> tuple[EoaState, list[Event]]:
    """The next choice of the queue; then those who passed, free; then the abilities.
    (``changes``: the last choice, not yet in ``s``.)"""
    pos = s.faction_pos + 1
    if pos < len(s.faction_queue):
        return replace(s, faction_pos=pos, **changes), []
    passers = changes.get("faction_passers", s.faction_passers)
    if passers:
        order = s.faction_order
        queue = tuple(FactionTurn(p, FREE_AFTER_PASS) for p in sorted(passers, key=order.index))
        changes.update(faction_queue=queue, faction_passers=(), faction_pos=0)
        return replace(s, **changes), []
    holders = changes.get("faction_holders", s.faction_holders)
    plus_one = changes.get("plus_one", s.plus_one)
    changes.update(faction_pos=pos, favour_seat=-1,
                   ability_queue=tuple(AbilityTurn(holders[f], f) for f in data.END_OF_FACTIONS_ABILITIES
                                       if holders[f] >= 0),
                   plus_one=tuple(plus_one[f] or holders[f] < 0 for f in FACTIONS))
    return _next_ability(s, **changes)


# --- end-of-Factions abilities -------------------------------------------------------------------
ABILITY_APPLIES: dict[int, Callable[[EoaState, int], bool]] = {
    data.ARCHONT: lambda s, seat: bool(s.deck or s.discard),
    data.BASILEUS: lambda s, seat: s.screen[seat] > 0 and bool(in_port_with_room(s.ships)),
    data.DEMIURGOS: lambda s, seat: special_available(s),
}


def _next_ability(s: EoaState, **changes: Any) -> tuple[EoaState, list[Event]]:
    """Skip the abilities that could do nothing; the Voting phase follows the last."""
    s = replace(s, **changes) if changes else s
    queue = s.ability_queue
    while queue and not ABILITY_APPLIES[queue[0].faction](s, queue[0].seat):
        queue = queue[1:]
    if queue:
        return replace(s, stage=Stage.ABILITIES, ability_queue=queue), []
    return begin_laying_cards(s, ability_queue=queue)


def ability_choices(x: Any, seat: int) -> list[Any]:
    return ABILITY_CHOICES.get(x.ability_queue[0].faction, _use_or_pass)(x, seat)


def _use_or_pass(x: Any, seat: int) -> list[Any]:
    return [USE_ABILITY, PASS]


def _demiurgos_choices(x: Any, seat: int) -> list[Any]:
    if not x.revealed_specials:
        return _use_or_pass(x, seat)
    return [*take_special_choices(x), PASS]


ABILITY_CHOICES: dict[int, Callable[[Any, int], list[Any]]] = {
    data.BASILEUS: lambda x, seat: [*(SHIP_TARGETS[i] for i in in_port_with_room(x.ships)), PASS],
    data.DEMIURGOS: _demiurgos_choices,
}


def pass_ability(s: EoaState, seat: int, a: Pass) -> tuple[EoaState, list[Event]]:
    event = Event("ability_pass", {"seat": seat, "faction": s.ability_queue[0].faction})
    s, events = _next_ability(s, ability_queue=s.ability_queue[1:])
    return s, [event, *events]


def use_ability(s: EoaState, seat: int, a: UseAbility) -> tuple[EoaState, list[Event]]:
    return USE[s.ability_queue[0].faction](s, seat)


def _archont(s: EoaState, seat: int) -> tuple[EoaState, list[Event]]:
    """Draw 5, then discard as many (one ``Discard`` each)."""
    changes, events, drawn = draw_politics(s, seat, data.ARCHONT_DRAW)
    events.append(Event("archont", {"seat": seat, "count": drawn}))
    if drawn:
        return replace(s, archont_discards=drawn, stage=Stage.ARCHONT, **changes), events
    s, more = _next_ability(s, archont_discards=drawn, ability_queue=s.ability_queue[1:], **changes)
    return s, events + more


def _demiurgos(s: EoaState, seat: int, slot: int = DECK_SLOT) -> tuple[EoaState, list[Event]]:
    s, events = gain_special(s, seat, slot)
    s, more = _next_ability(s, ability_queue=s.ability_queue[1:])
    return s, [Event("demiurgos", {"seat": seat}), *events, *more]


USE: dict[int, Callable[[EoaState, int], tuple[EoaState, list[Event]]]] = {
    data.ARCHONT: _archont, data.DEMIURGOS: _demiurgos,
}


def demiurgos_take(s: EoaState, seat: int, a: TakeSpecial) -> tuple[EoaState, list[Event]]:
    """Tactical play: the Demiurgos chooses a face-up special card or the deck."""
    return _demiurgos(s, seat, a.slot)


def basileus(s: EoaState, seat: int, a: Target) -> tuple[EoaState, list[Event]]:
    event = Event("basileus", {"seat": seat, "ship": a.ship, "tile": s.ships[a.ship].tile})
    s, events = _next_ability(s, ability_queue=s.ability_queue[1:], **put_refugees(s, seat, a.ship, 1))
    return s, [event, *events]


def archont_choices(x: Any, seat: int) -> list[Discard]:
    return [Discard(c) for c in one_per_kind(x.hand_of(seat))]


def archont_discard(s: EoaState, seat: int, a: Discard) -> tuple[EoaState, list[Event]]:
    left = s.archont_discards - 1
    changes = dict(hands=put(s.hands, seat, without(s.hands[seat], a.card)),
                   discard=s.discard + (a.card,), archont_discards=left)
    event = Event("discarded", {"seat": seat, "card": a.card})
    if left > 0:
        return replace(s, **changes), [event]
    s, events = _next_ability(s, ability_queue=s.ability_queue[1:], **changes)
    return s, [event, *events]
