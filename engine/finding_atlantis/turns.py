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


def refill(s: FAState, seat: int) -> FAState:
    """Every played card and the captain back in hand."""
    return replace(s, hands=put(s.hands, seat, hand_for(s.pirate)), played=put(s.played, seat, ()))


def discard_random(s: FAState, seat: int) -> tuple[FAState, str]:
    """One random action card (never Surface, never the captain) is played away; ""
    when there is none."""
    options = [i for i, c in enumerate(s.hands[seat]) if c != "surface" and c != "captain"]
    if not options:
        return s, ""
    j, rng = s.rng.below(len(options))
    card = s.hands[seat][options[j]]
    s = replace(s, rng=rng)
    return play_card(s, seat, card, -1), card


def spend(s: FAState, seat: int, events: list[Event], free: bool = False) -> tuple[FAState, list[Event]]:
    """Count one action (none when ``free``); the turn waits for End turn."""
    if s.phase == "over" or free:
        return s, events
    return replace(s, actions_left=max(0, s.actions_left - 1)), events


def close_declaration(s: FAState, seat: int) -> FAState:
    """The chance to declare ends (with any spaces picked for it)."""
    if s.may_declare[seat] or s.picks[seat]:
        return replace(s, may_declare=put(s.may_declare, seat, False), picks=put(s.picks, seat, ()))
    return s


def end_turn(s: FAState) -> tuple[FAState, list[Event]]:
    """Pass the turn on: a seat with no action left this turn (sabotage, monsters)
    loses it; after each full round roaming monsters move; the round limit ends
    the game without a winner."""
    events: list[Event] = []
    s = close_declaration(s, s.turn)
    for _ in range(2 * s.players + 1):
        nxt = (s.turn + 1) % s.players
        rnd = s.round
        if nxt == s.first:
            if s.round >= s.max_rounds:
                events.append(Event("round_limit", {"rounds": s.round}))
                return replace(s, phase="over", winners=(), actions_left=0,
                               end_reason=f"nobody found Atlantis in {s.round} rounds"), events
            rnd += 1
            if s.roaming and s.monsters:
                s, more = roam(s)
                events += more
        actions = data.ACTIONS_PER_TURN - s.skip[nxt]
        skip = s.skip if s.skip[nxt] == 0 else put(s.skip, nxt, max(0, -actions))
        s = replace(s, turn=nxt, skip=skip, actions_left=max(0, actions), round=rnd)
        if actions > 0:
            events.append(Event("turn", {"seat": nxt, "actions": actions}))
            return s, events
        events.append(Event("turn_lost", {"seat": nxt}))
    return s, events


def roam(s: FAState) -> tuple[FAState, list[Event]]:
    """Each sea monster moves 1 space, by the game's RNG."""
    monsters = []
    rng = s.rng
    for m in s.monsters:
        options = [c for c in (step(s.n, m, d) for d in range(8)) if c >= 0]
        c, rng = rng.choice(options)
        monsters.append(c)
    return replace(s, monsters=tuple(monsters), rng=rng), [Event("monsters_roam", {"cells": tuple(monsters), "n": s.n})]


def lose_action(s: FAState, seat: int) -> FAState:
    """A sea monster's attack: the seat's next action is lost (this turn if it has
    another, else on its next turn)."""
    if s.turn == seat and s.phase == "play" and s.actions_left > 1:
        return replace(s, actions_left=s.actions_left - 1)
    return replace(s, skip=put(s.skip, seat, s.skip[seat] + 1))
