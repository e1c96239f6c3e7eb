"""``make bench`` does not rot: its quick mode runs the engine area end to end, and every
area's module imports.  No figure is checked (tests never assert on time)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

from engine.registry import GAMES

ROOT = Path(__file__).resolve().parents[1]


def test_the_quick_engine_table_has_a_row_for_every_game():
    done = subprocess.run([sys.executable, "-m", "bench", "--quick", "--only", "engine"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=True)
    assert "figure" in done.stdout and "verdict" in done.stdout
    for slug in GAMES:
        assert f"{slug}: random self-play" in done.stdout
        assert f"{slug}: normal bot decision p99" in done.stdout


def test_every_area_imports(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))  # (bench/ is not an installed package)
    areas = importlib.import_module("bench.__main__").AREAS
    for area in areas:
        assert callable(importlib.import_module(f"bench.{area}").run)
