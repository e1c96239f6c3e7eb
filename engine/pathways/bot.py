"""Pathways bots: ``RandomBot`` (any legal action) and ``PathfinderBot`` (level "normal").

A bot sees exactly what a human in its seat sees: ``choose(view, legal)``.  Its only
randomness is its own ``Rng`` stream (forked from the seed and the seat), used to break
exact ties, so the same views always give the same choices.

How ``PathfinderBot`` thinks
----------------------------
Everything rests on one number per subpod, its *cost to Atlantis*: the cheapest way in,
where a step along a path costs ``STEP`` and every empty cell on the way also costs
``BUILD`` (a tile someone still has to lay there).  A single backward Dijkstra from
Atlantis over the board gives that cost for every cell at once (``goal_field``), so the
value of every subpod is read off the same field.  A step between two cells is possible
when both facing sides are open; an empty cell may open any side (we can still choose the
tile), a tile opens the sides it has.

* Play part: every placement is scored by how it changes the costs (mine down, the
  opponent's up, each unit counting more near the end of the race).  A cheap estimate
  (routes through the new tile, from per-subpod forward fields) picks a short list: the
  best few, a few tiles on the opponent's route (blocking) and one out of everybody's way
  (for a tile that has to be played); those are scored exactly by recomputing the field.
  Specials are scored the same way (MOVE 3: the walk it buys beyond the ordinary move;
  MOVE 3*: pushing the leader back; TRADE: the best tile to take away; +2 TILES: one more
  good placement) minus a small value for keeping them; a rotation replaces both plays
  and must beat two placements.
* Move part: walk to the reachable cell with the lowest cost (into Atlantis when it can),
  or push an opponent one space when that hurts them more than the walk helps.

What it learnt from playing itself (``Tuning`` holds the weights): with two players,
getting in the way pays, but only up to what the opponent can mend next turn (a turned
tile is turned back), so the credit for damage is capped per turn -- uncapped, two bots
turned the same tile to and fro for the whole game.  With three or four players every
tile spent on someone else helps the rest, so the bot races and only stops a sure win.
The game strongly favours the first seat between equal bots (about 88% with two).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from ..core import Bot, RandomBot  # noqa: F401  (RandomBot: this game's, the kit's own stream)
from ..levels import level_bot
from ..rng import Rng
from . import data
from .routes import _OPP, _SIDE_NB, BUILD, INF, NB, SIDES, STEP, goal_field, reach_field, walks
from .actions import END_PLAYS, EndMove, EndPlays, Place, Remove, Rotate, Special, Step
from .board import ATLANTIS, EMPTY, IN_ATLANTIS, tile_rot_mask

# --- costs and weights ------------------------------------------------------------------
VCAP = 60         # cost of a subpod with no way in at all
NEAR = 12         # below this cost, every unit counts more (the end of the race)
WIN = 1e9
KEEP = {"play_2_more": 0.5, "move_own_3": 1.0, "move_other_3": 1.0, "trade": 1.0}
EXACT_TOP = 7     # placements scored exactly, best by the estimate
BLOCK_CELLS = 3   # cells on the leader's route tried for blocking
BLOCK_MASKS = 2   # masks per blocking cell tried
RELEVANT_SLACK = 6
# Most damage to an opponent's route can be mended on their next turn (turn the tile
# back, lay a way round) at the price of about their plays, so the credit for raising
# an opponent's cost is capped per turn; otherwise two bots turn the same tile to and
# fro for the whole game.  Stopping a win next turn is worth it in full (``_threat``).
DAMAGE_CAP = 3

# --- evaluation ---------------------------------------------------------------------------
def _g(v: float) -> float:
    """A cost as seen in the race: units near the end weigh more."""
    return 2.5 * min(v, NEAR) + max(0.0, v - NEAR)


@dataclass(frozen=True)
class Tuning:
    """The bot's weights, in one place so variants can be played against each other."""

    # Two players: the opponent's cost counts as much as my own, and a win next turn
    # (2 steps in; 1 tile + 2 steps; 1 tile + 3 steps) is worth stopping.
    lead_weight: float = 1.0
    other_weight: float = 0.0
    threat: tuple[float, float, float] = (30.0, 10.0, 4.0)
    # Three or four players: getting in someone's way mostly helps the others (measured
    # in bot-against-bot play), so race, and only stop a sure win when it is cheap.
    multi_lead_weight: float = 0.05
    multi_other_weight: float = 0.0
    multi_threat: tuple[float, float, float] = (5.0, 0.0, 0.0)
    damage_cap: float = DAMAGE_CAP
    keep: dict[str, float] = field(default_factory=lambda: dict(KEEP))
    rotate_margin: float = 1.0
    second_play: float = 0.8      # a second placement's worth, against one turn


