"""End of Atlantis's random bot draws its index straight from its stream's cursor: its
choices are those of ``Draws.choice`` on the same stream (``eoa-random-<seat>`` of the
seed), decision after decision, over whole seeded games at every player count."""

from __future__ import annotations

from engine.end_of_atlantis.bot import make_bot
from engine.end_of_atlantis.rules import EndOfAtlantisGame
from engine.rng import Draws, Rng

GAME = EndOfAtlantisGame()


def test_end_of_atlantis_random_bot_chooses_what_draws_choice_of_its_stream_chooses():
    decisions = 0
    for seed in range(4):
        players = 2 + seed
        state = GAME.setup(GAME.parse_options({}), players, seed)
        bots = [make_bot(p, seed, "random") for p in range(players)]
        streams = [Draws(Rng.from_seed(seed, f"eoa-random-{p}")) for p in range(players)]
        while GAME.result(state) is None:
            seat = min(GAME.to_act(state))
            view = GAME.view(state, seat)
            legal = GAME.legal(view)
            action = bots[seat].choose(view, legal)
            assert action is streams[seat].choice(legal)
            decisions += 1
            state, _ = GAME.apply(state, seat, action)
        assert [bot.rng for bot in bots] == [stream.rng for stream in streams]
    assert decisions > 1000
