"""The host processes the LAN figures load, and the cheap clients that load them (used by
``bench.lan``).

The clients do not think and do not replay: every table's moves are played beforehand
by the engine (the same seed, options and random bots as the host's table).  Two kinds:

* ``Seat`` / ``play`` (the round trips): each client is an ``asyncio.Protocol`` on a
  socket that reads frames, decodes them with msgpack and sends its seat's next scripted
  action, with the ``seq`` of the update it holds, as soon as it is its turn;
* ``drive`` (the throughput runs): no asyncio; every seat's socket in one epoll, only
  the socket a table waits for watched; an update is read by its head (its ``seq``) and
  the last one in a read by its tail (seats to act, ack), nothing else decoded; the act
  frames are made beforehand but for their ``seq``.  They are still real TCP peers of
  the real host: every action is read, checked and applied by the host as any client's.

So the host (validating every action with the engine, sending four views) is the
process at 100%, not the clients.  Every host process here tunes its collector as
``atlantis host`` and ``atlantis serve`` do (``engine.process``).

Host processes (``python -m bench.lanload KIND ...``; each prints its port and table ids
on its first line, then its worker pids on the second, and runs until stdin closes):

* ``host T ROUNDS``: one ``netplay.host.Host`` with T Pathways tables (seeds 1000+i),
  each logging its moves to a file as ``atlantis host`` does; inside TLS with
  ``ATLANTIS_BENCH_TLS=1`` in its environment (a certificate made for the run), else
  cleartext;
* ``bots G B ROUNDS INLINE``: one ``netplay.host.Host`` with G Pathways tables for the
  clients (seeds 1000+i, cleartext) beside B tables where two hard bots play each other
  (their first line is printed once every one of them has begun to think); ``INLINE``
  1: the hard bots decide on the host's event loop, as every bot did before
  ``netplay.thinking``;
* ``server WORKERS T ROUNDS``: ``atlantis serve``'s table server with WORKERS worker
  processes (0: in this process); T tables are opened through its lobby (seeds 1000+i)
  and every seat taken there, each by its own identity (a seat is taken only with a
  ticket: ``TABLE:TOKEN,TOKEN,...``), their logs in a temporary records folder.
"""

from __future__ import annotations

import asyncio
import os
import struct
import sys
import time
from typing import Any

import msgpack

from netplay.messages import PROTOCOL  # (the version these clients speak)

from .report import cpu_seconds

