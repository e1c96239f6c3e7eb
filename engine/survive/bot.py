"""Survive bots: ``RandomBot`` (any legal action) and ``RescueBot`` (level "normal").

A bot sees exactly what a human in its seat sees: ``choose(view, legal)``.  Like a
human it may *remember*: ``RescueBot`` notes its own explorers' values while the view
shows them (setup, with the memory rule on) and plays on from that memory.  Its only
randomness is its own ``Rng`` stream, used to break exact ties.

How ``RescueBot`` thinks
------------------------
Every explorer of its own on the board has a *worth* (its remembered value, or the
average 2.8 of a set when it does not know) times a *safety* score of where it is:
saved 100, in a boat 70 less 5 a hex from the nearest safe-island entrance, swimming
45 less 6 a hex (less more with a shark or a serpent close), on land 25 less 4 a hex
from the nearest boat with room.  A move (walk, board, swim, sail, step ashore, a
dolphin's or the wind's hex) is simulated on the view with the rules' own effect
functions and scored by how much the bot's total rises, less a third of how much the
opponents' rises (a boat full of other colours is a boat for them); the best move is
played while it gains anything.  A creature goes where it takes the most opponents'
treasure (and none of its own), else towards the nearest opponent prey; a tile comes
off where opponents stand and its own explorers do not.  A fitting repellent is always
played.
"""

from __future__ import annotations

from typing import Any

from ..core import Bot, RandomBot, replace  # noqa: F401  (RandomBot: this game's, the kit's own stream)
from ..levels import level_bot
from ..rng import Rng
from . import board
from . import data
from . import effects
from .actions import (
    Ashore, Board, Defend, DolphinStep, EndCreature, EndMoves, EndTile, NoTile, PlaceBoat, PlaceExplorer,
    PlayTile, Sail, Swim, Walk, WindStep,
)

MEAN_VALUE = sum(data.EXPLORER_VALUES) / len(data.EXPLORER_VALUES)
DIST = data.DISTANCE
TO_ENTRANCE = data.DIST_TO_ENTRANCE
OTHERS_WEIGHT = 0.35
SIMULATED = {
    Walk: effects.walk, Board: effects.board_boat, Swim: effects.swim, Ashore: effects.ashore, Sail: effects.sail,
    DolphinStep: effects.dolphin_step, WindStep: effects.wind_step,
}


