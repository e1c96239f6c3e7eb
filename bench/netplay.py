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
* Hostile load (``python -m bench.netplay --hostile`` for this part alone): a host in its
  own process with the default ``Limits`` (but room for every connection at once) while
  300 connections from 20 loopback addresses (127.0.0.2-21, 15 each) hammer it: 100
  idle, 100 dripping a byte a second, 100 never reading; two seated clients keep
  playing and their action round trip and the host's RSS are measured.  Then the host
  CPU for 2,000 spectators joining one table (coalesced seat lists).
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
from typing import Any, Callable

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
        # 400 clients from one address: room past the per-address and total caps
        host = Host(tables, host="127.0.0.1", port=0,
                    limits=Limits(idle_timeout=120, max_connections=4096, max_per_address=4096))
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


# --- hostile load: idle, dripping and non-reading connections ----------------------------------
HOSTILE_SCRIPT = textwrap.dedent("""
    import asyncio, json, logging, sys
    from engine.registry import GAMES
    logging.getLogger("atlantis.host").setLevel(logging.ERROR)  # (each cut is a warning)
    from netplay.host import Host, HostTable, Limits
    async def main():
        game = GAMES["pathways"]
        tables = [HostTable.create(game, {"max_rounds": 500}, ["open", "open"], 4242 + i)
                  for i in range(int(sys.argv[3]))]
        room = int(sys.argv[1])  # the default limits, but room for the whole crowd at once
        host = Host(tables, host="127.0.0.1", port=0,
                    limits=Limits(max_connections=room, max_spectators=room, max_per_address=int(sys.argv[2])))
        await host.start()
        print(host.port, " ".join(t.id for t in tables), flush=True)
        loop = asyncio.get_running_loop()
        stdin = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)
        while await stdin.readline():  # one line of figures per line asked for; EOF: stop
            queued = [c.writer.transport.get_write_buffer_size() for c in host.conns if not c.closed]
            print(json.dumps({"conns": len(host.conns), "cuts": host.cuts, "refused": host.refused,
                              "queued_max": max(queued, default=0), "queued_sum": sum(queued),
                              "spectators": sum(len(t.spectators) for t in tables),
                              "moves": sum(len(t.match.record.moves) for t in tables),
                              "over": sum(t.over for t in tables)}), flush=True)
        await host.close()
    asyncio.run(main())
""")


def _cpu_s(pid: int) -> float:
    import os

    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _shut(sock: Any) -> None:
    """Close a socket the loop may still watch (a cancelled sock_recv unregisters it only
    on the next turn: a new socket with the same number would then trip the selector)."""
    loop = asyncio.get_running_loop()
    if sock.fileno() >= 0:
        loop.remove_reader(sock.fileno())
        loop.remove_writer(sock.fileno())
    sock.close()


async def _open(port: int, source: str, rcvbuf: int | None = None) -> Any:
    """A loopback socket from ``source`` (127.0.0.x), connected to the host."""
    import socket

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.bind((source, 0))
    sock.setblocking(False)
    try:
        await asyncio.wait_for(asyncio.get_running_loop().sock_connect(sock, (LOOPBACK, port)), 5)
    except BaseException:
        _shut(sock)
        raise
    return sock


