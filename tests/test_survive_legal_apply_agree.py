"""Survive: ``legal`` (on the view) and ``apply`` (on the state) agree on every move of
the move phase, over many random positions: each move ``legal`` offers is accepted, and
every other walk, swim, boarding, step ashore or sail is refused.  The positions come
from random games, also with the seat's swimmers marked as having swum and with a
swimmer put on a safe island's entrance, so the revised rules (a step from land into
the sea; no step ashore after a swim) are met many times."""

from __future__ import annotations

from engine.core import IllegalAction, replace
from engine.components import put
from engine.rng import Rng
from engine.survive import board
from engine.survive import data
from engine.survive.rules import SurviveGame
from engine.survive.actions import Ashore, Board, Sail, Swim, Walk

GAME = SurviveGame()
ENTRANCES = [h for pair in data.ENTRANCE_INDEX for h in pair]


def _candidates(state, seat):
    """Every walk, swim, boarding and step ashore of the seat's explorers to any
    neighbouring hex or boat, and every sail of any boat to any neighbouring hex."""
    out = []
    for e in board.own_explorers(state, seat):
        h = state.explorer_hex[e]
        if h < 0:
            continue
        out += [Walk(e, n) for n in data.NEIGHBOURS[h]] + [Swim(e, n) for n in data.NEIGHBOURS[h]]
        out += [Board(e, b) for b in range(data.BOATS) if state.boat_hex[b] >= 0] + [Ashore(e)]
    for b, h in enumerate(state.boat_hex):
        if h >= 0:
            out += [Sail(b, n) for n in data.NEIGHBOURS[h]]
    return out


def _variants(state, seat, rng):
    """The position, with every own swimmer marked as having swum, and with one own
    swimmer (or explorer on land) put on an entrance, swum or not."""
    out = [state]
    mine = [e for e in board.own_explorers(state, seat) if state.explorer_hex[e] >= 0 and state.explorer_boat[e] < 0]
    swimmers = tuple(e for e in mine if board.is_swimmer(state, e))
    if swimmers:
        out.append(replace(state, swum=tuple(sorted(set(state.swum) | set(swimmers)))))
    if mine:
        e, rng = rng.choice(mine)
        h, rng = rng.choice([h for h in ENTRANCES if h not in state.creature_hex])
        moved = replace(state, explorer_hex=put(state.explorer_hex, e, h))
        out += [moved, replace(moved, swum=tuple(sorted(set(state.swum) | {e})))]
    return out, rng


def _check(state, seat, seen):
    offered = set(GAME.legal(GAME.view(state, seat)))
    for a in _candidates(state, seat):
        try:
            GAME.apply(state, seat, a)
            accepted = True
        except IllegalAction:
            accepted = False
        assert accepted == (a in offered), (a, accepted)
        if accepted and type(a) is Swim and board.is_land(state, state.explorer_hex[a.explorer]):
            seen["from land"] += 1
        if type(a) is Ashore and a.explorer in state.swum and state.explorer_boat[a.explorer] < 0:
            seen["ashore after a swim"] += 1
            assert not accepted


def test_legal_and_apply_agree_on_every_move_over_many_random_positions():
    seen = {"from land": 0, "ashore after a swim": 0}
    positions = 0
    rng = Rng.from_seed(3, "agree")
    for seed in range(6):
        n = 2 + seed % 3
        state = GAME.setup({}, n, seed)
        bots = [GAME.make_bot(i, seed, "random") for i in range(n)]
        steps = 0
        while GAME.result(state) is None and steps < 400:
            (q,) = GAME.to_act(state)
            if state.phase == "move" and steps % 4 == 0:
                variants, rng = _variants(state, q, rng)
                for v in variants:
                    _check(v, q, seen)
                    positions += 1
            state, _ = GAME.apply(state, q, bots[q].choose(GAME.view(state, q), GAME.legal(GAME.view(state, q))))
            steps += 1
    assert positions > 200 and seen["from land"] > 100 and seen["ashore after a swim"] > 20, (positions, seen)
