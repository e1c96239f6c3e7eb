"""Atlantis: ``legal`` and ``apply`` agree on the moves of a player with two figures on
the mainland (the moves the revised end changed), over many random positions: every
action offered is accepted, every other one refused, and each offered action that
brings the third figure home ends the game at once with no plate taken and 4 cards
drawn."""

from __future__ import annotations

import pytest

from engine.atlantis import data
from engine.atlantis.bot import make_bot
from engine.atlantis.rules import AtlantisGame
from engine.core import IllegalAction

from test_atlantis_legal_enumeration import CANDIDATES

GAME = AtlantisGame()


def test_legal_and_apply_agree_when_a_move_may_end_the_game():
    positions = finals = 0
    for seed in range(30):
        players = 2 + seed % 3
        state = GAME.setup(GAME.parse_options({}), players, seed)
        bots = [make_bot(p, seed, "normal") for p in range(players)]
        while GAME.result(state) is None:
            seat = state.turn
            view = GAME.view(state, seat)
            legal = GAME.legal(view)
            if state.figures[seat].count(data.MAINLAND) == 2:
                positions += 1
                for action in CANDIDATES:
                    if action in legal:
                        after, events = GAME.apply(state, seat, action)   # never raises
                        if after.phase == "over" and after.end_reason.startswith("all three figures"):
                            kinds = [e.kind for e in events]
                            assert "took" not in kinds and after.plates[seat] == state.plates[seat]
                            assert [e.data["count"] for e in events if e.kind == "drew"] == [data.FINAL_DRAW]
                            finals += 1
                    else:
                        with pytest.raises(IllegalAction):
                            GAME.apply(state, seat, action)
            state, _ = GAME.apply(state, seat, bots[seat].choose(view, legal))
    assert positions > 100 and finals > 30, (positions, finals)
