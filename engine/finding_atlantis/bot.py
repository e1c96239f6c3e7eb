"""Finding Atlantis bots: ``RandomBot`` (level "random": any legal action, never
declaring) and ``UBot`` (level "normal": the app's AI submarine).

A bot sees exactly what a human in its seat sees: ``choose(view, legal)``.  The
U-Bot reasons over its own chart with ``knowledge.deduce`` and never reads the
map.  Its plan, each action:

1. Lost (after a failed declaration): use the Golden Compass, else surface.
2. May declare: when its knowledge pins the whole city down, pick those spaces
   and declare.
3. City known: head for the nearest Atlantis space, explore it (then declare).
4. Standing on a space that may hold a trace it has not explored: explore.
5. Otherwise the most informative look from here (Sonar, Jelly Rod axis,
   captain, Trident, Orb, Map Fragment), if it would teach at least 2 facts;
   else sail towards the space with the most unknowns around it; surface when
   the hand runs dry.
Ties are broken by its own ``Rng`` stream, forked from the seed and the seat.
"""

from __future__ import annotations

from ..core import Bot
from ..core import RandomBot as KitRandomBot
from ..levels import level_bot
from ..rng import Rng
from . import data
from .actions import (
    Burn, ChooseCaptain, Declare, EndTurn, Explore, FirstMove, JellyRod, LongSilent,
    PickCell, Silent, Sonar, Surface, UseArtifact, UseCaptain,
)
from .knowledge import Knowledge, deduce, possible_positions

ATL_WEIGHT = 0.5
HERE_WEIGHT = 2.0
DIST_WEIGHT = 0.8
LOOK_MIN = 2
CAPTAIN_PREFERENCE = ("navy", "geologist", "racer", "diver", "quartermaster", "spotter", "listener", "saboteur")


class RandomBot(KitRandomBot):
    """A random legal action other than declaring (picking cells, declaring and ending
    the turn only when nothing else is left), from the bot's own stream."""

    stream = "fa-random"

    def __init__(self, seat: int, seed: int):
        super().__init__(seat, seed)
        self.seat = seat

    def choose(self, view, legal):
        if not view.may_declare and legal and type(legal[-1]) is EndTurn:
            # EndTurn is always last; picks only when may_declare.  ``below(n)`` draws
            # exactly as ``choice`` of the first n would (no copy of the list).
            if len(legal) > 1:
                return legal[self.draws.below(len(legal) - 1)]
            pool = []
        else:
            pool = [a for a in legal if type(a) not in (PickCell, Declare, EndTurn)]
        if not pool:
            return EndTurn() if EndTurn() in legal else legal[0]
        return self.draws.choice(pool)


