"""``atlantis arena``: bots of given levels play whole games through a Match, seats rotate,
and the report counts every game and every seat-game."""

from __future__ import annotations

import json

import pytest

from engine.registry import GAMES
from tui.arena import arena
from tui.cli import main


@pytest.mark.parametrize("slug", list(GAMES))
def test_the_arena_plays_whole_games_with_rotated_seats(slug):
    out = arena(slug, ["normal", "easy"], 2, seed=3)
    assert out["unfinished"] == 0 and not out["refused"]
    assert sum(level["seat_games"] for level in out["levels"].values()) == 4  # 2 games x 2 seats


def test_the_arena_command_prints_json(capsys):
    assert main(["arena", "pathways", "--seats", "normal,random", "--games", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["levels"]) == {"normal", "random"}


def test_the_arena_passes_the_hard_bots_budget_and_rollout_depth(capsys):
    assert main(["arena", "pathways", "--seats", "hard,normal", "--games", "1", "--iterations", "3",
                 "--depth", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["depth"] == 2 and out["search"]["iterations_per_decision"] <= 3
    assert 0 < out["search"]["rollout_length"] <= 2
