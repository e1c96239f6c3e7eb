"""Finding Atlantis -- the hand and the turn: playing a card, spending an action,
passing the turn on (lost actions, roaming monsters, the round limit).

Every effect ends with ``spend``: it counts the action. The turn passes only
with End turn, after the second action as after the first: an Explore has to
wait for its explorer (passing on at once would tell the table it found no
Atlantis), so every turn ends the same way and a habit of ending it is safe.
"""

from __future__ import annotations

from typing import Any

from ..components import put
from ..core import Event, replace
from . import data
from .board import step
from .state import FAState, hand_for


def play_card(state: FAState, seat: int, card: str, dir: int) -> FAState:
    """Move ``card`` from the hand to the seat's played cards (``dir``: burnt, or -1)."""
    hand = list(state.hands[seat])
    hand.remove(card)
    changes: dict[str, Any] = dict(hands=put(state.hands, seat, tuple(hand)),
                                   played=put(state.played, seat, state.played[seat] + ((card, dir),)))
    if card == "captain" and not state.captain_shown[seat]:
        changes["captain_shown"] = put(state.captain_shown, seat, True)
    return replace(state, **changes)


def refill(state: FAState, seat: int) -> FAState:
    """Every played card and the captain back in hand."""
    return replace(state, hands=put(state.hands, seat, hand_for(state.pirate)), played=put(state.played, seat, ()))


def discard_random(state: FAState, seat: int) -> tuple[FAState, str]:
    """One random action card (never Surface, never the captain) is played away; ""
    when there is none."""
    options = [i for i, c in enumerate(state.hands[seat]) if c != "surface" and c != "captain"]
    if not options:
        return state, ""
    j, rng = state.rng.below(len(options))
    card = state.hands[seat][options[j]]
    state = replace(state, rng=rng)
    return play_card(state, seat, card, -1), card


def spend(state: FAState, seat: int, events: list[Event], free: bool = False) -> tuple[FAState, list[Event]]:
    """Count one action (none when ``free``); the turn waits for End turn."""
    if state.phase == "over" or free:
        return state, events
    return replace(state, actions_left=max(0, state.actions_left - 1)), events


def close_declaration(state: FAState, seat: int) -> FAState:
    """The chance to declare ends (with any spaces picked for it)."""
    if state.may_declare[seat] or state.picks[seat]:
        return replace(state, may_declare=put(state.may_declare, seat, False), picks=put(state.picks, seat, ()))
    return state


def end_turn(state: FAState) -> tuple[FAState, list[Event]]:
    """Pass the turn on: a seat with no action left this turn (sabotage, monsters)
    loses it; after each full round roaming monsters move; the round limit ends
    the game without a winner."""
    events: list[Event] = []
    state = close_declaration(state, state.turn)
    for _ in range(2 * state.players + 1):
        nxt = (state.turn + 1) % state.players
        rnd = state.round
        if nxt == state.first:
            if state.round >= state.max_rounds:
                events.append(Event("round_limit", {"rounds": state.round}))
                return replace(state, phase="over", winners=(), actions_left=0,
                               end_reason=f"nobody found Atlantis in {state.round} rounds"), events
            rnd += 1
            if state.roaming and state.monsters:
                state, more = roam(state)
                events += more
        actions = data.ACTIONS_PER_TURN - state.skip[nxt]
        skip = state.skip if state.skip[nxt] == 0 else put(state.skip, nxt, max(0, -actions))
        state = replace(state, turn=nxt, skip=skip, actions_left=max(0, actions), round=rnd)
        if actions > 0:
            events.append(Event("turn", {"seat": nxt, "actions": actions}))
            return state, events
        events.append(Event("turn_lost", {"seat": nxt}))
    return state, events


def roam(state: FAState) -> tuple[FAState, list[Event]]:
    """Each sea monster moves 1 space, by the game's RNG."""
    monsters = []
    rng = state.rng
    for m in state.monsters:
        options = [c for c in (step(state.n, m, d) for d in range(8)) if c >= 0]
        c, rng = rng.choice(options)
        monsters.append(c)
    roamed = Event("monsters_roam", {"cells": tuple(monsters), "n": state.n})
    return replace(state, monsters=tuple(monsters), rng=rng), [roamed]


def lose_action(state: FAState, seat: int) -> FAState:
    """A sea monster's attack: the seat's next action is lost (this turn if it has
    another, else on its next turn)."""
    if state.turn == seat and state.phase == "play" and state.actions_left > 1:
        return replace(state, actions_left=state.actions_left - 1)
    return replace(state, skip=put(state.skip, seat, state.skip[seat] + 1))
