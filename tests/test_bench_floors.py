"""The floors ``make bench`` measures a missed goal against (issue 15, items 3 and 4):
the self-play loop driving a game that does nothing (``bench.selfplay.loop_floor``),
the parts of a real game's step (``ablate``), and each action's path through a host
process (``bench.lanload._PathClock``).  No figure is checked: only that each is
measured on what it says."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench():
    """``bench`` is not an installed package: imported from the checkout."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return (importlib.import_module("bench.selfplay"), importlib.import_module("bench.lanload"))


def test_the_null_game_is_played_through_the_same_loop_and_match(bench):
    selfplay, _ = bench
    sp = selfplay.loop_floor(games=3)
    assert sp.games == 3 and sp.actions == 3 * selfplay._NULL_MOVES
    # every game was replayed with apply alone, as a real game's is
    assert len(sp.played) == 3 and all(len(moves) == selfplay._NULL_MOVES for *_, moves in sp.played)
    # the random bot chose among the null game's legal actions, from its keyed stream
    chosen = {action for *_, moves in sp.played for _, action in moves}
    assert chosen == set(selfplay._NULL_LEGAL)


def test_the_null_game_keeps_the_engine_contract(bench):
    from engine.core import SeatInfo
    from engine.match import Match

    selfplay, _ = bench
    game = selfplay._NullGame()
    match = Match(game, {}, [SeatInfo(f"P{i}", "bot") for i in range(4)], 7)
    for k in range(selfplay._NULL_MOVES):
        assert match.to_act() == frozenset((k % 4,)) and match.result() is None
        assert match.legal(k % 4) == list(selfplay._NULL_LEGAL)
        match.act(k % 4, "a")
    assert match.result() is not None and len(match.history) == selfplay._NULL_MOVES


def test_the_ablation_replays_the_moves_self_play_made(bench):
    selfplay, _ = bench
    sp = selfplay.random_selfplay("pathways", 1, reference="both")
    game, _ = selfplay.game_and_bots("pathways")
    parts = selfplay.ablate(game, sp.played, games=1)
    assert set(parts) == {"apply", "act", "view", "legal"}
    assert parts["apply"] > 0


def test_the_path_clock_keeps_only_frames_that_fanned_out(bench, capsys):
    _, lanload = bench
    clock = lanload._PathClock()
    clock.begin()
    for _ in range(3):  # (a frame answered by 3 sends: not an action's fan-out to 4)
        clock.sent()
    clock.end()
    assert clock.samples == []
    clock.begin()
    for _ in range(4):
        clock.sent()
    clock.end()
    assert len(clock.samples) == 1 and clock.samples[0] >= 0
    clock.report()
    line = capsys.readouterr().out.strip()
    assert line.startswith("path ") and len(line.split()) == 2


@pytest.mark.timeout(60)
async def test_the_round_trips_read_both_processes_paths(bench):
    netplay = importlib.import_module("bench.netplay")
    rt = await netplay.round_trips(12)
    assert rt["host_path"] > 0 and rt["floor_path"] > 0
