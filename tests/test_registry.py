"""The registry loads each game's rules lazily (issue 15: start time), and what it tells
without loading them (GAME_INFO: the menu's names and seat counts) agrees with the rules."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.registry import GAME_INFO, GAMES, get_game

ROOT = Path(__file__).resolve().parents[1]
RULES = [info.path.partition(":")[0] for info in GAME_INFO.values()]


def test_game_info_agrees_with_each_rules_class():
    for slug, info in GAME_INFO.items():
        game = get_game(slug)
        assert (game.slug, game.title, game.min_players, game.max_players) == (
            info.slug, info.title, info.min_players, info.max_players), slug
        assert tuple(game.seat_names[: info.max_players]) == info.seat_names[: info.max_players], slug
        assert len(info.seat_names) >= info.max_players, slug
        assert GAMES[slug] is game  # one Game object per slug


def test_unknown_game_names_the_known_ones():
    assert "nope" not in GAMES
    with pytest.raises(KeyError, match="known games: atlantis"):
        get_game("nope")


def test_importing_the_app_and_the_registry_loads_no_rules_module():
    script = ("import json, sys\nimport engine.registry, tui.app\n"
              "from engine.registry import GAMES\n"
              "names = sorted(GAMES); 'pathways' in GAMES; len(GAMES)\n"
              "before = sorted(m for m in sys.modules if m.endswith('.rules'))\n"
              "GAMES['survive']\n"
              "after = sorted(m for m in sys.modules if m.endswith('.rules'))\n"
              "print(json.dumps([before, after, GAMES.loaded()]))\n")
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    before, after, loaded = json.loads(proc.stdout)
    assert not set(before) & set(RULES), before
    assert set(after) & set(RULES) == {"engine.survive.rules"} and loaded == ["survive"]
