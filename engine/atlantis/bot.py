"""Atlantis bots: ``RandomBot`` (any legal action), ``RandomMoveBot`` (a random whole
move, paid for sensibly) and ``RoadBot`` (level "normal").

A bot sees exactly what a human in its seat sees: ``choose(view, legal)``.  Its only
randomness is its own ``Rng`` stream, so the same views give the same choices.

How ``RoadBot`` thinks
----------------------
It works out every whole move (figure, cards in order, where it ends: ``route.plans``)
and scores each in points: the plate the figure will take behind it (none on the move
that ends the game), minus the cards
spent (a card is a point at the end, and worth a little more as a way to move), minus
the water, plus a little for every space gained (a figure left behind pays the water
ahead of it at the end) and a bonus for reaching the mainland (one more card every
turn).  A move that ends the game is scored by the final result: taken when it wins,
avoided when it would lose.  Mid-move it re-plans from where the figure stands, which
gives the same choice (the scores depend only on the whole move).  Its bridge goes on
the dearest gap when that saves enough; water is paid with the plates and cards that
lose the fewest points, never overpaying when it can help it.  It never sells: a plate
sells for half its value, and a player who cannot move draws 2 cards for free.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core import Bot
from ..core import RandomBot as KitRandomBot
from ..levels import level_bot
from ..rng import Rng
from . import data
from . import route
from .actions import Bridge, Choose, NoBridge, Pass, PayCard, PayPlate, Play, Sell

MAINLAND = data.MAINLAND


@dataclass(frozen=True)
class Tuning:
    card: float = 1.25          # what spending a card costs, in points
    progress: float = 0.12      # per space gained
    mainland: float = 2.5       # a figure arriving (a card more every turn)
    bridge_keep: float = 2.0    # what keeping the bridge for later is worth
    win: float = 1000.0


DEFAULT_TUNING = Tuning()


def _taken_value(view: Any, seat: int, figure: int, dest: int) -> int:
    """The value of the plate the figure takes on arriving at ``dest``."""
    start = view.figures[seat][figure]
    busy = route.occupied(view) - {start}
    space = route.take_space(view, dest, busy)  # only spaces behind ``dest`` are looked at
    return route.top_value(view, space) if space >= 0 else 0


def _final_margin(view: Any, seat: int, plan: route.Plan, figure: int, gain: int) -> float:
    """If ``plan`` ends the game: my final score minus the best other score (estimate)."""
    debts = _debts_after(view, seat, figure, plan.dest)
    water = min(plan.water, plan.bridge_water)
    mine = view.scores[seat] - len(plan.cards) + len(view.played) - water + gain + data.FINAL_DRAW
    others = [view.scores[p] - debts[p] for p in range(view.players) if p != seat]
    return mine - max(others)


def _debts_after(view: Any, seat: int, figure: int, dest: int) -> list[int]:
    all_gaps = route.gaps(view)
    return [sum(route.water_cost(route.crossed(all_gaps, pos, MAINLAND), False)
                for pos in view.figures[p] if pos != MAINLAND) for p in range(view.players)]


def best_plan(view: Any, tuning: Tuning = DEFAULT_TUNING) -> tuple[int, route.Plan] | None:
    """The (figure, plan) with the best score, from the start of a move or mid-move."""
    seat = view.seat
    hand = view.hand
    if view.phase == "move" and view.played:
        figures = [view.mover]
    else:
        figures, seen = [], set()
        for f, pos in enumerate(view.figures[seat]):
            if pos != MAINLAND and pos not in seen:
                seen.add(pos)
                figures.append(f)
    home = view.figures[seat].count(MAINLAND)
    best: tuple[float, tuple, int, route.Plan] | None = None
    for f in figures:
        start = view.figures[seat][f]
        pos = view.cursor if (view.phase == "move" and view.mover == f) else start
        played = view.played if view.mover == f else ()
        gains: dict[int, int] = {}
        for plan in route.plans(view, hand, seat, start, pos, played):
            if not plan.payable:
                continue
            final = plan.dest == MAINLAND and home == data.FIGURES - 1
            gain = 0 if final else gains.get(plan.dest)   # the last move takes no plate
            if gain is None:
                gain = gains[plan.dest] = _taken_value(view, seat, f, plan.dest)
            water = plan.water
            if plan.bridge_water < plan.water:
                water = min(water, plan.bridge_water + tuning.bridge_keep)
            score = gain - tuning.card * len(plan.cards) - water
            score += tuning.progress * (plan.dest - start)
            if plan.dest == MAINLAND:
                score += tuning.mainland
                if final:
                    margin = _final_margin(view, seat, plan, f, gain)
                    score += tuning.win if margin >= 0 else -tuning.win
            key = (score, tuple(-c for c in plan.cards), -f)
            if best is None or key > best[:2]:
                best = (score, key[1], f, plan)
    return None if best is None else (best[2], best[3])


def payment(view: Any, tuning: Tuning = DEFAULT_TUNING) -> Any:
    """The next plate or card to give: the way of covering the water that loses least
    (plates count their value, cards a little more than 1), the largest plate first."""
    owed = view.owed
    values = sorted((data.VALUE_OF[p] for p in view.plates[view.seat]), reverse=True)
    cards = len(view.hand)
    # subset sums of the plates: sum -> one subset (as a tuple of values)
    sums: dict[int, tuple[int, ...]] = {0: ()}
    for v in values:
        for total, subset in list(sums.items()):
            if total + v not in sums:
                sums[total + v] = subset + (v,)
    best = None
    for total in sorted(sums):
        need = max(0, owed - total)
        if need > cards:
            continue
        loss = total + need * tuning.card
        if best is None or loss < best[0]:
            best = (loss, sums[total], need)
    if best is None or (not best[1] and not best[2]):
        return None
    if best[1]:
        return PayPlate(max(best[1]))
    return PayCard(_spare_colour(view))


def _spare_colour(view: Any) -> int:
    """The card to give up: the colour held most often (keeps the hand varied)."""
    counts = route.counts_of(view.hand)
    return max(range(data.NCOLOURS), key=lambda c: (counts[c], -c))


class RoadBot(Bot):
    def __init__(self, seat: int, seed: int, tuning: Tuning = DEFAULT_TUNING):
        self.seat = seat
        self.tuning = tuning
        self.rng = Rng.from_seed(seed, f"atlantis-road-{seat}")
        # the plan of the move under way: (the route and figures it was made for, figure, plan);
        # re-planning mid-move gives the same plan, this only saves the time
        self.plan: tuple[Any, int, route.Plan] | None = None

    def _plan(self, view: Any) -> tuple[int, route.Plan] | None:
        made_for = (view.tops, view.figures, view.round, view.turn)
        kept = self.plan
        if (view.phase == "move" and kept is not None and kept[0] == made_for
                and kept[1] == view.mover and kept[2].cards[:len(view.played)] == view.played):
            return kept[1], kept[2]
        found = best_plan(view, self.tuning)
        self.plan = None if found is None else (made_for, found[0], found[1])
        return found

    def choose(self, view: Any, legal: list[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase in ("start", "move"):
            found = self._plan(view)
            if found is not None:
                figure, plan = found
                if phase == "start" or view.mover != figure:
                    action: Any = Choose(figure)
                else:
                    action = Play(plan.cards[len(view.played)])
                if action in legal:
                    return action
            options = [a for a in legal if not isinstance(a, Sell)] or legal
            pick, self.rng = self.rng.choice(options)
            return pick
        if phase == "bridge":
            return _bridge_choice(view, legal, self.tuning)
        if phase == "pay":
            action = payment(view, self.tuning)
            if action in legal:
                return action
        pick, self.rng = self.rng.choice(legal)
        return pick


def _bridge_choice(view: Any, legal: list[Any], tuning: Tuning) -> Any:
    bridges = [a for a in legal if isinstance(a, Bridge)]
    if not bridges:
        return legal[0]
    by_first = {g.first: g for g in route.gaps(view)}
    dearest = max(bridges, key=lambda a: (by_first[a.space].cost, -a.space))
    if NoBridge() not in legal or by_first[dearest.space].cost >= tuning.bridge_keep + 1:
        return dearest
    return NoBridge()


class RandomBot(KitRandomBot):
    """Any legal action, uniformly, from the bot's own stream."""

    stream = "atlantis-random"


