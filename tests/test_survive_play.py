"""Survive self-play: many whole games for 2-4 players end properly, every action a bot
picks is legal, ``legal`` (on the view) and ``apply`` (on the state) agree, the rules
never change a state in place, and the same seed gives the same game."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, SeatInfo
from engine.match import Match
from engine.record import canonical_bytes
from engine.survive import data
from engine.survive.rules import SurviveGame

GAME = SurviveGame()


def _play(seed: int, players: int, level: str = "random", options=None):
    match = Match(GAME, options or {}, [SeatInfo(f"P{i}", "bot") for i in range(players)], seed)
    bots = [GAME.make_bot(i, seed, level) for i in range(players)]
    moves = 0
    while match.result() is None:
        (seat,) = match.to_act()
        legal = match.legal(seat)
        assert legal, f"seat {seat} has nothing to do in phase {match.state.phase}"
        before = canonical_bytes(match.state)
        action = bots[seat].choose(match.view(seat), legal)
        match.act(seat, action)
        assert canonical_bytes(match.history[-1].before) == before   # never changed in place
        moves += 1
        assert moves < 3000
    return match, moves


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_bots_finish_many_games(players):
    for seed in range(20):
        match, moves = _play(seed, players)
        r = match.result()
        assert r.winners and max(r.scores) == r.scores[r.winners[0]]
        state = match.state
        assert state.phase == "over" and all(h != data.NOT_PLACED for h in state.explorer_hex)
        assert sum(1 for h in state.explorer_hex if h == data.SAVED) + sum(1 for h in state.explorer_hex
                                                                     if h == data.LOST) <= 10 * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_strong_bots_finish_games_and_save_explorers(players):
    saved = 0
    for seed in range(3):
        match, _ = _play(seed, players, "normal")
        saved += sum(1 for h in match.state.explorer_hex if h == data.SAVED)
    assert saved > 6


def test_memory_off_games_finish():
    for seed in range(10):
        match, _ = _play(seed, 2 + seed % 3, options={"memory": False})
        assert match.result() is not None


def test_every_listed_action_is_accepted_and_a_foreign_one_refused():
    for seed in range(8):
        n = 2 + seed % 3
        state = GAME.setup({}, n, seed)
        bots = [GAME.make_bot(i, seed, "random") for i in range(n)]
        steps = 0
        while GAME.result(state) is None and steps < 400:
            (q,) = GAME.to_act(state)
            legal = GAME.legal(GAME.view(state, q))
            if steps % 7 == 0:
                for a in legal[:40]:
                    GAME.apply(state, q, a)                     # none raises
                other = (q + 1) % n
                with pytest.raises(IllegalAction):
                    GAME.apply(state, other, legal[0])
            state, _ = GAME.apply(state, q, bots[q].choose(GAME.view(state, q), legal))
            steps += 1


def test_the_same_seed_gives_the_same_game():
    a, _ = _play(11, 3)
    b, _ = _play(11, 3)
    assert a.digest() == b.digest() and [m.digest for m in a.record.moves] == [m.digest for m in b.record.moves]


def test_records_replay_and_verify():
    match, _ = _play(5, 4)
    positions = list(Match.replay(match.record, GAME))
    assert positions[-1].problem is None and len(positions) == len(match.record.moves) + 1
