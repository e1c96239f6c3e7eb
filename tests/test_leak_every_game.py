"""The leak harness (``tests/leakcheck.py``) over every registered game, with the
re-randomiser its manifest names: a game's views are checked as soon as it is registered.
Each game's own ``test_<game>_leak.py`` goes further: the events too (some reveal a hidden
thing by rule, which only the game's own test knows), more seeds, its strong bot, canaries."""

from __future__ import annotations

import pytest

from engine.registry import GAMES, MANIFESTS
from leakcheck import assert_no_leak, play_and_check


@pytest.mark.parametrize("slug", list(GAMES))
def test_random_games_do_not_leak(slug):
    game = GAMES[slug]
    report = play_and_check(game, range(3), players=(game.min_players,), max_moves=40, compare_events=False,
                            rerandomise=MANIFESTS[slug].rerandomiser(game))
    assert_no_leak(report)
    assert report.views_compared and report.rerandomised_differs


@pytest.mark.parametrize("slug", list(GAMES))
def test_the_harness_rejects_a_rerandomise_that_changes_nothing(slug):
    report = play_and_check(GAMES[slug], range(2), max_moves=10, rerandomise=lambda state, seat, rng: state)
    assert not report.ok and "proved nothing" in report.leaks[-1]
