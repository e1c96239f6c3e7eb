"""LAN play: action round trip next to a raw msgpack echo, load (many tables of bot
clients on one host), bytes per view update, and how soon ``browse`` lists a new host.

Everything runs on 127.0.0.1 (zeroconf on the loopback interface only).

* Round trip: 4 clients at one Pathways table, in this process with the host.  Timed
  from the acting client's send until *every* seat has received its new view.  The
  echo baseline sends an action-sized msgpack frame over an asyncio loopback socket and
  waits for it to come back, in the same process and the same run.
* Load: the host runs in its own process with T tables (100; quick: 25) of Pathways; 4
  headless bot clients per table (the random bot: it thinks in microseconds, so the
  figures measure the host and the protocol, not the bots' search) run in this process and
  play every game to the end as fast as they can.  Actions/s is accepted moves over the wall time; the round trip
  there is send -> own new view; RSS is the host process's peak (VmHWM).
  At full speed the round trip is mostly queueing (100 actions in flight / throughput);
  a second, paced run has every bot think 0.25 s per action, as people would (faster).
* Bytes per update: the size of every update frame (view + events) the host sent,
  median, per game (bots play one game of each).
* Browse: from starting ``atlantis host --headless`` until a browser lists it.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
import statistics
import struct
import sys
import textwrap
import time
from typing import Any

import msgpack

LOOPBACK = "127.0.0.1"


def pct(values: list[float], p: float) -> float:
    data = sorted(values)
    if not data:
        return float("nan")
    k = min(len(data) - 1, max(0, round(p / 100 * (len(data) - 1))))
    return data[k]


# --- echo baseline ---------------------------------------------------------------------
async def echo_round_trips(n: int) -> list[float]:
    async def handle(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        try:
            while True:
                (size,) = struct.unpack(">I", await r.readexactly(4))
                body = await r.readexactly(size)
                msgpack.unpackb(body)
                w.write(struct.pack(">I", size) + body)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass

    server = await asyncio.start_server(handle, LOOPBACK, 0)
    port = server.sockets[0].getsockname()[1]
    r, w = await asyncio.open_connection(LOOPBACK, port)
    payload = msgpack.packb({"t": "act", "v": 1, "seq": 12, "n": 3,
                             "action": {"k": "place", "tile": 17, "rot": 1, "cell": 42}})
    frame = struct.pack(">I", len(payload)) + payload
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        w.write(frame)
        (size,) = struct.unpack(">I", await asyncio.wait_for(r.readexactly(4), 5))
        msgpack.unpackb(await asyncio.wait_for(r.readexactly(size), 5))
        out.append(time.perf_counter() - t0)
    w.close()
    server.close()
    await server.wait_closed()
    return out


# --- round trip with 4 clients -------------------------------------------------------------
async def table_round_trips(n: int) -> tuple[list[float], list[int]]:
    from engine.registry import GAMES
    from netplay.client import Client
    from netplay.host import Host, HostTable

    game = GAMES["pathways"]
    times: list[float] = []
    sizes: list[int] = []
    seed = 0
    while len(times) < n:
        seed += 1
        table = HostTable.create(game, {}, ["open"] * 4, seed)
        host = Host([table], host=LOOPBACK, port=0)
        table.update_sizes = sizes
        await host.start()
        clients = [Client(LOOPBACK, host.port, name=f"c{i}") for i in range(4)]
        for c in clients:
            c.start()
        while not (all(c.view is not None and c.seats is not None and c.seats.started for c in clients)
                   and table.started and all(c.version == table.slots[c.seat].version for c in clients)):
            await asyncio.sleep(0.005)
        bots = {c.seat: game.make_bot(c.seat, seed) for c in clients}
        got = asyncio.Event()
        pending: set[int] = set()

        def seen(c: Client) -> Any:
            def on(what: str) -> None:
                if what == "update" and c.seat in pending:
                    pending.discard(c.seat)
                    if not pending:
                        got.set()
            return on

        for c in clients:
            c.listeners.append(seen(c))
        while table.match.result() is None and len(times) < n:
            actor = next(c for c in clients if c.seat in table.match.to_act())
            while not actor.legal():  # (its last update may still be on the way)
                await asyncio.sleep(0)
            action = bots[actor.seat].choose(actor.view, actor.legal())
            got.clear()
            pending.update(c.seat for c in clients)
            t0 = time.perf_counter()
            assert actor.submit(action) is None
            await asyncio.wait_for(got.wait(), 5)
            times.append(time.perf_counter() - t0)
        for c in clients:
            await c.close()
        await host.close()
    return times, sizes


async def bytes_per_update(slug: str) -> list[int]:
    from engine.registry import GAMES
    from netplay.client import Client, run_bot
    from netplay.host import Host, HostTable

    game = GAMES[slug]
    table = HostTable.create(game, {}, ["open"] * game.min_players, 3)
    host = Host([table], host=LOOPBACK, port=0)
    table.update_sizes = []
    await host.start()
    clients = [Client(LOOPBACK, host.port, name=f"c{i}") for i in range(game.min_players)]
    await asyncio.wait_for(asyncio.gather(*(run_bot(c) for c in clients)), 120)
    await host.close()
    return table.update_sizes


# --- load: many tables in one host process ----------------------------------------------
HOST_SCRIPT = textwrap.dedent("""
    import asyncio, sys
    from engine.registry import GAMES
    from netplay.host import Host, HostTable, Limits
    async def main():
        game = GAMES["pathways"]
        # a round limit: random bots wander; this keeps 100 games to a few thousand moves
        tables = [HostTable.create(game, {"max_rounds": int(sys.argv[2])}, ["open"] * 4, 1000 + i)
                  for i in range(int(sys.argv[1]))]
        host = Host(tables, host="127.0.0.1", port=0, limits=Limits(idle_timeout=120))
        await host.start()
        print(host.port, " ".join(t.id for t in tables), flush=True)
        await host.done.wait()
        await asyncio.sleep(1)
    asyncio.run(main())