LOOPBACK = "127.0.0.1"
HEADER = struct.Struct(">I")


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
        if self.table.claimed < len(self.table.tokens):  # (a server's seat: its ticket)
            hello["token"] = self.table.tokens[self.table.claimed]
            self.table.claimed += 1
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
    actor may act (throughput).  ``token``: the seats' tickets at a table server (tokens
    joined by commas, taken by the connections in turn)."""

    def __init__(self, table_id: str, moves: list[tuple[int, dict]], players: int = 4, closed: bool = False,
                 stats: "Stats | None" = None, token: str | None = None, think: float = 0.0):
        self.id, self.token = table_id, token
        self.tokens = token.split(",") if token else []
        self.think = think
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
        self.claimed = 0  # tickets used
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
            if self.idx < len(self.moves):  # (the last move: timed to its ``over``)
                self.stats.steady.append(time.perf_counter() - self.sent_at)
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


async def play(port: int, tables: list[Table], timeout: float = 60.0, duration: float | None = None,
               tls: bool = False) -> float:
    """Connect 4 seats to every table (inside TLS with ``tls``, as ``atlantis join`` does:
    a host started with ``ATLANTIS_BENCH_TLS=1``), play every script to its end (or for
    ``duration`` seconds); the wall time."""
    from netplay.tls import client_context

    loop = asyncio.get_running_loop()
    seats: list[Seat] = []
    context = client_context() if tls else None
    t0 = time.perf_counter()
    for t in tables:
        for i in range(t.players):
            _, proto = await loop.create_connection(lambda t=t, i=i: Seat(t, f"c{i}"), LOOPBACK, port, ssl=context)
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


# --- the cheap driver: raw sockets and one epoll, for the throughput runs -----------------
# An update frame's body begins with these bytes (the host packs the map's keys in one
# order: "v", "t", "seq", ...), then its seq; its seats to act and ack are its last keys.
_UPDATE_AT = b"\xa1v" + msgpack.packb(PROTOCOL) + b"\xa1t\xa6update\xa3seq"
_TAIL_KEY = b"\xa6to_act"
_seq_packer = msgpack.Packer()


def _unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False)


def _uint(buf: Any, at: int) -> int:
    """The msgpack non-negative int at ``buf[at]`` (a seq: fixint, uint8/16/32)."""
    b = buf[at]
    if b < 0x80:
        return b
    width = {0xcc: 1, 0xcd: 2, 0xce: 4, 0xcf: 8}[b]
    return int.from_bytes(buf[at + 1:at + 1 + width], "big")


class _Peer:
    """One seat's socket in ``drive``: its buffer and what its last update said."""

    __slots__ = ("sock", "fd", "table", "buf", "seat", "seq", "to_act", "ack", "n", "over", "hello")

    def __init__(self, sock: Any, table: "_Run", hello: bytes):
        self.sock, self.fd, self.table, self.hello = sock, sock.fileno(), table, hello
        self.buf = b""
        self.seat: int | None = None
        self.seq: int | None = None
        self.to_act: list[int] = []
        self.ack = 0
        self.n = 0
        self.over = False

    def read(self) -> bool:
        """Take every byte the socket holds and read its frames: an update's seq from
        its head and, for the last one, its seats to act and ack from its tail; any
        other frame decoded whole.  False when the host closed the connection."""
        try:
            data = self.sock.recv(1 << 18)
        except (BlockingIOError, InterruptedError):
            return True
        if not data:
            return False
        if self.buf:
            data = self.buf + data
        buf, pos, last = data, 0, -1
        size = len(buf)
        while size - pos >= 4:
            end = pos + 4 + int.from_bytes(buf[pos:pos + 4], "big")
            if end > size:
                break
            if buf.startswith(_UPDATE_AT, pos + 5):
                last = pos
            else:
                self.other(_unpack(buf[pos + 4:end]))
            pos = end
        if last >= 0:
            end = last + 4 + int.from_bytes(buf[last:last + 4], "big")
            self.seq = _uint(buf, last + 5 + len(_UPDATE_AT))
            tail = buf.rfind(_TAIL_KEY, last, end) + len(_TAIL_KEY)
            head = buf[tail]
            if 0x90 <= head <= 0x9f and max(buf[tail + 1:tail + 1 + (head & 15)], default=0) < 0x80:
                count = head & 15  # (a short list of small ints, then "resync", a bool, "ack")
                self.to_act = list(buf[tail + 1:tail + 1 + count])
                self.ack = _uint(buf, tail + 1 + count + 12)
            else:
                got = _unpack(b"\x83" + buf[tail - len(_TAIL_KEY):end])
                self.to_act, self.ack = got["to_act"], got["ack"]
        self.buf = buf[pos:] if pos < size else b""
        return True

    def other(self, obj: dict) -> None:
        t = obj.get("t")
        if t == "welcome":
            self.seat = obj["seat"]
            self.table.seats[self.seat] = self
        elif t == "over":
            self.over = True
        elif t == "error":
            self.table.errors.append(f"{obj.get('code')}: {obj.get('message')}")


