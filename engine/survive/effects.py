"""Survive: what each action does to the state (legality is checked before, in
``rules.apply`` against ``board``'s lists).

Every function takes a state and returns ``(state, events)``; a state is rebuilt with
``core.replace``, never changed.  The turn's flow: ``start_turn`` -> phase "tile" (only
for a seat holding a tile) -> "move" -> "sink" -> "roll" -> "creature" -> next seat.
An attack that another seat may answer parks the flow in phase "respond" with
``attack.resume`` saying where it goes on.
"""

from __future__ import annotations

from typing import Any

from ..components import put, without
from ..core import Event, replace
from . import board
from . import data
from .state import Attack, SurviveState

PER_SEAT = data.EXPLORERS_PER_SEAT


# --- flow ----------------------------------------------------------------------------------
def start_moves(state: SurviveState, **changes: Any) -> SurviveState:
    return replace(state, phase="move", points=data.MOVE_POINTS, swum=(), red="", mover=-1, steps=0,
                   **changes)


def go_on(state: SurviveState, phase: str, events: list[Event]) -> tuple[SurviveState, list[Event]]:
    """Continue the turn at ``phase``: "move", "roll" or "end" (the next seat's turn)."""
    if phase == "move":
        return start_moves(state, attack=None, responders=()), events
    if phase == "roll":
        return replace(state, phase="roll", attack=None, responders=(), mover=-1, steps=0), events
    return end_turn(state, events)


def end_turn(state: SurviveState, events: list[Event]) -> tuple[SurviveState, list[Event]]:
    if not any(h >= 0 for h in state.explorer_hex):
        events.append(Event("nobody_left", {}))
        return finish(state, "no explorer is left on the island or in the sea", events)
    nxt = (state.turn + 1) % state.players
    rnd = state.round + (nxt == 0)
    events.append(Event("turn", {"seat": nxt}))
    return start_turn(replace(state, turn=nxt, round=rnd, attack=None, responders=(), red="",
                              creature_kind="", mover=-1, steps=0)), events


def start_turn(state: SurviveState) -> SurviveState:
    """A seat holding any tile starts with step 1 (play a red tile or not); the others
    go straight to moving: whether a seat holds a tile is public, which tile is not."""
    if state.hands[state.turn]:
        return replace(state, phase="tile", points=0, swum=(), red="", mover=-1, steps=0)
    return start_moves(state)


