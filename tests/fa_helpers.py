"""Helpers for the Finding Atlantis tests: states past the start, hand-made maps."""

from __future__ import annotations

from engine.finding_atlantis import data
from engine.finding_atlantis.actions import ChooseCaptain, FirstMove
from engine.finding_atlantis.mapgen import world_of
from engine.finding_atlantis.rules import FindingAtlantisGame
from engine.finding_atlantis.state import hand_for
from engine.components import put
from engine.core import replace

GAME = FindingAtlantisGame()


def started(seed: int = 1, players: int = 2, **options):
    """A state in the play phase: everyone kept their first captain and moved north
    (then the positions are whatever that gave)."""
    state = GAME.setup(GAME.parse_options(options), players, seed)
    while state.phase == "captain":
        state, _ = GAME.apply(state, state.turn, ChooseCaptain(state.offers[state.turn][0]))
    while state.phase == "first_move":
        state, _ = GAME.apply(state, state.turn, FirstMove(0))
    return state


def terrain_for(n: int, atlantis, artifacts) -> tuple[int, ...]:
    w = n + 2
    t = [data.DEEP] * (w * w)
    for cells, kind in ((atlantis, data.ATLANTIS), (artifacts, data.ARTIFACT)):
        for c in cells:
            x = world_of(n, c)
            t[x] = kind
            for o in (-w, 1, w, -1):
                if t[x + o] == data.DEEP:
                    t[x + o] = data.SEAMOUNT
    return tuple(t)


def cell(n: int, name: str) -> int:
    return (int(name[1:]) - 1) * n + "ABCDEFGH".index(name[0])


def on_map(state, atlantis=("C3", "D3", "D4", "E5"), artifacts=("A1", "F1", "A6", "F6")):
    n = state.n
    return replace(state, terrain=terrain_for(n, [cell(n, c) for c in atlantis], [cell(n, c) for c in artifacts]))


def at(state, seat: int, name: str, **changes):
    """Seat to move now at the named cell, with its turn, 2 actions and a full hand."""
    changes.setdefault("hands", put(state.hands, seat, hand_for(state.pirate)))
    return replace(state, pos=put(state.pos, seat, cell(state.n, name)), turn=seat,
                   actions_left=data.ACTIONS_PER_TURN, **changes)


def chart_at(state, seat: int, name: str) -> int:
    n = state.n
    return state.charts[seat][world_of(n, cell(n, name))]
