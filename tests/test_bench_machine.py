"""``make bench`` says how much CPU other programs took while it ran (bench/machine.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

# (bench/ is not an installed package: the module is loaded from its file)
_SPEC = importlib.util.spec_from_file_location(
    "bench_machine", Path(__file__).resolve().parents[1] / "bench" / "machine.py")
machine = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(machine)


def test_the_readings_are_the_machines_and_this_processs():
    busy = machine._machine()
    assert busy is None or (busy[0] > 0 and busy[1] >= 0)
    assert machine._own() > 0


def test_no_proc_stat_prints_nothing(monkeypatch):
    monkeypatch.setattr(machine, "_machine", lambda: None)
    monkeypatch.setattr(machine, "_own", lambda: 0.0)
    assert machine.Watch().line(wall=50.0) is None