class _Run:
    """One table in ``drive``: its seats and its script as act frames made beforehand
    (the engine's own moves for the host's seed: every one is checked and applied by
    the host as any client's)."""

    def __init__(self, spec: "Table"):
        self.spec = spec
        self.moves = spec.moves
        self.players = spec.players
        self.seats: dict[int, _Peer] = {}
        self.peers: list[_Peer] = []
        self.errors: list[str] = []
        counts = [0] * spec.players
        self.acts: list[tuple[int, int, bytes, bytes]] = []  # (seat, n, head up to seq, the rest)
        head = b"\x85" + msgpack.packb("t") + msgpack.packb("act") + msgpack.packb("v") + msgpack.packb(PROTOCOL) + msgpack.packb("seq")
        for seat, action in self.moves:
            counts[seat] += 1
            rest = msgpack.packb("action") + msgpack.packb(action, use_bin_type=True) + msgpack.packb("n") + msgpack.packb(counts[seat])
            self.acts.append((seat, counts[seat], head, rest))
        self.idx = 0
        self.pending: _Peer | None = None
        self.watching: list[_Peer] = []  # the sockets in the epoll (one once the table has begun)
        self.sent_at = 0.0
        self.due = 0.0       # paced: when the next act may go (0: at once)
        self.done = False
        self.rng = spec.rng

    def act_frame(self, k: int, seq: int) -> bytes:
        _seat, _n, head, rest = self.acts[k]
        body = head + _seq_packer.pack(seq) + rest
        return HEADER.pack(len(body)) + body


