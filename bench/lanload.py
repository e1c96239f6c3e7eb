"""Cheap scripted LAN clients and the host processes they load (used by ``bench.netplay``).

The clients do not think and do not replay: every table's moves are played beforehand
by the engine (the same seed, options and random bots as the host's table), and each
client is an ``asyncio.Protocol`` on a raw socket that reads frames, decodes them with
msgpack and sends its seat's next scripted action, with the ``seq`` of the update it
holds, as soon as it is its turn.  So the host (validating every action with the
engine, sending four views) is the process that is at 100%, not the clients.

Host processes (``python -m bench.lanload KIND ...``; each prints its port and table ids
on its first line, then its worker pids on the second, and runs until stdin closes):

* ``host T ROUNDS``: one ``netplay.host.Host`` with T Pathways tables (seeds 1000+i),
  each logging its moves to a file as ``atlantis host`` does;
* ``floor``: no game: a frame from a client is answered by one update-sized frame to
  each of the 4 clients of its "table" (the raw 4-way fan-out, read and written as the
  host does: an asyncio Protocol parsing frames in ``data_received``, one process);
* ``server WORKERS T ROUNDS``: ``atlantis serve``'s table server with WORKERS worker
  processes (0: in this process); T tables are opened through its lobby (seeds 1000+i),
  their logs in a temporary records folder.

``ATLANTIS_PROFILE=1`` in the environment of ``host``: its cProfile is printed to stderr
when it stops (``ATLANTIS_PROFILE_SORT``, ``ATLANTIS_PROFILE_N``: order and lines).
"""

from __future__ import annotations

import asyncio
import os
import struct
import sys
import time
from typing import Any

import msgpack

LOOPBACK = "127.0.0.1"
HEADER = struct.Struct(">I")
PROTOCOL = 2


def script(seed: int, rounds: int, players: int = 4) -> list[tuple[int, dict]]:
    """The moves of the Pathways game the host's table (seed, max_rounds) will play."""
    from engine.core import SeatInfo
    from engine.match import Match
    from engine.registry import GAMES

    game = GAMES["pathways"]
    match = Match(game, {"max_rounds": rounds}, [SeatInfo(f"s{i}", "remote") for i in range(players)], seed)
    bots = [game.make_bot(i, seed, "random") for i in range(players)]
    while match.result() is None:
        seat = min(match.to_act())
        view = match.view(seat)
        match.act(seat, bots[seat].choose(view, game.legal(view)))
    return [(m.seat, m.action) for m in match.record.moves]


def pack(obj: dict) -> bytes:
    body = msgpack.packb(obj, use_bin_type=True)
    return HEADER.pack(len(body)) + body


class Seat(asyncio.Protocol):
    """One client: raw frames in, its scripted actions out."""

    def __init__(self, table: "Table", name: str):
        self.table, self.name = table, name
        self.buf = bytearray()
        self.seat: int | None = None
        self.seq: int | None = None
        self.to_act: list[int] = []
        self.ack = 0
        self.n = 0
        self.transport: Any = None
        self.errors: list[str] = []
        self.over = False
        self.lost = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        hello = {"t": "hello", "v": PROTOCOL, "name": self.name}
        if self.table.id:
            hello["table"] = self.table.id
        if self.table.token and not self.table.seats and not self.table.claimed:
            self.table.claimed = True  # (the opener's seat: its ticket)
            hello["token"] = self.table.token
        transport.write(pack(hello))

    def connection_lost(self, exc: Any) -> None:
        if not self.lost.done():
            self.lost.set_result(None)

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        while len(buf) >= 4:
            (size,) = HEADER.unpack_from(buf)
            if len(buf) < 4 + size:
                return
            obj = msgpack.unpackb(bytes(buf[4:4 + size]), raw=False)
            del buf[:4 + size]
            if obj["t"] == "update" and not obj.get("resync"):
                self.table.stats.sizes.append(4 + size)
            self.on(obj)

    def on(self, obj: dict) -> None:
        t = obj["t"]
        if t == "update":
            self.seq, self.to_act, self.ack = obj["seq"], obj["to_act"], obj["ack"]
            self.table.updated(self)
        elif t == "welcome":
            self.seat = obj["seat"]
            self.table.seats[self.seat] = self
        elif t == "over":
            self.over = True
            self.table.ended(self)
        elif t == "error":
            self.errors.append(f"{obj['code']}: {obj['message']}")
            self.table.failed(self)

    def act(self, action: dict) -> None:
        self.n += 1
        self.transport.write(pack({"t": "act", "v": PROTOCOL, "seq": self.seq, "action": action, "n": self.n}))


