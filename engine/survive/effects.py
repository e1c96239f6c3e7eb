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

E = Event
PER_SEAT = data.EXPLORERS_PER_SEAT


# --- flow ----------------------------------------------------------------------------------
def start_moves(s: SurviveState, **changes: Any) -> SurviveState:
    return replace(s, phase="move", points=data.MOVE_POINTS, swum=(), red="", mover=-1, steps=0,
                   **changes)


def go_on(s: SurviveState, phase: str, events: list[Event]) -> tuple[SurviveState, list[Event]]:
    """Continue the turn at ``phase``: "move", "roll" or "end" (the next seat's turn)."""
    if phase == "move":
        return start_moves(s, attack=None, responders=()), events
    if phase == "roll":
        return replace(s, phase="roll", attack=None, responders=(), mover=-1, steps=0), events
    return end_turn(s, events)


def end_turn(s: SurviveState, events: list[Event]) -> tuple[SurviveState, list[Event]]:
    if not any(h >= 0 for h in s.explorer_hex):
        events.append(E("nobody_left", {}))
        return finish(s, "no explorer is left on the island or in the sea", events)
    nxt = (s.turn + 1) % s.players
    rnd = s.round + (nxt == 0)
    events.append(E("turn", {"seat": nxt}))
    return start_turn(replace(s, turn=nxt, round=rnd, attack=None, responders=(), red="",
                              creature_kind="", mover=-1, steps=0)), events


def start_turn(s: SurviveState) -> SurviveState:
    """A seat holding any tile starts with step 1 (play a red tile or not); the others
    go straight to moving: whether a seat holds a tile is public, which tile is not."""
    if s.hands[s.turn]:
        return replace(s, phase="tile", points=0, swum=(), red="", mover=-1, steps=0)
    return start_moves(s)