def drive(port: int, tables: list["Table"], timeout: float = 60.0, duration: float | None = None,
          batch: float = 0.002, started: Any = None, seated: bool = False) -> float:
    """``play`` for the throughput runs, without asyncio: each table's 4 seats are raw
    sockets in one epoll, and only the socket of the seat the table waits for is
    watched (its own update after an act, or the update that makes it the next to
    act); the others' frames wait in their buffers until that seat is next.  A seat
    reads an update's seq from its head and its seats to act and ack from its tail
    (nothing else of it is decoded) and writes its next act frame, made beforehand.
    ``batch``: after handling what one wait brought, sleep this long before the next, so
    that one wake-up handles the frames of many tables (a process woken for every frame
    spends more on waking than on the frame), but only while at least half the tables
    still playing have an act at the host, and 16 of them (or half of all, if fewer), so
    that the host never runs dry (and the last tables, on one worker when the other's
    are done, are batched too, not polled a frame at a time).  Paced tables (``think``)
    are driven with no batching.
    Blocks (call it from the event loop's thread only when nothing else must run).
    Every seat connects and says hello first (no table plays meanwhile); ``seated``: and
    has its welcome and its first update (the host has seated all: its joins are then
    not in the clocks); then ``started()`` is called (the caller's clocks start) and
    play begins.  No collector runs in the play (it makes no cycles).  Returns the
    wall time of the play; fills each table's ``stats`` as ``play`` does."""
    import heapq
    import select
    import socket

    ep = select.epoll()
    runs = [_Run(t) for t in tables]
    by_fd: dict[int, _Peer] = {}
    t0 = time.perf_counter()
    for run in runs:
        spec = run.spec
        for i in range(run.players):
            hello = {"t": "hello", "v": PROTOCOL, "name": f"c{i}"}
            if spec.id:
                hello["table"] = spec.id
            if i < len(spec.tokens):
                hello["token"] = spec.tokens[i]
            sock = socket.create_connection((LOOPBACK, port))
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.setblocking(False)
            peer = _Peer(sock, run, pack(hello))
            run.peers.append(peer)
            by_fd[peer.fd] = peer
            sock.send(peer.hello)
            ep.register(peer.fd, select.EPOLLIN)
            run.watching.append(peer)

    def watch_only(run: _Run, keep: _Peer | None) -> None:
        watching = run.watching
        if len(watching) == 1 and watching[0] is keep:
            return
        for p in watching:
            if p is not keep:
                ep.unregister(p.fd)
        if keep is not None and keep not in watching:
            ep.register(keep.fd, select.EPOLLIN)
        run.watching = [keep] if keep is not None else []

    perf = time.perf_counter
    end = perf() + timeout
    unseated = sum(run.players for run in runs) if seated else 0  # (seats without their first update)
    while unseated:
        if perf() >= end:
            raise TimeoutError(f"{unseated} seats not seated after {timeout:g} s")
        for fd, _ev in ep.poll(max(0.0, end - perf())):
            peer = by_fd[fd]
            had = peer.seq is not None
            if not peer.read():
                raise RuntimeError(f"table {peer.table.spec.id}: the host closed a seat ({peer.table.errors})")
            if peer.table.errors:
                raise RuntimeError(f"table {peer.table.spec.id}: {peer.table.errors[0]}")
            unseated -= not had and peer.seq is not None

    timers: list[tuple[float, int, _Run]] = []
    in_flight = 0  # (tables with an act at the host: ``pending``)

    def step(run: _Run) -> None:
        """Move ``run`` on as far as it can go now."""
        nonlocal in_flight
        while not run.done:
            if len(run.seats) < run.players:
                return  # (every seat's welcome first: then the table has begun)
            p = run.pending
            if p is not None:
                if p.ack < run.acts[run.idx][1]:
                    watch_only(run, p)
                    return
                run.pending = None
                in_flight -= 1
                run.spec.stats.own.append(perf() - run.sent_at)
                run.idx += 1
            if run.idx >= len(run.moves):
                run.done = True
                run.spec.stats.moves += len(run.moves)
                watch_only(run, None)
                return
            seat = run.acts[run.idx][0]
            c = run.seats[seat]
            if c not in run.watching and not c.read():
                raise RuntimeError(f"table {run.spec.id}: the host closed seat {seat}")
            if c.seq is None or seat not in c.to_act:
                watch_only(run, c)
                return
            if run.spec.think:
                now = time.perf_counter()
                if run.due == 0.0:
                    run.due = now + run.spec.think * (0.5 + run.rng.random())
                    heapq.heappush(timers, (run.due, id(run), run))
                if now < run.due:
                    watch_only(run, None)
                    return
                run.due = 0.0
            run.pending = c
            in_flight += 1
            run.sent_at = perf()
            c.sock.send(run.act_frame(run.idx, c.seq))
            watch_only(run, c)
            return

    import gc

    if started is not None:
        started()
    t0 = time.perf_counter()  # (the play: every seat is connected)
    end = t0 + (duration if duration is not None else timeout)
    left = len(runs)
    pause = 0.0 if any(t.think for t in tables) else batch
    floor = min(16, len(runs) / 2)  # (fewer in flight: a sleep could leave a worker dry)
    collecting = gc.isenabled()
    gc.disable()  # (the play makes no cycles: no collector passes over the scripts while it runs)
    try:
        if seated:
            for run in runs:
                step(run)
                left -= run.done
        while left:
            now = time.perf_counter()
            if now >= end:
                if duration is not None:
                    break
                raise TimeoutError(f"{left} of {len(runs)} tables unfinished after {timeout:g} s")
            wait = end - now
            if timers:
                wait = min(wait, max(0.0, timers[0][0] - now))
            events = ep.poll(wait)
            for fd, _ev in events:
                peer = by_fd[fd]
                run = peer.table
                if not peer.read():
                    raise RuntimeError(f"table {run.spec.id}: the host closed a seat ({run.errors})")
                if run.errors:
                    raise RuntimeError(f"table {run.spec.id}: {run.errors[0]}")
                if not run.done:
                    step(run)
                    left -= run.done
            now = time.perf_counter()
            while timers and timers[0][0] <= now:
                _, _, run = heapq.heappop(timers)
                if not run.done:
                    step(run)
                    left -= run.done
            if pause and events and in_flight >= floor and 2 * in_flight >= left:
                time.sleep(pause)
    finally:
        wall = time.perf_counter() - t0
        if collecting:
            gc.enable()
        ep.close()
        for run in runs:
            for p in run.peers:
                p.sock.close()
    return wall


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
        return [cpu_seconds(p) for p in self.pids]

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


