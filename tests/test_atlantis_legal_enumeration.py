"""Atlantis: ``legal()`` (fast: remembered answers, tables, pruned search) against a slow
and obvious enumeration written here from the rules, over random games; and ``apply``
takes exactly those actions (the answer ``legal`` leaves for it, and without one)."""

from __future__ import annotations

import pytest

from engine.atlantis import data
from engine.atlantis.actions import (
    Bridge, Choose, NoBridge, Pass, PayCard, PayPlate, Play, Sell,
)
from engine.atlantis.bot import make_bot
from engine.atlantis.rules import AtlantisGame
from engine.core import IllegalAction, replace

GAME = AtlantisGame()
MAINLAND = data.MAINLAND


def slow_gaps(view):
    """(first, last, cost, bridged) for every run of water between the route's ends."""
    filled = [i for i in range(data.SPACES) if view.heights[i]]
    if not filled:
        return []
    out, i = [], filled[0]
    while i <= filled[-1]:
        if view.heights[i]:
            i += 1
            continue
        j = i
        while not view.heights[j + 1]:
            j += 1
        cost = min(data.VALUE_OF[view.tops[i - 1]], data.VALUE_OF[view.tops[j + 1]])
        out.append((i, j, cost, any(i <= b <= j for b in view.bridges if b >= 0)))
        i = j + 1
    return out


def slow_water(view, start, dest):
    """What a move from ``start`` to ``dest`` costs when it ends: the unbridged gaps wholly
    between, less the dearest when the mover's bridge is still unbuilt."""
    costs = [c for first, last, c, bridged in slow_gaps(view)
             if start < first and last < dest and not bridged]
    if costs and view.bridges[view.seat] < 0:
        return sum(costs) - max(costs)
    return sum(costs)


def slow_walks(view, pos, hand):
    """Every (cards, destination) of a whole move from ``pos``: a card goes to the next
    plate of its colour (else the mainland); on a plate under a figure another follows."""
    busy = {p for fs in view.figures for p in fs if 0 <= p < MAINLAND}
    out = []
    for c in sorted(set(hand)):
        rest = list(hand)
        rest.remove(c)
        to = next((i for i in range(pos + 1, data.SPACES)
                   if view.tops[i] >= 0 and data.COLOUR_OF[view.tops[i]] == c), MAINLAND)
        if to == MAINLAND or to not in busy:
            out.append(((c,), to))
        else:
            out += [((c,) + cards, dest) for cards, dest in slow_walks(view, to, tuple(rest))]
    return out


def slow_payable_firsts(view, start, pos):
    wealth = len(view.hand) + sum(data.VALUE_OF[p] for p in view.plates[view.seat])
    return sorted({cards[0] for cards, dest in slow_walks(view, pos, view.hand)
                   if wealth - len(cards) >= slow_water(view, start, dest)})


def slow_movable(view):
    out, seen = [], set()
    for f, pos in enumerate(view.figures[view.seat]):
        if pos != MAINLAND and pos not in seen:
            seen.add(pos)
            if slow_payable_firsts(view, pos, pos):
                out.append(f)
    return out


def slow_legal(view):
    seat = view.seat
    if seat is None or view.hand is None or view.phase == "over" or seat != view.turn:
        return []
    plates, hand = view.plates[seat], view.hand
    if view.phase == "start":
        out = [Choose(f) for f in slow_movable(view)] or [Pass()]
        if view.sold < view.sales_per_turn and view.pile_count + len(view.discard) > 0:
            out += [Sell(v) for v in sorted({data.VALUE_OF[p] for p in plates}) if v // 2 > 0]
        return out
    if view.phase == "move":
        out = [Play(c) for c in slow_payable_firsts(view, view.start, view.cursor)]
        if not view.played:
            out += [Choose(f) for f in slow_movable(view) if f != view.mover]
        return out
    if view.phase == "bridge":
        passed = [(first, cost) for first, last, cost, bridged in slow_gaps(view)
                  if view.start < first and last < view.cursor and not bridged]
        total = sum(cost for _, cost in passed)
        wealth = len(hand) + sum(data.VALUE_OF[p] for p in plates)
        out = [Bridge(first) for first, cost in passed if wealth >= total - cost]
        return out + ([NoBridge()] if wealth >= total else [])
    assert view.phase == "pay"
    return ([PayPlate(v) for v in sorted({data.VALUE_OF[p] for p in plates})]
            + [PayCard(c) for c in sorted(set(hand))])


CANDIDATES = ([Sell(v) for v in range(1, 8)] + [Choose(f) for f in range(3)]
              + [Play(c) for c in range(7)] + [Bridge(i) for i in range(0, data.SPACES, 3)]
              + [NoBridge(), Pass()] + [PayPlate(v) for v in range(1, 8)]
              + [PayCard(c) for c in range(7)])


@pytest.mark.parametrize("first_seed", [0, 6, 12, 18])
def test_legal_is_the_slow_enumeration_of_the_rules_in_random_games(first_seed):
    positions = 0
    for seed in range(first_seed, first_seed + 6):
        players = 2 + seed % 3
        opts = GAME.parse_options({"sales_per_turn": (1, 2, 0)[seed % 3]})
        state = GAME.setup(opts, players, seed)
        bots = [make_bot(p, seed, "random" if seed % 2 else "random-move") for p in range(players)]
        while GAME.result(state) is None:
            seat = state.turn
            other = GAME.view(state, (seat + 1) % players)
            assert GAME.legal(other) == [] == slow_legal(other)
            view = GAME.view(state, seat)
            legal = GAME.legal(view)
            assert legal == slow_legal(view), (seed, positions, view.phase)
            if positions % 7 == 0:  # apply refuses what is not listed: with the answer
                # legal left for this state, and on an equal copy (worked out again)
                for action in CANDIDATES:
                    if action not in legal:
                        for on in (state, replace(state)):
                            with pytest.raises(IllegalAction):
                                GAME.apply(on, seat, action)
            action = bots[seat].choose(view, legal)
            state, _ = GAME.apply(state, seat, action)
            positions += 1
    assert positions > 400


def test_apply_never_takes_the_legal_answer_of_another_positions_view():
    """``legal`` on an older view (another view made since) must not stand for the newer
    state: ``apply`` there still refuses what is not legal there."""
    checked = 0
    for seed in range(6):
        state = GAME.setup(GAME.parse_options({}), 2 + seed % 3, seed)
        bot = make_bot(0, seed, "random")
        while GAME.result(state) is None and checked < 20:
            seat = state.turn
            legal = GAME.legal(GAME.view(state, seat))
            after, _ = GAME.apply(state, seat, bot.choose(GAME.view(state, seat), legal))
            if after.turn == seat and after.phase != "over":
                newer = slow_legal(GAME.view(after, seat))
                stale = [a for a in legal if a not in newer]
                if stale:
                    older = GAME.view(state, seat)
                    GAME.view(after, seat)              # the last view made is the newer one
                    assert GAME.legal(older) == legal
                    with pytest.raises(IllegalAction):
                        GAME.apply(after, seat, stale[0])
                    checked += 1
            state = after
    assert checked == 20
