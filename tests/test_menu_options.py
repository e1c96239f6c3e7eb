"""The games' options as plain data (``FIELDS`` in engine/<game>/options.py): the menu draws
its fields from them without pydantic or the rules (start time), and each
game's pydantic model is built from the same table."""

from __future__ import annotations

import json
import subprocess
import sys
import typing
from pathlib import Path

import pytest
from pydantic import ValidationError

from engine.options import options_data, outside_model
from engine.registry import GAMES, MANIFESTS, option_fields

ROOT = Path(__file__).resolve().parents[1]


def _bounds(info) -> tuple[int | None, int | None]:
    low = next((m.ge for m in info.metadata if getattr(m, "ge", None) is not None), None)
    high = next((m.le for m in info.metadata if getattr(m, "le", None) is not None), None)
    return low, high


@pytest.mark.parametrize("slug", sorted(MANIFESTS))
def test_each_games_option_table_is_its_options_model(slug):
    model = outside_model(GAMES[slug].options_model)
    fields = option_fields(slug)
    assert [f.name for f in fields] == list(model.model_fields)  # the same fields, in the menu's order
    for spec in fields:
        info = model.model_fields[spec.name]
        assert info.default == spec.default and type(info.default) is type(spec.default), spec.name
        assert info.description == spec.help, spec.name
        assert _bounds(info) == (spec.low, spec.high), spec.name
        if spec.words:
            assert typing.get_origin(info.annotation) is typing.Literal
            assert typing.get_args(info.annotation) == spec.words and spec.default in spec.words
        else:
            assert info.annotation is spec.kind, spec.name
    assert options_data(GAMES[slug].options_model()) == {f.name: f.default for f in fields}


@pytest.mark.parametrize("slug", sorted(MANIFESTS))
def test_the_model_built_from_the_table_checks_what_the_table_says(slug):
    model = outside_model(GAMES[slug].options_model)
    for spec in option_fields(slug):
        if spec.low is not None:
            assert getattr(model.model_validate({spec.name: spec.low}), spec.name) == spec.low
            with pytest.raises(ValidationError):
                model.model_validate({spec.name: spec.low - 1})
        if spec.high is not None:
            with pytest.raises(ValidationError):
                model.model_validate({spec.name: spec.high + 1})
        if spec.words:
            with pytest.raises(ValidationError):
                model.model_validate({spec.name: "no-such-word"})
    with pytest.raises(ValidationError):
        model.model_validate({"no_such_option": 1})  # extra keys are refused
    options = model()
    with pytest.raises(ValidationError):
        options.__setattr__(next(iter(model.model_fields)), None)  # frozen
    assert model.__module__.endswith(".options") and hash(options) == hash(model())


def test_the_menu_shows_every_games_fields_without_pydantic_or_the_rules():
    """The menu up, then each game highlighted in turn (its fields built from its table):
    pydantic and the rules modules are still not imported (they come with Start)."""
    script = (
        "import asyncio, json, sys\n"
        "from tui.app import AtlantisApp\n"
        "from engine.registry import GAMES\n"
        "async def main():\n"
        "    app = AtlantisApp(autosave=False)\n"
        "    async with app.run_test(size=(120, 40)) as pilot:\n"
        "        await pilot.pause()\n"
        "        shown = [app.screen.slug]\n"
        "        for _ in range(len(GAMES) - 1):\n"
        "            await pilot.press('down')\n"
        "            await pilot.pause()\n"
        "            shown.append(app.screen.slug)\n"
        "        fields = len(app.screen.query('.field'))\n"
        "    return shown, fields\n"
        "shown, fields = asyncio.run(main())\n"
        "rules = sorted(m for m in sys.modules if m.endswith('.rules'))\n"
        "print(json.dumps([shown, fields, 'pydantic' in sys.modules, rules, GAMES.loaded()]))\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    shown, fields, pydantic_loaded, rules, loaded = json.loads(proc.stdout.strip().splitlines()[-1])
    assert shown == sorted(MANIFESTS)  # every game's fields were built
    assert fields >= 3 + len(option_fields(shown[-1]))  # players, seats, its options, seed
    assert not pydantic_loaded and rules == [] and loaded == []