class Table:
    """The clients of one table and its script.  ``closed``: the next action waits
    until every seat has its update (round trips); else it goes as soon as the next
    actor may act (throughput).  ``token``: the seat an opener holds (a server's ticket)."""

    def __init__(self, table_id: str, moves: list[tuple[int, dict]], players: int = 4, closed: bool = False,
                 stats: "Stats | None" = None, token: str | None = None, think: float = 0.0,
                 expect_over: bool = True):
        self.id, self.token = table_id, token
        self.think, self.expect_over = think, expect_over
        self.thinking = False
        import random

        self.rng = random.Random(table_id)
        self.moves = moves
        self.players = players
        self.closed = closed
        self.stats = stats or Stats()
        self.seats: dict[int, Seat] = {}
        self.idx = 0
        self.pending: Seat | None = None
        self.waiting = False
        self.sent_at = 0.0
        self.seen: set[int] = set()
        self.ends = 0
        self.claimed = False
        self.done = asyncio.get_running_loop().create_future()

    def updated(self, c: Seat) -> None:
        if self.waiting:
            self.seen.add(c.seat)
        if c is self.pending and c.ack == c.n:
            self.pending = None
            self.idx += 1
            self.stats.own.append(time.perf_counter() - self.sent_at)
        if self.waiting and self.pending is None and len(self.seen) == self.players:
            self.waiting = False
            if self.idx < len(self.moves) or not self.expect_over:  # (the last move: timed to its ``over``)
                self.stats.steady.append(time.perf_counter() - self.sent_at)
            if not self.expect_over and self.idx >= len(self.moves) and not self.done.done():
                self.stats.moves += len(self.moves)
                self.done.set_result(None)
        self.go()

    def go(self, thought: bool = False) -> None:
        if self.pending is not None or self.waiting or self.idx >= len(self.moves) or self.thinking:
            return
        seat, action = self.moves[self.idx]
        c = self.seats.get(seat)
        if c is None or c.seq is None or seat not in c.to_act or len(self.seats) < self.players:
            return
        if self.think and not thought:  # (0.5-1.5x ``think``: players do not act in step)
            self.thinking = True
            asyncio.get_running_loop().call_later(self.think * (0.5 + self.rng.random()), self._thought)
            return
        self.pending, self.waiting = c, self.closed
        self.seen = set()
        self.sent_at = time.perf_counter()
        c.act(action)

    def _thought(self) -> None:
        self.thinking = False
        self.go(thought=True)

    def ended(self, c: Seat) -> None:
        self.ends += 1
        if self.ends == self.players:
            self.stats.ending.append(time.perf_counter() - self.sent_at)
            self.stats.moves += len(self.moves)
            if not self.done.done():
                self.done.set_result(None)

    def failed(self, c: Seat) -> None:
        self.stats.errors.append(c.errors[-1])
        if not self.done.done():
            self.done.set_exception(RuntimeError(f"table {self.id}: {c.errors[-1]}"))


class Stats:
    def __init__(self) -> None:
        self.steady: list[float] = []  # send -> every seat has its new view (closed loop)
        self.own: list[float] = []     # send -> the actor's own new view
        self.ending: list[float] = []  # the game-ending move: send -> every seat has ``over``
        self.errors: list[str] = []
        self.moves = 0
        self.sizes: list[int] = []     # bytes of every update frame received (not resyncs)


async def play(port: int, tables: list[Table], timeout: float = 60.0, duration: float | None = None) -> float:
    """Connect 4 seats to every table, play every script to its end (or for ``duration``
    seconds); the wall time."""
    loop = asyncio.get_running_loop()
    seats: list[Seat] = []
    t0 = time.perf_counter()
    for t in tables:
        for i in range(t.players):
            _, proto = await loop.create_connection(lambda t=t, i=i: Seat(t, f"c{i}"), LOOPBACK, port)
            seats.append(proto)
    try:
        if duration is not None:
            await asyncio.sleep(duration)
        else:
            await asyncio.wait_for(asyncio.gather(*(t.done for t in tables)), timeout)
    finally:
        for s in seats:
            if s.transport is not None:
                s.transport.close()
    return time.perf_counter() - t0


def cpu_s(pid: int) -> float:
    """CPU seconds a process has run (``/proc/PID/schedstat``: nanoseconds, not 10 ms
    clock ticks; the host processes here are single-threaded)."""
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            return int(f.read().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def self_cpu_s() -> float:
    return cpu_s(os.getpid())


class Proc:
    """A host process of this module (``python -m bench.lanload KIND ARGS``)."""

    def __init__(self, proc: Any, port: int, ids: list[str], pids: list[int]):
        self.proc, self.port, self.ids, self.pids = proc, port, ids, pids

    @classmethod
    async def start(cls, *args: Any, env: dict | None = None) -> "Proc":
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bench.lanload", *map(str, args),
                                                    stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                                                    env=env)
        first = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode().split()
        pids = [int(p) for p in (await asyncio.wait_for(proc.stdout.readline(), 60)).decode().split()]
        return cls(proc, int(first[0]), first[1:], [proc.pid] + pids)

    def cpu(self) -> list[float]:
        return [cpu_s(p) for p in self.pids]

    async def stop(self) -> None:
        if self.proc.returncode is None:
            self.proc.stdin.close()
            try:
                await asyncio.wait_for(self.proc.wait(), 15)
            except asyncio.TimeoutError:
                self.proc.kill()
                await self.proc.wait()


# --- the host processes -------------------------------------------------------------------
async def _until_stdin_closes() -> None:
    loop = asyncio.get_running_loop()
    stdin = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)
    while await stdin.readline():
        pass


