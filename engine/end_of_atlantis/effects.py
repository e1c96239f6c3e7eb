"""Politics cards carried out: which cards a winner may play (in full or not at all),
the steps each card is made of, what each step may target and what it does, and the
special cards that ride on them.  Everything is dispatched by tables keyed by card
kind, special-card key or step; nothing here knows whose turn comes next (``voting``
moves on once ``Effect.steps`` is empty).

Each step that asks a question is answered by one ``Target`` (or ``TakeSpecial``,
``Done``); ``AUTOMATIC`` steps resolve by themselves when there is nothing to choose.
"""

from __future__ import annotations

from typing import Any, Callable

from ..components import bump, put
from ..core import Event, replace
from . import data
from .actions import DECK_SLOT, DONE, SHIP_TARGETS, Done, Play, Target, TakeSpecial
from .cards import gain_special, spend_special, special_available, take_special_choices
from .ships import (
    ADVANCED_AIRSHIP, ADVANCED_WARSHIP, Changes, discard_cubes, move_ship, put_refugees, wreck,
)
from .state import Effect, EffectStep, EoaState, aboard, free, immune, left_card_source

# --- the steps of each card, and how riders change them --------------------------------------
CARD_STEPS: dict[str, tuple[str, ...]] = {
    "refugees1": (EffectStep.PLACE_1,), "refugees2": (EffectStep.PLACE_2,),
    "refugees21": (EffectStep.PLACE_2, EffectStep.PLACE_1_ELSEWHERE), "aristocracy": (EffectStep.ARISTOCRACY,),
    "ships": (EffectStep.MOVE, EffectStep.MOVE), "royal": (EffectStep.ROYAL,), "support": (EffectStep.DRAW_SPECIAL,),
    "sabotage": (EffectStep.SABOTAGE,), "betrayal": (EffectStep.BETRAY,),
}
RIDER_STEPS: dict[str, Callable[[tuple], tuple]] = {
    "alliance": lambda steps: (EffectStep.ALLIANCE,) + steps,
    "empath": lambda steps: (EffectStep.ARISTOCRACY, EffectStep.ARISTOCRACY),
    "winds": lambda steps: (EffectStep.MOVE, EffectStep.MOVE, EffectStep.MOVE),
}
BETRAYAL_MAX = 4  # cubes from a ship, tokens from the Senate pool
_CAPACITY = data.CAPACITY


# --- can a card be carried out in full? -------------------------------------------------------
def _port_room(view: Any, seat: int) -> list[tuple[int, int, int]]:
    """(ship, free spaces, cubes of other colours) for every ship in port."""
    out = []
    i = 0
    for sh in view.ships:
        if not sh.at_sea:
            cubes = sh.cubes
            aboard = sum(cubes)
            out.append((i, _CAPACITY[sh.tile] - aboard, aboard - cubes[seat]))
        i += 1
    return out


# (These run for every legal list of the play stage and every Play applied: plain loops.)
def _fits_one(frees: list[int], tokens: int) -> bool:
    if tokens >= 1:
        for f in frees:
            if f >= 1:
                return True
    return False


def _fits_two(frees: list[int], tokens: int) -> bool:
    if tokens >= 2:
        for f in frees:
            if f >= 2:
                return True
    return False


def _fits_two_and_one(frees: list[int], tokens: int) -> bool:
    if tokens >= 3:
        for i, f in enumerate(frees):
            if f >= 2:
                for j, g in enumerate(frees):
                    if j != i and g >= 1:
                        return True
    return False


PLACEMENT_FITS = {"refugees1": _fits_one, "refugees2": _fits_two, "refugees21": _fits_two_and_one}


def _alliance_frees(port: list[tuple[int, int, int]]) -> list[tuple[int, list[int]]]:
    """For every ship in port with a cube of another colour: the free spaces of all ships
    in port once Alliance has discarded one of those cubes."""
    out = []
    for k, (i, _, others) in enumerate(port):
        if others:
            frees = [g for _, g, _ in port]
            frees[k] += 1
            out.append((i, frees))
    return out


def _refugees_feasible(view: Any, seat: int, kind: str, rider: str) -> bool:
    fits, tokens = PLACEMENT_FITS[kind], view.screen[seat]
    if rider == "alliance":
        for _, frees in _alliance_frees(_port_room(view, seat)):
            if fits(frees, tokens):
                return True
        return False
    return fits(port_frees(view.ships), tokens)


