"""Speed where a player feels it: the app's start, a cursor key and a move, each beside
the same for a minimal Textual app (``bench.minimal_app``).

Every app runs headless (``App.run_test``) with a driver that renders every frame as
for a real terminal and notes when each is flushed (``counting_driver``).

* Start: a fresh process per start, from spawning it to the last frame before the
  screen stays still for ``START_QUIET`` (imports, the interpreter's own start and the
  first layouts included: what a player waits for), for the menu and every game's table
  (a two-seat hot-seat table: you and a bot that moves only when told).  Interleaved
  rounds, the minimal app first in each; medians.  Goal: <= 2x the minimal app.
* A cursor key and a move: in one process, for each app, the key (or the move) is put
  in and the time taken until its last frame, once no frame has come for ``QUIET``
  (settled).  A move is yours, through the table as the screen sends it
  (``LocalTable.submit``), the bot's replies made untimed after it; the minimal app's
  move is its Enter.  Goals: p50 <= 3x the minimal app's, p99 < 50 ms.

The game screens' cursor keys are ``CURSOR_KEYS`` (the arrows unless a game says else).
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIZE = (120, 40)
QUIET = 0.04  # seconds without a frame: a key or a move has settled
START_QUIET = 0.15  # seconds without a frame: a start is over
TIMEOUT = 180
GOAL_START = 2.0
GOAL_P50 = 3.0
GOAL_P99_MS = 50.0
ARROWS = ("right", "down", "left", "up")
CURSOR_KEYS = {"menu": ("down", "up"), "end-of-atlantis": ("down", "up"), "atlantis": ("right", "left")}


def counting_driver():
    """A headless driver that renders as a real one does (``is_headless`` False) and keeps
    the time of every flush (one a frame) in ``frames`` instead of writing anything."""
    from textual.drivers.headless_driver import HeadlessDriver

    class CountingDriver(HeadlessDriver):
        frames: list[float] = []

        @property
        def is_headless(self) -> bool:
            return False

        def write(self, data: str) -> None:
            """What the app writes is thrown away: only the time it takes counts."""

        def flush(self) -> None:
            CountingDriver.frames.append(time.monotonic())

    return CountingDriver


def make_app(kind: str, driver_class):
    """``minimal``, ``menu``, or a game's slug (its table, you and a bot)."""
    if kind == "minimal":
        from .minimal_app import MinimalApp

        return MinimalApp(driver_class=driver_class)
    from tui.app import AtlantisApp

    if kind == "menu":
        return AtlantisApp(autosave=False, driver_class=driver_class)
    from engine.registry import GAMES
    from tui.common import seats_for
    from tui.seat_links import LocalTable

    table = LocalTable.new(GAMES[kind], {}, seats_for(kind, 2, 1), 7)
    return AtlantisApp(table=table, autosave=False, manual_bots=True, driver_class=driver_class)


async def settled(frames: list[float], since: float, quiet: float = QUIET, limit: float = 10.0) -> float:
    """Wait until no frame has come for ``quiet`` while the loop was free; the time of the
    last frame (or ``since``).  A wait that overran its sleep means the app was busy (a
    redraw longer than ``quiet`` runs in one go) and its frame is still to come: the quiet
    stretch counts from the end of that busy spell."""
    busy_until = since
    while True:
        asleep = time.monotonic()
        await asyncio.sleep(0.003)
        now = time.monotonic()
        if now - asleep > 0.01:
            busy_until = now
        last = max(frames[-1] if frames else since, since)
        if now - max(last, busy_until) >= quiet or now - since > limit:
            return last


# --- in the child processes -----------------------------------------------------------------
async def _start(kind: str) -> float:
    driver_class = counting_driver()
    app = make_app(kind, driver_class)
    async with app.run_test(size=SIZE, headless=False):
        return await settled(driver_class.frames, time.monotonic(), START_QUIET)


