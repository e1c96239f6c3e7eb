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


def test_the_bots_area_prints_a_row_for_every_game(monkeypatch, capsys):
    monkeypatch.syspath_prepend(str(ROOT))
    bots = importlib.import_module("bench.bots")
    monkeypatch.setattr(bots, "PROBE_POSITIONS", 1)
    monkeypatch.setattr(bots, "PROBE_ITERATIONS", 3)
    monkeypatch.setattr(bots, "GAMES", {"atlantis": bots.GAMES["atlantis"]})
    monkeypatch.setattr(bots, "arena", lambda slug, seats, games, **kw: {"levels": {level: {
        "win_rate": 0.5, "interval95": [0.3, 0.7], "seat_games": games} for level in seats}})
    bots.run(quick=True)
    out = capsys.readouterr().out
    for figure in ("hard iterations per CPU second", "hard vs normal, 2 players", "hard vs 3 normal, 4 players",
                   "easy vs normal, 2 players"):
        assert f"atlantis: {figure}" in out