def scores(s: Any) -> tuple[int, ...]:
    out = [0] * s.players
    for e, h in enumerate(s.explorer_hex):
        if h == data.SAVED:
            out[e // PER_SEAT] += s.values[e]
    return tuple(out)


def finish(s: SurviveState, reason: str, events: list[Event]) -> tuple[SurviveState, list[Event]]:
    sc = scores(s)
    best = max(sc)
    winners = tuple(p for p in range(s.players) if sc[p] == best)
    events.append(E("game_over", {"scores": sc, "winners": winners, "reason": reason,
                                  "values": s.values}))
    return replace(s, phase="over", winners=winners, end_reason=reason, attack=None,
                   responders=()), events


# --- setup -----------------------------------------------------------------------------------
def place_explorer(s, seat, a):
    eh = put(s.explorer_hex, a.explorer, a.hex)
    events = [E("explorer_placed", {"seat": seat, "explorer": a.explorer, "hex": a.hex})]
    nxt = (seat + 1) % s.players
    if all(h != data.NOT_PLACED for h in eh):
        return replace(s, explorer_hex=eh, phase="place_boat", turn=0), events
    # a seat that has placed all of its explorers is skipped (never happens: equal counts)
    return replace(s, explorer_hex=eh, turn=nxt), events


def place_boat(s, seat, a):
    own = range(seat * data.BOATS_PER_SEAT, (seat + 1) * data.BOATS_PER_SEAT)
    b = next(b for b in own if s.boat_hex[b] == data.NOT_PLACED)
    bh = put(s.boat_hex, b, a.hex)
    events = [E("boat_placed", {"seat": seat, "boat": b, "hex": a.hex})]
    placed = sum(1 for x in bh[:s.players * data.BOATS_PER_SEAT] if x >= 0)
    if placed == s.players * data.BOATS_PER_SEAT:
        events.append(E("setup_done", {}))
        events.append(E("turn", {"seat": 0}))
        return start_turn(replace(s, boat_hex=bh, turn=0)), events
    return replace(s, boat_hex=bh, turn=(seat + 1) % s.players), events


# --- step 1: red tiles -------------------------------------------------------------------------
def play_tile(s, seat, a):
    hands = put(s.hands, seat, without(s.hands[seat], a.tile))
    events = [E("tile_played", {"seat": seat, "tile": a.tile, "back": a.back})]
    kind = data.MOVES_CREATURE.get(a.back)
    if kind:
        return replace(s, hands=hands, phase="creature", red=a.back, creature_kind=kind, mover=-1,
                       steps=0, after_creature="move"), events
    return replace(s, hands=hands, phase="red", red=a.back, mover=-1, steps=0), events


def no_tile(s, seat, a):
    return start_moves(s), []


def dolphin_step(s, seat, a):
    e = a.explorer
    frm = s.explorer_hex[e]
    if data.SAFE_AT[a.to] >= 0:
        s = replace(s, explorer_hex=put(s.explorer_hex, e, data.SAVED))
        return start_moves(s), [E("saved", {"seat": seat, "explorer": e, "safe": data.SAFE_AT[a.to],
                                            "by": "dolphin"})]
    s = replace(s, explorer_hex=put(s.explorer_hex, e, a.to), mover=e, steps=s.steps + 1)
    events = [E("dolphin", {"seat": seat, "explorer": e, "from": frm, "to": a.to})]
    if s.steps >= data.RED_REACH or not board.dolphin_targets(s, e):
        return start_moves(s), events
    return s, events


def wind_step(s, seat, a):
    frm = s.boat_hex[a.boat]
    s = sail_boat(s, a.boat, a.to)
    s = replace(s, mover=a.boat, steps=s.steps + 1)
    events = [E("wind", {"seat": seat, "boat": a.boat, "from": frm, "to": a.to})]
    if s.steps >= data.RED_REACH or not board.sail_targets(s, a.boat):
        return start_moves(s), events
    return s, events


def end_tile(s, seat, a):
    return start_moves(s), []


# --- step 2: moving ---------------------------------------------------------------------------
def _spent(s: SurviveState, events: list[Event], **changes: Any):
    points = s.points - 1
    if points <= 0:
        return replace(s, points=0, phase="sink", **changes), events
    return replace(s, points=points, **changes), events


def walk(s, seat, a):
    return _spent(s, [E("walked", {"seat": seat, "explorer": a.explorer, "from": s.explorer_hex[a.explorer],
                                   "to": a.to})], explorer_hex=put(s.explorer_hex, a.explorer, a.to))


def board_boat(s, seat, a):
    h = s.boat_hex[a.boat]
    return _spent(s, [E("boarded", {"seat": seat, "explorer": a.explorer, "boat": a.boat, "hex": h})],
                  explorer_hex=put(s.explorer_hex, a.explorer, h),
                  explorer_boat=put(s.explorer_boat, a.explorer, a.boat))


def swim(s, seat, a):
    swum = tuple(sorted(s.swum + (a.explorer,)))
    return _spent(s, [E("swam", {"seat": seat, "explorer": a.explorer, "from": s.explorer_hex[a.explorer],
                                 "to": a.to})], explorer_hex=put(s.explorer_hex, a.explorer, a.to), swum=swum)


def ashore(s, seat, a):
    safe = data.ENTRANCE_OF[s.explorer_hex[a.explorer]]
    return _spent(s, [E("saved", {"seat": seat, "explorer": a.explorer, "safe": safe, "by": "step"})],
                  explorer_hex=put(s.explorer_hex, a.explorer, data.SAVED),
                  explorer_boat=put(s.explorer_boat, a.explorer, -1))


def sail_boat(s: SurviveState, b: int, to: int) -> SurviveState:
    eh = list(s.explorer_hex)
    for e, bb in enumerate(s.explorer_boat):
        if bb == b:
            eh[e] = to
    return replace(s, boat_hex=put(s.boat_hex, b, to), explorer_hex=tuple(eh))


def sail(s, seat, a):
    frm = s.boat_hex[a.boat]
    s2 = sail_boat(s, a.boat, a.to)
    return _spent(s2, [E("sailed", {"seat": seat, "boat": a.boat, "from": frm, "to": a.to})])


def end_moves(s, seat, a):
    return replace(s, phase="sink", points=0), []


# --- step 3: a tile leaves the island --------------------------------------------------------
def sink(s, seat, a):
    t = a.tile
    h = data.LAND_HEX_INDEX[t]
    back = s.backs[t]
    s = replace(s, sunk=put(s.sunk, t, 1), last_sunk=t)
    swimmers = board.swimmers_at(s, h)
    events = [E("sank", {"seat": seat, "tile": t, "terrain": s.terrain[t], "hex": h,
                         "swimmers": tuple(swimmers)}),
              E("looked", {"seat": seat, "tile": t, "back": back}, to=(seat,))]
    if data.BACK_KIND[back] != "green":
        events.append(E("kept", {"seat": seat, "tile": t}))
        return replace(s, hands=put(s.hands, seat, s.hands[seat] + (t,)), phase="roll"), events
    events.append(E("revealed", {"seat": seat, "tile": t, "back": back}))
    if back == "volcano":
        return finish(s, "the volcano erupted", events)
    if back in ("shark", "whale"):
        c = next((c for c, k in enumerate(data.CREATURE_KIND)
                  if k == back and s.creature_hex[c] == data.NOT_PLACED), -1)
        if c < 0:
            events.append(E("none_left", {"kind": back}))
            return replace(s, phase="roll"), events
        s = replace(s, creature_hex=put(s.creature_hex, c, h))
        events.append(E("appeared", {"creature": c, "kind": back, "hex": h}))
        s, events, stopped = attack_at(s, c, h, "roll", events)
        return (s, events) if stopped else (replace(s, phase="roll"), events)
    if back == "boat":
        return boat_appears(s, h, events)
    # whirlpool: every swimmer in that hex and the sea hexes around it
    lost = [e for n in (h,) + data.NEIGHBOURS[h] for e in board.swimmers_at(s, n)]
    s = lose(s, lost)
    events.append(E("whirlpool", {"hex": h, "lost": tuple(lost)}))
    return replace(s, phase="roll"), events


def boat_appears(s: SurviveState, h: int, events: list[Event]):
    b = next((b for b, x in enumerate(s.boat_hex) if x == data.NOT_PLACED), -1)
    if b < 0:
        events.append(E("none_left", {"kind": "boat"}))
        return replace(s, phase="roll"), events
    # swimmers there climb in, up to 3: one per seat at a time, from the seat whose
    # turn it is, each seat's lowest-numbered explorer first (our decision)
    queues = [[e for e in board.swimmers_at(s, h) if e // PER_SEAT == p] for p in range(s.players)]
    boarded: list[int] = []
    order = [(s.turn + i) % s.players for i in range(s.players)]
    while len(boarded) < data.BOAT_CAPACITY and any(queues):
        for p in order:
            if queues[p] and len(boarded) < data.BOAT_CAPACITY:
                boarded.append(queues[p].pop(0))
    eb = list(s.explorer_boat)
    for e in boarded:
        eb[e] = b
    s = replace(s, boat_hex=put(s.boat_hex, b, h), explorer_boat=tuple(eb), phase="roll")
    events.append(E("boat_appeared", {"boat": b, "hex": h, "boarded": tuple(sorted(boarded))}))
    return s, events


def lose(s: SurviveState, explorers) -> SurviveState:
    if not explorers:
        return s
    eh, eb = list(s.explorer_hex), list(s.explorer_boat)
    for e in explorers:
        eh[e], eb[e] = data.LOST, -1
    return replace(s, explorer_hex=tuple(eh), explorer_boat=tuple(eb))


# --- step 4: the die and the creatures -------------------------------------------------------------
def roll(s, seat, a):
    face, rng = s.rng.below(len(data.DIE_FACES))
    kind = data.DIE_FACES[face]
    s = replace(s, rng=rng, die=kind)
    events = [E("rolled", {"seat": seat, "kind": kind})]
    if not board.can_any_creature_move(s, kind):
        events.append(E("no_creature", {"kind": kind}))
        return end_turn(s, events)
    return replace(s, phase="creature", creature_kind=kind, mover=-1, steps=0,
                   after_creature="end"), events


def creature_step(s, seat, a):
    c, h = a.creature, a.to
    frm = s.creature_hex[c]
    s = replace(s, creature_hex=put(s.creature_hex, c, h), mover=c, steps=s.steps + 1)
    events = [E("creature_moved", {"seat": seat, "creature": c, "kind": data.CREATURE_KIND[c],
                                   "from": frm, "to": h})]
    s, events, stopped = attack_at(s, c, h, s.after_creature, events)
    if stopped or s.phase == "over":
        return s, events
    if s.steps >= data.CREATURE_REACH[data.CREATURE_KIND[c]][1] or not board.creature_targets(s, c):
        return go_on(s, s.after_creature, events)
    return s, events


def end_creature(s, seat, a):
    return go_on(s, s.after_creature, [])


def attack_at(s: SurviveState, c: int, h: int, resume: str, events: list[Event]):
    """Creature ``c`` has just entered (or appeared in) hex ``h``.  Returns the state,
    the events, and whether its move stops here."""
    kind = data.CREATURE_KIND[c]
    if kind == "serpent":
        b = board.boat_at(s, h)
        aboard = board.passengers(s, b) if b >= 0 else []
        swimmers = board.swimmers_at(s, h)
        if not aboard and not swimmers:
            return s, events, False
        s = lose(s, aboard + swimmers)
        if aboard:
            s = replace(s, boat_hex=put(s.boat_hex, b, data.LOST))
        events.append(E("serpent_attack", {"creature": c, "hex": h, "boat": b if aboard else -1,
                                           "lost": tuple(sorted(aboard + swimmers))}))
        s2, ev = go_on(s, resume, events)
        return s2, ev, True
    if kind == "shark":
        victims = board.swimmers_at(s, h)
        boat = -1
    else:
        boat = board.boat_at(s, h)
        victims = board.passengers(s, boat) if boat >= 0 else []
    if not victims:
        return s, events, False
    seats = tuple(sorted({e // PER_SEAT for e in victims}))
    attack = Attack(kind, c, h, boat, seats, resume)
    # who may answer: every attacked seat but the one whose turn it is, that holds any
    # tile at all (public), in seat order after the player whose turn it is
    order = [(s.turn + i) % s.players for i in range(1, s.players)]
    responders = tuple(p for p in order if p in seats and s.hands[p])
    events.append(E("attack", {"creature": c, "kind": kind, "hex": h, "boat": boat,
                               "victims": seats, "responders": responders}))
    s = replace(s, attack=attack)
    if responders:
        return replace(s, phase="respond", responders=responders), events, True
    s2, ev = resolve_attack(s, events)
    return s2, ev, True


def resolve_attack(s: SurviveState, events: list[Event]):
    a = s.attack
    if a.kind == "shark":
        lost = board.swimmers_at(s, a.hex)
        s = lose(s, lost)
        events.append(E("shark_attack", {"creature": a.creature, "hex": a.hex, "lost": tuple(lost)}))
    else:
        aboard = board.passengers(s, a.boat)
        eb = list(s.explorer_boat)
        for e in aboard:
            eb[e] = -1
        s = replace(s, explorer_boat=tuple(eb), boat_hex=put(s.boat_hex, a.boat, data.LOST))
        events.append(E("whale_attack", {"creature": a.creature, "hex": a.hex, "boat": a.boat,
                                         "swimmers": tuple(aboard)}))
    return go_on(s, a.resume, events)


# --- answering an attack ------------------------------------------------------------------------
def defend(s, seat, a):
    att = s.attack
    hands = put(s.hands, seat, without(s.hands[seat], a.tile))
    s = replace(s, hands=hands, creature_hex=put(s.creature_hex, att.creature, data.LOST))
    events = [E("defended", {"seat": seat, "tile": a.tile, "back": a.back, "creature": att.creature,
                             "kind": att.kind, "hex": att.hex})]
    return go_on(s, att.resume, events)


def no_defence(s, seat, a):
    events = [E("no_defence", {"seat": seat})]
    rest = s.responders[1:]
    if rest:
        return replace(s, responders=rest), events
    return resolve_attack(replace(s, responders=()), events)
