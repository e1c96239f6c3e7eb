"""The import contracts hold (DESIGN.md "Layout": tui -> netplay -> engine, the engine
free of Textual and asyncio, netplay free of tui, games independent of each other, and tui
without an import circle), and the checker can fail: a broken contract, even one hidden
in an import inside a function, is reported.

The contracts in pyproject.toml name no game: the games' own contracts are made here from
the registry (``game_contracts``), so a new game needs no edit there.

import-linter (a test extra) reads the import graph from the source files with grimp:
no network, nothing installed.  It runs in a subprocess, so its changes to ``sys.path``
stay out of this test process, with its cache off, so it writes nothing into the tree.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from engine.registry import MANIFESTS

ROOT = Path(__file__).resolve().parents[1]
LINT = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))"


def lint(config: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    try:
        import importlinter  # noqa: F401
    except ImportError:  # pragma: no cover - the test extras install it
        pytest.fail("import-linter is missing: pip install -e '.[test]'")
    return subprocess.run([sys.executable, "-c", LINT, str(config)], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def importlinter_config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]


def contracts() -> dict[str, dict]:
    return {c["id"]: c for c in importlinter_config()["contracts"]}


def engine_games() -> list[str]:
    """The registered games' rules packages (those inside this project's packages)."""
    return sorted(m.package for m in MANIFESTS.values() if m.package.startswith("engine."))


def tui_games() -> list[str]:
    """The registered games' screen packages."""
    return sorted(m.screen for m in MANIFESTS.values() if m.screen.startswith("tui."))


def game_contracts() -> dict[str, dict]:
    """The contracts of the registered games, by id: the same for every game, so they are
    made from the registry instead of written per game in pyproject.toml."""
    engine, screens = engine_games(), tui_games()
    made = {
        "engine-games-independent": {"name": "each game's rules stand alone", "type": "independence",
                                     "modules": engine},
        "tui-games-independent": {"name": "each game's screen stands alone", "type": "independence",
                                  "modules": screens},
        "engine-games-do-no-io": {"name": "the games' rules touch no disk and tune no process",
                                  "type": "forbidden", "source_modules": engine,
                                  "forbidden_modules": contracts()["engine-rules-do-no-io"]["forbidden_modules"]},
    }
    for info in MANIFESTS.values():
        if info.screen in screens and info.package in engine:
            made[f"{info.screen}-own-rules"] = {
                "name": f"the {info.title} screen uses only its own rules", "type": "forbidden",
                "source_modules": [info.screen], "forbidden_modules": [g for g in engine if g != info.package]}
    # the screens are one layer of tui-acyclic, just below the layer of tui.games
    acyclic = dict(contracts()["tui-acyclic"])
    layers = list(acyclic["layers"])
    at = next(i for i, layer in enumerate(layers) if "tui.games" in layer.replace("|", " ").split())
    acyclic["layers"] = layers[: at + 1] + [" | ".join(screens)] + layers[at + 1:]
    made["tui-acyclic"] = acyclic
    return made


def write_config(path: Path) -> Path:
    """pyproject.toml's import-linter section with the games' contracts added (one with
    the id of a written one takes its place)."""
    config = importlinter_config()
    every = {**contracts(), **game_contracts()}
    lines = ["[tool.importlinter]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in config.items() if key != "contracts"]
    for contract_id, contract in every.items():
        lines += ["", "[[tool.importlinter.contracts]]", f"id = {json.dumps(contract_id)}"]
        lines += [f"{key} = {json.dumps(value)}" for key, value in contract.items() if key != "id"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_import_contracts_hold(tmp_path):
    done = lint(write_config(tmp_path / "contracts.toml"), ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    every = {**contracts(), **game_contracts()}
    assert f"Contracts: {len(every)} kept, 0 broken." in done.stdout, done.stdout


def test_every_game_package_of_the_engine_and_the_tui_is_registered():
    """Each subpackage of engine/ is a game's rules, each of tui/ with a ``SCREEN`` a game's
    screen: all of them are in the registry, so the games' contracts cover them."""
    engine = sorted(f"engine.{p.parent.name}" for p in (ROOT / "engine").glob("*/__init__.py"))
    screens = sorted(f"tui.{p.parent.name}" for p in (ROOT / "tui").glob("*/__init__.py")
                     if "SCREEN = " in p.read_text(encoding="utf-8"))
    assert engine == engine_games()
    assert screens == tui_games()


def test_pyproject_names_no_game():
    written = json.dumps(importlinter_config())
    for package in engine_games() + tui_games():
        assert f'"{package}"' not in written and f"{package} " not in written, package


def test_the_layers_name_every_module_of_the_app_that_took_part_in_the_old_circle():
    layers = " ".join(contracts()["tui-acyclic"]["layers"])
    for module in ("tui.cli", "tui.app", "tui.demo", "tui.lan.commands", "tui.sessions", "tui.common"):
        assert module in layers.replace("|", " ").split(), module


def write_project(folder: Path, files: dict[str, str]) -> None:
    """A small project of ``files`` (path -> text) for the proofs that a contract can fail."""
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


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
    write_project(tmp_path, files)
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
    """The modules of engine's kit (directly under engine/)."""
    return sorted(f"engine.{p.stem}" for p in (ROOT / "engine").glob("*.py") if p.stem != "__init__")


def test_only_storage_and_process_of_the_engine_may_do_io():
    """DESIGN.md: the engine is pure rules.  Files and the collector are for the entry points:
    every other module of engine's kit is forbidden them, a new one too (the games: by
    ``game_contracts``)."""
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
    write_project(tmp_path, files)
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
