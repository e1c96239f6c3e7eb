"""The engine is pure rules: it imports no Textual, no asyncio, nothing of
netplay or tui (DESIGN.md: arrows go one way, tui -> netplay -> engine)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "engine"
FORBIDDEN = {"textual", "asyncio", "netplay", "tui", "rich", "zeroconf", "socket", "random"}
# (``random``: randomness comes from engine.rng only, DESIGN.md "Determinism".)


def _engine_files() -> list[Path]:
    return sorted(p for p in ENGINE.rglob("*.py") if "__pycache__" not in p.parts)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path, module: str | None = None) -> list[tuple[int, str]]:
    """Absolute names of every module ``path`` imports (relative imports resolved),
    wherever the import statement sits (top level, functions, try blocks)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module = module or _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                if node.level > 1:
                    base = base[: len(base) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
                if not base:  # climbed above the top-level package
                    name = "<outside>." + (node.module or "")
            else:
                name = node.module or ""
            out.append((node.lineno, name))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                "__import__", "import_module"):
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                out.append((node.lineno, node.args[0].value))
    return out


def test_engine_has_python_files_to_check():
    files = _engine_files()
    assert ENGINE / "core.py" in files and any("pathways" in p.parts for p in files)


@pytest.mark.parametrize("path", _engine_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_module_imports_nothing_forbidden(path):
    bad = [(line, name) for line, name in imported_modules(path)
           if name.split(".")[0] in FORBIDDEN or name.startswith("<outside>")]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_the_scanner_sees_forbidden_imports(tmp_path):
    """The checker itself: every form of import is found."""
    probe = tmp_path / "probe.py"
    probe.write_text("import asyncio\nfrom textual.app import App\nfrom ...tui import x\n"
                     "from . import data\n"
                     "def f():\n    import netplay.wire\n    __import__('random')\n", encoding="utf-8")
    names = [n for _, n in imported_modules(probe, "engine.pathways.probe")]
    assert names[:2] == ["asyncio", "textual.app"]
    assert any(n.startswith("<outside>") for n in names)
    assert "engine.pathways.data" not in names and "engine.pathways" in names
    assert "netplay.wire" in names and "random" in names


def test_importing_the_engine_loads_no_ui_or_network_code():
    script = (
        "import importlib, json, pkgutil, sys\n"
        "import engine, engine.registry\n"
        "for m in pkgutil.walk_packages(engine.__path__, 'engine.'):\n"
        "    importlib.import_module(m.name)\n"
        "for g in engine.registry.GAMES.values():\n"
        "    s = g.setup(g.parse_options({}), g.min_players, 1)\n"
        "    v = g.view(s, 0); g.legal(v); g.make_bot(0, 1, 'random')\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    loaded = json.loads(proc.stdout)
    bad = [m for m in loaded if m.split(".")[0] in {"textual", "asyncio", "netplay", "tui", "rich", "zeroconf"}]
    assert not bad, f"importing the engine loaded {bad}"