def scores(state: Any) -> tuple[int, ...]:
    out = [0] * state.players
    for e, h in enumerate(state.explorer_hex):
        if h == data.SAVED:
            out[e // PER_SEAT] += state.values[e]
    return tuple(out)


def finish(state: SurviveState, reason: str, events: list[Event]) -> tuple[SurviveState, list[Event]]:
    sc = scores(state)
    best = max(sc)
    winners = tuple(p for p in range(state.players) if sc[p] == best)
    events.append(Event("game_over", {"scores": sc, "winners": winners, "reason": reason,
                                      "values": state.values}))
    return replace(state, phase="over", winners=winners, end_reason=reason, attack=None,
                   responders=()), events


# --- setup -----------------------------------------------------------------------------------
def place_explorer(state, seat, action):
    eh = put(state.explorer_hex, action.explorer, action.hex)
    events = [Event("explorer_placed", {"seat": seat, "explorer": action.explorer, "hex": action.hex})]
    nxt = (seat + 1) % state.players
    if all(h != data.NOT_PLACED for h in eh):
        return replace(state, explorer_hex=eh, phase="place_boat", turn=0), events
    # a seat that has placed all of its explorers is skipped (never happens: equal counts)
    return replace(state, explorer_hex=eh, turn=nxt), events


def place_boat(state, seat, action):
    own = range(seat * data.BOATS_PER_SEAT, (seat + 1) * data.BOATS_PER_SEAT)
    b = next(b for b in own if state.boat_hex[b] == data.NOT_PLACED)
    bh = put(state.boat_hex, b, action.hex)
    events = [Event("boat_placed", {"seat": seat, "boat": b, "hex": action.hex})]
    placed = sum(1 for x in bh[:state.players * data.BOATS_PER_SEAT] if x >= 0)
    if placed == state.players * data.BOATS_PER_SEAT:
        events.append(Event("setup_done", {}))
        events.append(Event("turn", {"seat": 0}))
        return start_turn(replace(state, boat_hex=bh, turn=0)), events
    return replace(state, boat_hex=bh, turn=(seat + 1) % state.players), events


# --- step 1: red tiles -------------------------------------------------------------------------
def play_tile(state, seat, action):
    hands = put(state.hands, seat, without(state.hands[seat], action.tile))
    events = [Event("tile_played", {"seat": seat, "tile": action.tile, "back": action.back})]
    kind = data.MOVES_CREATURE.get(action.back)
    if kind:
        return replace(state, hands=hands, phase="creature", red=action.back, creature_kind=kind, mover=-1,
                       steps=0, after_creature="move"), events
    return replace(state, hands=hands, phase="red", red=action.back, mover=-1, steps=0), events


def no_tile(state, seat, action):
    return start_moves(state), []


def dolphin_step(state, seat, action):
    e = action.explorer
    frm = state.explorer_hex[e]
    if data.SAFE_AT[action.to] >= 0:
        state = replace(state, explorer_hex=put(state.explorer_hex, e, data.SAVED))
        saved = Event("saved", {"seat": seat, "explorer": e, "safe": data.SAFE_AT[action.to],
                                "by": "dolphin"})
        return start_moves(state), [saved]
    state = replace(state, explorer_hex=put(state.explorer_hex, e, action.to), mover=e, steps=state.steps + 1)
    events = [Event("dolphin", {"seat": seat, "explorer": e, "from": frm, "to": action.to})]
    if state.steps >= data.RED_REACH or not board.dolphin_targets(state, e):
        return start_moves(state), events
    return state, events


def wind_step(state, seat, action):
    frm = state.boat_hex[action.boat]
    state = sail_boat(state, action.boat, action.to)
    state = replace(state, mover=action.boat, steps=state.steps + 1)
    events = [Event("wind", {"seat": seat, "boat": action.boat, "from": frm, "to": action.to})]
    if state.steps >= data.RED_REACH or not board.sail_targets(state, action.boat):
        return start_moves(state), events
    return state, events


def end_tile(state, seat, action):
    return start_moves(state), []


# --- step 2: moving ---------------------------------------------------------------------------
def _spent(state: SurviveState, events: list[Event], **changes: Any):
    points = state.points - 1
    if points <= 0:
        return replace(state, points=0, phase="sink", **changes), events
    return replace(state, points=points, **changes), events


def walk(state, seat, action):
    walked = Event("walked", {"seat": seat, "explorer": action.explorer,
                              "from": state.explorer_hex[action.explorer], "to": action.to})
    return _spent(state, [walked], explorer_hex=put(state.explorer_hex, action.explorer, action.to))


def board_boat(state, seat, action):
    h = state.boat_hex[action.boat]
    boarded = Event("boarded", {"seat": seat, "explorer": action.explorer, "boat": action.boat, "hex": h})
    return _spent(state, [boarded],
                  explorer_hex=put(state.explorer_hex, action.explorer, h),
                  explorer_boat=put(state.explorer_boat, action.explorer, action.boat))


def swim(state, seat, action):
    swum = tuple(sorted(state.swum + (action.explorer,)))
    swam = Event("swam", {"seat": seat, "explorer": action.explorer,
                          "from": state.explorer_hex[action.explorer], "to": action.to})
    return _spent(state, [swam], explorer_hex=put(state.explorer_hex, action.explorer, action.to), swum=swum)


def ashore(state, seat, action):
    safe = data.ENTRANCE_OF[state.explorer_hex[action.explorer]]
    saved = Event("saved", {"seat": seat, "explorer": action.explorer, "safe": safe, "by": "step"})
    return _spent(state, [saved],
                  explorer_hex=put(state.explorer_hex, action.explorer, data.SAVED),
                  explorer_boat=put(state.explorer_boat, action.explorer, -1))


def sail_boat(state: SurviveState, b: int, to: int) -> SurviveState:
    eh = list(state.explorer_hex)
    for e, bb in enumerate(state.explorer_boat):
        if bb == b:
            eh[e] = to
    return replace(state, boat_hex=put(state.boat_hex, b, to), explorer_hex=tuple(eh))


def sail(state, seat, action):
    frm = state.boat_hex[action.boat]
    sailed = sail_boat(state, action.boat, action.to)
    return _spent(sailed, [Event("sailed", {"seat": seat, "boat": action.boat, "from": frm,
                                            "to": action.to})])


def end_moves(state, seat, action):
    return replace(state, phase="sink", points=0), []


# --- step 3: a tile leaves the island --------------------------------------------------------
def sink(state, seat, action):
    t = action.tile
    h = data.LAND_HEX_INDEX[t]
    back = state.backs[t]
    state = replace(state, sunk=put(state.sunk, t, 1), last_sunk=t)
    swimmers = board.swimmers_at(state, h)
    events = [Event("sank", {"seat": seat, "tile": t, "terrain": state.terrain[t], "hex": h,
                             "swimmers": tuple(swimmers)}),
              Event("looked", {"seat": seat, "tile": t, "back": back}, to=(seat,))]
    if data.BACK_KIND[back] != "green":
        events.append(Event("kept", {"seat": seat, "tile": t}))
        return replace(state, hands=put(state.hands, seat, state.hands[seat] + (t,)), phase="roll"), events
    events.append(Event("revealed", {"seat": seat, "tile": t, "back": back}))
    if back == "volcano":
        return finish(state, "the volcano erupted", events)
    if back in ("shark", "whale"):
        c = next((c for c, k in enumerate(data.CREATURE_KIND)
                  if k == back and state.creature_hex[c] == data.NOT_PLACED), -1)
        if c < 0:
            events.append(Event("none_left", {"kind": back}))
            return replace(state, phase="roll"), events
        state = replace(state, creature_hex=put(state.creature_hex, c, h))
        events.append(Event("appeared", {"creature": c, "kind": back, "hex": h}))
        state, events, stopped = attack_at(state, c, h, "roll", events)
        return (state, events) if stopped else (replace(state, phase="roll"), events)
    if back == "boat":
        return boat_appears(state, h, events)
    # whirlpool: every swimmer in that hex and the sea hexes around it
    lost = [e for n in (h,) + data.NEIGHBOURS[h] for e in board.swimmers_at(state, n)]
    state = lose(state, lost)
    events.append(Event("whirlpool", {"hex": h, "lost": tuple(lost)}))
    return replace(state, phase="roll"), events


def boat_appears(state: SurviveState, h: int, events: list[Event]):
    b = next((b for b, x in enumerate(state.boat_hex) if x == data.NOT_PLACED), -1)
    if b < 0:
        events.append(Event("none_left", {"kind": "boat"}))
        return replace(state, phase="roll"), events
    # swimmers there climb in, up to 3: one per seat at a time, from the seat whose
    # turn it is, each seat's lowest-numbered explorer first (our decision)
    queues = [[e for e in board.swimmers_at(state, h) if e // PER_SEAT == p] for p in range(state.players)]
    boarded: list[int] = []
    order = [(state.turn + i) % state.players for i in range(state.players)]
    while len(boarded) < data.BOAT_CAPACITY and any(queues):
        for p in order:
            if queues[p] and len(boarded) < data.BOAT_CAPACITY:
                boarded.append(queues[p].pop(0))
    eb = list(state.explorer_boat)
    for e in boarded:
        eb[e] = b
    state = replace(state, boat_hex=put(state.boat_hex, b, h), explorer_boat=tuple(eb), phase="roll")
    events.append(Event("boat_appeared", {"boat": b, "hex": h, "boarded": tuple(sorted(boarded))}))
    return state, events


def lose(state: SurviveState, explorers) -> SurviveState:
    if not explorers:
        return state
    eh, eb = list(state.explorer_hex), list(state.explorer_boat)
    for e in explorers:
        eh[e], eb[e] = data.LOST, -1
    return replace(state, explorer_hex=tuple(eh), explorer_boat=tuple(eb))


# --- step 4: the die and the creatures -------------------------------------------------------------
def roll(state, seat, action):
    face, rng = state.rng.below(len(data.DIE_FACES))
    kind = data.DIE_FACES[face]
    state = replace(state, rng=rng, die=kind)
    events = [Event("rolled", {"seat": seat, "kind": kind})]
    if not board.can_any_creature_move(state, kind):
        events.append(Event("no_creature", {"kind": kind}))
        return end_turn(state, events)
    return replace(state, phase="creature", creature_kind=kind, mover=-1, steps=0,
                   after_creature="end"), events


def creature_step(state, seat, action):
    c, h = action.creature, action.to
    frm = state.creature_hex[c]
    state = replace(state, creature_hex=put(state.creature_hex, c, h), mover=c, steps=state.steps + 1)
    events = [Event("creature_moved", {"seat": seat, "creature": c, "kind": data.CREATURE_KIND[c],
                                       "from": frm, "to": h})]
    state, events, stopped = attack_at(state, c, h, state.after_creature, events)
    if stopped or state.phase == "over":
        return state, events
    if state.steps >= data.CREATURE_REACH[data.CREATURE_KIND[c]][1] or not board.creature_targets(state, c):
        return go_on(state, state.after_creature, events)
    return state, events


def end_creature(state, seat, action):
    return go_on(state, state.after_creature, [])


def attack_at(state: SurviveState, c: int, h: int, resume: str, events: list[Event]):
    """Creature ``c`` has just entered (or appeared in) hex ``h``.  Returns the state,
    the events, and whether its move stops here."""
    kind = data.CREATURE_KIND[c]
    if kind == "serpent":
        b = board.boat_at(state, h)
        aboard = board.passengers(state, b) if b >= 0 else []
        swimmers = board.swimmers_at(state, h)
        if not aboard and not swimmers:
            return state, events, False
        state = lose(state, aboard + swimmers)
        if aboard:
            state = replace(state, boat_hex=put(state.boat_hex, b, data.LOST))
        events.append(Event("serpent_attack", {"creature": c, "hex": h, "boat": b if aboard else -1,
                                               "lost": tuple(sorted(aboard + swimmers))}))
        after, more = go_on(state, resume, events)
        return after, more, True
    if kind == "shark":
        victims = board.swimmers_at(state, h)
        boat = -1
    else:
        boat = board.boat_at(state, h)
        victims = board.passengers(state, boat) if boat >= 0 else []
    if not victims:
        return state, events, False
    seats = tuple(sorted({e // PER_SEAT for e in victims}))
    attack = Attack(kind, c, h, boat, seats, resume)
    # who may answer: every attacked seat but the one whose turn it is, that holds any
    # tile at all (public), in seat order after the player whose turn it is
    order = [(state.turn + i) % state.players for i in range(1, state.players)]
    responders = tuple(p for p in order if p in seats and state.hands[p])
    events.append(Event("attack", {"creature": c, "kind": kind, "hex": h, "boat": boat,
                                   "victims": seats, "responders": responders}))
    state = replace(state, attack=attack)
    if responders:
        return replace(state, phase="respond", responders=responders), events, True
    after, more = resolve_attack(state, events)
    return after, more, True


def resolve_attack(state: SurviveState, events: list[Event]):
    a = state.attack
    if a.kind == "shark":
        lost = board.swimmers_at(state, a.hex)
        state = lose(state, lost)
        events.append(Event("shark_attack", {"creature": a.creature, "hex": a.hex, "lost": tuple(lost)}))
    else:
        aboard = board.passengers(state, a.boat)
        eb = list(state.explorer_boat)
        for e in aboard:
            eb[e] = -1
        state = replace(state, explorer_boat=tuple(eb), boat_hex=put(state.boat_hex, a.boat, data.LOST))
        events.append(Event("whale_attack", {"creature": a.creature, "hex": a.hex, "boat": a.boat,
                                             "swimmers": tuple(aboard)}))
    return go_on(state, a.resume, events)


# --- answering an attack ------------------------------------------------------------------------
def defend(state, seat, action):
    att = state.attack
    hands = put(state.hands, seat, without(state.hands[seat], action.tile))
    state = replace(state, hands=hands, creature_hex=put(state.creature_hex, att.creature, data.LOST))
    events = [Event("defended", {"seat": seat, "tile": action.tile, "back": action.back,
                                 "creature": att.creature, "kind": att.kind, "hex": att.hex})]
    return go_on(state, att.resume, events)


def no_defence(state, seat, action):
    events = [Event("no_defence", {"seat": seat})]
    rest = state.responders[1:]
    if rest:
        return replace(state, responders=rest), events
    return resolve_attack(replace(state, responders=()), events)