async def _hostile_peer(kind: str, port: int, source: str, stop: asyncio.Event, tally: dict[str, int],
                        table: Callable[[], str]) -> None:
    """One hostile connection, opened again each time the host cuts it, until ``stop``.

    * idle: connects and says nothing (the host cuts it at the hello deadline);
    * drip: says hello as a spectator, reads what it gets, then sends a ping one byte a
      second (the host cuts it at the frame deadline);
    * unread: says hello as a spectator with a 4 KiB receive window and never reads a
      byte, while the table plays, and sends a ping a second (the host cuts it at the
      drain deadline, or at the unsent-bytes cap; when that game ends it goes to watch
      the next one);
    * mute: the same, but sends nothing after its hello (cut at the unsent-bytes cap,
      or at the idle deadline).
    ``table()``: the id of the table in play."""
    from netplay import messages as M
    from netplay.wire import encode_frame

    loop = asyncio.get_running_loop()
    ping = encode_frame({"t": "ping", "v": M.PROTOCOL, "n": 1})
    while not stop.is_set():
        watching = table()
        hello = encode_frame({"t": "hello", "v": M.PROTOCOL, "spectate": True, "name": "x", "table": watching})
        try:
            sock = await _open(port, source, rcvbuf=4096 if kind in ("unread", "mute") else None)
        except (OSError, asyncio.TimeoutError):
            await asyncio.sleep(0.5)
            continue
        tally["opened"] += 1
        try:
            if kind == "idle":
                while not stop.is_set() and await asyncio.wait_for(loop.sock_recv(sock, 4096), 30):
                    pass  # (only the host's "timeout" error arrives, then the close)
            elif kind == "drip":
                await loop.sock_sendall(sock, hello)

                async def discard() -> None:
                    try:
                        while await loop.sock_recv(sock, 65536):
                            pass
                    except OSError:
                        pass
                reader = loop.create_task(discard())
                try:
                    for i in range(len(ping) * 4):  # (bounded: the host cuts it long before)
                        if reader.done() or stop.is_set():
                            break
                        await loop.sock_sendall(sock, ping[i % len(ping):i % len(ping) + 1])
                        await asyncio.wait([reader], timeout=1.0)
                finally:
                    reader.cancel()
                    await asyncio.gather(reader, return_exceptions=True)
            else:
                import socket

                await loop.sock_sendall(sock, hello)
                while not stop.is_set() and table() == watching:  # never reads
                    await asyncio.sleep(1.0)
                    if kind == "unread":
                        await loop.sock_sendall(sock, ping)  # (fails once cut)
                    elif sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                        break  # (reset by the host)
                if table() != watching:
                    continue  # (its game is over: watch the next; not a cut)
        except (OSError, asyncio.TimeoutError):
            pass
        finally:
            _shut(sock)
        if not stop.is_set():
            tally["cut"] += 1
            await asyncio.sleep(0.2)


