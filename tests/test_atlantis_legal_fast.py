"""Atlantis: ``legal`` and ``view`` keep answers for the tuples last asked about (the
route's colours, gaps and water tables, the figures a seat can move, a position's
first cards).  Here both are checked against slow versions written from the rules,
over positions of seeded random games asked in shuffled order, interleaved across
games and seats, again (remembered), and on equal copies with fresh tuples (so an
answer kept for one position can never stand for another)."""

from __future__ import annotations

import dataclasses
import random

from engine.atlantis import data
from engine.atlantis.actions import (
    Bridge, Choose, NoBridge, Pass, PayCard, PayPlate, Play, Sell,
)
from engine.atlantis.bot import make_bot
from engine.atlantis.rules import AtlantisGame
from engine.atlantis.state import AtlantisView
from engine.core import replace

GAME = AtlantisGame()
MAINLAND = data.MAINLAND


# --- the rules, slowly ------------------------------------------------------------------------
def open_gaps(view):
    """(first, last, cost) of every unbridged run of water between the route's ends."""
    filled = [i for i, h in enumerate(view.heights) if h]
    runs, i = [], filled[0] if filled else data.SPACES
    while filled and i < filled[-1]:
        if view.heights[i]:
            i += 1
            continue
        j = i
        while view.heights[j + 1] == 0:
            j += 1
        bridged = any(i <= b <= j for b in view.bridges if b >= 0)
        if not bridged:
            runs.append((i, j, min(data.VALUE_OF[view.tops[i - 1]], data.VALUE_OF[view.tops[j + 1]])))
        i = j + 1
    return runs


def water(view, start, dest):
    costs = [c for first, last, c in open_gaps(view) if start < first and last < dest]
    if costs and view.bridges[view.seat] < 0:
        return sum(costs) - max(costs)
    return sum(costs)


def moves_from(view, pos, hand):
    """Every whole move from ``pos`` as (cards, end): each card goes to the next top of its
    colour (none: the mainland); a card landing under a figure must be followed."""
    busy = {p for fs in view.figures for p in fs if 0 <= p < MAINLAND}
    out = []
    for c in sorted(set(hand)):
        dest = next((i for i in range(pos + 1, data.SPACES)
                     if view.tops[i] >= 0 and data.COLOUR_OF[view.tops[i]] == c), MAINLAND)
        rest = list(hand)
        rest.remove(c)
        if dest == MAINLAND or dest not in busy:
            out.append(((c,), dest))
        else:
            out += [((c,) + more, end) for more, end in moves_from(view, dest, rest)]
    return out


def wealth(view):
    return len(view.hand) + sum(data.VALUE_OF[p] for p in view.plates[view.seat])


def first_cards(view, start, pos):
    return sorted({cards[0] for cards, end in moves_from(view, pos, view.hand)
                   if wealth(view) - len(cards) >= water(view, start, end)})


def movable(view):
    out, seen = [], set()
    for f, pos in enumerate(view.figures[view.seat]):
        if pos != MAINLAND and pos not in seen:
            seen.add(pos)
            if first_cards(view, pos, pos):
                out.append(f)
    return out