def _limits() -> Any:
    from netplay.host import Limits

    return Limits(idle_timeout=120, max_connections=8192, max_per_address=8192, rate=1e6, burst=1e6)


async def _host(tables: int, rounds: int) -> None:
    from engine.registry import GAMES
    from netplay.host import Host, HostTable

    import tempfile
    from pathlib import Path

    game = GAMES["pathways"]
    logs = Path(tempfile.mkdtemp(prefix="atlantis-bench-host-"))  # (a host logs every move, as in play)
    made = [HostTable.create(game, {"max_rounds": rounds}, ["open"] * 4, 1000 + i, log_path=logs / f"t{i}.atlrec")
            for i in range(tables)]
    host = Host(made, host=LOOPBACK, port=0, limits=_limits())
    await host.start()
    print(host.port, " ".join(t.id for t in made), flush=True)
    print("", flush=True)
    if os.environ.get("ATLANTIS_PROFILE"):
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.enable()
        await _until_stdin_closes()
        prof.disable()
        pstats.Stats(prof, stream=sys.stderr).sort_stats(os.environ.get("ATLANTIS_PROFILE_SORT", "tottime")).print_stats(int(os.environ.get("ATLANTIS_PROFILE_N", "30")))
    else:
        await _until_stdin_closes()
    await host.close()
    import shutil

    shutil.rmtree(logs, ignore_errors=True)


async def _floor(size: int) -> None:
    """The fan-out floor: every 4 connections in turn form a table; a frame from one
    is answered by one ``size``-byte update frame, view-shaped, to each of the 4 (frames parsed in
    ``data_received``, sent with ``transport.write``: the host's own layout,
    ``netplay.conn.Session``, with no game, no checks and no log)."""
    groups: list[list[asyncio.Transport]] = [[]]
    # The padding is a list of small ints, as a view is mostly (a board, hands): the
    # clients decode as many items as in a real update.  It is packed once; a frame is
    # its head map with one more key (the map header says 6, then "p" and the list).
    pad = msgpack.packb("p") + msgpack.packb([1] * max(0, size - 41))

    def update(seq: int, nxt: int, ack: int) -> bytes:
        head = msgpack.packb({"t": "update", "v": PROTOCOL, "seq": seq, "to_act": [nxt], "ack": ack})
        body = b"\x86" + head[1:] + pad
        return HEADER.pack(len(body)) + body

    class Answer(asyncio.Protocol):
        def connection_made(self, transport: Any) -> None:
            self.transport, self.buf, self.hello = transport, bytearray(), False
            group = self.group = groups[-1]
            self.seat = len(group)
            group.append(transport)
            if len(group) == 4:
                groups.append([])
            transport.write(pack({"t": "welcome", "v": PROTOCOL, "seat": self.seat}))
            if len(group) == 4:
                for w in group:
                    w.write(update(1, 0, 0))

        def data_received(self, data: bytes) -> None:
            buf = self.buf
            buf += data
            while len(buf) >= 4:
                (n,) = HEADER.unpack_from(buf)
                if len(buf) < 4 + n:
                    return
                body = bytes(buf[4:4 + n])
                del buf[:4 + n]
                if not self.hello:
                    self.hello = True
                    continue
                act = msgpack.unpackb(body)
                seq, nxt, seat = act["seq"] + 1, (self.seat + 1) % 4, self.seat
                for i, w in enumerate(self.group):
                    w.write(update(seq, nxt, act["n"] if i == seat else 0))

    server = await asyncio.get_running_loop().create_server(Answer, LOOPBACK, 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    print("", flush=True)
    await _until_stdin_closes()
    server.close()


async def _server(workers: int, tables: int, rounds: int) -> None:
    from netplay import messages as M
    from netplay.server import ServerLimits, ask
    from netplay.workers import make_server

    import tempfile
    from pathlib import Path

    records = Path(tempfile.mkdtemp(prefix="atlantis-bench-server-"))  # (every table logs, as in play)
    server = make_server(workers=workers, name="bench", host=LOOPBACK, port=0, limits=_limits(), records=records,
                         server_limits=ServerLimits(max_tables=tables + 8, max_tables_per_player=tables + 8),
                         seeds=iter(range(1000, 1000 + tables)))
    await server.start()
    ids = []
    for i in range(tables):
        got = await ask(LOOPBACK, server.port, M.OpenTable(game="pathways", players=4, options={"max_rounds": rounds}))
        if not isinstance(got, M.Seated):
            raise SystemExit(f"open-table refused: {got}")
        ids.append(f"{got.ticket.table}:{got.ticket.token}")
    print(server.port, " ".join(ids), flush=True)
    print(" ".join(str(p) for p in getattr(server, "worker_pids", list)()), flush=True)
    await _until_stdin_closes()
    await server.close()
    import shutil

    shutil.rmtree(records, ignore_errors=True)


if __name__ == "__main__":
    kind, args = sys.argv[1], [int(a) for a in sys.argv[2:]]
    if kind == "host":
        asyncio.run(_host(*args))
    elif kind == "floor":
        asyncio.run(_floor(*args))
    elif kind == "server":
        asyncio.run(_server(*args))
