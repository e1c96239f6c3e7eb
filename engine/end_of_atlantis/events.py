"""Event cards and Doom!: drawing the Event card of a Doom phase, what each card does
there (a table by card), and the end of the game at the third Doom!.

The Event deck is never shuffled into an order: its make-up is counted (``dooms_left``,
``other_events_left`` of the ``other_events`` not yet seen, four of which stay in the
box) and a card is drawn at random when it is turned up.  A third Doom! drawn in game
turns 1-3 goes back into the deck and another card is drawn in its place (so every game
lasts at least 4 turns, RULES-DECISIONS); from turn 4 on it ends the game at once.

The cards whose effect lasts into the next turn (Chaos Spreads, We're All Doomed, No
Mercy For The Weak, Under The Senate's Leadership) are read where they apply, through
``state.event_key``.
"""

from __future__ import annotations

from typing import Any, Callable

from ..components import bump, put
from ..core import Event, replace
from . import data
from .ships import ark_refill, wreck
from .state import EoaState, Stage, marker_order, senate_order

END_REASON = "the third Doom! card: Atlantis sinks"


def draw_event(state: EoaState, allow_doom: bool = True) -> tuple[EoaState, int]:
    """A random Event card from what the deck holds (-1 if it is empty)."""
    dooms = state.dooms_left if allow_doom else 0
    total = dooms + state.other_events_left
    if total <= 0:
        return state, -1
    r, rng = state.rng.below(total)
    if r < dooms:
        left = state.dooms_left - 1
        return replace(state, dooms_left=left, rng=rng), data.DOOM_EVENTS[left]
    j, rng = rng.below(len(state.other_events))
    pool = state.other_events
    return replace(state, other_events=pool[:j] + pool[j + 1:], other_events_left=state.other_events_left - 1,
                   rng=rng), pool[j]


def is_early_third_doom(state: EoaState, card: int) -> bool:
    """A third Doom! in game turns 1-3 (``EARLY_DOOM_TURNS``) is too early."""
    return card in data.DOOM_EVENTS and state.doom_markers == 1 and state.turn <= data.EARLY_DOOM_TURNS


def turn_up_event(state: EoaState) -> tuple[EoaState, list[Event]]:
    """The Doom phase's Event card (the face-up top card with revealed events)."""
    events = []
    if state.revealed_events:
        card = state.top_event
        state = replace(state, top_event=-1)
    else:
        state, card = draw_event(state)
    if is_early_third_doom(state, card):
        state, card = draw_event(state, allow_doom=False)
        state = replace(state, dooms_left=state.dooms_left + 1)
        events.append(Event("doom_returned", {"turn": state.turn}))
    top = state.top_event
    if state.revealed_events:
        state, top = draw_event(state)
    events.append(Event("event", {"card": card, "top": top}))
    return replace(state, event=card, top_event=top), events


def award(state: EoaState, seat: int, points: int, why: str) -> tuple[EoaState, list[Event]]:
    if points <= 0:
        return state, []
    return replace(state, vp=bump(state.vp, seat, points)), [Event("score", {"seat": seat, "n": points, "why": why})]


def ranked_for_awards(state: Any) -> list[int]:
    """Who comes first for the Senate's awards: Senate order, or the markers (family)."""
    return marker_order(state) if state.family else senate_order(state)


def senate_ranking(state: Any) -> list[int]:
    """The players with tokens in the Senate pool, in award order (family: everyone)."""
    return [p for p in ranked_for_awards(state) if state.family or state.senate_pool[p] > 0]


# --- what each card does in the Doom phase -----------------------------------------------------
def _doom(state: EoaState) -> tuple[EoaState, list[Event]]:
    """A Doom marker goes; the first upgrades ships A and B, the second C, D and E
    (unless the ships were chosen); the third ends the game."""
    markers = state.doom_markers - 1
    state = replace(state, doom_markers=markers)
    if markers == 0:
        return end_game(state)
    events = []
    if not state.ships_chosen:
        upgrade = data.DOOM_UPGRADES[data.DOOM_MARKERS - 1 - markers]
        for i, sh in enumerate(state.ships):
            if sh.tile < data.ADVANCED and sh.tile in upgrade:
                state = replace(state, ships=put(state.ships, i, sh._replace(tile=sh.tile + data.ADVANCED)))
                events.append(Event("upgraded", {"ship": i, "tile": sh.tile + data.ADVANCED}))
                state = replace(state, **ark_refill(state, i))
    return state, events


def _senate_pays(state: EoaState) -> tuple[EoaState, list[Event]]:
    events = []
    for p, points in zip(senate_ranking(state), data.SENATE_PAYS):
        state, more = award(state, p, points, "senate_pays")
        events += more
    return state, events


def _wrath(state: EoaState) -> tuple[EoaState, list[Event]]:
    """Every ship on the ocean is lost with everyone aboard (no one is immune)."""
    events = []
    for i, sh in enumerate(state.ships):
        if sh.at_sea:
            changes, lost = wreck(state, i, spare_immune=False)
            state = replace(state, **changes)
            events.append(Event("wrecked", {"ship": i, "tile": sh.tile, "n": lost}))
    return state, events


def _together(state: EoaState) -> tuple[EoaState, list[Event]]:
    """In Senate order, up to 3 refugees each, one at a time (``doom.together_*``)."""
    return replace(state, together_queue=tuple(senate_order(state)), together_placed=(0,) * state.players,
                   stage=Stage.TOGETHER), []


EVENT_EFFECTS: dict[str, Callable[[EoaState], tuple[EoaState, list[Event]]]] = {
    "doom": _doom, "senate_pays": _senate_pays, "wrath": _wrath, "together": _together,
}


def event_effect(state: EoaState, card: int) -> tuple[EoaState, list[Event]]:
    effect = EVENT_EFFECTS.get(data.EVENT_KEY[card])
    return effect(state) if effect is not None else (state, [])


# --- the end ------------------------------------------------------------------------------------
END_BONUS: dict[str, Callable[[Any, int, int], int]] = {
    "treasury": lambda state, p, first: data.TREASURY_VP,
    "favourite": lambda state, p, first: data.FAVOURITE_VP if first == p else 0,
    "builders": lambda state, p, first: min(data.BUILDERS_MAX, sum(sh.cubes[p] for sh in state.ships)),
}


def end_bonus(state: Any, p: int, card: int, first: int) -> int:
    """Victory points special ``card`` gives ``p`` when the game ends (``first``: the
    first player in Senate order)."""
    bonus = END_BONUS.get(data.SPECIAL_KEY[card])
    return bonus(state, p, first) if bonus is not None else 0


def end_game(state: EoaState) -> tuple[EoaState, list[Event]]:
    """The special cards are turned up and scored.  The scores reach the other seats
    through the final view, not through events: they depend on cards that were secret
    until this moment (a seat's events may not depend on what it could not know)."""
    order = senate_order(state)
    vp = tuple(state.vp[p] + sum(end_bonus(state, p, c, order[0]) for c in state.specials[p])
               for p in range(state.players))
    rank = {p: i for i, p in enumerate(order)}
    win = min(range(state.players), key=lambda p: (-vp[p], rank[p]))
    return replace(state, vp=vp, game_winners=(win,), stage=Stage.OVER, end_reason=END_REASON), [
        Event("game_over", {})]
