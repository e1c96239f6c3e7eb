"""Every game's position evaluation (``evaluate(state)``, named by its manifest), which
scores the hard bot's rollouts where they are cut short:

* one value per seat, each in [0, 1], at positions all through bot games, at two and
  at the most players;
* a finished game's values are its result: the winners score highest;
* it reads the state alone: the same state gives the same values, and the state
  is left as it was;
* the hard bot built with it still moves the same when what it cannot see is re-drawn.
"""

from __future__ import annotations

import pytest

from engine.core import to_data
from engine.evaluation import margin_values
from engine.levels import evaluation_of, hard_bot
from engine.record import canonical_bytes
from engine.registry import GAMES
from engine.search import DEFAULT_ITERATIONS, BotPolicy, random_policy

from test_bot_levels import choices_on_rerandomised, positions

SLUGS = sorted(GAMES)


def finished(slug: str, players: int, seed: int):
    game = GAMES[slug]
    state = game.setup(game.parse_options({}), players, seed)
    bots = [game.make_bot(p, seed, "normal") for p in range(players)]
    for _ in range(5000):
        if game.result(state) is not None:
            return state
        seat = min(game.to_act(state))
        view = game.view(state, seat)
        state, _ = game.apply(state, seat, bots[seat].choose(view, game.legal(view)))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("slug", SLUGS)
def test_values_are_one_per_seat_in_range(slug):
    game = GAMES[slug]
    evaluate = evaluation_of(game)
    assert evaluate is not None
    checked = 0
    for players in sorted({game.min_players, game.max_players}):
        for state, _ in positions(slug, players, range(2), 150, 5):
            values = evaluate(state)
            assert len(values) == players
            assert all(0.0 <= v <= 1.0 for v in values), values
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("slug", SLUGS)
def test_the_winner_of_a_finished_game_scores_highest(slug):
    game = GAMES[slug]
    evaluate = evaluation_of(game)
    for seed in (1, 2):
        state = finished(slug, game.min_players, seed)
        values = evaluate(state)
        winners = game.result(state).winners
        for w in winners:
            assert values[w] == max(values)
            assert all(values[p] < values[w] for p in range(game.min_players) if p not in winners)


@pytest.mark.parametrize("slug", SLUGS)
def test_it_reads_the_state_alone(slug):
    game = GAMES[slug]
    evaluate = evaluation_of(game)
    for state, _ in positions(slug, game.min_players, range(1), 60, 15):
        before = canonical_bytes(to_data(state))
        assert evaluate(state) == evaluate(state)
        assert canonical_bytes(to_data(state)) == before


def test_only_the_lead_over_the_best_other_seat_counts():
    assert margin_values([5, 5], 3.0) == (0.5, 0.5)
    low, high = margin_values([0, 6], 3.0)
    assert low < 0.5 < high and abs(low + high - 1) < 1e-9
    assert margin_values([1, 9, 9], 2.0)[1] == 0.5


@pytest.mark.parametrize("slug", SLUGS)
def test_the_hard_bot_with_its_evaluation_ignores_what_it_cannot_see(slug):
    pairs = choices_on_rerandomised(slug, lambda state, seat: hard_bot(
        GAMES[slug], seat, 7, iterations=6, think=None, rollout="random"), seeds=range(2))
    assert len(pairs) >= 2
    assert all(a == b for a, b in pairs), pairs


def test_a_game_may_name_its_own_rollout_depth():
    assert hard_bot(GAMES["pathways"], 0, 1, think=None).rollout_cap == GAMES["pathways"].manifest.rollout_depth
    assert hard_bot(GAMES["atlantis"], 0, 1, think=None).rollout_cap == 8
    assert hard_bot(GAMES["atlantis"], 0, 1, think=None, depth=0).evaluate is None


def test_a_game_may_name_its_own_rollout_policy_and_budget():
    survive = GAMES["survive"].manifest
    bot = hard_bot(GAMES["survive"], 0, 1, think=None)
    assert isinstance(bot.policy, BotPolicy) and bot.policy.level == survive.rollout
    assert bot.iterations == survive.search_iterations
    assert hard_bot(GAMES["survive"], 0, 1, think=None, rollout="random", iterations=5).policy is random_policy
    assert hard_bot(GAMES["atlantis"], 0, 1, think=None).policy is random_policy
    assert hard_bot(GAMES["atlantis"], 0, 1, think=None).iterations == DEFAULT_ITERATIONS
