"""App start: how long until the first frame, for a minimal Textual app and for ours (the
menu, and a table of every game), as ratios measured in one run (issue 15, item 2: the
menu <= 1.3x the minimal app, a game table <= 1.5x).

Each measurement runs in a fresh subprocess (imports are part of the cost), headless
through ``App.run_test()`` but with ``bench.keys``' counting driver, which renders every
frame as for a real terminal and notes when it is flushed.  Times run from the start of
the child's script (imports included, interpreter start-up excluded, the same for all):

* first frame: the first frame flushed;
* ready: the last frame before the screen stays still for ``QUIET`` seconds (a game
  screen's first frame is its empty frame; it draws the board just after).

The goal is judged on "ready" (what a player waits for).  The runs are interleaved (one
of each app in turn, the minimal app at both ends, ``runs`` rounds) so a busy machine
slows all of them alike; medians.
Two more rows (not in ``--quick``), for information, start the menu and the End of
Atlantis table as a player does, through the command line (``atlantis``, ``atlantis play
end-of-atlantis``: ``tui.cli`` and what it imports before the app is made count too;
``run()`` is replaced by the same test run).
The tables are two-seat hot-seat tables (you and a bot that moves only when told).
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
RUNS = 3
TIMEOUT = 60
TABLES = ["pathways", "finding-atlantis", "end-of-atlantis", "survive", "atlantis"]
#: The same starts as a player makes them, through the command line (``tui.cli``: its own
#: imports included), for information: the goal stays judged on the rows above.
CLI = ["cli", "cli:end-of-atlantis"]

PROBE = r'''
import time
T0, C0 = time.perf_counter(), time.process_time()
import asyncio, json, sys
kind, quiet = sys.argv[1], float(sys.argv[2])
from bench.keys import SIZE, counting_driver, game_app, minimal_app
driver_class = counting_driver()
if kind.startswith("cli"):  # as `atlantis` / `atlantis play SLUG` make it: through tui.cli
    import tui.app
    made = []
    tui.app.AtlantisApp.run = lambda self, *a, **k: made.append(self)
    from tui.cli import main as cli_main
    slug = kind.partition(":")[2]
    cli_main(["play", slug, "--players", "2", "--bots", "1", "--no-autosave"] if slug else [])
    app = made[0]
    app.driver_class, app.manual_bots = driver_class, True
else:
    app = minimal_app(driver_class) if kind == "minimal" else (
        game_app(kind, driver_class) if kind != "menu" else None)
if app is None:
    from tui.app import AtlantisApp
    app = AtlantisApp(autosave=False, driver_class=driver_class)
T_BUILT = time.perf_counter()


async def main() -> float:
    frames = driver_class.frames
    async with app.run_test(size=SIZE, headless=False):
        start = time.perf_counter()
        while time.perf_counter() - start < 5:
            await asyncio.sleep(0.005)
            if frames and time.perf_counter() - frames[-1] >= quiet:
                break
        return len(frames)


n = asyncio.run(main())
d = driver_class
nan = float("nan")
print(json.dumps({"built": T_BUILT - T0, "first": (d.frames[0] if n else nan) - T0,
                  "ready": (d.frames[n - 1] if n else nan) - T0, "first_cpu": (d.cpu[0] if n else nan) - C0,
                  "ready_cpu": (d.cpu[n - 1] if n else nan) - C0, "frames": n}))
'''

QUIET = 0.15


def _one(kind: str) -> dict[str, float]:
    proc = subprocess.run([sys.executable, "-c", PROBE, kind, str(QUIET)], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=TIMEOUT)
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(last[:160])
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _compile() -> None:
    """Write the project's bytecode first (as a second start of the app would find it): with
    PYTHONDONTWRITEBYTECODE set, or after an edit, every start would compile the sources."""
    import compileall

    for package in ("engine", "tui", "netplay", "bench"):
        compileall.compile_dir(str(ROOT / package), quiet=2)


def bench_app_start(runs: int = RUNS, quick: bool = False) -> dict[str, dict[str, float]]:
    """Print the medians and the ratios to the minimal app; return them (ms)."""
    _compile()
    kinds = ["minimal", "menu", *(["pathways"] if quick else [*TABLES, *CLI])]
    print(f"App start to first frame (fresh process each, {runs} interleaved rounds, the minimal app first and"
          f" last in each; medians;"
          f" ready = last frame before {QUIET * 1e3:.0f} ms still; goal on ready)")
    samples: dict[str, list[dict[str, float]]] = {k: [] for k in kinds}
    errors: dict[str, str] = {}
    started = time.perf_counter()
    for _ in range(runs):
        # the reference at both ends of every round: it is every ratio's denominator, and one
        # start of it varies by up to 1.5x from the next (a 189 ms median in one run, 280 in another)
        for kind in [*kinds, "minimal"]:
            if kind in errors:
                continue
            try:
                samples[kind].append(_one(kind))
            except (RuntimeError, subprocess.TimeoutExpired, ValueError) as exc:
                errors[kind] = str(exc)
    out: dict[str, dict[str, float]] = {}
    for kind, got in samples.items():
        if got:
            out[kind] = {key: statistics.median(s[key] for s in got) * (1e3 if key != "frames" else 1)
                         for key in got[0]}
    ref = out.get("minimal")
    if ref is None:
        print(f"  minimal textual App: failed ({errors.get('minimal')})")
        return out
    print(f"  {'minimal textual app':<31} first frame {ref['first']:5.0f} ms, ready {ref['ready']:5.0f} ms"
          f" (CPU {ref['ready_cpu']:4.0f} ms, {ref['frames']:.0f} frames)   the reference")
    for kind in kinds[1:]:
        if kind in errors and kind not in out:
            print(f"  {kind:<31} could not start: {errors[kind]}")
            continue
        m = out[kind]
        goal = 1.3 if kind in ("menu", "cli") else 1.5
        label = ("AtlantisApp menu" if kind == "menu" else "`atlantis` (menu)" if kind == "cli"
                 else f"`atlantis play {kind[4:]}`" if kind.startswith("cli:") else f"{kind} table")
        print(f"  {label:<31} first frame {m['first']:5.0f} ms, ready {m['ready']:5.0f} ms"
              f" (CPU {m['ready_cpu']:4.0f} ms) = {m['ready'] / ref['ready']:4.2f}x minimal"
              f" ({m['ready_cpu'] / ref['ready_cpu']:4.2f}x in CPU; first frame {m['first'] / ref['first']:4.2f}x;"
              f" {m['frames']:.0f} frames; goal <= {goal}x)")
    print(f"  (app start runs took {time.perf_counter() - started:.1f} s)")
    return out


if __name__ == "__main__":
    bench_app_start(runs=1 if "--quick" in sys.argv else RUNS, quick="--quick" in sys.argv)
