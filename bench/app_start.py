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
slows all of them alike; medians.  The ratio the goal is judged on is paired: in each
round a start's "ready" over the mean of that round's two minimal starts, the median of
those over the rounds (the range is printed beside it, and the ratio of the two fastest
starts, the least disturbed: noise only adds time).  ``--callgrind`` counts each start's
instructions instead (``callgrind_starts``): what shows a change through the noise.  This VM's speed drifts over
seconds (the same menu start read 230-390 ms in 12 starts in a row), which a ratio of
medians taken rounds apart carries into the ratio; it is printed too.
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
import asyncio, json, os, sys
kind, quiet = sys.argv[1], float(sys.argv[2])
if kind != "minimal":
    import tui  # (as `atlantis` starts: the app's package first, then Textual)
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
if kind != "minimal" and not kind.startswith("cli"):
    import gc
    gc.freeze()  # (as tui.app.open_screen does before an app of ``atlantis`` runs)
T_BUILT = time.perf_counter()


async def main() -> float:
    frames = driver_class.frames
    async with app.run_test(size=SIZE, headless=False):
        start = time.perf_counter()
        while time.perf_counter() - start < 5:
            await asyncio.sleep(0.005)
            if frames and quiet < 0:  # (--callgrind: the count stops at the first frame)
                os._exit(0)
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
          f" ready = last frame before {QUIET * 1e3:.0f} ms still; goal on ready: the median over the rounds of"
          f" ready / the mean of that round's two minimal starts)")
    samples: dict[str, list[dict[str, float]]] = {k: [] for k in kinds}
    # per round: each start's "ready" over the mean of the round's two minimal starts (the
    # machine's speed drifts over seconds: a start is compared with the reference of its round)
    paired: dict[str, list[float]] = {k: [] for k in kinds}
    errors: dict[str, str] = {}
    started = time.perf_counter()
    for _ in range(runs):
        # the reference at both ends of every round: it is every ratio's denominator, and one
        # start of it varies by up to 1.5x from the next (a 189 ms median in one run, 280 in another)
        got_round: dict[str, dict[str, float]] = {}
        ends: list[float] = []
        for kind in [*kinds, "minimal"]:
            if kind in errors:
                continue
            try:
                one = _one(kind)
            except (RuntimeError, subprocess.TimeoutExpired, ValueError) as exc:
                errors[kind] = str(exc)
                continue
            samples[kind].append(one)
            if kind == "minimal":
                ends.append(one["ready"])
            else:
                got_round[kind] = one
        if ends:
            reference = statistics.fmean(ends)
            for kind, one in got_round.items():
                paired[kind].append(one["ready"] / reference)
    out: dict[str, dict[str, float]] = {}
    for kind, got in samples.items():
        if got:
            out[kind] = {key: statistics.median(s[key] for s in got) * (1e3 if key != "frames" else 1)
                         for key in got[0]}
            out[kind]["best_ready"] = min(s["ready"] for s in got) * 1e3
            if paired[kind]:
                out[kind]["paired"] = statistics.median(paired[kind])
                out[kind]["paired_low"], out[kind]["paired_high"] = min(paired[kind]), max(paired[kind])
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
        ratio = m.get("paired", m["ready"] / ref["ready"])
        spread = (f", rounds {m['paired_low']:.2f}-{m['paired_high']:.2f}, best starts' ratio"
                  f" {m['best_ready'] / ref['best_ready']:.2f}x" if runs > 1 and "paired" in m else "")
        verdict = "ok" if ratio <= goal else "MISS"
        print(f"  {label:<31} first frame {m['first']:5.0f} ms, ready {m['ready']:5.0f} ms"
              f" (CPU {m['ready_cpu']:4.0f} ms) = {ratio:4.2f}x minimal{spread}"
              f" (medians' ratio {m['ready'] / ref['ready']:4.2f}x; {m['ready_cpu'] / ref['ready_cpu']:4.2f}x in CPU;"
              f" first frame {m['first'] / ref['first']:4.2f}x; {m['frames']:.0f} frames; goal <= {goal}x {verdict})")
    print(f"  (app start runs took {time.perf_counter() - started:.1f} s)")
    return out


def callgrind_starts(kinds: list[str] | None = None) -> dict[str, int]:
    """Instructions each start executes up to its first frame (ours: their ready frame;
    the minimal app's ready frame is its third, ~10M instructions later: counted to its
    first, the ratios are a little stricter than the goal's), counted by valgrind's
    callgrind (``python -m bench.app_start --callgrind``; not part of ``make bench``: ~25 s
    a start).  Unlike wall time on a shared VM (the same start reads 230-390 ms), the
    count repeats to within ~0.1% from one run to the next, so it shows what a change
    did.  Each start runs once natively first (the CSS cache then holds its sources, as
    at a second start of the app; the counted run ends at its first frame and saves
    nothing), ``PYTHONHASHSEED=0``."""
    import re
    import shutil

    if shutil.which("valgrind") is None:
        print("  (no valgrind on this machine: no instruction counts)")
        return {}
    _compile()
    kinds = kinds or ["minimal", "menu", *TABLES]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"}
    counts: dict[str, int] = {}
    for kind in kinds:
        _one(kind)
        done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                               "-c", PROBE, kind, "-1"], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=600)
        found = re.search(r"Collected : (\d+)", done.stderr)
        if found:
            counts[kind] = int(found.group(1))
    ref = counts.get("minimal")
    print("App start to first frame, instructions (callgrind; the interpreter's own start included, the same for all)")
    for kind, n in counts.items():
        goal = "" if kind == "minimal" else f" = {n / ref:.3f}x minimal (goal <= {1.3 if kind == 'menu' else 1.5}x)"
        print(f"  {kind:<18} {n / 1e6:8.1f} M{goal if ref else ''}")
    return counts


if __name__ == "__main__":
    if "--callgrind" in sys.argv:
        callgrind_starts([a for a in sys.argv[1:] if not a.startswith("--")] or None)
    else:
        bench_app_start(runs=1 if "--quick" in sys.argv else RUNS, quick="--quick" in sys.argv)