def port_frees(ships: tuple) -> tuple[int, ...]:
    """The free spaces of every ship in port, in board order."""
    return tuple(_CAPACITY[sh.tile] - sum(sh.cubes) for sh in ships if not sh.at_sea)


def _aristocracy_feasible(view: Any, seat: int, kind: str, rider: str) -> bool:
    need = 2 if rider == "empath" else 1
    if view.screen[seat] < need:
        return False
    room = 0  # free spaces and cubes of other colours (which a full ship may lose)
    for sh in view.ships:
        if not sh.at_sea:
            room += _CAPACITY[sh.tile] - sh.cubes[seat]
    return room >= need


def _ships_feasible(view: Any, seat: int, kind: str, rider: str) -> bool:
    need = 3 if rider == "winds" else 2
    loaded = 0
    for sh in view.ships:
        if sum(sh.cubes) > 0:
            loaded += 1
    return loaded >= need


def _royal_feasible(view: Any, seat: int, kind: str, rider: str) -> bool:
    for sh in view.ships:
        if sh.tile != ADVANCED_AIRSHIP and sum(sh.cubes) > 0:
            return True
    return False


def _sabotage_feasible(view: Any, seat: int, kind: str, rider: str) -> bool:
    for sh in view.ships:
        if sh.at_sea and sh.tile != ADVANCED_WARSHIP:
            return True
    return False


def _betrayal_feasible(view: Any, seat: int, kind: str, rider: str) -> bool:
    """``betrayal_targets(view, seat)`` is not empty."""
    for sh in view.ships:
        if not sh.at_sea and sh.tile != ADVANCED_WARSHIP and _removable_colours(view, sh):
            return True
    if not view.family:
        pool = view.senate_pool
        for p in range(view.players):
            if p != seat and pool[p] > 0 and not immune(view, p):
                return True
    return False


FEASIBLE: dict[str, Callable[[Any, int, str, str], bool]] = {
    "refugees1": _refugees_feasible, "refugees2": _refugees_feasible,
    "refugees21": _refugees_feasible, "aristocracy": _aristocracy_feasible,
    "ships": _ships_feasible, "royal": _royal_feasible,
    "support": lambda view, seat, kind, rider: special_available(view),
    "sabotage": _sabotage_feasible,
    "betrayal": _betrayal_feasible,
}


def card_feasible(view: Any, seat: int, kind: str, rider: str) -> bool:
    """Can ``seat`` carry out a card of ``kind`` (with the ``rider`` special, or "") in full now?"""
    return FEASIBLE[kind](view, seat, kind, rider)


def _removable_colours(view: Any, sh: Any) -> list[int]:
    return [c for c in range(data.COLOURS) if sh.cubes[c] > 0 and not immune(view, c)]


def betrayal_targets(view: Any, seat: int) -> list[Target]:
    out = [SHIP_TARGETS[i] for i, sh in enumerate(view.ships)
           if not sh.at_sea and sh.tile != ADVANCED_WARSHIP and _removable_colours(view, sh)]
    if not view.family:
        out += [Target(-1, p) for p in range(view.players)
                if p != seat and view.senate_pool[p] > 0 and not immune(view, p)]
    return out


def play_sources(view: Any, seat: int) -> list[int]:
    """Whose card ``seat`` may play in this vote: its own, and as first place (or as the
    Philosophios) the left player's (see ``left_card_source``); a card is played once."""
    vote = view.vote
    out = []
    if not view.played[seat][vote]:
        out.append(seat)
    first = view.vote_winners and view.vote_winners[0] == seat
    philo = view.faction_holders[data.PHILOSOPHIOS] == seat
    if first or philo:
        left = left_card_source(view, seat)
        if left is not None and left != seat and not view.played[left][vote]:
            # two players: first place may not take the Philosophios's card
            blocked = view.players == 2 and first and not philo and view.faction_holders[data.PHILOSOPHIOS] == left
            if not blocked:
                out.append(left)
    return out


# The Play actions made once: ``PLAYS[source][special + 1]`` (``legal()`` hands these out).
PLAYS = tuple(tuple(Play(source, c) for c in range(-1, len(data.SPECIAL_KEY))) for source in range(data.MAX_PLAYERS))
# Per card kind, the riders that may ride on it.
_FITTING = {kind: frozenset(key for key, what in data.SPECIAL_KIND.items()
                            if what == "rider" and data.rider_fits(key, kind)) for kind in set(data.CARD_KIND)}


