"""A host's connections: ``Conn`` (what a table sends through) and ``Session`` (the
asyncio protocol that reads a connection's frames as they arrive and keeps its
deadlines).  ``netplay.host`` makes them; its ``Limits`` say what a peer may cost.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from typing import TYPE_CHECKING, Any

from . import messages as M
from .wire import HEADER, MAX_CLIENT_FRAME, FrameError, decode_body, pack_frame

if TYPE_CHECKING:  # (annotations only)
    from .host import Host
    from .table import HostTable

log = logging.getLogger("atlantis.host")


class _Writer:
    """What a ``Conn`` writes through: the connection's transport (``transport``,
    ``get_extra_info``, ``write``, ``close``, ``wait_closed``), the shape of an
    ``asyncio.StreamWriter`` without a stream reader behind it."""

    __slots__ = ("transport", "_gone")

    def __init__(self, transport: asyncio.Transport, gone: asyncio.Future):
        self.transport = transport
        self._gone = gone

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.transport.get_extra_info(name, default)

    def write(self, data: bytes) -> None:
        self.transport.write(data)

    def close(self) -> None:
        self.transport.close()

    async def wait_closed(self) -> None:
        await asyncio.shield(self._gone)


class Conn:
    """One client connection."""

    def __init__(self, host: "Host", reader: Any, writer: Any):
        self.host = host
        self.reader = reader  # (None: frames are parsed as they arrive, ``Session``)
        self.writer = writer
        self.session: "Session | None" = None
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
        # Writing pauses (and so does reading: ``Session.pause_writing``) once this much
        # is queued, until a quarter of it is left; the hard cap on what may be queued is
        # ``Limits.write_buffer`` (send_bytes).  The kernel's own buffer is bounded too
        # (by default it grows to megabytes for a peer that does not read, outside the
        # host's accounting).
        high = max(1024, min(64 * 1024, host.limits.write_buffer // 2))
        try:
            writer.transport.set_write_buffer_limits(high=high, low=high // 4)
            sock = writer.get_extra_info("socket")
            if host.limits.send_buffer > 0 and sock is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, host.limits.send_buffer)
        except (AttributeError, NotImplementedError, OSError):  # pragma: no cover - odd transports
            pass
        self._transport = writer.transport

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
        transport = self._transport
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
        transport.write(data)

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


_UNPACK, _HSIZE = HEADER.unpack_from, HEADER.size
_act_fields = M.act_fields
_HELLO, _PLAY, _ASKING, _DONE = 0, 1, 2, 3  # a session's phases (_ASKING: a lobby request is answered)


class Session(asyncio.Protocol):
    """One connection's reading side: frames are parsed as they arrive
    (``data_received``) and handled at once, with no stream reader, no task and no
    await per frame.

    The deadlines are one timer per connection (``loop.call_at``), moved only when
    it fires early: the hello must arrive whole within ``hello_timeout``; after it, a
    peer may be silent for ``idle_timeout`` before a frame's first byte, and once that
    byte is in, the whole frame must follow within ``frame_timeout``.  A peer with more
    than the high-water mark unsent (``Conn``) is not read from until it takes its
    bytes, for at most ``drain_timeout``; then it is cut off."""

    def __init__(self, host: "Host", first: dict[str, Any] | None = None, rest: bytes = b""):
        self.host = host
        self.first = first
        self.rest = rest
        self.buf = bytearray()
        self.phase = _HELLO
        self.conn: Conn | None = None
        self.counted = False
        self.ended = False
        self.paused = False
        self.heard = 0.0
        self.begun: float | None = None  # when the first byte of a frame not yet whole came
        self.started = 0.0
        self.timer: asyncio.TimerHandle | None = None
        self.drain_timer: asyncio.TimerHandle | None = None
        self.drained: asyncio.Future | None = None
        self.loop = asyncio.get_running_loop()
        self.gone = self.loop.create_future()

    # --- the transport's callbacks ------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        host, lim = self.host, self.host.limits
        conn = self.conn = Conn(host, None, _Writer(transport, self.gone))  # type: ignore[arg-type]
        conn.session = self
        if len(host.conns) >= lim.max_connections:
            host.refused += 1
            conn.error("busy", f"The host has {lim.max_connections} connections open, its limit; "
                       "try again later.", fatal=True)
            self._end()
            return
        if host.per_address.get(conn.address, 0) >= lim.max_per_address:
            host.refused += 1
            conn.error("busy-address", f"{lim.max_per_address} connections from {conn.address} are "
                       "open already, the most one address may hold.", fatal=True)
            self._end()
            return
        host.conns.add(conn)
        host.per_address[conn.address] = host.per_address.get(conn.address, 0) + 1
        self.counted = True
        self.started = self.heard = self.loop.time()
        if self.first is not None:
            first, self.first = self.first, None
            self._handle(first)
            if conn.closed:
                self._end()
            elif self.rest and self.phase != _DONE:
                self.data_received(self.rest)
            self.rest = b""
        else:
            self._arm()

    def data_received(self, data: bytes) -> None:
        if self.phase > _PLAY:
            return
        if not self.buf and not self.paused and len(data) > _HSIZE:
            # (the common case: one whole frame and nothing else; read as ``_frames`` would)
            size = _UNPACK(data)[0]
            if len(data) - _HSIZE == size <= MAX_CLIENT_FRAME:
                conn = self.conn
                if conn is not None and not conn.closed:
                    self._one(conn, data[_HSIZE:])
                    return
        self.buf += data
        if not self.paused:
            self._frames()

    def _one(self, conn: Conn, body: bytes) -> None:
        """``_frames`` for a buffer that held one whole frame, ``body``."""
        try:
            obj = decode_body(body, MAX_CLIENT_FRAME)
        except FrameError as exc:
            if self.phase == _HELLO:
                conn.error("bad-frame", str(exc), fatal=True)
            else:
                conn.errors += 1
                conn.error("bad-frame", str(exc), fatal=conn.errors > self.host.limits.max_errors)
        else:
            try:
                self._handle(obj)
            except Exception:  # never let one client stop the host
                log.exception("connection %s failed", conn.peer)
                conn.close()
        phase = self.phase
        if conn.closed or phase == _DONE:
            self._end()
            return
        if phase == _ASKING:
            return
        self.heard = self.loop.time()
        self.begun = None
        if self.timer is None:
            self._arm()

    def eof_received(self) -> bool:
        return False  # (the transport closes: connection_lost ends the session)

    def connection_lost(self, exc: Exception | None) -> None:
        conn = self.conn
        if conn is not None:
            conn.closed = True
        self._end()
        for t in (self.timer, self.drain_timer):
            if t is not None:
                t.cancel()
        self.timer = self.drain_timer = None
        if self.drained is not None and not self.drained.done():
            self.drained.set_result(None)
        if not self.gone.done():
            self.gone.set_result(None)
        if self.counted and conn is not None:
            self.counted = False
            host = self.host
            host.conns.discard(conn)
            left = host.per_address.get(conn.address, 1) - 1
            if left > 0:
                host.per_address[conn.address] = left
            else:
                host.per_address.pop(conn.address, None)

    def pause_writing(self) -> None:
        self.paused = True
        if self.phase != _DONE:
            try:
                self.transport.pause_reading()
            except (AttributeError, RuntimeError):  # pragma: no cover - closing
                pass
        if self.drain_timer is None:
            self.drain_timer = self.loop.call_later(self.host.limits.drain_timeout, self._drain_cut)

    def resume_writing(self) -> None:
        self.paused = False
        if self.drain_timer is not None:
            self.drain_timer.cancel()
            self.drain_timer = None
        if self.drained is not None and not self.drained.done():
            self.drained.set_result(None)
        if self.phase <= _PLAY and self.conn is not None and not self.conn.closed:
            try:
                self.transport.resume_reading()
            except (AttributeError, RuntimeError):  # pragma: no cover - closing
                pass
            # (as a reader that comes back to the socket: its deadlines start again now)
            self.heard = self.loop.time()
            self.begun = self.heard if self.buf else None
            self._arm(moved=True)
            if self.buf:
                self.loop.call_soon(self._frames)

    # --- deadlines --------------------------------------------------------------------
    def _due(self) -> float:
        lim = self.host.limits
        if self.phase == _HELLO:
            return self.started + lim.hello_timeout
        if self.begun is not None:
            return self.begun + lim.frame_timeout
        return self.heard + lim.idle_timeout

    def _arm(self, moved: bool = False) -> None:
        """Set the timer for the current deadline (``moved``: it may be earlier than
        the one set)."""
        timer = self.timer
        if timer is not None and not moved:
            return
        due = self._due()
        if timer is not None:
            if timer.when() <= due:
                return
            timer.cancel()
        self.timer = self.loop.call_at(due, self._deadline)

    def _deadline(self) -> None:
        self.timer = None
        conn = self.conn
        if self.phase > _PLAY or conn is None or conn.closed:
            return
        if self.paused:  # (not reading: the drain deadline holds; this one starts again after)
            return
        if self.loop.time() < self._due():
            self._arm()
            return
        lim = self.host.limits
        if self.phase == _HELLO:
            conn.error("timeout", f"No hello within {lim.hello_timeout:g} s.", fatal=True)
        elif self.begun is not None:
            conn.error("slow-frame", f"A frame took more than {lim.frame_timeout:g} s to arrive "
                       "whole: disconnected.", fatal=True)
        else:
            conn.error("timeout", f"Nothing heard for {lim.idle_timeout:g} s.", fatal=True)
        self._end()

    def _drain_cut(self) -> None:
        self.drain_timer = None
        conn = self.conn
        if self.paused and conn is not None and not conn.closed:
            log.warning("%s took nothing for %g s: disconnected", conn.peer, self.host.limits.drain_timeout)
            self.host.count_cut("drain")
            conn.abort()

    async def drain(self) -> None:
        """Until the peer has taken what was queued past the high-water mark (bounded:
        the drain deadline cuts it off)."""
        if not self.paused or self.gone.done():
            return
        if self.drained is None or self.drained.done():
            self.drained = self.loop.create_future()
        await asyncio.shield(self.drained)

    # --- frames -------------------------------------------------------------------------
    def _frames(self) -> None:
        """Handle every whole frame in the buffer (until the connection ends or its
        writing is paused)."""
        buf, conn = self.buf, self.conn
        if conn is None:
            return
        unpack, hsize, cap = HEADER.unpack_from, HEADER.size, MAX_CLIENT_FRAME
        lim = self.host.limits
        done = False
        while len(buf) >= hsize and not self.paused and self.phase <= _PLAY and not conn.closed:
            (size,) = unpack(buf)
            if size > cap or size == 0:  # (the stream is mid-frame: the connection cannot go on)
                conn.errors += 1
                conn.error("bad-frame", f"frame of {size} bytes is over the {cap} byte limit" if size
                           else "empty frame", fatal=True)
                break
            end = hsize + size
            if len(buf) < end:
                break
            body = bytes(buf[hsize:end])
            del buf[:end]
            done = True
            try:
                obj = decode_body(body, cap)
            except FrameError as exc:
                if self.phase == _HELLO:
                    conn.error("bad-frame", str(exc), fatal=True)
                    break
                conn.errors += 1
                conn.error("bad-frame", str(exc), fatal=conn.errors > lim.max_errors)
                continue
            try:
                self._handle(obj)
            except Exception:  # never let one client stop the host
                log.exception("connection %s failed", conn.peer)
                conn.close()
        if conn.closed or self.phase == _DONE:
            self._end()
            return
        if self.phase == _ASKING:
            return
        if done or not buf:
            self.heard = self.loop.time()
        if buf:
            if self.begun is None or done:  # (a frame's first bytes are in: the rest within frame_timeout)
                self.begun = self.heard if done else self.loop.time()
                self._arm(moved=True)
        else:
            self.begun = None
            self._arm()

    def _handle(self, obj: dict[str, Any]) -> None:
        if self.phase == _HELLO:
            self._hello(obj)
            return
        conn = self.conn
        assert conn is not None
        if not conn.take_token():
            conn.error("flood", "Too many messages: disconnected.", fatal=True)
            return
        table = conn.table
        fields = _act_fields(obj)
        if fields is not None:  # (a valid act, checked by hand: the hot path)
            table.client_action(conn, *fields)
            return
        try:
            msg = M.parse_client(obj)
        except FrameError as exc:
            conn.errors += 1
            conn.error("bad-message", str(exc), fatal=conn.errors > self.host.limits.max_errors)
            return
        if isinstance(msg, M.Act):
            table.client_act(conn, msg)
        elif isinstance(msg, M.Undo):
            table.client_undo(conn, msg)
        elif isinstance(msg, M.Ping):
            conn.send_bytes(pack_frame({"v": M.PROTOCOL, "t": "pong", "n": msg.n}))
        elif isinstance(msg, M.Bye):
            conn.said_bye = True  # left on purpose: before the start the seat is freed
            self._end()
        else:
            conn.errors += 1
            conn.error("already-hello", "Hello was already said.", fatal=conn.errors > self.host.limits.max_errors)

    def _hello(self, obj: dict[str, Any]) -> None:
        conn, host, lim = self.conn, self.host, self.host.limits
        assert conn is not None
        try:
            hello = M.parse_client(obj)
        except FrameError as exc:
            conn.error("bad-frame", str(exc), fatal=True)
            return
        if not isinstance(hello, M.Hello):  # (a table server's lobby request: one, answered)
            self.phase = _ASKING
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
            try:
                self.transport.pause_reading()
            except (AttributeError, RuntimeError):  # pragma: no cover - closing
                pass
            task = self.loop.create_task(self._request(hello))
            host._tasks.add(task)
            task.add_done_callback(host._tasks.discard)
            return
        if hello.probe:
            conn.send(M.Info(host="atlantis", tables=[t.info() for t in host.tables.values()]))
            self._end()
            return
        table = host.tables.get(hello.table) if hello.table else (host.table if len(host.tables) == 1 else None)
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
                host.refused += 1
                conn.error("spectators-full", f"This table has {lim.max_spectators} spectators, "
                           "the most it takes; try again later.", fatal=True)
                return
            table.attach(conn, None, None)
        else:
            refusal = host.claim_refusal(table)
            if refusal is not None:
                host.refused += 1
                conn.error(*refusal, fatal=True)
                return
            claimed = table.claim(hello.name)
            if claimed is None:
                conn.error("full", "Every seat at this table is taken; you may join as a spectator.",
                           fatal=True)
                return
            table.attach(conn, claimed[0], claimed[1])
        self.phase = _PLAY
        self.heard = self.loop.time()
        self.begun = None
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self._arm()

    async def _request(self, msg: M.Msg) -> None:
        conn = self.conn
        assert conn is not None
        try:
            if not await self.host.request(conn, msg):
                conn.error("hello-first", "Say hello first.", fatal=True)
        except (ConnectionError, asyncio.CancelledError):
            pass
        except Exception:  # never let one client stop the host
            log.exception("connection %s failed", conn.peer)
        finally:
            self._end()

    def _end(self) -> None:
        """The session is over: leave the table, close after the last bytes are sent
        (a peer that does not take them within ``drain_timeout`` is aborted: a closed
        connection must not linger with a full buffer)."""
        if self.ended:
            return
        self.ended = True
        self.phase = _DONE
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        conn = self.conn
        if conn is None:
            return
        if conn.table is not None:
            conn.table.detach(conn)
        conn.close()
        transport = self.transport
        if not self.gone.done() and transport.get_write_buffer_size() > 0:
            self.loop.call_later(self.host.limits.drain_timeout, transport.abort)