def _tls() -> dict[str, Any]:
    """How a bench host listens: cleartext (``plain``), or inside TLS with a certificate
    made for the run (``ATLANTIS_BENCH_TLS=1``)."""
    if not os.environ.get("ATLANTIS_BENCH_TLS"):
        return {"plain": True}
    import tempfile
    from pathlib import Path

    from netplay.tls import load_certificate

    return {"certificate": load_certificate(Path(tempfile.mkdtemp(prefix="atlantis-bench-tls-")) / "cert.pem")[0]}


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
    host = Host(made, host=LOOPBACK, port=0, limits=_limits(), **_tls())
    await host.start()
    print(host.port, " ".join(t.id for t in made), flush=True)
    print("", flush=True)
    await _until_stdin_closes()
    await host.close()
    import shutil

    shutil.rmtree(logs, ignore_errors=True)


async def _bots(games: int, bot_tables: int, rounds: int, inline: int) -> None:
    from engine.registry import GAMES
    from netplay.host import Host, HostTable

    game = GAMES["pathways"]
    played = [HostTable.create(game, {"max_rounds": rounds}, ["open"] * 4, 1000 + i) for i in range(games)]
    thinking = [HostTable.create(game, {}, ["bot", "bot"], 2000 + i) for i in range(bot_tables)]
    for t in thinking:
        for slot in t.slots:
            slot.bot = game.make_bot(slot.index, 2000, "hard")
    host = Host([*played, *thinking], host=LOOPBACK, port=0, limits=_limits(), plain=True)
    await host.start()
    if inline:
        for t in thinking:
            t.thinker = None  # (its bots decide on the loop)
    # (every bot table has begun to think: in a worker, or on the loop when inline)
    deadline = time.monotonic() + 60
    while not all(t.thinking or t.match.record.moves for t in thinking) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    print(host.port, " ".join(t.id for t in played), flush=True)
    print("", flush=True)
    await _until_stdin_closes()
    await host.close()


async def _server(workers: int, tables: int, rounds: int) -> None:
    from netplay import messages
    from netplay.server import ServerLimits, ask
    from netplay.workers import make_server

    import tempfile
    from pathlib import Path

    records = Path(tempfile.mkdtemp(prefix="atlantis-bench-server-"))  # (every table logs, as in play)
    server = make_server(workers=workers, name="bench", host=LOOPBACK, port=0, limits=_limits(), records=records,
                         server_limits=ServerLimits(max_tables=tables + 8), seeds=iter(range(1000, 1000 + tables)),
                         **_tls())
    await server.start()
    from netplay.tls import PLAIN, Trust

    trust = PLAIN if server.plain else Trust(pin=False)
    ids = []
    for i in range(tables):
        tokens, table = [], None
        for seat in range(4):  # (each seat its own player: the lobby gives one seat a table to each)
            me = (await ask(LOOPBACK, server.port, messages.ListTables(), trust=trust)).identity
            msg = (messages.OpenTable(game="pathways", players=4, options={"max_rounds": rounds}, identity=me)
                   if table is None else messages.TakeSeat(table=table, identity=me))
            got = await ask(LOOPBACK, server.port, msg, trust=trust)
            if not isinstance(got, messages.Seated):
                raise SystemExit(f"{msg.t} refused: {got}")
            table = got.ticket.table
            tokens.append(got.ticket.token)
        ids.append(f"{table}:{','.join(tokens)}")
    print(server.port, " ".join(ids), flush=True)
    print(" ".join(str(p) for p in getattr(server, "worker_pids", list)()), flush=True)
    await _until_stdin_closes()
    await server.close()
    import shutil

    shutil.rmtree(records, ignore_errors=True)


if __name__ == "__main__":
    from engine.process import tune

    tune()  # (as ``atlantis host`` and ``atlantis serve`` do at start, and their workers)
    kind, args = sys.argv[1], [int(a) for a in sys.argv[2:]]
    if kind == "host":
        asyncio.run(_host(*args))
    elif kind == "server":
        asyncio.run(_server(*args))
    elif kind == "bots":
        asyncio.run(_bots(*args))