def riders_of(specials: tuple) -> tuple[tuple[str, int], ...]:
    """(key, card) for each kind of rider among ``specials``: its lowest card, kinds in
    the order of those cards."""
    found: dict[str, int] = {}
    for c in sorted(specials):
        key = data.SPECIAL_KEY[c]
        if data.SPECIAL_KIND[key] == "rider":
            found.setdefault(key, c)
    return tuple(found.items())


def play_choices(view: Any, seat: int) -> list[Play]:
    """Every card ``seat`` may play now, alone or with each kind of rider it holds."""
    out: list[Play] = []
    vote = view.vote
    riders = riders_of(view.specials_of(seat))
    for source in play_sources(view, seat):
        card = view.voting_cards[source][vote]
        if card < 0:
            continue
        kind = data.CARD_KIND[card]
        feasible = FEASIBLE[kind]
        plays = PLAYS[source]
        if feasible(view, seat, kind, ""):
            out.append(plays[0])
        fitting = _FITTING[kind]
        for key, c in riders:
            if key in fitting and feasible(view, seat, kind, key):
                out.append(plays[c + 1])
    return out


# --- what each step may target ------------------------------------------------------------------
def _alliance_targets(view: Any, effect: Effect) -> list[Any]:
    out: list[Any] = []
    seat, ships = effect.seat, view.ships
    for i, frees in _alliance_frees(_port_room(view, seat)):
        if PLACEMENT_FITS[effect.card_kind](frees, view.screen[seat]):
            out += [Target(i, c) for c in range(data.COLOURS) if c != seat and ships[i].cubes[c] > 0]
    return out


def _place_targets(view: Any, effect: Effect) -> list[Any]:
    step = effect.steps[0]
    need = 2 if step == EffectStep.PLACE_2 else 1
    ships = view.ships
    then_one_elsewhere = step == EffectStep.PLACE_2 and EffectStep.PLACE_1_ELSEWHERE in effect.steps[1:]
    out: list[Any] = []
    for i, sh in enumerate(ships):
        if sh.at_sea or free(sh) < need or (step == EffectStep.PLACE_1_ELSEWHERE and i == effect.ship):
            continue
        if then_one_elsewhere and not any(j != i and not o.at_sea and free(o) >= 1
                                          for j, o in enumerate(ships)):
            continue
        out.append(SHIP_TARGETS[i])
    return out


def _aristocracy_targets(view: Any, effect: Effect) -> list[Any]:
    out: list[Any] = []
    for i, sh in enumerate(view.ships):
        if sh.at_sea:
            continue
        if free(sh) > 0:
            out.append(SHIP_TARGETS[i])
        else:
            out += [Target(i, c) for c in range(data.COLOURS) if c != effect.seat and sh.cubes[c] > 0]
    return out


def _remove_targets(view: Any, effect: Effect) -> list[Any]:
    out: list[Any] = [Target(effect.ship, c) for c in _removable_colours(view, view.ships[effect.ship])]
    if effect.cubes_removed > 0:
        out.append(DONE)
    return out


STEP_TARGETS: dict[str, Callable[[Any, Effect], list[Any]]] = {
    EffectStep.ALLIANCE: _alliance_targets,
    EffectStep.PLACE_1: _place_targets, EffectStep.PLACE_2: _place_targets,
    EffectStep.PLACE_1_ELSEWHERE: _place_targets,
    EffectStep.ARISTOCRACY: _aristocracy_targets,
    EffectStep.MOVE: lambda view, effect: [SHIP_TARGETS[i] for i, sh in enumerate(view.ships)
                          if aboard(sh) > 0 and i not in effect.ships_moved],
    EffectStep.ROYAL: lambda view, effect: [SHIP_TARGETS[i] for i, sh in enumerate(view.ships)
                           if aboard(sh) > 0 and sh.tile != ADVANCED_AIRSHIP],
    EffectStep.SABOTAGE: lambda view, effect: [SHIP_TARGETS[i] for i, sh in enumerate(view.ships)
                              if sh.at_sea and sh.tile != ADVANCED_WARSHIP],
    EffectStep.BETRAY: lambda view, effect: list(betrayal_targets(view, effect.seat)),
    EffectStep.REMOVE: _remove_targets,
    EffectStep.DRAW_SPECIAL: lambda view, effect: list(take_special_choices(view)),
}


def effect_choices(view: Any, effect: Effect) -> list[Any]:
    """What the seat carrying out ``effect`` may choose for its next step."""
    return STEP_TARGETS[effect.steps[0]](view, effect)


