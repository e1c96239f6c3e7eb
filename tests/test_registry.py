"""The registry finds every game from its one list of game packages, loads each game's
rules lazily (start time), and what each manifest tells without loading them (the menu's
names, seat counts and bot levels) agrees with the rules."""

from __future__ import annotations

import dataclasses
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import BaseModel

from engine.options import options_data, outside_model
from engine.registry import GAME_PACKAGES, GAMES, MANIFESTS, get_game, option_fields

ROOT = Path(__file__).resolve().parents[1]
RULES = [info.rules.partition(":")[0] for info in MANIFESTS.values()]


def test_the_registry_holds_one_game_per_package_of_its_list_sorted_by_slug():
    assert [info.package for info in sorted(MANIFESTS.values(), key=lambda info: info.package)] == \
        sorted(GAME_PACKAGES)
    assert list(MANIFESTS) == sorted(MANIFESTS) == list(GAMES)


def test_each_manifest_agrees_with_its_rules_class():
    for slug, info in MANIFESTS.items():
        game = get_game(slug)
        assert (game.slug, game.title, game.min_players, game.max_players) == (
            info.slug, info.title, info.min_players, info.max_players), slug
        assert tuple(game.seat_names[: info.max_players]) == info.seat_names[: info.max_players], slug
        assert len(info.seat_names) >= info.max_players, slug
        assert GAMES[slug] is game  # one Game object per slug
        for level in info.bot_levels:
            assert hasattr(game.make_bot(0, 1, level), "choose"), (slug, level)
        assert info.option_fields() == tuple(importlib.import_module(f"{info.package}.options").FIELDS)


def test_registering_a_package_again_changes_nothing():
    from engine.registry import register_game

    assert register_game("engine.survive") is MANIFESTS["survive"]
    assert list(MANIFESTS) == sorted(MANIFESTS)


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


def test_each_games_options_are_a_plain_frozen_dataclass_of_its_field_table():
    for slug in MANIFESTS:
        game = get_game(slug)
        options = game.options_model()
        assert dataclasses.is_dataclass(options) and not isinstance(options, BaseModel), slug
        assert options_data(options) == {row.name: row.default for row in option_fields(slug)}, slug
        with pytest.raises(dataclasses.FrozenInstanceError):
            options.anything = 1  # type: ignore[misc]


def test_options_from_outside_are_checked_by_the_model_built_from_the_same_table():
    for slug in MANIFESTS:
        game = get_game(slug)
        defaults = {row.name: row.default for row in option_fields(slug)}
        for raw in (None, {}, defaults):
            opts = game.parse_options(raw)
            assert type(opts) is game.options_model and opts == game.options_model(), (slug, raw)
            assert game.parse_options(opts) is opts
        checked = outside_model(game.options_model).model_validate(defaults)
        assert checked.model_dump(mode="json") == defaults, slug
    pathways = get_game("pathways")
    changed = pathways.parse_options({"max_rounds": 10})
    assert type(changed) is pathways.options_model and changed.max_rounds == 10
    # a value pydantic would coerce or refuse goes to pydantic, as before
    assert pathways.parse_options({"max_rounds": 60.0}).max_rounds == 60
    with pytest.raises(ValueError, match="bad option max_rounds"):
        pathways.parse_options({"max_rounds": 1})
    with pytest.raises(ValueError, match="bad option nope"):
        pathways.parse_options({"nope": 1})
    with pytest.raises(ValueError, match="size must be 6 or 8"):
        get_game("finding-atlantis").parse_options({"size": 7})
    ships = get_game("end-of-atlantis").parse_options({"chosen_ships": "a+, b,c,d+,e"}).chosen_ships
    assert ships == "A+,B,C,D+,E"  # a game's own check may also tidy the value


def test_a_local_table_at_default_options_starts_without_pydantic():
    script = ("import json, sys\n"
              "from engine.registry import get_game\nfrom tui.common import seats_for\n"
              "from tui.seat_links import LocalTable\nimport tui.app\nout = {}\n"
              "from engine.registry import GAMES\n"
              "for slug in GAMES:\n"
              "    t = LocalTable.new(get_game(slug), {}, seats_for(slug, 2, 1), 7)\n"
              "    out[slug] = t.match.record.options\n"
              "print(json.dumps([out, 'pydantic' in sys.modules]))\n")
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    options, pydantic_loaded = json.loads(proc.stdout.splitlines()[-1])
    assert not pydantic_loaded
    for slug, recorded in options.items():
        assert recorded == options_data(get_game(slug).options_model()), slug
