"""A move to settled screen: what a bot's move costs the table's screen (issue 15, "fast
everywhere a player feels it"; the issue sets no goal for it: printed for information,
beside a cursor key's cost in ``bench.keys``).

Each game's table (you and 3 bots, or as many seats as the game has, 120x40) runs in one
child process, rendered as for a real terminal (``bench.keys``' counting driver).  The
bots move only when told (``manual_bots``); each move is a bot's ``step_bot`` (or, on your
turn, your last legal action) and the screen is let settle (no frame for ``QUIET``
seconds).  Per move: the frames it caused and the process CPU up to its last frame.
Only moves where you are not to act, before or after, are counted: your turn changes
the footer's keys, a compose of its own."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

from bench.keys import ROOT, SIZE, TIMEOUT

GAMES = ["pathways", "finding-atlantis", "end-of-atlantis", "survive", "atlantis"]
MOVES = 6  # counted moves a game (the first 2 of them: warm-up)


async def _measure(slug: str, moves: int) -> dict:
    import asyncio

    from bench.keys import _settle, counting_driver
    from engine.core import SeatInfo
    from engine.registry import get_game
    from tui.app import AtlantisApp
    from tui.seat import LocalTable

    driver_class = counting_driver()
    game = get_game(slug)
    players = min(game.max_players, 4)
    seats = [SeatInfo("You", "human")] + [SeatInfo(f"Bot {i}", "bot") for i in range(1, players)]
    table = LocalTable.new(game, {}, seats, 7)
    app = AtlantisApp(table=table, autosave=False, manual_bots=True, driver_class=driver_class)
    frames, cpu = driver_class.frames, driver_class.cpu
    out: dict = {"frames": [], "cpu_ms": [], "chars": []}
    async with app.run_test(size=SIZE, headless=False):
        await _settle(frames, time.perf_counter())
        await asyncio.sleep(0.2)
        await _settle(frames, time.perf_counter())
        counted = 0
        for _ in range(moves * 8):
            if counted == moves or table.match.result() is not None:
                break
            yours = table.human_to_act() is not None
            n0, t0, c0, w0 = len(frames), time.perf_counter(), time.process_time(), driver_class.written
            if table.bot_to_act() is not None:
                table.step_bot()
            else:
                seat = table.human_to_act()
                table.match.act(seat, table.game.legal(table.match.view(seat))[-1])
                table._changed()
            yours = yours or table.human_to_act() is not None or table.match.result() is not None
            await _settle(frames, t0)
            if yours:
                continue
            counted += 1
            if counted <= 2:
                continue
            out["frames"].append(len(frames) - n0)
            out["cpu_ms"].append(((cpu[-1] if len(frames) > n0 else time.process_time()) - c0) * 1e3)
            out["chars"].append(driver_class.written - w0)
    return out


def child(names: list[str], moves: int) -> None:
    import asyncio

    results = {}
    for name in names:
        try:
            results[name] = asyncio.run(_measure(name, moves))
        except Exception as exc:  # a table that does not run: say so, measure the rest
            results[name] = {"error": f"{type(exc).__name__}: {str(exc)[:120]}"}
    print(json.dumps(results))


def bench_moves(quick: bool = False, keys: dict | None = None) -> dict[str, dict[str, float]]:
    """Print one line per table; ``keys``: ``bench_keys``' medians, to set each beside."""
    keys = keys or {}
    moves = 5 if quick else MOVES
    names = ["pathways"] if quick else GAMES
    print(f"A bot's move to settled screen (you and bots, {SIZE[0]}x{SIZE[1]}, rendered as for a terminal; "
          f"median of {moves - 2} moves after 2 warm-up, only while you are not to act; no goal: for information, "
          f"beside a cursor key above)")
    proc = subprocess.run([sys.executable, "-m", "bench.moves", "--child", str(moves), *names],
                          cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        print(f"  move bench failed: {last[:200]}")
        return {}
    out = {}
    for name, res in json.loads(proc.stdout.strip().splitlines()[-1]).items():
        if res.get("error") or not res["frames"]:
            print(f"  {name:<18} could not run: {res.get('error', 'no move counted')}")
            continue
        out[name] = {k: statistics.median(res[k]) for k in ("frames", "cpu_ms", "chars")}
        print(f"  {name:<18} {statistics.mean(res['frames']):4.1f} frames/move (most {max(res['frames'])})"
              f"  {out[name]['cpu_ms']:6.1f} ms CPU/move (median; max {max(res['cpu_ms']):.1f})"
              f"  {out[name]['chars'] / 1000:5.1f}K characters to the terminal (median)"
              + (f"  = {out[name]['cpu_ms'] / keys[name]['cpu_ms']:4.1f}x a cursor key on that screen"
                 if keys.get(name, {}).get("cpu_ms") else ""))
    return out


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[3:], int(sys.argv[2]))
    else:
        bench_moves(quick="--quick" in sys.argv)