# --- what each step does ---------------------------------------------------------------------------
# A step handler gets the state, the effect and the target; it returns the changes to the
# state (rebuilt once, by ``carry_on`` or whoever moves on), the effect with its steps
# still to do, and the events.
Outcome = tuple[Changes, Effect, list[Event]]


# Every ship event names the ship by its place in port (``ship``) and by its tile
# (``tile``: which ship it is, public on the board), so the log names it as the board does.
def _bumped(state: EoaState, seat: int, ship: int, colour: int) -> Event:
    return Event("bumped", {"seat": seat, "ship": ship, "tile": state.ships[ship].tile, "colour": colour})


def _placed(state: EoaState, seat: int, ship: int, count: int) -> Event:
    return Event("placed", {"seat": seat, "ship": ship, "tile": state.ships[ship].tile, "n": count})


def _do_alliance(state: EoaState, effect: Effect, target: Target) -> Outcome:
    return discard_cubes(state, target.ship, target.colour), effect._replace(steps=effect.steps[1:]), [
        _bumped(state, effect.seat, target.ship, target.colour)]


def _do_place(state: EoaState, effect: Effect, target: Target) -> Outcome:
    count = 2 if effect.steps[0] == EffectStep.PLACE_2 else 1
    return (put_refugees(state, effect.seat, target.ship, count),
            effect._replace(ship=target.ship, steps=effect.steps[1:]),
            [_placed(state, effect.seat, target.ship, count)])


def _do_aristocracy(state: EoaState, effect: Effect, target: Target) -> Outcome:
    changes: Changes = {}
    events = []
    if target.colour >= 0:
        changes = discard_cubes(state, target.ship, target.colour)
        events.append(_bumped(state, effect.seat, target.ship, target.colour))
    changes = put_refugees(state, effect.seat, target.ship, 1, **changes)
    events.append(_placed(state, effect.seat, target.ship, 1))
    return changes, effect._replace(steps=effect.steps[1:]), events


def _do_move(state: EoaState, effect: Effect, target: Target) -> Outcome:
    royal = effect.steps[0] == EffectStep.ROYAL
    changes, events, earns_special = move_ship(state, target.ship, effect.seat, royal)
    rest = effect.steps[1:] + ((EffectStep.DRAW_SPECIAL,) if earns_special else ())
    return changes, effect._replace(ships_moved=effect.ships_moved + (target.ship,), steps=rest), events


def _do_sabotage(state: EoaState, effect: Effect, target: Target) -> Outcome:
    changes, lost = wreck(state, target.ship)
    return changes, effect._replace(cubes_removed=lost, steps=effect.steps[1:]), [
        Event("sabotage", {"seat": effect.seat, "ship": target.ship, "tile": state.ships[target.ship].tile,
                           "n": lost})]


def _do_betray(state: EoaState, effect: Effect, target: Target) -> Outcome:
    if target.ship >= 0:
        effect = effect._replace(ship=target.ship, steps=(EffectStep.REMOVE,) + effect.steps[1:])
        tile = state.ships[target.ship].tile
        return {}, effect, [Event("betray_ship", {"seat": effect.seat, "ship": target.ship, "tile": tile})]
    player = target.colour
    lost = min(BETRAYAL_MAX, state.senate_pool[player])
    changes = dict(senate_pool=bump(state.senate_pool, player, -lost), buildings=bump(state.buildings, player, lost))
    return changes, effect._replace(cubes_removed=lost, steps=effect.steps[1:]), [
        Event("betray_senate", {"seat": effect.seat, "target": player, "n": lost})]


def _do_remove(state: EoaState, effect: Effect, target: Target) -> Outcome:
    """One cube at a time: the step stays until 4 are gone, ``Done``, or none is left."""
    removed = effect.cubes_removed + 1
    steps = effect.steps[1:] if removed >= BETRAYAL_MAX else effect.steps
    return (discard_cubes(state, target.ship, target.colour), effect._replace(cubes_removed=removed, steps=steps),
            [_bumped(state, effect.seat, target.ship, target.colour)])


STEP_DOES: dict[str, Callable[[EoaState, Effect, Target], Outcome]] = {
    EffectStep.ALLIANCE: _do_alliance,
    EffectStep.PLACE_1: _do_place, EffectStep.PLACE_2: _do_place, EffectStep.PLACE_1_ELSEWHERE: _do_place,
    EffectStep.ARISTOCRACY: _do_aristocracy, EffectStep.MOVE: _do_move, EffectStep.ROYAL: _do_move,
    EffectStep.SABOTAGE: _do_sabotage, EffectStep.BETRAY: _do_betray, EffectStep.REMOVE: _do_remove,
}


