"""The bot levels (easy, normal, hard) and the hard bot's search (``engine.search``).

* the search is deterministic: the same seed, view and iteration budget give the
  same move and the same visit counts;
* every game's ``sample_hidden(view, rng)`` gives states whose view for the bot's
  seat encodes to the very bytes of the view it was given, over positions from
  bot games;
* leak-proof by test: re-drawing what the hard bot's seat cannot see (the leak
  harness's ``rerandomise``) does not change its move; a canary bot whose
  "sampler" returns the true state is caught by the same check;
* easy and hard bots play legal moves in every game.

Budgets are tiny (a few iterations, no wall-clock cap) so the tests stay fast and
never depend on timing.
"""

from __future__ import annotations

import pytest

from engine.core import to_data
from engine.levels import LEVELS, sampler_of
from engine.record import canonical_bytes
from engine.registry import GAMES
from engine.rng import Rng
from engine.search import BotPolicy, SearchBot, SearchStats, search

SLUGS = sorted(GAMES)


def positions(slug: str, players: int, seeds: range, steps: int, every: int):
    """(state, seat to act) every ``every`` actions of normal-bot games."""
    game = GAMES[slug]
    for seed in seeds:
        state = game.setup(game.parse_options({}), players, seed)
        bots = [game.make_bot(p, seed, "normal") for p in range(players)]
        for step in range(steps):
            if game.result(state) is not None:
                break
            seat = min(game.to_act(state))
            view = game.view(state, seat)
            if step % every == every - 1:
                yield state, seat
            state, _ = game.apply(state, seat, bots[seat].choose(view, game.legal(view)))


def small_bot(slug: str, seat: int, seed: int, sampler=None, iterations: int = 4) -> SearchBot:
    game = GAMES[slug]
    return SearchBot(game, seat, seed, sampler or sampler_of(game), iterations=iterations, think=None)


def test_search_is_deterministic_for_a_fixed_seed():
    game = GAMES["pathways"]
    state, seat = next(positions("pathways", 2, range(3, 4), 12, 12))
    view = game.view(state, seat)
    legal = game.legal(view)
    runs = []
    for _ in range(2):
        stats = SearchStats()
        action, rng = search(game, view, legal, sampler_of(game), Rng.from_seed(5, "t"),
                             iterations=12, think=None, stats=stats)
        runs.append((action, rng, stats.visits, stats.rollout_steps))
    assert runs[0] == runs[1]
    assert sum(runs[0][2].values()) == 12


def test_bot_rollouts_are_deterministic_too():
    game = GAMES["atlantis"]
    state, seat = next(positions("atlantis", 3, range(2, 3), 9, 9))
    view = game.view(state, seat)
    moves = [SearchBot(game, seat, 4, sampler_of(game), iterations=5, think=None,
                       policy=BotPolicy("normal")).choose(view, game.legal(view)) for _ in range(2)]
    assert moves[0] == moves[1]


@pytest.mark.parametrize("slug", SLUGS)
def test_samples_agree_with_the_view(slug):
    game = GAMES[slug]
    sample = sampler_of(game)
    rng = Rng.from_seed(1, "samples")
    checked = 0
    for players in sorted({game.min_players, min(4, game.max_players)}):
        for state, _ in positions(slug, players, range(2), 160, 4):
            for seat in range(players):
                view = game.view(state, seat)
                sampled, rng = sample(view, rng)
                assert canonical_bytes(to_data(game.view(sampled, seat))) == canonical_bytes(to_data(view))
                checked += 1
    assert checked > 40


def choices_on_rerandomised(slug: str, make_bot, players: int = 2, seeds: range = range(3)):
    """For positions where a seat is to act with a real choice: (its move in the real
    state, its move in a state re-drawn where it cannot see), by fresh bots."""
    game = GAMES[slug]
    rng = Rng.from_seed(9, "rerandomise")
    pairs = []
    for state, seat in positions(slug, players, seeds, 120, 11):
        legal = game.legal(game.view(state, seat))
        if len(legal) < 2:
            continue
        other = game.rerandomise(state, seat, rng)
        rng = rng.fork("next")
        moves = []
        for s in (state, other):
            view = game.view(s, seat)
            moves.append(make_bot(s, seat).choose(view, game.legal(view)))
        pairs.append(tuple(moves))
    return pairs


@pytest.mark.parametrize("slug", SLUGS)
def test_hard_bot_move_does_not_depend_on_what_it_cannot_see(slug):
    pairs = choices_on_rerandomised(slug, lambda state, seat: small_bot(slug, seat, 7))
    assert len(pairs) >= 3
    assert all(a == b for a, b in pairs), pairs


def test_the_check_catches_a_bot_that_reads_the_true_state():
    """A canary: its sampler ignores the view and hands the search the true state."""
    def cheat(state, seat):
        return small_bot("atlantis", seat, 7, sampler=lambda view, rng: (state, rng), iterations=12)

    caught = any(a != b for seed in range(4)
                 for a, b in choices_on_rerandomised("atlantis", cheat, seeds=range(seed, seed + 1)))
    assert caught


@pytest.mark.parametrize("slug", SLUGS)
def test_easy_and_hard_bots_play_legal_moves(slug):
    game = GAMES[slug]
    players = game.min_players
    state = game.setup(game.parse_options({}), players, 11)
    bots = [game.make_bot(0, 11, "easy"), small_bot(slug, 1, 11, iterations=2)]
    for _ in range(60):
        if game.result(state) is not None:
            break
        seat = min(game.to_act(state))
        view = game.view(state, seat)
        legal = game.legal(view)
        action = bots[seat].choose(view, legal)
        assert action in legal
        state, _ = game.apply(state, seat, action)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_game_offers_the_three_levels(slug):
    game = GAMES[slug]
    kinds = {level: type(game.make_bot(0, 1, level)).__name__ for level in LEVELS}
    assert kinds["hard"] == "SearchBot" and kinds["easy"] == "EasyBot"
    assert kinds["normal"] not in ("SearchBot", "EasyBot")


def test_hard_bot_acts_for_its_own_seat_when_several_choose_at_once():
    """End of Atlantis's secret bids: every seat chooses at once; a bot that is not
    the first of them still searches its own choices."""
    game = GAMES["end-of-atlantis"]
    state = game.setup(game.parse_options({}), 3, 5)
    bots = [game.make_bot(p, 5, "normal") for p in range(3)]
    for _ in range(400):
        acting = game.to_act(state)
        if len(acting) > 1:
            break
        seat = min(acting)
        view = game.view(state, seat)
        state, _ = game.apply(state, seat, bots[seat].choose(view, game.legal(view)))
    acting = sorted(game.to_act(state))
    assert len(acting) > 1
    seat = acting[-1]
    view = game.view(state, seat)
    legal = game.legal(view)
    assert small_bot("end-of-atlantis", seat, 5, iterations=3).choose(view, legal) in legal


def test_a_determinization_serves_resample_iterations():
    game = GAMES["survive"]
    state, seat = next(positions("survive", 2, range(3, 4), 30, 30))
    view = game.view(state, seat)
    legal = game.legal(view)
    calls = []

    def counting(view, rng):
        calls.append(1)
        return sampler_of(game)(view, rng)

    runs = []
    for _ in range(2):
        calls.clear()
        action, _ = search(game, view, legal, counting, Rng.from_seed(5, "t"), iterations=12, think=None,
                           resample=4, rollout_cap=6)
        runs.append((action, len(calls)))
    assert runs[0] == runs[1] and runs[0][1] == 3