class RandomMoveBot(Bot):
    """A whole move chosen at random among those it can pay for (every way counted
    once), no bridge unless it must, water paid without waste: play without a plan."""

    def __init__(self, seat: int, seed: int):
        self.rng = Rng.from_seed(seed, f"atlantis-random-move-{seat}")
        self.plan: tuple[int, tuple[int, ...]] | None = None

    def choose(self, view: Any, legal: list[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        if view.phase == "start":
            moves, seen = [], set()
            for f, pos in enumerate(view.figures[view.seat]):
                if pos != MAINLAND and pos not in seen:
                    seen.add(pos)
                    moves += [(f, p.cards) for p in route.plans(view, view.hand, view.seat, pos, pos) if p.payable]
            if moves:
                self.plan, self.rng = self.rng.choice(moves)
                return Choose(self.plan[0])
        if (view.phase == "move" and self.plan and self.plan[0] == view.mover
                and len(view.played) < len(self.plan[1])):  # (a plan of an earlier turn may be shorter)
            action = Play(self.plan[1][len(view.played)])
            if action in legal:
                return action
        if view.phase == "bridge" and NoBridge() in legal:
            return NoBridge()
        if view.phase == "pay":
            action = payment(view)
            if action in legal:
                return action
        options = [a for a in legal if not isinstance(a, (Sell, Pass))] or legal
        pick, self.rng = self.rng.choice(options)
        return pick


BOT_LEVELS = ("easy", "normal", "hard", "random-move", "random")


def make_bot(seat: int, seed: int, level: str = "normal") -> Bot:
    if level == "random":
        return RandomBot(seat, seed)
    if level == "random-move":
        return RandomMoveBot(seat, seed)
    if level == "normal":
        return RoadBot(seat, seed)
    if level in ("easy", "hard"):
        return level_bot("atlantis", seat, seed, level, lambda: RoadBot(seat, seed))
    raise ValueError(f"unknown bot level {level!r}; known: {', '.join(BOT_LEVELS)}")