async def hostile_load(duration: float = 20.0, per_kind: int = 100, think: float = 0.005,
                       tables: int = 40) -> dict[str, Any]:
    """A seated client's action round trip (send -> its own new view) and the host's RSS,
    first quiet, then while ``per_kind`` idle, dripping and non-reading connections each
    (from 127.0.0.2, .3, ...: 15 per address, under the per-address cap) hammer the host
    for ``duration`` seconds.  The host runs in its own process with the default limits,
    except room for the whole crowd at once (connections and spectators).  Two seated
    clients (the random bot, ``think`` s per action) play its tables one after another;
    the spectators watch the table in play."""
    from engine.registry import GAMES
    from netplay.client import Client

    game = GAMES["pathways"]
    per_address = 16
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", HOSTILE_SCRIPT, str(8 * per_kind),
                                                str(per_address), str(tables), stdin=asyncio.subprocess.PIPE,
                                                stdout=asyncio.subprocess.PIPE)

    async def figures() -> dict[str, Any]:
        import json

        proc.stdin.write(b"?\n")
        await proc.stdin.drain()
        return json.loads(await asyncio.wait_for(proc.stdout.readline(), 30))

    peers: list[asyncio.Future] = []
    stop = asyncio.Event()
    try:
        first = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode().split()
        port, ids = int(first[0]), first[1:]
        idle_rss = _rss_kb(proc.pid).get("VmRSS", 0) / 1024
        phase = {"name": "quiet"}
        times: dict[str, list[float]] = {"quiet": [], "hostile": []}
        sent: dict[int, float] = {}
        current = {"table": ids[0], "played": 0}

        def player(i: int, table_id: str) -> Client:
            c = Client(LOOPBACK, port, name=f"seat{i}", table=table_id, read_timeout=60, connect_timeout=30)
            bot = game.make_bot(i, i, "random")

            def act() -> None:
                legal = c.legal()
                if legal and not stop.is_set():
                    sent[id(c)] = time.perf_counter()
                    c.submit(bot.choose(c.view, legal))

            def on(what: str) -> None:
                if what not in ("update", "seats"):
                    return
                if id(c) in sent and not c.pending:
                    took = time.perf_counter() - sent.pop(id(c))
                    if phase["name"] in times:
                        times[phase["name"]].append(took)
                if c.legal():
                    asyncio.get_running_loop().call_later(think, act)

            c.listeners.append(on)
            c.start()
            return c

        async def play_tables() -> None:
            for table_id in ids:  # (bounded: one game per table)
                current["table"] = table_id
                pair = [player(0, table_id), player(1, table_id)]
                while not stop.is_set() and not all(c.finished.is_set() for c in pair):
                    await asyncio.sleep(0.05)
                for c in pair:
                    await c.close()
                current["played"] += 1
                if stop.is_set():
                    return

        playing = asyncio.ensure_future(play_tables())
        await asyncio.sleep(min(4.0, duration / 4))  # quiet: the two seats play alone
        tally = {"opened": 0, "cut": 0}
        kinds = [kind for kind in ("idle", "drip") for _ in range(per_kind)]
        kinds += ["unread", "mute"] * (per_kind // 2) + ["unread"] * (per_kind % 2)
        sources = [f"127.0.0.{2 + i // (per_address - 1)}" for i in range(len(kinds))]
        peers = [asyncio.ensure_future(_hostile_peer(kind, port, source, stop, tally, lambda: current["table"]))
                 for kind, source in zip(kinds, sources)]
        phase["name"] = "warmup"
        await asyncio.sleep(2.0)
        phase["name"] = "hostile"
        peak, held, queued_max, queued_sum = 0.0, 0, 0, 0
        cpu0, t0 = _cpu_s(proc.pid), time.perf_counter()
        end = t0 + duration
        while time.perf_counter() < end and not playing.done():
            await asyncio.sleep(0.5)
            peak = max(peak, _rss_kb(proc.pid).get("VmRSS", 0) / 1024)
            now = await figures()
            held = max(held, now["conns"])
            queued_max = max(queued_max, now["queued_max"])
            queued_sum = max(queued_sum, now["queued_sum"])
        phase["name"] = "stop"
        host_cpu = (_cpu_s(proc.pid) - cpu0) / (time.perf_counter() - t0)
        last = await figures()
        hwm = _rss_kb(proc.pid).get("VmHWM", 0) / 1024
        stop.set()
        await asyncio.wait_for(playing, 30)
        q, h = times["quiet"], times["hostile"]
        return {"quiet_p50": pct(q, 50), "quiet_p99": pct(q, 99), "quiet_n": len(q),
                "p50": pct(h, 50), "p99": pct(h, 99), "n": len(h), "rss_peak_mb": max(peak, hwm),
                "idle_rss_mb": idle_rss, "held_max": held, "cuts": last["cuts"], "refused": last["refused"],
                "opened": tally["opened"], "peers": len(peers), "games": current["played"],
                "queued_max_kb": queued_max / 1024, "queued_sum_mb": queued_sum / 2**20, "host_cpu": host_cpu,
                "addresses": len(set(sources))}
    finally:
        stop.set()
        for t in peers:
            t.cancel()
        await asyncio.gather(*peers, return_exceptions=True)
        if proc.returncode is None:
            proc.stdin.close()
            try:
                await asyncio.wait_for(proc.wait(), 10)
            except asyncio.TimeoutError:
                proc.kill()
                await proc.wait()


async def crowd_join_cpu(n: int = 2000) -> dict[str, float]:
    """Host CPU seconds while ``n`` spectators join one table (each reads what it gets)."""
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", HOSTILE_SCRIPT, str(2 * n), str(2 * n), "1",
                                                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    loop = asyncio.get_running_loop()
    socks: list[Any] = []
    readers: list[asyncio.Task] = []
    try:
        port = int((await asyncio.wait_for(proc.stdout.readline(), 30)).split()[0])
        from netplay import messages as M
        from netplay.wire import encode_frame

        hello = encode_frame({"t": "hello", "v": M.PROTOCOL, "spectate": True})
        got = [0]

        async def discard(sock: Any) -> None:
            try:
                while data := await loop.sock_recv(sock, 65536):
                    got[0] += len(data)
            except OSError:
                pass

        cpu0 = _cpu_s(proc.pid)
        t0 = time.perf_counter()
        for i in range(n):
            sock = await _open(port, LOOPBACK)
            socks.append(sock)
            readers.append(loop.create_task(discard(sock)))
            await loop.sock_sendall(sock, hello)
        import json

        for _ in range(600):  # until every one is in (bounded)
            proc.stdin.write(b"?\n")
            await proc.stdin.drain()
            if json.loads(await asyncio.wait_for(proc.stdout.readline(), 30))["spectators"] >= n:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)  # (the last seat lists go out)
        return {"n": n, "cpu_s": _cpu_s(proc.pid) - cpu0, "wall_s": time.perf_counter() - t0,
                "mb_received": got[0] / 1e6}
    finally:
        for t in readers:
            t.cancel()
        for sock in socks:
            _shut(sock)
        proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), 10)
        except asyncio.TimeoutError:
            proc.kill()
            await proc.wait()


