"""The Pathways bots: they finish games, only ever choose legal actions, and choose the
same way every time (same seed and views -> same game, in any process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core import Bot, SeatInfo
from engine.match import Match
from engine.pathways import data
from engine.pathways.bot import PathfinderBot, RandomBot, goal_field, make_bot
from engine.pathways.rules import PathwaysGame

ROOT = Path(__file__).resolve().parents[1]
GAME = PathwaysGame()
MAX_ACTIONS = 5000


class _Checked(Bot):
    """Wraps a bot and fails the test the moment it picks something not in ``legal``."""

    def __init__(self, inner: Bot):
        self.inner = inner

    def choose(self, view, legal):
        assert legal, "a bot was asked to act with nothing legal"
        action = self.inner.choose(view, list(legal))
        assert action in legal, f"{type(self.inner).__name__} chose {action!r}, not a legal action"
        return action


def play(seed: int, levels: list[str], **options) -> Match:
    match = Match(GAME, options, [SeatInfo(f"P{i}", "bot") for i in range(len(levels))], seed)
    bots = [_Checked(make_bot(i, seed, lv)) for i, lv in enumerate(levels)]
    for _ in range(MAX_ACTIONS):
        if match.result() is not None:
            return match
        (seat,) = match.to_act()
        match.submit(seat, bots[seat].choose(match.view(seat), match.legal(seat)))
    raise AssertionError(f"seed {seed}: no result after {MAX_ACTIONS} actions")


@pytest.mark.parametrize("seed", range(30))
def test_bots_finish_self_play_with_only_legal_actions(seed):
    players = 2 + seed % 3
    match = play(seed, ["normal"] * players)
    result = match.result()
    assert result is not None and result.winners
    assert len(result.scores) == players


@pytest.mark.parametrize("seed", range(6))
def test_strong_bot_against_random_bots_stays_legal(seed):
    players = 2 + seed % 3
    levels = ["random"] * players
    levels[seed % players] = "normal"
    # a short round limit also exercises the end-by-limit path
    match = play(seed, levels, max_rounds=5 + seed * 5)
    assert match.result() is not None


def test_same_seed_same_game():
    a = play(11, ["normal", "normal", "normal"])
    b = play(11, ["normal", "normal", "normal"])
    assert [m.to_map() for m in a.record.moves] == [m.to_map() for m in b.record.moves]
    assert a.digest() == b.digest()


SELF_PLAY = r"""
import json
from engine.core import SeatInfo
from engine.match import Match
from engine.pathways.rules import PathwaysGame
game = PathwaysGame()
out = {}
for seed, n in ((3, 2), (4, 3), (5, 4)):
    match = Match(game, {}, [SeatInfo(f"P{i}", "bot") for i in range(n)], seed)
    bots = [game.make_bot(i, seed, "normal") for i in range(n)]
    while match.result() is None:
        (seat,) = match.to_act()
        match.submit(seat, bots[seat].choose(match.view(seat), match.legal(seat)))
    out[str(seed)] = [match.digest(), len(match.record.moves)]
print(json.dumps(out, sort_keys=True))
"""


def test_bot_games_are_identical_under_any_hash_seed():
    runs = []
    for hashseed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        proc = subprocess.run([sys.executable, "-c", SELF_PLAY], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=50)
        assert proc.returncode == 0, proc.stderr
        runs.append(json.loads(proc.stdout))
    assert runs[0] == runs[1]


def test_bot_is_deterministic_for_the_same_views():
    """Two bots with the same seed, shown the same views, make the same choices."""
    match = Match(GAME, {}, [SeatInfo("A", "bot"), SeatInfo("B", "bot")], 21)
    twins = [(make_bot(i, 21), make_bot(i, 21)) for i in range(2)]
    while match.result() is None:
        (seat,) = match.to_act()
        view, legal = match.view(seat), match.legal(seat)
        first, second = (b.choose(view, legal) for b in twins[seat])
        assert first == second
        match.submit(seat, first)


def test_levels():
    assert isinstance(make_bot(0, 1, "normal"), PathfinderBot)
    assert isinstance(make_bot(1, 1, "random"), RandomBot)
    assert isinstance(GAME.make_bot(0, 1), PathfinderBot)
    with pytest.raises(ValueError):
        make_bot(0, 1, "grandmaster")


def test_bot_walks_into_atlantis_when_it_can():
    """A subpod one step from the city steps in, whatever else is on offer."""
    from dataclasses import replace

    state = GAME.setup(GAME.parse_options({}), 2, 3)
    cells, masks = list(state.cells), list(state.masks)
    outside = 34  # row 3, column 4: Atlantis is to its south
    cells[outside] = 10
    masks[outside] = data.N | data.S
    cells[24], masks[24] = 11, data.N | data.S
    state = replace(state, cells=tuple(cells), masks=tuple(masks),
                    pods=(24, state.pods[1]), phase="move", steps_left=data.OWN_MOVE)
    view = GAME.view(state, 0)
    action = make_bot(0, 3).choose(view, GAME.legal(view))
    after, _ = GAME.apply(state, 0, action)
    if after.phase != "over":
        view = GAME.view(after, 0)
        after, _ = GAME.apply(after, 0, make_bot(0, 3).choose(view, GAME.legal(view)))
    assert after.winners == (0,)


def test_goal_field_counts_steps_and_tiles_to_lay():
    state = GAME.setup(GAME.parse_options({}), 2, 3)
    h = goal_field(state.cells, state.masks)
    # from a corner: 7 empty cells to fill and walk, then one step into the city
    assert h[0] == 7 * 5 + 2
    # a cell touching Atlantis is one step from it
    assert h[34] == 2


def test_strong_bot_beats_random_play():
    wins = 0.0
    for seed in range(20):
        levels = ["normal", "random"] if seed % 2 == 0 else ["random", "normal"]
        result = play(seed, levels).result()
        if levels.index("normal") in result.winners:
            wins += 1 / len(result.winners)
    assert wins >= 16


# --- the self-play hot path keeps its meaning -------------------------------------------
def test_fast_digest_encodes_exactly_like_to_data():
    """record.canonical_bytes packs states with a msgpack hook instead of to_data; the bytes
    must stay those of msgpack over core.to_data, for states and views alike."""
    import msgpack

    from engine.core import to_data
    from engine.record import canonical_bytes

    for seed in range(4):
        match = Match(GAME, {}, [SeatInfo(f"P{i}", "bot") for i in range(2 + seed % 3)], seed)
        bots = [make_bot(i, seed, "random" if seed % 2 else "normal") for i in range(len(match.seats))]
        while match.result() is None:
            (seat,) = match.to_act()
            view = match.view(seat)
            for obj in (match.state, view):
                assert canonical_bytes(obj) == msgpack.packb(to_data(obj), use_bin_type=True)
            match.submit(seat, bots[seat].choose(view, match.legal(seat)))


def test_deliveries_show_each_seat_its_own_view_and_events():
    match = Match(GAME, {}, [SeatInfo("A", "bot"), SeatInfo("B", "bot")], 5)
    bots = [make_bot(i, 5) for i in range(2)]
    for _ in range(40):
        if match.result() is not None:
            break
        (seat,) = match.to_act()
        out = match.submit(seat, bots[seat].choose(match.view(seat), match.legal(seat)))
        assert set(out) == {0, 1, None}
        for who, delivery in out.items():
            assert delivery.view == GAME.view(match.state, who)
            assert all(e.visible_to(who) for e in delivery.events)
            assert isinstance(delivery.events, tuple)
