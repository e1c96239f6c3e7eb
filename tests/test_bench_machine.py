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


def test_the_bench_counts_what_other_programs_took_beside_its_own_processes(monkeypatch):
    readings = iter([(100.0, 1.0), (130.0, 1.5)])  # the machine's busy and stolen CPU seconds
    own = iter([10.0, 30.0])                        # this process and its children
    monkeypatch.setattr(machine, "_machine", lambda: next(readings))
    monkeypatch.setattr(machine, "_own", lambda: next(own))
    line = machine.Watch().line(wall=50.0)
    assert line.startswith("other programs on this machine took 10.0 CPU s") and "(20% of one core" in line
    assert "stole 0.5 s" in line and "the machine was busy" in line


def test_a_quiet_machine_is_called_quiet_and_no_proc_stat_prints_nothing(monkeypatch):
    readings = iter([(100.0, 0.0), (121.0, 0.0)])
    own = iter([0.0, 20.0])
    monkeypatch.setattr(machine, "_machine", lambda: next(readings))
    monkeypatch.setattr(machine, "_own", lambda: next(own))
    assert machine.Watch().line(wall=50.0).endswith("a quiet machine")
    monkeypatch.setattr(machine, "_machine", lambda: None)
    monkeypatch.setattr(machine, "_own", lambda: 0.0)
    assert machine.Watch().line(wall=50.0) is None