def print_hostile(hl: dict[str, Any], crowd: dict[str, float] | None) -> None:
    print(f"  hostile load: {hl['peers']} connections (1/3 idle, 1/3 dripping 1 byte/s, 1/3 never "
          f"reading, half of those pinging) from {hl['addresses']} loopback addresses, up to {hl['held_max']} held at once, "
          f"{hl['opened']} opened in all: seated action round trip p50 {hl['p50'] * 1e3:.2f} ms "
          f"p99 {hl['p99'] * 1e3:.2f} ms ({hl['n']} actions; quiet before: p50 {hl['quiet_p50'] * 1e3:.2f} ms "
          f"p99 {hl['quiet_p99'] * 1e3:.2f} ms; goal p99 < 10 ms), host RSS peak {hl['rss_peak_mb']:.0f} MB "
          f"(idle {hl['idle_rss_mb']:.0f} MB; goal < 150 MB); the host cut "
          + ", ".join(f"{v} {k}" for k, v in sorted(hl["cuts"].items())))
    if crowd is not None:
        before = "; issue 9 measured 6.6 s for 2,000 before seat lists were coalesced" if crowd["n"] == 2000 else ""
        print(f"  {crowd['n']} spectators joining one table (limits raised to let them in): host CPU "
              f"{crowd['cpu_s']:.2f} s ({crowd['wall_s']:.1f} s wall, {crowd['mb_received']:.1f} MB of seat "
              f"lists and views sent{before})")


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


async def _hostile(quick: bool) -> tuple[dict[str, Any], dict[str, float]]:
    import os

    load_avg = os.getloadavg()[0]
    hl = await hostile_load(duration=12.0 if quick else 20.0)
    crowd = await crowd_join_cpu(500 if quick else 2000)
    print_hostile(hl, crowd)
    print(f"    (load average {load_avg:.1f} on {os.cpu_count()} CPUs when the hostile run began; the seated "
          f"clients and the hostile peers share this process, the host has its own)")
    return hl, crowd


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
    hl, crowd = await _hostile(quick)
    found = await time_to_browse()
    print(f"  host start -> listed by browse: {found:.2f} s (process start, zeroconf probing ~1.2 s, TCP hello)")
    return {"hostile_p99_ms": hl["p99"] * 1e3, "hostile_rss_mb": hl["rss_peak_mb"],
            "crowd_cpu_s": crowd["cpu_s"], "paced_p99_ms": paced["p99"] * 1e3, "echo_p50_ms": e50, "rt_p50_ms": r50, "rt_p99_ms": r99, "load_actions_per_s": ld["actions_per_s"],
            "load_p99_ms": ld["p99"] * 1e3, "host_rss_mb": ld["rss_mb"], "browse_s": found}


if __name__ == "__main__":
    if "--hostile" in sys.argv:  # only the hostile-load figures
        asyncio.run(_hostile(quick="--quick" in sys.argv))
    else:
        run(quick="--quick" in sys.argv)
