"""The import contracts in pyproject.toml hold (DESIGN.md "Layout": tui -> netplay ->
engine, the engine free of Textual and asyncio, netplay free of tui, games independent
of each other, and tui without an import circle), every game package is named in them,
and the checker can fail: a broken contract, even one hidden in an import inside a
function, is reported.

import-linter (a test extra) reads the import graph from the source files with grimp:
no network, nothing installed.  It runs in a subprocess, so its changes to ``sys.path``
stay out of this test process, with its cache off, so it writes nothing into the tree.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))"


def lint(config: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    try:
        import importlinter  # noqa: F401
    except ImportError:  # pragma: no cover - the test extras install it
        pytest.fail("import-linter is missing: pip install -e '.[test]'")
    return subprocess.run([sys.executable, "-c", LINT, str(config)], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def contracts() -> dict[str, dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["id"]: c for c in config["tool"]["importlinter"]["contracts"]}


def engine_games() -> list[str]:
    """Every subpackage of engine/ is one game's rules."""
    return sorted(f"engine.{p.parent.name}" for p in (ROOT / "engine").glob("*/__init__.py"))


def tui_games() -> list[str]:
    """The packages of the game screens, as tui/games.py names them."""
    from tui.games import SCREENS

    return sorted({target.partition(":")[0].rpartition(".")[0] for target in SCREENS.values()})


def test_the_import_contracts_hold():
    done = lint(ROOT / "pyproject.toml", ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_every_game_package_is_named_in_the_independence_contracts():
    c = contracts()
    assert set(engine_games()) <= set(c["engine-games-independent"]["modules"]), \
        "add the new game's engine package to the contract 'engine-games-independent' in pyproject.toml"
    assert set(tui_games()) <= set(c["tui-games-independent"]["modules"]), \
        "add the new game's tui package to the contract 'tui-games-independent' in pyproject.toml"


def test_every_game_screen_may_use_only_its_own_rules():
    c = contracts()
    own_rules = {k["source_modules"][0]: set(k["forbidden_modules"])
                 for k in c.values() if k["type"] == "forbidden" and k["id"].endswith("-own-rules")}
    for screen in tui_games():
        assert screen in own_rules, f"give {screen} a '...-own-rules' forbidden contract in pyproject.toml"
        own = "engine." + screen.partition(".")[2]
        assert own_rules[screen] == set(engine_games()) - {own}, screen


def test_the_layers_name_every_module_of_the_app_that_took_part_in_the_old_circle():
    layers = " ".join(contracts()["tui-acyclic"]["layers"])
    for module in ("tui.cli", "tui.app", "tui.demo", "tui.netplay.commands", "tui.sessions", "tui.common"):
        assert module in layers.replace("|", " ").split(), module


def test_a_broken_contract_is_reported_even_through_an_import_inside_a_function(tmp_path):
    """The proof that the check can fail: a small project breaking each kind of contract."""
    files = {
        "rules/__init__.py": "",
        "rules/core.py": "import asyncio\n",
        "rules/game_a.py": "from . import game_b\n",
        "rules/game_b.py": "",
        "ui/__init__.py": "",
        "ui/cli.py": "from . import app\n",
        "ui/app.py": "def start():\n    from . import cli  # the old trick: a cycle hidden in a function\n",
    }
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    config = tmp_path / "contracts.toml"
    config.write_text(textwrap.dedent("""
        [tool.importlinter]
        root_packages = ["rules", "ui"]
        include_external_packages = true

        [[tool.importlinter.contracts]]
        id = "pure"
        name = "rules use no asyncio"
        type = "forbidden"
        source_modules = ["rules"]
        forbidden_modules = ["asyncio"]

        [[tool.importlinter.contracts]]
        id = "games"
        name = "games independent"
        type = "independence"
        modules = ["rules.game_a", "rules.game_b"]

        [[tool.importlinter.contracts]]
        id = "acyclic"
        name = "cli above app"
        type = "layers"
        layers = ["ui.cli", "ui.app"]
    """))
    done = lint(config, tmp_path)
    assert done.returncode != 0
    out = done.stdout
    for name in ("rules use no asyncio BROKEN", "games independent BROKEN", "cli above app BROKEN"):
        assert name in out, out
    assert "Contracts: 0 kept, 3 broken." in out, out


def engine_modules() -> list[str]:
    """The modules and the game packages directly under engine/."""
    top = {f"engine.{p.stem}" for p in (ROOT / "engine").glob("*.py") if p.stem != "__init__"}
    return sorted(top | set(engine_games()))


def test_only_storage_and_process_of_the_engine_may_do_io():
    """DESIGN.md: the engine is pure rules.  Files and the collector are for the entry points:
    every other module of engine/ is forbidden them, a new one too."""
    contract = contracts()["engine-rules-do-no-io"]
    assert set(contract["forbidden_modules"]) >= {"engine.storage", "engine.process", "os", "tempfile"}
    assert set(contract["source_modules"]) == set(engine_modules()) - {"engine.storage", "engine.process"}, \
        "name the new engine module in the contract 'engine-rules-do-no-io' in pyproject.toml"


def test_every_top_level_package_has_an_acyclic_siblings_contract():
    ancestors = {a for c in contracts().values() if c["type"] == "acyclic_siblings" for a in c["ancestors"]}
    assert ancestors >= {"engine", "netplay", "tui"}


def test_a_circle_between_siblings_is_reported(tmp_path):
    """The proof that ``acyclic_siblings`` can fail: two modules of one package that import
    each other, one of them only under ``TYPE_CHECKING``."""
    files = {
        "pkg/__init__.py": "",
        "pkg/conn.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .host import Host\n",
        "pkg/host.py": "from .conn import *\n",
    }
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    config = tmp_path / "contracts.toml"
    config.write_text(textwrap.dedent("""
        [tool.importlinter]
        root_packages = ["pkg"]

        [[tool.importlinter.contracts]]
        id = "acyclic"
        name = "pkg without a circle"
        type = "acyclic_siblings"
        ancestors = ["pkg"]
    """))
    done = lint(config, tmp_path)
    assert done.returncode != 0 and "pkg without a circle BROKEN" in done.stdout, done.stdout