def slow_legal(view):
    if view.seat is None or view.hand is None or view.phase == "over" or view.seat != view.turn:
        return []
    values = sorted({data.VALUE_OF[p] for p in view.plates[view.seat]})
    if view.phase == "start":
        out = [Choose(f) for f in movable(view)] or [Pass()]
        if view.sold < view.sales_per_turn and view.pile_count + len(view.discard):
            out += [Sell(x) for x in values if x // 2]
        return out
    if view.phase == "move":
        out = [Play(c) for c in first_cards(view, view.start, view.cursor)]
        return out + ([Choose(f) for f in movable(view) if f != view.mover] if not view.played else [])
    if view.phase == "bridge":
        passed = [(first, c) for first, last, c in open_gaps(view) if view.start < first and last < view.cursor]
        total = sum(c for _, c in passed)
        out = [Bridge(first) for first, c in passed if wealth(view) >= total - c]
        return out + ([NoBridge()] if wealth(view) >= total else [])
    return [PayPlate(x) for x in values] + [PayCard(c) for c in sorted(set(view.hand))]


def slow_view(state, seat):
    """Every field, from the state and the rules' text (plates + cards - debts)."""
    sizes = tuple(len(h) for h in state.hands)
    worth = tuple(sizes[p] + sum(data.VALUE_OF[x] for x in state.plates[p]) - state.debts[p] for p in range(state.players))
    mine = None if seat is None else state.hands[seat]
    return dict(seat=seat, players=state.players, tops=state.tops, heights=state.heights, figures=state.figures,
                bridges=state.bridges, plates=state.plates, hand=mine, hand_sizes=sizes,
                pile_count=len(state.pile), discard=state.discard, sales_per_turn=state.sales_per_turn,
                turn=state.turn, phase=state.phase, sold=state.sold, mover=state.mover, start=state.start, cursor=state.cursor,
                played=state.played, owed=state.owed, paid=state.paid, passes=state.passes, round=state.round,
                scores=worth, debts=state.debts, winners=state.winners, end_reason=state.end_reason)


# --- positions --------------------------------------------------------------------------------
def positions(seeds):
    out = []
    for seed in seeds:
        players = 2 + seed % 3
        state = GAME.setup(GAME.parse_options({"sales_per_turn": (1, 2, 0)[seed % 3]}), players, seed)
        bots = [make_bot(p, seed, ("random", "random-move", "normal")[seed % 3]) for p in range(players)]
        while True:
            out.append(state)
            if GAME.result(state) is not None:
                break
            seat = state.turn
            view = GAME.view(state, seat)
            state, _ = GAME.apply(state, seat, bots[seat].choose(view, GAME.legal(view)))
    return out


def fresh_tuples(state):
    """An equal state none of whose tuples is one the rules have seen."""
    again = lambda t: tuple(again(x) if isinstance(x, tuple) else x for x in t)  # noqa: E731
    return replace(state, **{f.name: again(getattr(state, f.name)) for f in dataclasses.fields(state)
                         if isinstance(getattr(state, f.name), tuple)})


def swapped_tops(state, rng):
    """The same position but two top plates changed places (a new ``tops``; every other
    tuple the very one the rules just saw)."""
    laid = [i for i, t in enumerate(state.tops) if t >= 0]
    if len(laid) < 2:
        return state
    a, b = rng.sample(laid, 2)
    tops = list(state.tops)
    tops[a], tops[b] = tops[b], tops[a]
    return replace(state, tops=tuple(tops))


def variants(state, n, rng):
    """The position itself; every fifth an equal copy with fresh tuples; every third with
    two tops swapped; at the start of a turn, the next seat to act instead (the route's
    tuples shared, as after a pass), with the figures of the seat it follows (the same
    starting spaces, another bridge: water is counted per seat)."""
    out = [fresh_tuples(state) if n % 5 == 0 else state]
    if n % 3 == 1:
        out.append(swapped_tops(state, rng))
    if state.phase == "start":
        nxt = (state.turn + 1) % state.players
        figures = state.figures[:nxt] + (state.figures[state.turn],) + state.figures[nxt + 1:]
        out += [replace(state, turn=nxt), replace(state, turn=nxt, figures=figures)]
    return out


def test_legal_and_view_match_the_slow_rules_in_shuffled_interleaved_positions():
    states = positions(range(6))
    rng = random.Random(15)
    order = list(range(len(states)))
    rng.shuffle(order)
    # game order first (the caches' usual run), then shuffled: every position a jump
    order = list(range(len(states))) + order
    phases = set()
    for n, i in enumerate(order):
        for state in variants(states[i], n, rng):
            seats = [state.turn, None] + [p for p in range(state.players) if p != state.turn][: 1 + n % 2]
            for seat in seats:
                view = GAME.view(state, seat)
                assert type(view) is AtlantisView
                assert {f.name: getattr(view, f.name) for f in dataclasses.fields(view)} == slow_view(state, seat)
                expected = slow_legal(view)
                assert GAME.legal(view) == expected, (i, seat, view.phase)
                assert GAME.legal(view) == expected           # asked again: the remembered answer
                if seat == state.turn and expected:
                    phases.add(view.phase)
                    GAME.apply(state, seat, expected[-1])          # takes what legal lists
    assert phases == {"start", "move", "bridge", "pay"} and len(states) > 800