DEFAULT_TUNING = Tuning()


class _Board:
    """What a decision needs about the board: the goal field and every subpod's cost."""

    __slots__ = ("cells", "masks", "pods", "h", "v", "fwd")

    def __init__(self, cells, masks, pods):
        self.cells = cells
        self.masks = masks
        self.pods = pods
        self.h = goal_field(cells, masks)
        self.v = [self.value_at(p) for p in pods]
        self.fwd: dict[int, list[int]] = {}

    def value_at(self, pos: int) -> float:
        if pos == IN_ATLANTIS:
            return 0
        return min(self.h[pos], VCAP)

    def forward(self, seat: int) -> list[int]:
        f = self.fwd.get(seat)
        if f is None:
            pos = self.pods[seat]
            f = self.fwd[seat] = reach_field(self.cells, self.masks, pos) if pos >= 0 else [INF] * data.CELLS
        return f


class PathfinderBot(Bot):
    """The "normal" bot: races along the cheapest route and gets in the leader's way."""

    def __init__(self, seat: int, seed: int, tuning: Tuning | None = None):
        self.seat = seat
        self.t = tuning or DEFAULT_TUNING
        self.rng = Rng.from_seed(seed, "pathways-bot").fork(f"seat-{seat}")
        self._board: _Board | None = None
        self._turn_key: tuple[int, int] | None = None
        self._turn_base: list[float] = []

    # --- entry point ---------------------------------------------------------------------
    def choose(self, view, legal: list[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        board = self._analyse(view)
        key = (view.round, view.turn)
        if key != self._turn_key or len(self._turn_base) != len(board.v):
            self._turn_key = key
            self._turn_base = list(board.v)
        if view.pending == "trade":
            return self._choose_remove(view, legal, board)
        if view.pending or view.phase == "move":
            return self._choose_step(view, legal, board)
        return self._choose_play(view, legal, board)

    def _analyse(self, view) -> _Board:
        b = self._board
        if b is not None and b.cells == view.cells and b.masks == view.masks and b.pods == view.pods:
            return b
        b = self._board = _Board(view.cells, view.masks, view.pods)
        return b

    # --- utility -------------------------------------------------------------------------
    def _weights(self, v: Sequence[float], me: int) -> list[float]:
        others = [p for p in range(len(v)) if p != me]
        t = self.t
        if len(others) == 1:
            return [0.0 if p == me else t.lead_weight for p in range(len(v))]
        lead = min(others, key=lambda p: (v[p], p))
        return [0.0 if p == me else (t.multi_lead_weight if p == lead else t.multi_other_weight)
                for p in range(len(v))]

    def _utility(self, v: Sequence[float], me: int, weights: Sequence[float], my_move_to_come: bool) -> float:
        if my_move_to_come and v[me] <= 2 * STEP:
            return WIN - v[me]
        u = -_g(v[me])
        base = self._turn_base
        cap = self.t.damage_cap
        t1, t2, t3 = self.t.threat if len(v) == 2 else self.t.multi_threat
        for p, w in enumerate(weights):
            if p != me:
                vp = v[p]
                if p < len(base) and vp > base[p] + cap:
                    vp = base[p] + cap
                u += w * _g(vp)
                vp = v[p]
                if vp <= 2 * STEP:
                    u -= t1
                elif vp <= 2 * STEP + BUILD:
                    u -= t2
                elif vp <= 3 * STEP + BUILD:
                    u -= t3
        return u

    def _pick(self, scored: list[tuple[float, int, Any]]) -> Any:
        """The best action; exact ties are broken by the bot's own stream."""
        best = max(s[0] for s in scored)
        tied = [s for s in scored if s[0] >= best - 1e-9]
        if len(tied) == 1:
            return tied[0][2]
        tied.sort(key=lambda s: s[1])
        choice, self.rng = self.rng.choice(tied)
        return choice[2]

    # --- move part -------------------------------------------------------------------------
    def _choose_step(self, view, legal, board: _Board):
        me = self.seat
        cells, masks, h = board.cells, board.masks, board.h
        steps = {(a.pod, a.side): a for a in legal if type(a) is Step}
        end = next((a for a in legal if type(a) is EndMove), None)
        last_round = view.round >= view.max_rounds and view.phase == "move" and not view.pending
        if view.mover >= 0:
            movers = [view.mover]
        else:
            movers = sorted({pod for pod, _ in steps})
        v0 = list(board.v)
        weights = self._weights(v0, me)
        scored: list[tuple[float, int, Any]] = []
        order = 0
        for pod in movers:
            pos = view.pods[pod]
            if pos < 0:
                continue
            if view.mover >= 0:
                budget, start = view.steps_left, view.move_start
            elif view.pending:
                budget, start = data.SPECIAL_MOVE, pos
            else:
                budget, start = (data.OWN_MOVE if pod == me else data.OTHER_MOVE), pos
            own = pod == me
            for final, side, n in walks(cells, masks, pos, budget, start, into_atlantis=own):
                if n == 0:
                    action = end
                else:
                    action = steps.get((pod, side))
                if action is None:
                    continue
                if final == IN_ATLANTIS:
                    return action  # own pod: this wins now
                v = list(v0)
                v[pod] = board.value_at(final)
                u = self._utility(v, me, weights, False)
                if last_round and own:
                    u -= 100 * data.ATLANTIS_DISTANCE[final]
                # prefer shorter walks to the same place, then cells nearer the city
                u -= 1e-3 * n + 1e-4 * data.ATLANTIS_DISTANCE[final]
                scored.append((u, order, action))
                order += 1
        if not scored:
            return end if end is not None else legal[0]
        return self._pick(scored)

    # --- trade (take a tile away) ------------------------------------------------------------
    def _choose_remove(self, view, legal, board: _Board):
        me = self.seat
        weights = self._weights(board.v, me)
        scored = []
        for i, a in enumerate(legal):
            if type(a) is not Remove:
                continue
            scored.append((self._removal_utility(board, a.cell, me, weights), i, a))
        return self._pick(scored) if scored else legal[0]

    def _removal_utility(self, board: _Board, cell: int, me: int, weights) -> float:
        cl = list(board.cells)
        ml = list(board.masks)
        cl[cell] = EMPTY
        ml[cell] = 0
        return self._board_utility(cl, ml, board.pods, me, weights)

    def _board_utility(self, cells, masks, pods, me, weights) -> float:
        live = [p for p in pods if p >= 0]
        h = goal_field(cells, masks, live)
        v = [0 if p == IN_ATLANTIS else min(h[p], VCAP) for p in pods]
        return self._utility(v, me, weights, True)

    # --- play part ---------------------------------------------------------------------------
    def _choose_play(self, view, legal, board: _Board):
        me = self.seat
        pods = board.pods
        v0 = board.v
        weights = self._weights(v0, me)
        base_u = self._utility(v0, me, weights, True)
        if base_u >= WIN / 2:
            # already two steps from the city: play anything that keeps it so
            safe = [a for a in legal if type(a) in (Place, EndPlays)]
            sp = [a for a in legal if type(a) is Special and data.TILE_KIND[a.tile] != "trade"]
            return (safe or sp or legal)[0]

        places = [a for a in legal if type(a) is Place]
        specials: dict[str, Any] = {}
        for a in legal:
            if type(a) is Special:
                specials.setdefault(data.TILE_KIND[a.tile], a)
        rotates = [a for a in legal if type(a) is Rotate]
        can_end = any(type(a) is EndPlays for a in legal)

        scored: list[tuple[float, int, Any]] = []
        order = 0
        place_scores = self._score_places(view, places, board, weights) if places else []
        for u, a in place_scores:
            scored.append((u, order, a))
            order += 1
        best_place = max((u for u, _ in place_scores), default=None)
        place_gain = (best_place - base_u) if best_place is not None else 0.0

        hand = view.hand or ()
        remaining = view.plays_allowed - view.plays_made
        for kind in ("move_own_3", "move_other_3", "trade", "play_2_more"):
            a = specials.get(kind)
            if a is None:
                continue
            if kind == "play_2_more":
                others = len(hand) - 1
                u = base_u + (max(place_gain, 0.0) + 1.0 if others >= remaining + 1 else 0.0)
            elif kind == "move_own_3":
                u = self._move3_utility(board, me, weights, base_u)
            elif kind == "move_other_3":
                u = self._push3_utility(board, me, weights)
            else:
                u = self._trade_utility(view, board, me, weights)
            if u < WIN / 2:
                u -= self.t.keep[kind]
            scored.append((u, order, a))
            order += 1

        if rotates and view.plays_made == 0:
            rot_u = self._best_rotation(view, rotates, board, weights)
            if rot_u is not None:
                u, a = rot_u
                # a turn replaces both plays: it must beat two placements
                two = (best_place if best_place is not None else base_u) + max(place_gain, 0.0) * self.t.second_play
                if u >= WIN / 2 or u > max(two, base_u) + self.t.rotate_margin:
                    scored.append((u, order, a))
                    order += 1
        if can_end:
            scored.append((base_u, order, END_PLAYS))
            order += 1
        if not scored:
            return legal[0]
        return self._pick(scored)

    def _score_places(self, view, places, board: _Board, weights) -> list[tuple[float, Any]]:
        me = self.seat
        cells, masks, h, pods = board.cells, board.masks, board.h, board.pods
        n = len(pods)
        v0 = board.v
        live = [p for p in range(n) if pods[p] >= 0]
        fwd = {p: board.forward(p) for p in live}
        # one candidate per (cell, mask)
        cands: dict[tuple[int, int], Any] = {}
        for a in places:
            key = (a.cell, tile_rot_mask(a.tile, a.rot))
            if key not in cands:
                cands[key] = a

        # slack of a cell for a subpod: how much dearer its best route through the cell is
        def slack(p: int, x: int) -> int:
            return fwd[p][x] + h[x] - v0[p]

        estimates: list[tuple[float, int, int, Any]] = []
        for (x, m), a in cands.items():
            # routes through the new tile: in by one open side, out by another
            ins: list[tuple[int, int]] = []
            outs: list[tuple[int, int]] = []
            for i, y in _SIDE_NB[x]:
                if not m & SIDES[i]:
                    continue
                cy = cells[y]
                if cy == ATLANTIS:
                    outs.append((STEP, i))
                    continue
                if cy == EMPTY:
                    outs.append((STEP + BUILD + h[y], i))
                    ins.append((i, y))
                elif masks[y] & SIDES[_OPP[i]]:
                    outs.append((STEP + h[y], i))
                    ins.append((i, y))
            v = list(v0)
            if ins and outs:
                for p in live:
                    f = fwd[p]
                    best = INF
                    for i, y in ins:
                        fi = f[y]
                        if fi >= best:
                            continue
                        for cost, j in outs:
                            if j != i and fi + STEP + cost < best:
                                best = fi + STEP + cost
                    if best < v[p]:
                        v[p] = best
            u = self._utility(v, me, weights, True)
            estimates.append((u, x, m, a))

        chosen: dict[tuple[int, int], Any] = {}
        estimates.sort(key=lambda e: -e[0])
        for u, x, m, a in estimates[:EXACT_TOP]:
            chosen[(x, m)] = a
        # blocking: cells on the leading opponents' cheapest routes, nearest them first
        opps = [p for p in live if p != me]
        opps.sort(key=lambda p: (v0[p], p))
        for p in opps[:2 if n > 2 else 1]:
            route = [x for (x, _m) in cands if slack(p, x) == 0]
            route = sorted(set(route), key=lambda x: (fwd[p][x], x))[:BLOCK_CELLS]
            for x in route:
                here = [e for e in estimates if e[1] == x][:BLOCK_MASKS]
                for u, x2, m, a in here:
                    chosen.setdefault((x2, m), a)
        # a harmless spot, for when every useful placement would help someone else
        far = max(estimates, key=lambda e: (min(slack(p, e[1]) for p in live), -e[1]))
        chosen.setdefault((far[1], far[2]), far[3])

        out: list[tuple[float, Any]] = []
        for (x, m), a in chosen.items():
            cl = list(cells)
            ml = list(masks)
            cl[x] = a.tile
            ml[x] = m
            out.append((self._board_utility(cl, ml, pods, me, weights), a))
        return out

    def _move3_utility(self, board: _Board, me: int, weights, base_u: float) -> float:
        """MOVE 3 now, then the ordinary move: what the extra walk buys (or a win)."""
        pos = board.pods[me]
        if pos < 0:
            return base_u
        cells, masks, h = board.cells, board.masks, board.h

        def cost(c: int) -> int:
            return 0 if c == IN_ATLANTIS else h[c]

        best2 = min(cost(f) for f, _s, _n in walks(cells, masks, pos, data.OWN_MOVE, pos))
        best5 = best2
        for f, _s, _n in walks(cells, masks, pos, data.SPECIAL_MOVE, pos):
            if f == IN_ATLANTIS:
                return WIN
            for f2, _s2, _n2 in walks(cells, masks, f, data.OWN_MOVE, f):
                if f2 == IN_ATLANTIS:
                    return WIN
                best5 = min(best5, h[f2])
        v = list(board.v)
        v[me] = max(0, v[me] - (best2 - best5))
        return self._utility(v, me, weights, True)

    def _push3_utility(self, board: _Board, me: int, weights) -> float:
        best = -INF
        cells, masks = board.cells, board.masks
        for p, pos in enumerate(board.pods):
            if p == me or pos < 0:
                continue
            for final, _side, _n in walks(cells, masks, pos, data.SPECIAL_MOVE, pos, into_atlantis=False):
                v = list(board.v)
                v[p] = board.value_at(final)
                best = max(best, self._utility(v, me, weights, True))
        return best

    def _trade_utility(self, view, board: _Board, me: int, weights) -> float:
        cells, pods = board.cells, board.pods
        live = [p for p in range(len(pods)) if pods[p] >= 0]
        h = board.h
        cands = []
        for c, tile in enumerate(cells):
            if tile < 0 or c in pods:
                continue
            if all(cells[n] != EMPTY for n in NB[c] if n >= 0):
                continue  # locked
            sl = min(board.forward(p)[c] + h[c] - board.v[p] for p in live)
            if sl <= RELEVANT_SLACK:
                cands.append((sl, c))
        cands.sort()
        best = -INF
        for _sl, c in cands[:12]:
            best = max(best, self._removal_utility(board, c, me, weights))
        return best

    def _best_rotation(self, view, rotates, board: _Board, weights):
        me = self.seat
        cells, masks, pods, h = board.cells, board.masks, board.pods, board.h
        live = [p for p in range(len(pods)) if pods[p] >= 0]
        near: dict[int, int] = {}
        for a in rotates:
            if a.cell not in near:
                near[a.cell] = min(board.forward(p)[a.cell] + h[a.cell] - board.v[p] for p in live)
        keep = sorted((sl, c) for c, sl in near.items() if sl <= RELEVANT_SLACK)[:10]
        cells_ok = {c for _sl, c in keep}
        best = None
        for a in rotates:
            if a.cell not in cells_ok:
                continue
            ml = list(masks)
            ml[a.cell] = tile_rot_mask(cells[a.cell], a.rot)
            u = self._board_utility(cells, ml, pods, me, weights)
            if best is None or u > best[0]:
                best = (u, a)
        return best




BOT_LEVELS = ("easy", "normal", "hard", "random")


def make_bot(seat: int, seed: int, level: str = "normal") -> Bot:
    if level == "random":
        return RandomBot(seat, seed)
    if level == "normal":
        return PathfinderBot(seat, seed)
    if level in ("easy", "hard"):
        return level_bot("pathways", seat, seed, level, lambda: PathfinderBot(seat, seed))
    raise ValueError(f"unknown bot level {level!r}; known: {', '.join(BOT_LEVELS)}")