""")


def _rss_kb(pid: int) -> dict[str, int]:
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS", "VmHWM")):
                key, value = line.split(":")
                out[key] = int(value.split()[0])
    return out


async def load(tables: int, think: float = 0.0, rounds: int = 10) -> dict[str, float]:
    """``think``: seconds each bot waits before acting (0: as fast as possible)."""
    from netplay.client import Client

    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", HOST_SCRIPT, str(tables), str(rounds),
                                                stdout=asyncio.subprocess.PIPE)
    first = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode().split()
    port, ids = int(first[0]), first[1:]
    idle_rss = _rss_kb(proc.pid)
    latencies: list[float] = []
    sent: dict[int, float] = {}

    async def bot(table_id: str, i: int) -> Client:
        from engine.registry import GAMES

        game = GAMES["pathways"]
        c = Client(LOOPBACK, port, name=f"b{i}", table=table_id, read_timeout=60, connect_timeout=30)
        brain: list[Any] = []

        def on(what: str) -> None:
            if what not in ("update", "seats"):  # ("seats": the table has started)
                return
            key = id(c)
            if key in sent and not c.pending:
                latencies.append(time.perf_counter() - sent.pop(key))
            if c.legal():
                if think:
                    asyncio.get_running_loop().call_later(think, act)
                else:
                    act()

        def act() -> None:
            legal = c.legal()
            if legal:
                if not brain:
                    brain.append(game.make_bot(c.seat, i, "random"))  # cheap: load the host, not the bots
                action = brain[0].choose(c.view, legal)
                sent[id(c)] = time.perf_counter()
                c.submit(action)

        c.listeners.append(on)
        c.start()
        await c.finished.wait()
        return c

    t0 = time.perf_counter()
    clients = await asyncio.wait_for(asyncio.gather(*(bot(tid, 4 * k + j) for k, tid in enumerate(ids)
                                                      for j in range(4))), 600)
    wall = time.perf_counter() - t0
    rss = _rss_kb(proc.pid)
    await asyncio.wait_for(proc.wait(), 30)
    moves = sum(len(c.over.moves) for c in clients[::4] if c.over is not None)
    finished = sum(1 for c in clients if c.over is not None)
    return {"tables": tables, "clients": len(clients), "finished": finished, "moves": moves, "wall": wall,
            "actions_per_s": moves / wall, "p50": pct(latencies, 50), "p99": pct(latencies, 99),
            "rss_mb": rss.get("VmHWM", 0) / 1024, "idle_rss_mb": idle_rss.get("VmRSS", 0) / 1024}


# --- discovery ---------------------------------------------------------------------------------
async def time_to_browse() -> float:
    """Seconds from starting ``atlantis host --headless`` until a browser lists *that* host."""
    from netplay.discovery import Browser

    found = asyncio.Event()
    browser = Browser(on_change=found.set, interfaces=[LOOPBACK])
    await browser.start()
    t0 = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "host", "pathways", "--headless", "--port", "0", "--bind", LOOPBACK,
        "--interface", LOOPBACK, "--log", str(Path(tempfile.mkdtemp()) / "bench-host.atlrec"),
        "--name", f"bench {t0:.0f}",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    try:
        line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode()
        address = line.split()[2]
        while not any(t.address == address for t in browser.tables.values()):
            found.clear()
            await asyncio.wait_for(found.wait(), 30)
        return time.perf_counter() - t0
    finally:
        proc.terminate()
        await proc.wait()
        await browser.stop()


def run(quick: bool = False, seeds: int = 200) -> dict[str, float]:
    """Print the netplay figures; return the headline numbers."""
    return asyncio.run(_run(quick))


async def _run(quick: bool) -> dict[str, float]:
    from engine.registry import GAMES

    n = 400 if quick else 2000
    import os

    print(f"LAN play (netplay), loopback (load average when starting: {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} CPUs)")
    echo = await echo_round_trips(n)
    rt, sizes = await table_round_trips(n // 2)
    e50, e99 = pct(echo, 50) * 1e3, pct(echo, 99) * 1e3
    r50, r99 = pct(rt, 50) * 1e3, pct(rt, 99) * 1e3
    print(f"  raw msgpack echo (asyncio loopback): p50 {e50:.3f} ms  p99 {e99:.3f} ms  ({len(echo)} frames)")
    print(f"  action round trip, 4 clients, all views in: p50 {r50:.3f} ms  p99 {r99:.3f} ms  "
          f"({len(rt)} actions; p50 = {r50 / e50:.1f}x echo; goal <= 3x, p99 < 10 ms)")
    print(f"  bytes per view update (median): pathways {statistics.median(sizes):.0f}", end="")
    for slug in sorted(GAMES):
        if slug != "pathways":
            try:
                print(f", {slug} {statistics.median(await bytes_per_update(slug)):.0f}", end="")
            except Exception as exc:  # a game still being written must not stop the bench
                print(f", {slug} n/a ({type(exc).__name__})", end="")
    print()
    tables = 25 if quick else 100
    ld = await load(tables)
    print(f"  load: {ld['tables']} tables x 4 bot clients ({ld['clients']} connections, "
          f"{ld['finished']} saw their game end{'; quick run: fewer tables' if quick else ''}): "
          f"{ld['actions_per_s']:.0f} actions/s ({ld['moves']} moves in {ld['wall']:.1f} s), "
          f"round trip p50 {ld['p50'] * 1e3:.1f} ms p99 {ld['p99'] * 1e3:.1f} ms (goal < 50 ms), "
          f"host RSS peak {ld['rss_mb']:.0f} MB (idle {ld['idle_rss_mb']:.0f} MB; goal < 300 MB)")
    paced = await load(tables, think=0.25, rounds=5)
    print(f"  load, paced: {paced['tables']} tables x 4 bot clients thinking 0.25 s per action: "
          f"{paced['actions_per_s']:.0f} actions/s, round trip p50 {paced['p50'] * 1e3:.1f} ms "
          f"p99 {paced['p99'] * 1e3:.1f} ms, host RSS peak {paced['rss_mb']:.0f} MB")
    found = await time_to_browse()
    print(f"  host start -> listed by browse: {found:.2f} s (process start, zeroconf probing ~1.2 s, TCP hello)")
    return {"paced_p99_ms": paced["p99"] * 1e3, "echo_p50_ms": e50, "rt_p50_ms": r50, "rt_p99_ms": r99, "load_actions_per_s": ld["actions_per_s"],
            "load_p99_ms": ld["p99"] * 1e3, "host_rss_mb": ld["rss_mb"], "browse_s": found}


if __name__ == "__main__":
    run(quick="--quick" in sys.argv)
