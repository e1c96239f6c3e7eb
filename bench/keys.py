"""Key to settled screen: what one cursor key costs in every game screen, beside a minimal
Textual app with one binding (goal: <= 2x the minimal app; the frames a key takes are
shown for information).

Each app runs headless in one child process (``run_test``), but with a driver that says
it is *not* headless, so Textual renders every frame to terminal sequences as it would
for a real terminal; the driver counts its flushes (one per frame) instead of writing
them.  For each key: the key event goes in through the driver as a terminal's would;
then the loop waits until no frame came for ``QUIET`` seconds.  Per key it reports

* frames: flushes between the key and the quiet (1 is the floor: the cursor moved);
* CPU ms: process CPU from the key to the last frame it caused (read as that frame was
  flushed), less the idle loop's own CPU over that time (measured in the same process
  without a key);
* settle ms: wall time from the key to the last frame it caused.

Medians over the keys after the first pair (warm-up).  The game tables are two-seat
hot-seat tables (you and a bot that moves only when told: nothing moves but the cursor),
at 120x40 (``finding-atlantis`` is its captain choice, ``finding-atlantis-play`` the chart
in play).  The minimal app is measured first and last; its figure is the median of both.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUIET = 0.04  # seconds without a frame: the screen has settled
SIZE = (120, 40)
TIMEOUT = 120

# Per screen: the cursor keys pressed in turn (each pair comes back where it started), and
# the widget they move (the one focused when the table opens).
SCREENS: dict[str, tuple[str, ...]] = {
    "minimal": ("right", "left"),
    "pathways": ("right", "down", "left", "up"),
    "finding-atlantis": ("right", "down", "left", "up"),
    "finding-atlantis-play": ("right", "down", "left", "up"),
    "end-of-atlantis": ("down", "up"),
    "survive": ("right", "down", "left", "up"),
    "atlantis": ("right", "left"),
}
ORDER = ["minimal", "pathways", "finding-atlantis", "finding-atlantis-play", "end-of-atlantis", "survive",
         "atlantis", "minimal"]
QUICK_ORDER = ["minimal", "pathways", "minimal"]


def counting_driver():
    """A headless driver that renders like a real one (``is_headless`` False) and counts
    its flushes, one per frame (``frames`` holds their ``perf_counter`` times, ``cpu``
    the process CPU time at each)."""
    from textual.drivers.headless_driver import HeadlessDriver

    class CountingDriver(HeadlessDriver):
        frames: list[float] = []
        cpu: list[float] = []
        written = 0

        @property
        def is_headless(self) -> bool:
            return False

        def write(self, data: str) -> None:
            CountingDriver.written += len(data)

        def flush(self) -> None:
            CountingDriver.frames.append(time.perf_counter())
            CountingDriver.cpu.append(time.process_time())

    return CountingDriver


def minimal_app(driver_class):
    from textual.app import App
    from textual.binding import Binding
    from textual.widgets import Static

    class Minimal(App):
        """A minimal Textual app with one binding: the key moves a marker along a line."""

        BINDINGS = [Binding("right,left", "move", "Move")]

        def __init__(self) -> None:
            super().__init__(driver_class=driver_class)
            self.at = 0

        def compose(self):
            yield Static("*", id="line")

        def action_move(self) -> None:
            self.at = (self.at + 1) % 2
            self.query_one("#line", Static).update(" " * self.at + "*")

    return Minimal()


def game_app(slug: str, driver_class):
    """The table of ``slug``; ``finding-atlantis-play``: Finding Atlantis past the captain
    choice and the hidden first moves (the chart in play, you to move)."""
    from engine.registry import get_game
    from tui.app import AtlantisApp
    from tui.common import seats_for
    from tui.seat import LocalTable

    game = slug.removesuffix("-play")
    table = LocalTable.new(get_game(game), {}, seats_for(game, 2, 1), 7)
    if slug.endswith("-play"):
        match = table.match
        for _ in range(20):  # each seat's first legal action until the play phase, you to act
            if match.state.phase == "play" and match.to_act() == frozenset({0}):
                break
            if table.bot_to_act() is not None:
                table.step_bot()
            else:
                match.act(0, table.game.legal(match.view(0))[0])
    return AtlantisApp(table=table, autosave=False, manual_bots=True, driver_class=driver_class)


async def _settle(frames: list[float], since: float) -> float:
    """Wait until no frame came for QUIET seconds; the time of the last frame (or since)."""
    import asyncio

    while True:
        await asyncio.sleep(0.003)
        last = frames[-1] if frames else since
        now = time.perf_counter()
        if now - max(last, since) >= QUIET:
            return max(last, since)


async def _measure(app, driver_class, keys: tuple[str, ...], presses: int) -> dict:
    import asyncio

    from textual import events

    frames = driver_class.frames
    frames.clear()
    out: dict = {"frames": [], "cpu_ms": [], "settle_ms": []}
    async with app.run_test(size=SIZE, headless=False):
        await _settle(frames, time.perf_counter())
        await asyncio.sleep(0.2)  # let the start finish (timers, a second layout)
        await _settle(frames, time.perf_counter())
        out["focused"] = type(app.focused).__name__ if app.focused else None
        # the idle loop's own CPU per second (the settle polling, Textual's timers)
        c0, t0 = time.process_time(), time.perf_counter()
        await _settle([], time.perf_counter())
        idle = (time.process_time() - c0) / (time.perf_counter() - t0)
        for i in range(presses):
            key = keys[i % len(keys)]
            n0 = len(frames)
            t0, c0 = time.perf_counter(), time.process_time()
            app._driver.send_message(events.Key(key, None))
            last = await _settle(frames, t0)
            # CPU up to the key's last frame (read as it was flushed): the quiet wait after
            # it is not the key's, and subtracting its estimated idle cost was most of the
            # noise (the minimal app read 1.4-3.1 ms a key from run to run)
            end = driver_class.cpu[-1] if len(frames) > n0 else time.process_time()
            cpu = end - c0 - idle * (last - t0)
            if i < 2:  # warm-up: first-time code paths
                continue
            out["frames"].append(len(frames) - n0)
            out["cpu_ms"].append(max(cpu, 0.0) * 1e3)
            out["settle_ms"].append((last - t0) * 1e3)
        out["error"] = None
    return out


def child(names: list[str], presses: int) -> None:
    """Run in the child process: measure each app, print one JSON line of results."""
    import asyncio

    driver_class = counting_driver()
    results: dict[str, list] = {}
    for name in names:
        try:
            app = minimal_app(driver_class) if name == "minimal" else game_app(name, driver_class)
            res = asyncio.run(_measure(app, driver_class, SCREENS[name], presses))
        except Exception as exc:  # a screen that does not start: say so, measure the rest
            res = {"error": f"{type(exc).__name__}: {str(exc).splitlines()[0][:120] if str(exc) else ''}"}
        results.setdefault(name, []).append(res)
    print(json.dumps(results))


def _med(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def bench_keys(quick: bool = False) -> dict[str, dict[str, float]]:
    """Print one line per screen beside the minimal app; return the medians."""
    presses = 6 if quick else 26
    print(f"Key to settled screen (cursor keys, {SIZE[0]}x{SIZE[1]}, rendered as for a terminal;"
          f" median of {presses - 2} keys after 2 warm-up; one process, minimal app first and last)")
    order = QUICK_ORDER if quick else ORDER
    proc = subprocess.run([sys.executable, "-m", "bench.keys", "--child", str(presses), *order],
                          cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        print(f"  key bench failed: {last[:200]}")
        return {}
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    out: dict[str, dict[str, float]] = {}
    for name, runs in results.items():
        good = [r for r in runs if not r.get("error")]
        if not good:
            out[name] = {"error": runs[0]["error"]}
            continue
        out[name] = {k: _med([v for r in good for v in r[k]]) for k in ("frames", "cpu_ms", "settle_ms")}
        out[name]["focused"] = good[0].get("focused")
    ref = out.get("minimal", {})
    if "error" in ref or not ref:
        print(f"  minimal app: failed ({ref.get('error', 'no result')})")
        return out
    print(f"  {'minimal app, one binding':<26} {ref['frames']:4.1f} frames/key  {ref['cpu_ms']:6.1f} ms CPU/key"
          f"  {ref['settle_ms']:6.1f} ms to settle   (the reference)")
    for name in order:
        if name == "minimal" or name not in out:
            continue
        m = out[name]
        if "error" in m:
            print(f"  {name:<26} could not run: {m['error']}")
            continue
        keys = "/".join(SCREENS[name])
        print(f"  {name + ' (' + str(m['focused']) + ')':<26} {m['frames']:4.1f} frames/key  {m['cpu_ms']:6.1f} ms CPU/key"
              f"  {m['settle_ms']:6.1f} ms to settle   = {m['cpu_ms'] / max(ref['cpu_ms'], 1e-6):4.1f}x CPU,"
              f" {m['settle_ms'] / max(ref['settle_ms'], 1e-6):4.1f}x settle of minimal (goal <= 2x;"
              f" keys {keys})")
    return out


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[3:], int(sys.argv[2]))
    else:
        bench_keys(quick="--quick" in sys.argv)
