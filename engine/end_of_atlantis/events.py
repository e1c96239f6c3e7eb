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


def draw_event(s: EoaState, allow_doom: bool = True) -> tuple[EoaState, int]:
    """A random Event card from what the deck holds (-1 if it is empty)."""
    dooms = s.dooms_left if allow_doom else 0
    total = dooms + s.other_events_left
    if total <= 0:
        return s, -1
    r, rng = s.rng.below(total)
    if r < dooms:
        left = s.dooms_left - 1
        return replace(s, dooms_left=left, rng=rng), data.DOOM_EVENTS[left]
    j, rng = rng.below(len(s.other_events))
    pool = s.other_events
    return replace(s, other_events=pool[:j] + pool[j + 1:], other_events_left=s.other_events_left - 1,
                   rng=rng), pool[j]


def is_early_third_doom(s: EoaState, card: int) -> bool:
    """A third Doom! in game turns 1-3 (``EARLY_DOOM_TURNS``) is too early."""
    return card in data.DOOM_EVENTS and s.doom_markers == 1 and s.turn <= data.EARLY_DOOM_TURNS


def turn_up_event(s: EoaState) -> tuple[EoaState, list[Event]]:
    """The Doom phase's Event card (the face-up top card with revealed events)."""
    events = []
    if s.revealed_events:
        card = s.top_event
        s = replace(s, top_event=-1)
    else:
        s, card = draw_event(s)
    if is_early_third_doom(s, card):
        s, card = draw_event(s, allow_doom=False)
        s = replace(s, dooms_left=s.dooms_left + 1)
        events.append(Event("doom_returned", {"turn": s.turn}))
    top = s.top_event
    if s.revealed_events:
        s, top = draw_event(s)
    events.append(Event("event", {"card": card, "top": top}))
    return replace(s, event=card, top_event=top), events


def award(s: EoaState, seat: int, points: int, why: str) -> tuple[EoaState, list[Event]]:
    if points <= 0:
        return s, []
    return replace(s, vp=bump(s.vp, seat, points)), [Event("score", {"seat": seat, "n": points, "why": why})]


def ranked_for_awards(s: Any) -> list[int]:
    """Who comes first for the Senate's awards: Senate order, or the markers (family)."""
    return marker_order(s) if s.family else senate_order(s)


def senate_ranking(s: Any) -> list[int]:
    """The players with tokens in the Senate pool, in award order (family: everyone)."""
    return [p for p in ranked_for_awards(s) if s.family or s.senate_pool[p] > 0]


# --- what each card does in the Doom phase -----------------------------------------------------
def _doom(s: EoaState) -> tuple[EoaState, list[Event]]:
    """A Doom marker goes; the first upgrades ships A and B, the second C, D and E
    (unless the ships were chosen); the third ends the game."""
    markers = s.doom_markers - 1
    s = replace(s, doom_markers=markers)
    if markers == 0:
        return end_game(s)
    events = []
    if not s.ships_chosen:
        upgrade = data.DOOM_UPGRADES[data.DOOM_MARKERS - 1 - markers]
        for i, sh in enumerate(s.ships):
            if sh.tile < data.ADVANCED and sh.tile in upgrade:
                s = replace(s, ships=put(s.ships, i, sh._replace(tile=sh.tile + data.ADVANCED)))
                events.append(Event("upgraded", {"ship": i, "tile": sh.tile + data.ADVANCED}))
                s = replace(s, **ark_refill(s, i))
    return s, events


def _senate_pays(s: EoaState) -> tuple[EoaState, list[Event]]:
    events = []
    for p, points in zip(senate_ranking(s), data.SENATE_PAYS):
        s, more = award(s, p, points, "senate_pays")
        events += more
    return s, events


def _wrath(s: EoaState) -> tuple[EoaState, list[Event]]:
    """Every ship on the ocean is lost with everyone aboard (no one is immune)."""
    events = []
    for i, sh in enumerate(s.ships):
        if sh.at_sea:
            changes, lost = wreck(s, i, spare_immune=False)
            s = replace(s, **changes)
            events.append(Event("wrecked", {"ship": i, "tile": sh.tile, "n": lost}))
    return s, events


def _together(s: EoaState) -> tuple[EoaState, list[Event]]:
    """In Senate order, up to 3 refugees each, one at a time (``doom.together_*``)."""
    return replace(s, together_queue=tuple(senate_order(s)), together_placed=(0,) * s.players,
                   stage=Stage.TOGETHER), []


EVENT_EFFECTS: dict[str, Callable[[EoaState], tuple[EoaState, list[Event]]]] = {
    "doom": _doom, "senate_pays": _senate_pays, "wrath": _wrath, "together": _together,
}


def event_effect(s: EoaState, card: int) -> tuple[EoaState, list[Event]]:
    effect = EVENT_EFFECTS.get(data.EVENT_KEY[card])
    return effect(s) if effect is not None else (s, [])


# --- the end ------------------------------------------------------------------------------------
END_BONUS: dict[str, Callable[[Any, int, int], int]] = {
    "treasury": lambda s, p, first: data.TREASURY_VP,
    "favourite": lambda s, p, first: data.FAVOURITE_VP if first == p else 0,
    "builders": lambda s, p, first: min(data.BUILDERS_MAX, sum(sh.cubes[p] for sh in s.ships)),
}


def end_bonus(s: Any, p: int, card: int, first: int) -> int:
    """Victory points special ``card`` gives ``p`` when the game ends (``first``: the
    first player in Senate order)."""
    bonus = END_BONUS.get(data.SPECIAL_KEY[card])
    return bonus(s, p, first) if bonus is not None else 0


def end_game(s: EoaState) -> tuple[EoaState, list[Event]]:
    """The special cards are turned up and scored.  The scores reach the other seats
    through the final view, not through events: they depend on cards that were secret
    until this moment (a seat's events may not depend on what it could not know)."""
    order = senate_order(s)
    vp = tuple(s.vp[p] + sum(end_bonus(s, p, c, order[0]) for c in s.specials[p])
               for p in range(s.players))
    rank = {p: i for i, p in enumerate(order)}
    win = min(range(s.players), key=lambda p: (-vp[p], rank[p]))
    return replace(s, vp=vp, game_winners=(win,), stage=Stage.OVER, end_reason=END_REASON), [
        Event("game_over", {})]
