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


def begin_doom(s: EoaState) -> tuple[EoaState, list[Event]]:
    s = replace(s, stage=Stage.DOOM, vote=-1, effect=None)
    events = [Event("doom_phase", {"turn": s.turn})]
    if event_key(s) == "leadership" and s.promised_land_neutrals:
        top = senate_ranking(s)
        neutrals = s.promised_land_neutrals
        for p, points in zip(top, (neutrals, (neutrals + 1) // 2)):
            s, more = award(s, p, points, "leadership")
            events += more
    rank = {p: i for i, p in enumerate(senate_order(s))}
    land = s.promised_land
    best = min(range(s.players), key=lambda p: (-land[p], rank[p]))
    if land[best] > 0 and land[best] >= s.promised_land_neutrals:
        s, more = award(s, best, data.MOST_IN_PROMISED_LAND, "promised_land")
        events += more
    if not s.family:
        pool = s.senate_pool
        best = min(range(s.players), key=lambda p: (-pool[p], rank[p]))
        if pool[best] > 0:
            s, more = award(s, best, data.MOST_IN_SENATE, "senate")
            events += more
    s, more = turn_up_event(s)
    events += more
    s, more = event_effect(s, s.event)
    events += more
    if s.stage == Stage.OVER:
        return s, events
    if s.stage == Stage.TOGETHER:
        s, more = _next_placer(s, advance=False)
        return s, events + more
    s, more = _finish(s)
    return s, events + more


# --- We're All In This Together -------------------------------------------------------------------
def together_choices(x: Any, seat: int) -> list[Any]:
    return [*(SHIP_TARGETS[i] for i in in_port_with_room(x.ships)), PASS]


def together_place(s: EoaState, seat: int, a: Target) -> tuple[EoaState, list[Event]]:
    s = replace(s, together_placed=bump(s.together_placed, seat, 1), **put_refugees(s, seat, a.ship, 1))
    event = Event("placed", {"seat": seat, "ship": a.ship, "tile": s.ships[a.ship].tile, "n": 1})
    s, events = _next_placer(s, advance=True)
    return s, [event, *events]


def together_stop(s: EoaState, seat: int, a: Pass) -> tuple[EoaState, list[Event]]:
    s = replace(s, together_queue=tuple(p for p in s.together_queue if p != seat))
    event = Event("together_stop", {"seat": seat})
    s, events = _next_placer(s, advance=False)
    return s, [event, *events]


def _can_place(s: EoaState, p: int) -> bool:
    return (s.together_placed[p] < data.TOGETHER_MAX and s.screen[p] > 0
            and bool(in_port_with_room(s.ships)))


def _next_placer(s: EoaState, advance: bool) -> tuple[EoaState, list[Event]]:
    """One refugee at a time, in turn, while anyone still can (and wants to)."""
    queue = list(s.together_queue)
    if advance and queue:
        queue = queue[1:] + queue[:1]
    queue = tuple(p for p in queue if _can_place(s, p))
    if queue:
        return replace(s, together_queue=queue), []
    return _finish(replace(s, together_queue=queue, stage=Stage.DOOM))


# --- neutrals, sailing, homecoming -------------------------------------------------------------
def place_neutrals(s: EoaState, count: int) -> tuple[EoaState, list[Event]]:
    """Neutral refugees board the ships in port, largest ship first (ties to the left),
    one ship after another; a full ship is skipped, or with aggressive neutrals loses
    the cube of the last player in Senate order aboard it.  The camp can run out."""
    order = sorted((i for i, sh in enumerate(s.ships) if not sh.at_sea),
                   key=lambda i: (-data.capacity(s.ships[i].tile), i))
    if not order:
        return s, []
    events: list[Event] = []
    j = 0
    placed = []
    for _ in range(count):
        if s.camp <= 0:
            break
        for _ in range(len(order)):
            i = order[j % len(order)]
            j += 1
            sh = s.ships[i]
            if free(sh) > 0:
                break
            if s.aggressive_neutrals:
                last_first = [p for p in reversed(senate_order(s)) if sh.cubes[p] > 0]
                if last_first:
                    s = replace(s, **discard_cubes(s, i, last_first[0]))
                    events.append(Event("pushed_off", {"ship": i, "tile": sh.tile, "colour": last_first[0]}))
                    break
        else:
            break
        sh = s.ships[i]
        s = replace(s, ships=put(s.ships, i, sh._replace(cubes=bump(sh.cubes, data.NEUTRAL, 1))),
                    camp=s.camp - 1)
        placed.append(i)
    if placed:
        events.append(Event("neutrals", {"ships": tuple(placed),
                                          "tiles": tuple(s.ships[i].tile for i in placed)}))
    return s, events


def doom_movers(ships: tuple, count: int) -> list[int]:
    """Which ships sail in the Doom phase: full ones first, then the most refugees
    aboard, ties to the left (the ship's index is its board position, letter order:
    ``actions.board_order``); never an empty ship."""
    candidates = [i for i, sh in enumerate(ships) if aboard(sh) > 0]
    candidates.sort(key=lambda i: (free(ships[i]) > 0, -aboard(ships[i]), i))
    return candidates[:count]


def _finish(s: EoaState) -> tuple[EoaState, list[Event]]:
    card = s.event
    key = data.EVENT_KEY[card]
    s, events = place_neutrals(s, data.EVENT_NEUTRALS[card])
    sailing = data.SHIPS_MOVED_IN_DOOM_2P if s.players == 2 else data.SHIPS_MOVED_IN_DOOM
    changes: dict = {}
    for i in doom_movers(s.ships, sailing):
        changes, more, _ = move_ship(s, i, -1, **changes)
        events += more
    s = replace(s, **changes) if changes else s
    chaos = key == "chaos"
    full = key in data.FULL_SENATE_RETURN
    n = s.players
    screen = list(s.screen)
    pool = list(s.senate_pool)
    for p in range(n):
        screen[p] += s.buildings[p] + sum(s.tokens_on_cards[p]) + s.promised_land[p]
        if not chaos:  # Chaos: the Senate pool and the Factions stay for the next turn
            back = pool[p] if full else (pool[p] + 1) // 2
            screen[p] += back
            pool[p] -= back
    s = replace(s, screen=tuple(screen), senate_pool=tuple(pool), buildings=(0,) * n,
                promised_land=(0,) * n, camp=s.camp + s.promised_land_neutrals, promised_land_neutrals=0,
                discard=s.discard + tuple(c for r in s.voting_cards for c in r),
                voting_cards=((),) * n, tokens_on_cards=((),) * n,
                faction_holders=s.faction_holders if chaos else (-1,) * len(data.FACTIONS),
                stage=Stage.START)
    events.append(Event("returned", {"chaos": chaos, "full": full}))
    return s, events