class RescueBot(Bot):
    def __init__(self, seat: int, seed: int):
        self.seat = seat
        self.rng = Rng.from_seed(seed, f"survive-bot-{seat}")
        self.memory: dict[int, int] = {}

    # --- worth of explorers ------------------------------------------------------------
    def _remember(self, view) -> None:
        lo = self.seat * data.EXPLORERS_PER_SEAT
        for e in range(lo, lo + data.EXPLORERS_PER_SEAT):
            if view.values[e]:
                self.memory[e] = view.values[e]

    def worth(self, e: int) -> float:
        if e // data.EXPLORERS_PER_SEAT == self.seat:
            return self.memory.get(e, MEAN_VALUE)
        return MEAN_VALUE

    # --- safety -------------------------------------------------------------------------
    def _safety(self, view, e: int, room: list[int], danger: list[int]) -> float:
        return safety(view, e, room, danger)

    def _totals(self, view) -> tuple[float, float]:
        """(my total, the opponents' total) of worth x safety."""
        room, danger = room_and_danger(view)
        mine = others = 0.0
        for e, h in enumerate(view.explorer_hex):
            if h == data.NOT_PLACED or h == data.LOST:
                continue
            v = self.worth(e) * self._safety(view, e, room, danger)
            if e // data.EXPLORERS_PER_SEAT == self.seat:
                mine += v
            else:
                others += v
        return mine, others

    def _gain(self, view, action) -> float:
        after, _ = SIMULATED[type(action)](view, self.seat, action)
        m1, o1 = self._totals(after)
        return m1 - OTHERS_WEIGHT * o1

    # --- choosing ------------------------------------------------------------------------
    def choose(self, view, legal: list[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        self._remember(view)
        phase = view.phase
        if phase == "place_explorer":
            return self._place_explorer(view, legal)
        if phase == "place_boat":
            return self._place_boat(view, legal)
        if phase == "respond":
            return next((a for a in legal if type(a) is Defend), legal[-1])
        if phase == "sink":
            return self._best(legal, lambda a: self._sink_score(view, a.tile))
        if phase == "creature":
            return self._creature(view, legal)
        if phase == "tile":
            return self._tile(view, legal)
        if phase in ("move", "red"):
            return self._move(view, legal)
        return legal[0]

    def _best(self, legal, score) -> Any:
        best, top = None, []
        for a in legal:
            s = score(a)
            if best is None or s > best + 1e-9:
                best, top = s, [a]
            elif abs(s - best) <= 1e-9:
                top.append(a)
        if len(top) == 1:
            return top[0]
        pick, self.rng = self.rng.choice(top)
        return pick

    def _place_explorer(self, view, legal):
        def score(a: PlaceExplorer) -> float:
            h = a.hex
            sea = sum(1 for n in data.NEIGHBOURS[h] if board.is_sea(view, n))
            return view.values[a.explorer] * 100 + 3 * min(sea, 2) - TO_ENTRANCE[h]
        return self._best(legal, score)

    def _place_boat(self, view, legal):
        def score(a: PlaceBoat) -> float:
            s = 0.0
            for n in data.NEIGHBOURS[a.hex]:
                for e, h in enumerate(view.explorer_hex):
                    if h == n:
                        own = e // data.EXPLORERS_PER_SEAT == self.seat
                        s += self.worth(e) if own else -0.3 * MEAN_VALUE
            return s - 0.1 * TO_ENTRANCE[a.hex]
        return self._best(legal, score)

    def _move(self, view, legal):
        base_m, base_o = self._totals(view)
        base = base_m - OTHERS_WEIGHT * base_o

        def score(a) -> float:
            kind = type(a)
            if kind in (EndMoves, EndTile):
                return 0.0
            return self._gain(view, a) - base - 0.01
        return self._best(legal, score)

    def _sink_score(self, view, tile: int) -> float:
        h = data.LAND_HEX_INDEX[tile]
        s = 0.0
        for e, eh in enumerate(view.explorer_hex):
            if eh == h:
                s += -10.0 * self.worth(e) if e // data.EXPLORERS_PER_SEAT == self.seat else 2.0
            elif eh >= 0 and DIST[h][eh] == 1 and e // data.EXPLORERS_PER_SEAT == self.seat \
                    and board.is_land(view, eh):
                s += 0.3          # opens the sea next to my explorers
        return s

    def _prey(self, view, kind: str, h: int) -> float:
        """Treasure taken (opponents' minus mine) if a ``kind`` enters hex ``h``."""
        if kind == "shark":
            victims = board.swimmers_at(view, h)
        else:
            b = board.boat_at(view, h)
            victims = board.passengers(view, b) if b >= 0 else []
            if kind == "serpent":
                victims = victims + board.swimmers_at(view, h)
        s = 0.0
        for e in victims:
            own = e // data.EXPLORERS_PER_SEAT == self.seat
            s += -3.0 * self.worth(e) if own else self.worth(e)
        if kind == "whale":
            s *= 0.5    # the whale only tips them into the water
        return s

    def _targets(self, view, kind: str) -> list[int]:
        out = []
        for e, h in enumerate(view.explorer_hex):
            if h < 0 or e // data.EXPLORERS_PER_SEAT == self.seat:
                continue
            in_boat = view.explorer_boat[e] >= 0
            if kind == "shark" and not in_boat and board.is_sea(view, h):
                out.append(h)
            elif kind != "shark" and in_boat:
                out.append(h)
            elif kind == "serpent" and not in_boat and board.is_sea(view, h):
                out.append(h)
        return out

    def _creature(self, view, legal):
        kind = view.creature_kind
        targets = self._targets(view, kind)

        def score(a) -> float:
            if type(a) is EndCreature:
                return 0.0
            here = view.creature_hex[a.creature]
            prey = self._prey(view, kind, a.to)
            if prey:
                return 10.0 * prey
            closer = 0.0
            if targets:
                closer = min(DIST[here][t] for t in targets) - min(DIST[a.to][t] for t in targets)
            # never park next to my own swimmers or boats
            mine = sum(1 for e, h in enumerate(view.explorer_hex)
                       if h >= 0 and e // data.EXPLORERS_PER_SEAT == self.seat and DIST[a.to][h] <= 1
                       and not board.is_land(view, h))
            return 0.5 * closer - 1.0 * mine - 0.01
        return self._best(legal, score)

    def _tile(self, view, legal):
        plays = [a for a in legal if type(a) is PlayTile]
        for a in plays:
            if a.back in ("dolphin", "wind"):
                sub = replace(view, phase="red", red=a.back, mover=-1, steps=0)
                steps = board.red_steps(sub, self.seat)
                base_m, base_o = self._totals(view)
                base = base_m - OTHERS_WEIGHT * base_o
                if any(self._gain(sub, s) - base > 5.0 for s in steps if type(s) is not EndTile):
                    return a
            else:
                kind = data.MOVES_CREATURE[a.back]
                for c in board.creatures_of(view, kind):
                    if any(self._prey(view, kind, h) > 1.0 for h in board.creature_targets(view, c)):
                        return a
        return next(a for a in legal if type(a) is NoTile)


def room_and_danger(view) -> tuple[list[int], list[int]]:
    """The hexes of boats with room, and of the creatures that take swimmers."""
    room = [view.boat_hex[b] for b in range(data.BOATS)
            if view.boat_hex[b] >= 0 and view.explorer_boat.count(b) < data.BOAT_CAPACITY]
    danger = [h for c, h in enumerate(view.creature_hex) if h >= 0 and data.CREATURE_KIND[c] != "whale"]
    return room, danger


def safety(view, e: int, room: list[int], danger: list[int]) -> float:
    """How safe explorer ``e`` is where it stands, 0-100 (saved: 100)."""
    h = view.explorer_hex[e]
    if h == data.SAVED:
        return 100.0
    if h < 0:
        return 0.0
    if view.explorer_boat[e] >= 0:
        return 70.0 - 5.0 * TO_ENTRANCE[h] - 8.0 * _near(h, danger, 1)
    if board.is_land(view, h):
        nearest = min((DIST[h][b] for b in room), default=8)
        return 25.0 - 4.0 * min(nearest - 1, 6) - 0.5 * TO_ENTRANCE[h]
    return 45.0 - 6.0 * TO_ENTRANCE[h] - 10.0 * _near(h, danger, 2)


def _near(h: int, hexes: list[int], reach: int) -> int:
    return sum(1 for x in hexes if DIST[h][x] <= reach)




BOT_LEVELS = ("easy", "normal", "hard", "random")


def make_bot(seat: int, seed: int, level: str = "normal") -> Bot:
    if level == "random":
        return RandomBot(seat, seed)
    if level == "normal":
        return RescueBot(seat, seed)
    if level in ("easy", "hard"):
        return level_bot("survive", seat, seed, level, lambda: RescueBot(seat, seed))
    raise ValueError(f"unknown bot level {level!r}; known: {', '.join(BOT_LEVELS)}")
