"""App start: how long until the first frame, for a bare Textual App and for ours.

Each measurement runs in a fresh subprocess (imports are part of the cost), headless
through ``App.run_test()``; the app records ``time.perf_counter()`` in ``on_mount`` and
again after the first refresh (the first frame), then exits.  Five runs, median.

Times are reported from the start of the child's script (imports included, interpreter
start-up excluded) and, on systems where ``perf_counter`` is one system-wide monotonic
clock (Linux), from the moment the parent spawned the process.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = 5
TIMEOUT = 60

PROBE = r'''
import os, sys, time
T0 = time.perf_counter()
import asyncio, json
kind = sys.argv[1]
kwargs = {}
if kind == "minimal":
    from textual.app import App as Base
else:
    from tui.app import AtlantisApp as Base
    kwargs = {"autosave": False}
    if kind == "pathways":
        from engine.core import SeatInfo
        from engine.pathways.rules import PathwaysGame
        from tui.seat import LocalTable
        game = PathwaysGame()
        kwargs["table"] = LocalTable.new(game, {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], 1)
        kwargs["bot_delay"] = 0
T_IMPORTED = time.perf_counter()
marks = {}


class Probe(Base):
    def on_mount(self) -> None:
        marks["mount"] = time.perf_counter()
        self.call_after_refresh(self._first_frame)

    def _first_frame(self) -> None:
        marks["frame"] = time.perf_counter()
        self.exit()


async def main() -> None:
    app = Probe(**kwargs)
    async with app.run_test(size=(100, 32)):
        for _ in range(4000):
            if "frame" in marks:
                break
            await asyncio.sleep(0.005)


asyncio.run(main())
spawn = float(os.environ.get("BENCH_SPAWN", "nan"))
frame = marks.get("frame", float("nan"))
print(json.dumps({
    "import": T_IMPORTED - T0, "mount": marks.get("mount", float("nan")) - T0,
    "frame": frame - T0, "from_spawn": frame - spawn,
}))
'''


def _one(kind: str) -> dict[str, float]:
    env = {**os.environ, "BENCH_SPAWN": repr(time.perf_counter())}
    env["BENCH_SPAWN"] = repr(time.perf_counter())
    proc = subprocess.run([sys.executable, "-c", PROBE, kind], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT)
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(last[:200])
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _measure(kind: str, runs: int) -> dict[str, float]:
    samples = [_one(kind) for _ in range(runs)]
    return {key: statistics.median(s[key] for s in samples) for key in samples[0]}


def _line(label: str, m: dict[str, float]) -> str:
    spawn = m["from_spawn"]
    spawn_txt = f"{spawn * 1e3:7.0f} ms from spawn" if spawn == spawn and spawn > 0 else "from spawn n/a"
    return (f"  {label:<34} first frame {m['frame'] * 1e3:6.0f} ms  ({spawn_txt};"
            f" imports {m['import'] * 1e3:.0f} ms, mounted at {m['mount'] * 1e3:.0f} ms)")


def bench_app_start(runs: int = RUNS) -> dict[str, float]:
    """Print the medians; return first-frame times in ms (missing apps are skipped)."""
    print(f"App start to first frame (headless run_test, fresh process each, median of {runs})")
    out: dict[str, float] = {}
    try:
        minimal = _measure("minimal", runs)
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        print(f"  minimal textual App: failed ({exc})")
        return out
    print(_line("minimal textual App", minimal))
    out["minimal_ms"] = minimal["frame"] * 1e3
    check = subprocess.run([sys.executable, "-c", "import tui.app; tui.app.AtlantisApp"], cwd=ROOT,
                           capture_output=True, text=True, timeout=TIMEOUT)
    if check.returncode != 0:
        print("  app start: tui.app not available yet")
        return out
    for kind, label in (("menu", "AtlantisApp (menu)"), ("pathways", "AtlantisApp (Pathways table)")):
        try:
            m = _measure(kind, runs)
        except (RuntimeError, subprocess.TimeoutExpired) as exc:
            print(f"  {label}: could not start ({exc})")
            continue
        print(_line(label, m) + f"  +{(m['frame'] - minimal['frame']) * 1e3:.0f} ms over minimal")
        out[kind + "_ms"] = m["frame"] * 1e3
    return out


if __name__ == "__main__":
    bench_app_start()
