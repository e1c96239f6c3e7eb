"""The Doom phase: majorities (the Promised Land, the Senate; the Senate's Leadership),
the Event card (``events``), neutral refugees boarding, three ships sailing (two with
2 players), and everyone's tokens coming home.  The phase ends with the stage
``START``: the next turn begins (``senate.start_turn``).
"""

from __future__ import annotations

from typing import Any

from ..components import bump, put
from ..core import Event, replace
from . import data
from .actions import PASS, SHIP_TARGETS, Pass, Target
from .events import award, event_effect, senate_ranking, turn_up_event
from .ships import discard_cubes, move_ship, put_refugees
from .state import EoaState, Stage, aboard, event_key, free, in_port_with_room, senate_order


def begin_doom(state: EoaState) -> tuple[EoaState, list[Event]]:
    state = replace(state, stage=Stage.DOOM, vote=-1, effect=None)
    events = [Event("doom_phase", {"turn": state.turn})]
    if event_key(state) == "leadership" and state.promised_land_neutrals:
        top = senate_ranking(state)
        neutrals = state.promised_land_neutrals
        for p, points in zip(top, (neutrals, (neutrals + 1) // 2)):
            state, more = award(state, p, points, "leadership")
            events += more
    rank = {p: i for i, p in enumerate(senate_order(state))}
    land = state.promised_land
    best = min(range(state.players), key=lambda p: (-land[p], rank[p]))
    if land[best] > 0 and land[best] >= state.promised_land_neutrals:
        state, more = award(state, best, data.MOST_IN_PROMISED_LAND, "promised_land")
        events += more
    if not state.family:
        pool = state.senate_pool
        best = min(range(state.players), key=lambda p: (-pool[p], rank[p]))
        if pool[best] > 0:
            state, more = award(state, best, data.MOST_IN_SENATE, "senate")
            events += more
    state, more = turn_up_event(state)
    events += more
    state, more = event_effect(state, state.event)
    events += more
    if state.stage == Stage.OVER:
        return state, events
    if state.stage == Stage.TOGETHER:
        state, more = _next_placer(state, advance=False)
        return state, events + more
    state, more = _finish(state)
    return state, events + more


# --- We're All In This Together -------------------------------------------------------------------
def together_choices(view: Any, seat: int) -> list[Any]:
    return [*(SHIP_TARGETS[i] for i in in_port_with_room(view.ships)), PASS]


def together_place(state: EoaState, seat: int, action: Target) -> tuple[EoaState, list[Event]]:
    state = replace(state, together_placed=bump(state.together_placed, seat, 1),
                    **put_refugees(state, seat, action.ship, 1))
    event = Event("placed", {"seat": seat, "ship": action.ship, "tile": state.ships[action.ship].tile, "n": 1})
    state, events = _next_placer(state, advance=True)
    return state, [event, *events]


def together_stop(state: EoaState, seat: int, action: Pass) -> tuple[EoaState, list[Event]]:
    state = replace(state, together_queue=tuple(p for p in state.together_queue if p != seat))
    event = Event("together_stop", {"seat": seat})
    state, events = _next_placer(state, advance=False)
    return state, [event, *events]


def _can_place(state: EoaState, p: int) -> bool:
    return (state.together_placed[p] < data.TOGETHER_MAX and state.screen[p] > 0
            and bool(in_port_with_room(state.ships)))


def _next_placer(state: EoaState, advance: bool) -> tuple[EoaState, list[Event]]:
    """One refugee at a time, in turn, while anyone still can (and wants to)."""
    queue = list(state.together_queue)
    if advance and queue:
        queue = queue[1:] + queue[:1]
    queue = tuple(p for p in queue if _can_place(state, p))
    if queue:
        return replace(state, together_queue=queue), []
    return _finish(replace(state, together_queue=queue, stage=Stage.DOOM))


# --- neutrals, sailing, homecoming -------------------------------------------------------------
def place_neutrals(state: EoaState, count: int) -> tuple[EoaState, list[Event]]:
    """Neutral refugees board the ships in port, largest ship first (ties to the left),
    one ship after another; a full ship is skipped, or with aggressive neutrals loses
    the cube of the last player in Senate order aboard it.  The camp can run out."""
    order = sorted((i for i, sh in enumerate(state.ships) if not sh.at_sea),
                   key=lambda i: (-data.capacity(state.ships[i].tile), i))
    if not order:
        return state, []
    events: list[Event] = []
    j = 0
    placed = []
    for _ in range(count):
        if state.camp <= 0:
            break
        for _ in range(len(order)):
            i = order[j % len(order)]
            j += 1
            sh = state.ships[i]
            if free(sh) > 0:
                break
            if state.aggressive_neutrals:
                last_first = [p for p in reversed(senate_order(state)) if sh.cubes[p] > 0]
                if last_first:
                    state = replace(state, **discard_cubes(state, i, last_first[0]))
                    events.append(Event("pushed_off", {"ship": i, "tile": sh.tile, "colour": last_first[0]}))
                    break
        else:
            break
        sh = state.ships[i]
        state = replace(state, ships=put(state.ships, i, sh._replace(cubes=bump(sh.cubes, data.NEUTRAL, 1))),
                        camp=state.camp - 1)
        placed.append(i)
    if placed:
        events.append(Event("neutrals", {"ships": tuple(placed),
                                          "tiles": tuple(state.ships[i].tile for i in placed)}))
    return state, events


def doom_movers(ships: tuple, count: int) -> list[int]:
    """Which ships sail in the Doom phase: full ones first, then the most refugees
    aboard, ties to the left (the ship's index is its board position, letter order:
    ``actions.board_order``); never an empty ship."""
    candidates = [i for i, sh in enumerate(ships) if aboard(sh) > 0]
    candidates.sort(key=lambda i: (free(ships[i]) > 0, -aboard(ships[i]), i))
    return candidates[:count]


def _finish(state: EoaState) -> tuple[EoaState, list[Event]]:
    card = state.event
    key = data.EVENT_KEY[card]
    state, events = place_neutrals(state, data.EVENT_NEUTRALS[card])
    sailing = data.SHIPS_MOVED_IN_DOOM_2P if state.players == 2 else data.SHIPS_MOVED_IN_DOOM
    changes: dict = {}
    for i in doom_movers(state.ships, sailing):
        changes, more, _ = move_ship(state, i, -1, **changes)
        events += more
    state = replace(state, **changes) if changes else state
    chaos = key == "chaos"
    full = key in data.FULL_SENATE_RETURN
    n = state.players
    screen = list(state.screen)
    pool = list(state.senate_pool)
    for p in range(n):
        screen[p] += state.buildings[p] + sum(state.tokens_on_cards[p]) + state.promised_land[p]
        if not chaos:  # Chaos: the Senate pool and the Factions stay for the next turn
            back = pool[p] if full else (pool[p] + 1) // 2
            screen[p] += back
            pool[p] -= back
    state = replace(state, screen=tuple(screen), senate_pool=tuple(pool), buildings=(0,) * n,
                    promised_land=(0,) * n, camp=state.camp + state.promised_land_neutrals, promised_land_neutrals=0,
                    discard=state.discard + tuple(c for r in state.voting_cards for c in r),
                    voting_cards=((),) * n, tokens_on_cards=((),) * n,
                    faction_holders=state.faction_holders if chaos else (-1,) * len(data.FACTIONS),
                    stage=Stage.START)
    events.append(Event("returned", {"chaos": chaos, "full": full}))
    return state, events
