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
def open_gaps(v):
    """(first, last, cost) of every unbridged run of water between the route's ends."""
    filled = [i for i, h in enumerate(v.heights) if h]
    runs, i = [], filled[0] if filled else data.SPACES
    while filled and i < filled[-1]:
        if v.heights[i]:
            i += 1
            continue
        j = i
        while v.heights[j + 1] == 0:
            j += 1
        bridged = any(i <= b <= j for b in v.bridges if b >= 0)
        if not bridged:
            runs.append((i, j, min(data.VALUE_OF[v.tops[i - 1]], data.VALUE_OF[v.tops[j + 1]])))
        i = j + 1
    return runs


def water(v, start, dest):
    costs = [c for first, last, c in open_gaps(v) if start < first and last < dest]
    if costs and v.bridges[v.seat] < 0:
        return sum(costs) - max(costs)
    return sum(costs)


def moves_from(v, pos, hand):
    """Every whole move from ``pos`` as (cards, end): each card goes to the next top of its
    colour (none: the mainland); a card landing under a figure must be followed."""
    busy = {p for fs in v.figures for p in fs if 0 <= p < MAINLAND}
    out = []
    for c in sorted(set(hand)):
        dest = next((i for i in range(pos + 1, data.SPACES)
                     if v.tops[i] >= 0 and data.COLOUR_OF[v.tops[i]] == c), MAINLAND)
        rest = list(hand)
        rest.remove(c)
        if dest == MAINLAND or dest not in busy:
            out.append(((c,), dest))
        else:
            out += [((c,) + more, end) for more, end in moves_from(v, dest, rest)]
    return out


def wealth(v):
    return len(v.hand) + sum(data.VALUE_OF[p] for p in v.plates[v.seat])


def first_cards(v, start, pos):
    return sorted({cards[0] for cards, end in moves_from(v, pos, v.hand)
                   if wealth(v) - len(cards) >= water(v, start, end)})


def movable(v):
    out, seen = [], set()
    for f, pos in enumerate(v.figures[v.seat]):
        if pos != MAINLAND and pos not in seen:
            seen.add(pos)
            if first_cards(v, pos, pos):
                out.append(f)
    return out


def slow_legal(v):
    if v.seat is None or v.hand is None or v.phase == "over" or v.seat != v.turn:
        return []
    values = sorted({data.VALUE_OF[p] for p in v.plates[v.seat]})
    if v.phase == "start":
        out = [Choose(f) for f in movable(v)] or [Pass()]
        if v.sold < v.sales_per_turn and v.pile_count + len(v.discard):
            out += [Sell(x) for x in values if x // 2]
        return out
    if v.phase == "move":
        out = [Play(c) for c in first_cards(v, v.start, v.cursor)]
        return out + ([Choose(f) for f in movable(v) if f != v.mover] if not v.played else [])
    if v.phase == "bridge":
        passed = [(first, c) for first, last, c in open_gaps(v) if v.start < first and last < v.cursor]
        total = sum(c for _, c in passed)
        out = [Bridge(first) for first, c in passed if wealth(v) >= total - c]
        return out + ([NoBridge()] if wealth(v) >= total else [])
    return [PayPlate(x) for x in values] + [PayCard(c) for c in sorted(set(v.hand))]


def slow_view(s, seat):
    """Every field, from the state and the rules' text (plates + cards - debts)."""
    sizes = tuple(len(h) for h in s.hands)
    worth = tuple(sizes[p] + sum(data.VALUE_OF[x] for x in s.plates[p]) - s.debts[p] for p in range(s.players))
    mine = None if seat is None else s.hands[seat]
    return dict(seat=seat, players=s.players, tops=s.tops, heights=s.heights, figures=s.figures,
                bridges=s.bridges, plates=s.plates, hand=mine, hand_sizes=sizes,
                pile_count=len(s.pile), discard=s.discard, sales_per_turn=s.sales_per_turn,
                turn=s.turn, phase=s.phase, sold=s.sold, mover=s.mover, start=s.start, cursor=s.cursor,
                played=s.played, owed=s.owed, paid=s.paid, passes=s.passes, round=s.round,
                scores=worth, debts=s.debts, winners=s.winners, end_reason=s.end_reason)


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


def fresh_tuples(s):
    """An equal state none of whose tuples is one the rules have seen."""
    again = lambda t: tuple(again(x) if isinstance(x, tuple) else x for x in t)  # noqa: E731
    return replace(s, **{f.name: again(getattr(s, f.name)) for f in dataclasses.fields(s)
                         if isinstance(getattr(s, f.name), tuple)})


def swapped_tops(s, rng):
    """The same position but two top plates changed places (a new ``tops``; every other
    tuple the very one the rules just saw)."""
    laid = [i for i, t in enumerate(s.tops) if t >= 0]
    if len(laid) < 2:
        return s
    a, b = rng.sample(laid, 2)
    tops = list(s.tops)
    tops[a], tops[b] = tops[b], tops[a]
    return replace(s, tops=tuple(tops))


def variants(s, n, rng):
    """The position itself; every fifth an equal copy with fresh tuples; every third with
    two tops swapped; at the start of a turn, the next seat to act instead (the route's
    tuples shared, as after a pass), with the figures of the seat it follows (the same
    starting spaces, another bridge: water is counted per seat)."""
    out = [fresh_tuples(s) if n % 5 == 0 else s]
    if n % 3 == 1:
        out.append(swapped_tops(s, rng))
    if s.phase == "start":
        nxt = (s.turn + 1) % s.players
        figures = s.figures[:nxt] + (s.figures[s.turn],) + s.figures[nxt + 1:]
        out += [replace(s, turn=nxt), replace(s, turn=nxt, figures=figures)]
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
        for s in variants(states[i], n, rng):
            seats = [s.turn, None] + [p for p in range(s.players) if p != s.turn][: 1 + n % 2]
            for seat in seats:
                view = GAME.view(s, seat)
                assert type(view) is AtlantisView
                assert {f.name: getattr(view, f.name) for f in dataclasses.fields(view)} == slow_view(s, seat)
                expected = slow_legal(view)
                assert GAME.legal(view) == expected, (i, seat, view.phase)
                assert GAME.legal(view) == expected           # asked again: the remembered answer
                if seat == s.turn and expected:
                    phases.add(view.phase)
                    GAME.apply(s, seat, expected[-1])          # takes what legal lists
    assert phases == {"start", "move", "bridge", "pay"} and len(states) > 800
