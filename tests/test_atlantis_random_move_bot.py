"""Atlantis: the random-move bot finishes games where its plan is of an earlier turn."""

from engine.atlantis.bot import make_bot
from engine.atlantis.rules import AtlantisGame

GAME = AtlantisGame()


def test_random_move_bot_with_a_plan_of_an_earlier_turn_still_finishes_the_game():
    # seed 541, 3 players: a turn begins with one choice only (no new plan made) and the
    # plan left from an earlier turn is one card long; it used to index past its end
    state = GAME.setup(GAME.parse_options({}), 3, 541)
    bots = [make_bot(p, 541, "random-move") for p in range(3)]
    moves = 0
    while GAME.result(state) is None:
        view = GAME.view(state, state.turn)
        state, _ = GAME.apply(state, state.turn, bots[state.turn].choose(view, GAME.legal(view)))
        moves += 1
    assert moves > 73