# Steps that resolve by themselves: the handler returns (state, events) when it did, or
# None when the player has a choice to make.
def _auto_draw_special(state: EoaState, effect: Effect) -> tuple[EoaState, list[Event]] | None:
    if not state.revealed_specials:
        return gain_special(state, effect.seat, DECK_SLOT)
    if not take_special_choices(state):
        return state, []
    return None


def _auto_remove(state: EoaState, effect: Effect) -> tuple[EoaState, list[Event]] | None:
    if effect.cubes_removed >= BETRAYAL_MAX or not any(type(t) is Target for t in _remove_targets(state, effect)):
        return state, []
    return None


AUTOMATIC = {EffectStep.DRAW_SPECIAL: _auto_draw_special, EffectStep.REMOVE: _auto_remove}


# Riders that score once the card is carried out.
def _decree(state: EoaState, effect: Effect) -> tuple[int, str]:
    return data.DECREE_VP, "decree"


def _guild(state: EoaState, effect: Effect) -> tuple[int, str]:
    return min(data.GUILD_MAX, effect.cubes_removed), "guild"


RIDER_SCORES = {"decree": _decree, "guild": _guild}


# --- carrying a card out -------------------------------------------------------------------------
# ``then(state, **changes)`` is how the game moves on once a card is carried out (the next
# winner plays: ``voting.next_player``); it applies the pending changes in its own
# rebuild of the state, so finishing a card costs one rebuild, not two.
Then = Callable[..., tuple[EoaState, list[Event]]]


def play(state: EoaState, seat: int, action: Play, then: Then) -> tuple[EoaState, list[Event]]:
    """``seat`` plays the card of the vote from ``a.source``'s row (and a rider)."""
    vote = state.vote
    card = state.voting_cards[action.source][vote]
    kind = data.CARD_KIND[card]
    key = data.SPECIAL_KEY[action.special] if action.special >= 0 else ""
    changes = spend_special(state, seat, action.special) if action.special >= 0 else {}
    changes.update(played=put(state.played, action.source, put(state.played[action.source], vote, True)),
                   card_players=state.card_players + (seat,))
    steps = CARD_STEPS[kind]
    if key in RIDER_STEPS:
        steps = RIDER_STEPS[key](steps)
    event = Event("play", {"seat": seat, "source": action.source, "card": card, "kind": kind,
                           "special": action.special, "key": key})
    return carry_on(state, Effect(seat, action.source, kind, key, steps, (), -1, 0), [event], then, changes)


def target(state: EoaState, seat: int, target: Target, then: Then) -> tuple[EoaState, list[Event]]:
    changes, effect, events = STEP_DOES[state.effect.steps[0]](state, state.effect, target)
    return carry_on(state, effect, events, then, changes)


def done(state: EoaState, seat: int, action: Done, then: Then) -> tuple[EoaState, list[Event]]:
    effect = state.effect
    return carry_on(state, effect._replace(steps=effect.steps[1:]), [], then)


def take_special(state: EoaState, seat: int, action: TakeSpecial, then: Then) -> tuple[EoaState, list[Event]]:
    state, events = gain_special(state, seat, action.slot)
    effect = state.effect
    return carry_on(state, effect._replace(steps=effect.steps[1:]), events, then)


def carry_on(state: EoaState, effect: Effect, events: list[Event], then: Then, changes: dict | None = None
             ) -> tuple[EoaState, list[Event]]:
    """Carry ``effect`` on (``changes``: fields of ``state`` not yet rebuilt): resolve the steps that
    need no choice, stop at the first that does; once none is left, score the rider
    and move on (``then``)."""
    changes = changes or {}
    while effect.steps:
        auto = AUTOMATIC.get(effect.steps[0])
        if auto is not None and changes:  # automatic steps read the state as it is now
            state, changes = replace(state, **changes), {}
        resolved = auto(state, effect) if auto is not None else None
        if resolved is None:
            return replace(state, effect=effect, **changes), events
        state, more = resolved
        events += more
        effect = effect._replace(steps=effect.steps[1:])
    score = RIDER_SCORES.get(effect.rider)
    if score is not None:
        points, why = score(state, effect)
        if points:
            changes["vp"] = bump(changes.get("vp", state.vp), effect.seat, points)
            events.append(Event("score", {"seat": effect.seat, "n": points, "why": why}))
    state, more = then(state, **changes)
    return state, events + more
