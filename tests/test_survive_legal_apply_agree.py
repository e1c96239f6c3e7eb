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


def _candidates(s, seat):
    """Every walk, swim, boarding and step ashore of the seat's explorers to any
    neighbouring hex or boat, and every sail of any boat to any neighbouring hex."""
    out = []
    for e in board.own_explorers(s, seat):
        h = s.explorer_hex[e]
        if h < 0:
            continue
        out += [Walk(e, n) for n in data.NEIGHBOURS[h]] + [Swim(e, n) for n in data.NEIGHBOURS[h]]
        out += [Board(e, b) for b in range(data.BOATS) if s.boat_hex[b] >= 0] + [Ashore(e)]
    for b, h in enumerate(s.boat_hex):
        if h >= 0:
            out += [Sail(b, n) for n in data.NEIGHBOURS[h]]
    return out


def _variants(s, seat, rng):
    """The position, with every own swimmer marked as having swum, and with one own
    swimmer (or explorer on land) put on an entrance, swum or not."""
    out = [s]
    mine = [e for e in board.own_explorers(s, seat) if s.explorer_hex[e] >= 0 and s.explorer_boat[e] < 0]
    swimmers = tuple(e for e in mine if board.is_swimmer(s, e))
    if swimmers:
        out.append(replace(s, swum=tuple(sorted(set(s.swum) | set(swimmers)))))
    if mine:
        e, rng = rng.choice(mine)
        h, rng = rng.choice([h for h in ENTRANCES if h not in s.creature_hex])
        moved = replace(s, explorer_hex=put(s.explorer_hex, e, h))
        out += [moved, replace(moved, swum=tuple(sorted(set(s.swum) | {e})))]
    return out, rng


def _check(s, seat, seen):
    offered = set(GAME.legal(GAME.view(s, seat)))
    for a in _candidates(s, seat):
        try:
            GAME.apply(s, seat, a)
            accepted = True
        except IllegalAction:
            accepted = False
        assert accepted == (a in offered), (a, accepted)
        if accepted and type(a) is Swim and board.is_land(s, s.explorer_hex[a.explorer]):
            seen["from land"] += 1
        if type(a) is Ashore and a.explorer in s.swum and s.explorer_boat[a.explorer] < 0:
            seen["ashore after a swim"] += 1
            assert not accepted


def test_legal_and_apply_agree_on_every_move_over_many_random_positions():
    seen = {"from land": 0, "ashore after a swim": 0}
    positions = 0
    rng = Rng.from_seed(3, "agree")
    for seed in range(6):
        n = 2 + seed % 3
        s = GAME.setup({}, n, seed)
        bots = [GAME.make_bot(i, seed, "random") for i in range(n)]
        steps = 0
        while GAME.result(s) is None and steps < 400:
            (q,) = GAME.to_act(s)
            if s.phase == "move" and steps % 4 == 0:
                variants, rng = _variants(s, q, rng)
                for v in variants:
                    _check(v, q, seen)
                    positions += 1
            s, _ = GAME.apply(s, q, bots[q].choose(GAME.view(s, q), GAME.legal(GAME.view(s, q))))
            steps += 1
    assert positions > 200 and seen["from land"] > 100 and seen["ashore after a swim"] > 20, (positions, seen)