async def _keys_and_moves(kind: str, presses: int, moves: int) -> dict[str, list[float]]:
    from textual import events

    driver_class = counting_driver()
    app = make_app(kind, driver_class)
    frames = driver_class.frames
    out: dict[str, list[float]] = {"key": [], "move": []}
    async with app.run_test(size=SIZE, headless=False):
        await settled(frames, time.monotonic(), START_QUIET)
        keys = CURSOR_KEYS.get(kind, ARROWS)
        for i in range(presses + 2):  # (the first two: warm-up)
            started = time.monotonic()
            app.post_message(events.Key(keys[i % len(keys)], None))
            took = await settled(frames, started) - started
            if i >= 2:
                out["key"].append(took * 1e3)
        table = getattr(app, "table", None)
        choose = random.Random(7).choice
        for i in range(moves + 1):
            started = time.monotonic()
            if table is None:
                app.post_message(events.Key("enter", "\r"))
            else:
                while table.bot_to_act() is not None and table.match.result() is None:
                    table.step_bot()  # (the bots' replies: untimed)
                    await settled(frames, time.monotonic())
                seat = table.human_to_act()
                if seat is None or table.match.result() is not None:
                    break
                legal = table.match.legal(seat)
                started = time.monotonic()
                table.submit(seat, choose(legal))
            took = await settled(frames, started) - started
            if i >= 1:
                out["move"].append(took * 1e3)
    return out


def _child(argv: list[str]) -> None:
    if argv[0] == "--start":
        print(json.dumps(asyncio.run(_start(argv[1]))))
    else:
        presses, moves = int(argv[1]), int(argv[2])
        print(json.dumps({kind: asyncio.run(_keys_and_moves(kind, presses, moves)) for kind in argv[3:]}))


# --- in the bench ---------------------------------------------------------------------------
def start_seconds(kind: str) -> float:
    """From spawning a process to its app's start being over (Linux: one monotonic clock
    for every process)."""
    spawned = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "bench.app", "--start", kind], cwd=ROOT, capture_output=True,
                          text=True, timeout=TIMEOUT, check=True)
    return float(done.stdout.strip().splitlines()[-1]) - spawned


def run(quick: bool = False) -> None:
    from engine.registry import GAMES

    from .report import Row, percentile, print_table

    kinds = ["menu", *(["pathways"] if quick else GAMES)]
    rounds, presses, moves = (1, 8, 4) if quick else (3, 30, 12)
    starts: dict[str, list[float]] = {kind: [] for kind in ["minimal", *kinds]}
    for _ in range(rounds):
        for kind in starts:
            starts[kind].append(start_seconds(kind))
    done = subprocess.run([sys.executable, "-m", "bench.app", "--keys", str(presses), str(moves), "minimal", *kinds],
                          cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT, check=True)
    timed = json.loads(done.stdout.strip().splitlines()[-1])
    start_ref = statistics.median(starts["minimal"]) * 1e3
    rows = [Row("minimal app: start", start_ref, "ms")]
    for what in ("key", "move"):
        ref = timed["minimal"][what]
        rows += [Row(f"minimal app: {what} p50", percentile(ref, 0.5), "ms"),
                 Row(f"minimal app: {what} p99", percentile(ref, 0.99), "ms")]
    for kind in kinds:
        start = statistics.median(starts[kind]) * 1e3
        rows.append(Row(f"{kind}: start", start, "ms", start_ref, "minimal", f"<= {GOAL_START:g}x",
                        start / start_ref <= GOAL_START))
        for what in ("key", "move") if kind != "menu" else ("key",):
            got, ref = timed[kind][what], timed["minimal"][what]
            if not got:
                rows.append(Row(f"{kind}: {what}", None))
                continue
            p50, p99 = percentile(got, 0.5), percentile(got, 0.99)
            rows += [Row(f"{kind}: {what} p50", p50, "ms", percentile(ref, 0.5), "minimal", f"<= {GOAL_P50:g}x",
                         p50 / percentile(ref, 0.5) <= GOAL_P50),
                     Row(f"{kind}: {what} p99", p99, "ms", percentile(ref, 0.99), "minimal",
                         f"< {GOAL_P99_MS:g} ms", p99 < GOAL_P99_MS)]
    print_table("App: start, a cursor key and a move, beside a minimal Textual app", rows,
                f"{SIZE[0]}x{SIZE[1]}, rendered as for a terminal; start: a fresh process, median of {rounds};"
                f" {presses} keys and {moves} moves of yours per app, each until no frame for {QUIET * 1e3:.0f} ms")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] in ("--start", "--keys"):
        _child(sys.argv[1:])
    else:
        run(quick="--quick" in sys.argv)