class UBot(Bot):
    def __init__(self, seat: int, seed: int):
        self.seat = seat
        self.rng = Rng.from_seed(seed, f"fa-ubot-{seat}")

    def choose(self, view, legal):
        if not legal:
            raise ValueError("no legal action")
        if view.phase == "captain":
            for c in CAPTAIN_PREFERENCE:
                if ChooseCaptain(c) in legal:
                    return ChooseCaptain(c)
            return legal[0]
        if view.phase == "first_move":
            r, c = divmod(view.pos, view.n)
            mid = (view.n - 1) / 2
            best = min(range(8), key=lambda d: (abs(r + data.DIRS[d][0] - mid) + abs(c + data.DIRS[d][1] - mid), d))
            return FirstMove(best)
        legal_set = set(legal)
        know = deduce(view)
        if view.may_declare:
            if know.solved:
                for c in know.solved:
                    if c not in view.picks:
                        return PickCell(c)
                wrong = [c for c in view.picks if c not in know.solved]
                if wrong:
                    return PickCell(wrong[0])
                return Declare()
        pos = view.pos
        if pos < 0:
            places = possible_positions(view, know)
            if len(places) == 1:
                pos = places[0]
            else:
                if UseArtifact("compass") in legal_set:
                    return UseArtifact("compass")
                if Surface() in legal_set:
                    return Surface()
                return self._fallback(view, legal)
        return self._play(view, legal, legal_set, know, pos)

    # --- the main plan ---------------------------------------------------------------
    def _play(self, view, legal, legal_set, know: Knowledge, pos: int):
        n = view.n
        hand = view.hand
        if view.actions_left <= 0:
            return EndTurn() if EndTurn() in legal_set else legal[0]
        if know.solved:
            if pos in know.solved and Explore() in legal_set:
                return Explore()
            goal = min(know.solved, key=lambda c: (_dist(n, pos, c), c))
            if pos in know.solved:
                return Surface() if Surface() in legal_set else self._fallback(view, legal)
            move = self._move_towards(view, legal_set, pos, goal)
            if move is not None:
                return move
            return Surface() if Surface() in legal_set else self._fallback(view, legal)
        # explore here if it can teach something worth an action
        if Explore() in legal_set and know.trace[pos] != 0 and (know.trace[pos] == -1 or know.atl[pos] == -1):
            return Explore()
        # free artifacts first
        if "fragment" in view.artifacts:
            target = self._best_fragment(view, know)
            if target is not None:
                return UseArtifact("fragment", target)
        if "seed" in view.artifacts and len(hand) <= 3:
            return UseArtifact("seed")
        best, action = self._best_look(view, legal_set, know, pos)
        if best >= LOOK_MIN:
            return action
        goal = self._goal(view, know, pos)
        if goal is not None and goal != pos:
            move = self._move_towards(view, legal_set, pos, goal)
            if move is not None:
                return move
        if best >= 1:
            return action
        if Surface() in legal_set and len(hand) <= 3:
            return Surface()
        for a in ("siren", "whirlpool", "conch"):
            acts = [x for x in legal if type(x) is UseArtifact and x.artifact == a]
            if acts:
                x, self.rng = self.rng.choice(acts)
                return x
        if Surface() in legal_set:
            return Surface()
        return self._fallback(view, legal)

    def _fallback(self, view, legal):
        pool = [a for a in legal if type(a) not in (PickCell, Declare, Burn)]
        if EndTurn() in pool:
            return EndTurn()
        a, self.rng = self.rng.choice(pool or legal)
        return a

    # --- what a look from here would teach ------------------------------------------------
    def _best_look(self, view, legal_set, know: Knowledge, pos: int):
        n, w = view.n, view.n + 2
        r, c = divmod(pos, n)
        wx = (r + 1) * w + c + 1

        def unknown_sea(dr, dc):
            x = wx + dr * w + dc
            return 1 if 0 <= x < w * w and know.sea[x] < 0 and 0 <= r + 1 + dr < w and 0 <= c + 1 + dc < w else 0

        def unknown_trace(dr, dc):
            rr, cc = r + dr, c + dc
            if not (0 <= rr < n and 0 <= cc < n):
                return 0
            cell = rr * n + cc
            return 1.5 if know.trace[cell] < 0 else 0

        options = []
        if Sonar() in legal_set:
            options.append((sum(unknown_sea(dr, dc) for dr, dc in data.DIRS), Sonar()))
        for axis in range(4):
            a = JellyRod(axis)
            if a in legal_set:
                options.append((sum(unknown_trace(*data.DIRS[d]) for d in data.AXES[axis]) * (0.7 if view.pirate else 1), a))
        if view.captain == "navy" or view.captain == "geologist":
            for a in legal_set:
                if type(a) is UseCaptain:
                    if view.captain == "navy":
                        val = 0.0
                        for d in data.AXES[a.arg]:
                            dr, dc = data.DIRS[d]
                            i = 1
                            while 0 <= r + dr * i < n and 0 <= c + dc * i < n and i <= 3:
                                val += unknown_trace(dr * i, dc * i) * 0.8
                                i += 1
                        options.append((val, a))
                    else:
                        options.append((sum(unknown_sea(2 * data.DIRS[d][0], 2 * data.DIRS[d][1]) for d in data.ORTHO), a))
        if view.captain == "diver":
            for a in legal_set:
                if type(a) is UseCaptain:
                    dr, dc = data.DIRS[a.arg]
                    options.append((unknown_trace(dr, dc) + unknown_sea(dr, dc), a))
        if "trident" in view.artifacts and view.actions_left > 0:
            options.append((sum(unknown_trace(dr, dc) for dr, dc in data.DIRS), UseArtifact("trident")))
        if "orb" in view.artifacts and view.actions_left > 0:
            options.append((sum(unknown_trace(dr, dc) + unknown_sea(dr, dc) for dr, dc in data.DIRS),
                            UseArtifact("orb")))
        if not options:
            return 0, None
        best = max(v for v, _ in options)
        tied = [a for v, a in options if v == best]
        a, self.rng = self.rng.choice(sorted(tied, key=repr))
        return best, a

    def _cell_value(self, view, know: Knowledge, cell: int) -> float:
        n, w = view.n, view.n + 2
        r, c = divmod(cell, n)
        val = 0.0
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                rr, cc = r + dr, c + dc
                x = (rr + 1) * w + cc + 1
                if 0 <= rr + 1 < w and 0 <= cc + 1 < w and know.sea[x] < 0:
                    val += 1
                if 0 <= rr < n and 0 <= cc < n:
                    o = rr * n + cc
                    if know.trace[o] < 0:
                        val += 1
                    if know.atl[o] == -1 and know.trace[o] != 0:
                        val += ATL_WEIGHT
                    if know.atl[o] == 1:
                        val += 0.3
        if know.trace[cell] != 0 and (know.trace[cell] < 0 or know.atl[cell] < 0):
            val += HERE_WEIGHT
        return val

    def _goal(self, view, know, pos):
        n = view.n
        best, goal = -1e9, None
        away, away_goal = -1e9, None
        for cell in range(n * n):
            if cell in view.monsters:
                continue
            value = self._cell_value(view, know, cell)
            v = value - DIST_WEIGHT * _dist(n, pos, cell)
            if v > best:
                best, goal = v, cell
            if cell != pos and value > 0 and v > away:
                away, away_goal = v, cell
        if goal == pos and self._cell_value(view, know, pos) <= 0:
            # nothing left to learn here: head for the best place elsewhere, however
            # far (staying put would stall the bot in an emptied corner)
            return away_goal
        return goal

    def _best_fragment(self, view, know):
        cands = [c for c in range(view.n * view.n) if know.atl[c] == -1 and know.trace[c] != 0]
        if not cands:
            return None
        return cands[0]

    def _move_towards(self, view, legal_set, pos, goal):
        n = view.n
        d0 = _dist(n, pos, goal)
        best = None
        for a in legal_set:
            kind = type(a)
            if kind is LongSilent:
                steps, d, cost = 2, a.dir, 0.0
            elif kind is Silent:
                steps, d, cost = 1, a.dir, 0.1
            elif kind is UseCaptain and view.captain == "racer":
                steps, d, cost = a.steps, a.arg, 0.3
            elif kind is UseArtifact and a.artifact == "pearl":
                steps, d, cost = 1, a.arg, -0.5
            elif kind is Burn and a.card not in ("explore", "sonar", "rod", "surface", "captain"):
                steps, d, cost = 1, a.dir, 0.6
            else:
                continue
            r, c = divmod(pos, n)
            dr, dc = data.DIRS[d]
            end = pos
            for _ in range(steps):
                rr, cc = divmod(end, n)
                rr, cc = rr + dr, cc + dc
                if not (0 <= rr < n and 0 <= cc < n) or rr * n + cc in view.monsters:
                    break
                end = rr * n + cc
            gain = d0 - _dist(n, end, goal)
            if gain <= 0 or _dist(n, end, goal) < 0:
                continue
            if steps > 1 and gain < steps and end != goal and _dist(n, end, goal) > 0:
                cost += 0.5
            score = gain - cost
            key = (score, -_euclid(n, end, goal), repr(a))
            if best is None or key > best[0]:
                best = (key, a)
        return best[1] if best else None


def _dist(n: int, a: int, b: int) -> int:
    ra, ca = divmod(a, n)
    rb, cb = divmod(b, n)
    return max(abs(ra - rb), abs(ca - cb))


def _euclid(n: int, a: int, b: int) -> float:
    ra, ca = divmod(a, n)
    rb, cb = divmod(b, n)
    return (ra - rb) ** 2 + (ca - cb) ** 2


def make_bot(seat: int, seed: int, level: str = "normal") -> Bot:
    if level == "random":
        return RandomBot(seat, seed)
    if level in ("easy", "hard"):
        return level_bot("finding-atlantis", seat, seed, level, lambda: UBot(seat, seed))
    return UBot(seat, seed)
