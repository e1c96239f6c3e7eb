"""The LAN host: tables, seats and tokens, spectators, bots, the log, and the sockets.

The host owns the only full state of each table (an ``engine.match.Match``).  A
client sends actions; the host validates them with the engine, appends them to the
log, and sends every seat its own view and the events addressed to it (spectators get
the public view).  Views go out only as ``messages.ViewData``, which is made only from
a ``View``: this module never encodes a state.

Nothing here knows any game: it uses the Game contract (``setup``, ``view``,
``apply`` through ``Match``, ``to_act``, ``result``, ``codec``, ``make_bot``).

Seats are ``open`` (a LAN client takes it and receives a token), ``bot`` (played
here), or ``local`` (a human at the host's own terminal, through ``submit``).  The
table starts when every open seat is taken.  Several seats may be in ``to_act`` at
once (secret simultaneous choices): each acts independently.

Robustness: every read has a timeout; frames are size-capped and validated; a bad
frame gets an ``error`` reply (or a disconnect when the stream can no longer be
trusted); a client that floods is cut off; nothing a client sends changes the state
unless it is a legal action of that client's own seat on its current view.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from dataclasses import dataclass
from typing import Any, Callable

from . import messages as M
from .table import (  # noqa: F401  (re-exported: the tables are part of the host's API)
    RECORD_KIND, SEAT_KINDS, Audience, HostTable, Slot, make_kinds, token_hash,
)
from .wire import MAX_CLIENT_FRAME, FrameError, SlowFrame, read_frame

log = logging.getLogger("atlantis.host")

@dataclass
class Limits:
    """What one peer may cost the host (README, "Host limits").  Every refusal or cut is
    an ``error`` message (a code and a sentence) and then the connection is closed."""

    max_connections: int = 256      # connections open at once, all peers together
    max_spectators: int = 32        # spectators at one table
    max_per_address: int = 16       # connections open at once from one peer address
    hello_timeout: float = 5.0      # a connection must say hello (the whole frame) this fast
    idle_timeout: float = 60.0      # silence allowed after hello (clients ping every few s)
    frame_timeout: float = 10.0     # once a frame's first byte is in, the whole frame within this
    rate: float = 200.0             # frames per second a client may send, on average
    burst: float = 400.0            # ... and in one burst
    max_errors: int = 50            # bad frames before a client is cut off
    write_buffer: int = 512 * 1024  # unsent bytes queued for a peer before it is cut off
    send_buffer: int = 64 * 1024    # the kernel's send buffer per connection (SO_SNDBUF; 0: system default)
    drain_timeout: float = 10.0     # a peer must take what it was sent within this
    seats_interval: float = 0.1     # a table's seat list goes out at most this often (a joiner's at once)


class Conn:
    """One client connection."""

    def __init__(self, host: "Host", reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.host = host
        self.reader = reader
        self.writer = writer
        self.table: HostTable | None = None
        self.seat: int | None = None
        self.spectator = False
        self.closed = False
        self.said_bye = False
        self.errors = 0
        self.bucket = host.limits.burst
        self.refilled = time.monotonic()
        self.seats_gen = -1     # the table's seat-list generation this peer was last sent
        peer = writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.address = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        # drain() waits once this much is queued (and until a quarter of it is left);
        # the hard cap on what may be queued is ``Limits.write_buffer`` (send_bytes).
        # The kernel's own buffer is bounded too (by default it grows to megabytes for a
        # peer that does not read, outside the host's accounting).
        high = max(1024, min(64 * 1024, host.limits.write_buffer // 2))
        try:
            writer.transport.set_write_buffer_limits(high=high, low=high // 4)
            sock = writer.get_extra_info("socket")
            if host.limits.send_buffer > 0 and sock is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, host.limits.send_buffer)
        except (AttributeError, NotImplementedError, OSError):  # pragma: no cover - odd transports
            pass

    def send(self, msg: M.Msg) -> None:
        if self.closed:
            return
        self.send_bytes(M.frame(msg))

    def send_bytes(self, data: bytes) -> None:
        """Queue ``data``; a peer whose unsent bytes would pass ``Limits.write_buffer``
        (it does not read) is cut off instead (one frame bigger than the cap may still
        go to a peer that has nothing queued)."""
        if self.closed:
            return
        transport = self.writer.transport
        if transport.is_closing():
            self.closed = True
            return
        queued = transport.get_write_buffer_size()
        if queued and queued + len(data) > self.host.limits.write_buffer:
            log.warning("%s does not read what it is sent (%d bytes queued): disconnected",
                        self.peer, queued)
            self.host.count_cut("unread")
            self.abort()
            return
        self.writer.write(data)

    def error(self, code: str, message: str, fatal: bool = False, ack: int | None = None) -> None:
        self.send(M.Error(code=code, message=message, fatal=fatal, ack=ack))
        if fatal:
            self.host.count_cut(code)
            self.close()

    def take_token(self) -> bool:
        """Rate limit: False when the client sends faster than allowed."""
        now = time.monotonic()
        lim = self.host.limits
        self.bucket = min(lim.burst, self.bucket + (now - self.refilled) * lim.rate)
        self.refilled = now
        if self.bucket < 1:
            return False
        self.bucket -= 1
        return True

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            try:
                self.writer.close()
            except Exception:  # pragma: no cover - transport already gone
                pass

    def abort(self) -> None:
        self.closed = True
        self.writer.transport.abort()


class Host:
    """An asyncio TCP server holding one or more tables."""

    def __init__(self, tables: list[HostTable], host: str = "127.0.0.1", port: int = 0,
                 limits: Limits | None = None, bot_delay: float = 0.0):
        self.tables = {t.id: t for t in tables}
        self.bind = host
        self.port = port
        self.limits = limits or Limits()
        self.bot_delay = bot_delay
        self.server: asyncio.base_events.Server | None = None
        self.conns: set[Conn] = set()
        self.per_address: dict[str, int] = {}  # open connections per peer address
        self.refused = 0                        # connections refused by a limit (bench, tests)
        self.cuts: dict[str, int] = {}          # connections closed by the host, by error code
        self._tasks: set[asyncio.Task] = set()
        self.done = asyncio.Event()

    @property
    def table(self) -> HostTable:
        return next(iter(self.tables.values()))

    async def start(self) -> int:
        loop = asyncio.get_running_loop()
        await self._listen()
        for t in self.tables.values():
            t.loop = loop
            t.bot_delay = self.bot_delay
            t.seats_interval = self.limits.seats_interval
            # The header keeps where the host listens: --resume listens there again.
            t.port, t.bind = self.port, self.bind
            if t.log is not None and (not t.log.sizes or t.where() != t.logged):
                t.write_log()
                t.logged = t.where()
            t.over_listeners.append(self._check_done)
            t.kick_bots()
        self._check_done()  # (a resumed game may be over already)
        return self.port

    async def _listen(self) -> None:
        """Listen on ``bind:port`` (a worker of ``netplay.workers`` does not: the front
        process listens and hands it each connection, ``serve_handed``)."""
        self.server = await asyncio.start_server(self._serve, self.bind, self.port,
                                                 limit=MAX_CLIENT_FRAME + 64)
        self.port = self.server.sockets[0].getsockname()[1]

    async def serve_handed(self, sock: socket.socket, first: dict[str, Any], rest: bytes = b"") -> None:
        """Serve a connection another process accepted and read the first frame of
        (``first``, decoded; ``rest``: bytes it read past that frame)."""
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=MAX_CLIENT_FRAME + 64, loop=loop)
        if rest:
            reader.feed_data(rest)
        protocol = asyncio.StreamReaderProtocol(reader, loop=loop)
        transport, _ = await loop.connect_accepted_socket(lambda: protocol, sock)
        writer = asyncio.StreamWriter(transport, protocol, reader, loop)
        await self._serve(reader, writer, first)

    def count_cut(self, code: str) -> None:
        self.cuts[code] = self.cuts.get(code, 0) + 1

    def _check_done(self) -> None:
        if self.tables and all(t.over for t in self.tables.values()):
            self.done.set()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        # Say why before going: a client told "table-closed" stops reconnecting at once
        # (it keeps its token to rejoin a resumed host) instead of retrying to its bound.
        for conn in list(self.conns):
            conn.send(M.Error(code="table-closed", fatal=True,
                              message="The host closed the table (it may resume it: rejoin with your token)."))
        if self.conns:
            await asyncio.sleep(0.05)  # a short flush; a peer that does not read is cut anyway
        for conn in list(self.conns):
            conn.abort()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.server is not None:
            try:
                await asyncio.wait_for(self.server.wait_closed(), 2)
            except asyncio.TimeoutError:  # pragma: no cover
                pass
        for t in self.tables.values():
            if t.log is not None:
                t.log.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                     first: dict[str, Any] | None = None) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        conn = Conn(self, reader, writer)
        lim = self.limits
        if len(self.conns) >= lim.max_connections:
            self.refused += 1
            conn.error("busy", f"The host has {lim.max_connections} connections open, its limit; "
                       "try again later.", fatal=True)
            await self._close(conn)
            if task is not None:
                self._tasks.discard(task)
            return
        if self.per_address.get(conn.address, 0) >= lim.max_per_address:
            self.refused += 1
            conn.error("busy-address", f"{lim.max_per_address} connections from {conn.address} are "
                       "open already, the most one address may hold.", fatal=True)
            await self._close(conn)
            if task is not None:
                self._tasks.discard(task)
            return
        self.conns.add(conn)
        self.per_address[conn.address] = self.per_address.get(conn.address, 0) + 1
        try:
            await self._session(conn, first)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            pass  # the host is closing (re-raising only makes asyncio's stream callback log it)
        except Exception:  # never let one client stop the host
            log.exception("connection %s failed", conn.peer)
        finally:
            if conn.table is not None:
                conn.table.detach(conn)
            await self._close(conn)  # (still counted until its socket is gone)
            self.conns.discard(conn)
            left = self.per_address.get(conn.address, 1) - 1
            if left > 0:
                self.per_address[conn.address] = left
            else:
                self.per_address.pop(conn.address, None)
            if task is not None:
                self._tasks.discard(task)

    async def _close(self, conn: Conn) -> None:
        """Close ``conn`` after its last bytes are sent (an error, say); a peer that does
        not take them within ``drain_timeout`` is aborted: a closed connection must not
        linger with a full buffer."""
        conn.close()
        transport = conn.writer.transport
        if transport.get_write_buffer_size() == 0:
            return  # (closes at once)
        try:
            async with asyncio.timeout(self.limits.drain_timeout):
                await conn.writer.wait_closed()
        except (asyncio.CancelledError, Exception):
            transport.abort()

    async def _session(self, conn: Conn, first: dict[str, Any] | None = None) -> None:
        lim = self.limits
        try:
            obj = first if first is not None else await read_frame(conn.reader, MAX_CLIENT_FRAME, lim.hello_timeout)
            hello = M.parse_client(obj)
        except asyncio.TimeoutError:
            conn.error("timeout", f"No hello within {lim.hello_timeout:g} s.", fatal=True)
            return
        except FrameError as exc:
            conn.error("bad-frame", str(exc), fatal=True)
            return
        if not isinstance(hello, M.Hello):
            if not await self.request(conn, hello):  # (a table server's lobby requests)
                conn.error("hello-first", "Say hello first.", fatal=True)
            return
        if hello.probe:
            conn.send(M.Info(host="atlantis", tables=[t.info() for t in self.tables.values()]))
            await self._drain(conn)
            return
        table = self.tables.get(hello.table) if hello.table else (self.table if len(self.tables) == 1 else None)
        if table is None:
            conn.error("no-table", "There is no such table here.", fatal=True)
            return
        if hello.token is not None:
            slot = table.slot_for_token(hello.token)
            if slot is None:
                conn.error("bad-token", "That token holds no seat at this table.", fatal=True)
                return
            slot.player = table.player_name(slot, hello.name)
            table.attach(conn, slot, hello.token)
        elif hello.spectate:
            if len(table.spectators) >= lim.max_spectators:
                self.refused += 1
                conn.error("spectators-full", f"This table has {lim.max_spectators} spectators, "
                           "the most it takes; try again later.", fatal=True)
                return
            table.attach(conn, None, None)
        else:
            claimed = table.claim(hello.name)
            if claimed is None:
                conn.error("full", "Every seat at this table is taken; you may join as a spectator.",
                           fatal=True)
                return
            table.attach(conn, claimed[0], claimed[1])
        await self._drain(conn)
        await self._loop(conn, table)

    async def request(self, conn: Conn, msg: M.Msg) -> bool:
        """A first message that is not a hello: a table server (``netplay.server``)
        answers its lobby requests here; a single-table host answers none (False)."""
        return False

    async def _drain(self, conn: Conn) -> None:
        """Wait (at most ``drain_timeout``) while the peer has much unread; one that
        does not read is cut off.  Returns at once when little is queued."""
        if conn.closed:
            return
        transport = conn.writer.transport
        if transport.get_write_buffer_size() <= transport.get_write_buffer_limits()[1]:
            return
        try:
            async with asyncio.timeout(self.limits.drain_timeout):
                await conn.writer.drain()
        except TimeoutError:
            log.warning("%s took nothing for %g s: disconnected", conn.peer, self.limits.drain_timeout)
            self.count_cut("drain")
            conn.abort()

    async def _loop(self, conn: Conn, table: HostTable) -> None:
        lim = self.limits
        while not conn.closed:
            try:
                obj = await read_frame(conn.reader, MAX_CLIENT_FRAME, lim.idle_timeout, lim.frame_timeout)
            except SlowFrame:
                conn.error("slow-frame", f"A frame took more than {lim.frame_timeout:g} s to arrive "
                           "whole: disconnected.", fatal=True)
                return
            except asyncio.TimeoutError:
                conn.error("timeout", f"Nothing heard for {lim.idle_timeout:g} s.", fatal=True)
                return
            except FrameError as exc:
                # The length was over the cap or the body unreadable.  An over-long
                # frame leaves the stream mid-frame: the connection cannot go on.
                fatal = "limit" in str(exc) or "empty" in str(exc)
                conn.errors += 1
                conn.error("bad-frame", str(exc), fatal=fatal or conn.errors > lim.max_errors)
                continue
            if not conn.take_token():
                conn.error("flood", "Too many messages: disconnected.", fatal=True)
                return
            try:
                msg = M.parse_client(obj)
            except FrameError as exc:
                conn.errors += 1
                conn.error("bad-message", str(exc), fatal=conn.errors > lim.max_errors)
                continue
            if isinstance(msg, M.Act):
                table.client_act(conn, msg)
            elif isinstance(msg, M.Undo):
                table.client_undo(conn, msg)
            elif isinstance(msg, M.Ping):
                conn.send(M.Pong(n=msg.n))
            elif isinstance(msg, M.Bye):
                conn.said_bye = True  # left on purpose: before the start the seat is freed
                return
            else:
                conn.errors += 1
                conn.error("already-hello", "Hello was already said.", fatal=conn.errors > lim.max_errors)
            await self._drain(conn)


async def serve(host: Host, exit_when_done: bool = False, announce: Callable[[str], None] | None = None,
                advertise: Any = None) -> None:
    """Run a headless host until it is cancelled (or, with ``exit_when_done``, until every
    table is over and its clients have had a moment to read the result)."""
    await host.start()
    if announce is not None:
        announce(f"{host.bind}:{host.port}")
    try:
        if advertise is not None:
            await advertise.start(host)
        if exit_when_done:
            await host.done.wait()
            deadline = time.monotonic() + 5
            while host.conns and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
        else:
            await asyncio.Event().wait()
    finally:
        if advertise is not None:
            await advertise.stop()
        await host.close()
