"""Atlantis played whole: bots over many seeds for 2-4 players, records that replay,
determinism across processes and hash seeds, and the bot's strength."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from engine.atlantis import data
from engine.atlantis.rules import AtlantisGame
from engine.match import replay_states
from engine.storage import load_record, save_record
from tui.cli import main
from tui.selfplay import play_one

ROOT = Path(__file__).resolve().parents[1]
SLUG = "atlantis"
GAME = AtlantisGame()


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("level", ["normal", "random", "random-move"])
def test_bots_finish_whole_games_over_many_seeds(players, level):
    reasons: Counter = Counter()
    for seed in range(25):
        match = play_one(SLUG, seed, players, {}, [level] * players)
        r = match.result()
        assert r is not None, (players, level, seed)
        reasons[r.reason] += 1
        state = match.state
        assert all(fs == (data.MAINLAND,) * 3 for fs in state.figures)
        # every card is somewhere, every plate is somewhere (route, under a top, a player, sold)
        cards = Counter(state.pile + state.discard + sum(state.hands, ()))
        assert sum(cards.values()) == 105
        held = sum(len(p) for p in state.plates) + sum(state.heights)
        assert held <= 84
        assert len(r.winners) >= 1 and max(r.scores) == r.scores[r.winners[0]]
    assert reasons["all three figures of one player reached the mainland"] >= 20


def test_a_record_replays_with_every_digest_and_through_the_cli(tmp_path, capsys):
    match = play_one(SLUG, seed=5, players=3)
    path = save_record(match.record, tmp_path / "atlantis.atlrec")
    record = load_record(path)
    last = None
    for _, state, problem in replay_states(record, GAME):
        assert problem is None
        last = state
    assert GAME.result(last) == match.result()
    assert main(["replay", str(path), "--verify"]) == 0
    assert "every digest matches" in capsys.readouterr().out


def test_selfplay_is_deterministic_across_processes_and_hash_seeds():
    outs = []
    for players in (2, 4):
        args = [sys.executable, "-m", "tui.cli", "selfplay", SLUG, "--games", "3", "--seed", "7",
                "--players", str(players), "--json"]
        got = []
        for hashseed in ("0", "4242"):
            proc = subprocess.run(args, cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": hashseed},
                                  capture_output=True, text=True, timeout=55)
            assert proc.returncode == 0, proc.stderr
            got.append(json.loads(proc.stdout))
        assert got[0]["digests"] == got[1]["digests"] and got[0]["finished"] == 3
        assert len(set(got[0]["digests"])) == 3
        outs.append(got[0])
    assert outs[0]["digests"] != outs[1]["digests"]


def _win_rate(opponent: str, seeds: range) -> float:
    wins = 0.0
    for seed in seeds:
        levels = ["normal", opponent] if seed % 2 == 0 else [opponent, "normal"]
        r = play_one(SLUG, seed, 2, {}, levels).result()
        me = seed % 2
        if me in r.winners:
            wins += 1 / len(r.winners)
    return wins / len(seeds)


def test_the_bot_clearly_beats_random_play():
    assert _win_rate("random", range(40)) >= 0.9
    assert _win_rate("random-move", range(40)) >= 0.7
