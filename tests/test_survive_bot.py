"""Survive bots: the RescueBot plays from its view only, quickly, and beats random play."""

from __future__ import annotations


from engine.core import SeatInfo
from engine.match import Match
from engine.survive.bot import RandomBot, RescueBot, make_bot
from engine.survive.rules import SurviveGame

GAME = SurviveGame()


def _game(seed: int, levels: list[str]):
    match = Match(GAME, {}, [SeatInfo(f"P{i}", "bot") for i in range(len(levels))], seed)
    bots = [make_bot(i, seed, lv) for i, lv in enumerate(levels)]
    while match.result() is None:
        (seat,) = match.to_act()
        view, legal = match.view(seat), match.legal(seat)
        action = bots[seat].choose(view, legal)
        assert action in legal
        match.act(seat, action)
    return match.result()


def test_make_bot_levels():
    assert isinstance(make_bot(0, 1, "normal"), RescueBot)
    assert isinstance(make_bot(0, 1, "random"), RandomBot)


def test_rescue_bot_beats_three_random_bots_in_most_four_player_games():
    """(Its thinking time is a figure of ``make bench``, not a test.)"""
    wins = 0.0
    n = 16
    for seed in range(n):
        levels = ["random"] * 4
        levels[seed % 4] = "normal"
        result = _game(seed, levels)
        if seed % 4 in result.winners:
            wins += 1 / len(result.winners)
    assert wins / n >= 0.7, wins / n


def test_the_bot_is_deterministic_for_its_seed():
    a = _game(3, ["normal", "normal", "random"])
    b = _game(3, ["normal", "normal", "random"])
    assert a == b


def test_the_bot_remembers_its_values_from_setup_only():
    bot = RescueBot(0, 1)
    state = GAME.setup({}, 2, 1)
    view = GAME.view(state, 0)
    bot.choose(view, GAME.legal(view))
    assert bot.memory == {e: state.values[e] for e in range(10)}
