"""A host's connections: ``Conn`` (what a table sends through: a ``netplay.peer.Peer``),
``Session`` (the asyncio protocol that reads a connection's frames as they arrive and
keeps its deadlines) and ``Admission`` (the host's books of its connections: open,
refused, cut).  ``netplay.host`` makes the sessions; its ``Limits`` say what a peer may
cost.  A session knows its host and its peer's table only as the small protocols
``Reception`` and ``Table`` below: nothing here imports them.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
import time
from typing import Any, Coroutine, Protocol

from engine.text import counted

from . import messages
from .limits import Limits
from .wire import HEADER, MAX_CLIENT_FRAME, FrameError, decode_body, pack_frame

log = logging.getLogger("atlantis.host")


class Table(Protocol):
    """What a session asks of the table its peer sits at (``netplay.table.HostTable``)."""

    def client_action(self, conn: Conn, seq: int, sent: dict[str, Any], seat: int | None, n: int) -> None: ...
    def client_act(self, conn: Conn, msg: messages.Act) -> None: ...
    def client_undo(self, conn: Conn, msg: messages.Undo) -> None: ...
    def client_chat(self, conn: Conn, msg: messages.Chat) -> None: ...
    def client_rematch(self, conn: Conn, msg: messages.Rematch) -> None: ...
    def detach(self, conn: Conn) -> None: ...


class Reception(Protocol):
    """What a session asks of the host that accepted its connection (``netplay.host.Host``):
    its limits and books, a seat for a hello, an answer to a lobby request."""

    limits: Limits
    admission: Admission

    def welcome(self, conn: Conn, hello: messages.Hello) -> Table | None: ...
    async def request(self, conn: Conn, msg: messages.Msg) -> bool: ...


class Admission:
    """A host's books of its connections, kept by their sessions: the connections open
    (``conns``; ``per_address``: how many each peer address holds), those refused by a
    limit (``refused``), those the host cut off (``cuts``, by error code), and the tasks
    answering lobby requests (``tasks``: cancelled when the host closes)."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.conns: set[Conn] = set()
        self.per_address: dict[str, int] = {}
        self.handshakes: dict[str, int] = {}  # per peer address: connections still in the TLS handshake
        self.refused = 0
        self.cuts: dict[str, int] = {}
        self.tasks: set[asyncio.Task] = set()

    def refusal(self, address: str) -> tuple[str, str] | None:
        """Why a new connection from ``address`` is refused by a limit (an error code and
        a sentence, counted in ``refused``), or None.  Connections still in their TLS
        handshake count as open ones."""
        lim = self.limits
        if len(self.conns) + sum(self.handshakes.values()) >= lim.max_connections:
            self.refused += 1
            return ("busy", f"The host has {counted(lim.max_connections, 'connection')} open, its limit; "
                    "try again later.")
        if self.per_address.get(address, 0) + self.handshakes.get(address, 0) >= lim.max_per_address:
            self.refused += 1
            return ("busy-address", f"{lim.max_per_address} connections from {address} are "
                    "open already, the most one address may hold.")
        return None

    def hold_handshake(self, address: str) -> bool:
        """Count a connection from ``address`` in for its TLS handshake; False: a limit
        refuses it (it is closed without a word: nothing can be said before TLS)."""
        if self.refusal(address) is not None:
            return False
        self.handshakes[address] = self.handshakes.get(address, 0) + 1
        return True

    def end_handshake(self, address: str) -> None:
        left = self.handshakes.get(address, 1) - 1
        if left > 0:
            self.handshakes[address] = left
        else:
            self.handshakes.pop(address, None)

    def admit(self, conn: Conn) -> tuple[str, str] | None:
        """Count ``conn`` in; or, when a limit refuses it, why (an error code and a
        sentence), counted in ``refused``."""
        refusal = self.refusal(conn.address)
        if refusal is not None:
            return refusal
        self.conns.add(conn)
        self.per_address[conn.address] = self.per_address.get(conn.address, 0) + 1
        return None

    def release(self, conn: Conn) -> None:
        """``conn``, counted in by ``admit``, is gone."""
        self.conns.discard(conn)
        left = self.per_address.get(conn.address, 1) - 1
        if left > 0:
            self.per_address[conn.address] = left
        else:
            self.per_address.pop(conn.address, None)

    def count_cut(self, code: str) -> None:
        self.cuts[code] = self.cuts.get(code, 0) + 1

    def run(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` (a lobby request's answer) as a task the host's ``close`` ends."""
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def close(self, farewell: messages.Error) -> None:
        """Tell every open connection ``farewell``, give them a short flush, cut them off
        and end the tasks (the host closes)."""
        for conn in list(self.conns):
            conn.send(farewell)
        if self.conns:
            await asyncio.sleep(0.05)  # a short flush; a peer that does not read is cut anyway
        for conn in list(self.conns):
            conn.abort()
        for task in list(self.tasks):
            task.cancel()
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)


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

    def __init__(self, admission: Admission, reader: Any, writer: Any):
        self.admission = admission
        self.limits = limits = admission.limits
        self.reader = reader  # (None: frames are parsed as they arrive, ``Session``)
        self.writer = writer
        self.session: Session | None = None
        self.table: Table | None = None  # (set by its session once the host seats it)
        self.seat: int | None = None
        self.spectator = False
        self.closed = False
        self.said_bye = False
        self.errors = 0
        self.bucket = limits.burst
        self.refilled = time.monotonic()
        self.seats_gen = -1     # the table's seat-list generation this peer was last sent
        self.name = ""          # a spectator's name for its chat lines (the host cleans it)
        peer = writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.address = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        # Writing pauses (and so does reading: ``Session.pause_writing``) once this much
        # is queued, until a quarter of it is left; the hard cap on what may be queued is
        # ``Limits.write_buffer`` (send_bytes).  The kernel's own buffer is bounded too
        # (by default it grows to megabytes for a peer that does not read, outside the
        # host's accounting).
        high = max(1024, min(64 * 1024, limits.write_buffer // 2))
        try:
            writer.transport.set_write_buffer_limits(high=high, low=high // 4)
            sock = writer.get_extra_info("socket")
            if limits.send_buffer > 0 and sock is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, limits.send_buffer)
        except (AttributeError, NotImplementedError, OSError):  # pragma: no cover - odd transports
            pass
        self._transport = writer.transport

    def send(self, msg: messages.Msg) -> None:
        if self.closed:
            return
        self.send_bytes(messages.frame(msg))

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
        if queued and queued + len(data) > self.limits.write_buffer:
            log.warning("%s does not read what it is sent (%d bytes queued): disconnected",
                        self.peer, queued)
            self.admission.count_cut("unread")
            self.abort()
            return
        transport.write(data)

    def error(self, code: str, message: str, fatal: bool = False, ack: int | None = None) -> None:
        self.send(messages.Error(code=code, message=message, fatal=fatal, ack=ack))
        if fatal:
            self.admission.count_cut(code)
            self.close()

    def take_token(self) -> bool:
        """Rate limit: False when the client sends faster than allowed."""
        now = time.monotonic()
        lim = self.limits
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
_act_fields = messages.act_fields
_HELLO, _PLAY, _ASKING, _DONE = 0, 1, 2, 3  # a session's phases (_ASKING: a lobby request is answered)


class TlsAccept(asyncio.Protocol):
    """A TCP connection to a host that speaks TLS: counted against the host's limits
    from its accept (a stranger's half-open handshakes cannot crowd players out), then
    upgraded to TLS within ``hello_timeout`` and handed to its ``Session``."""

    def __init__(self, host: Reception, context: ssl.SSLContext):
        self.host, self.context = host, context

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.pause_reading()  # type: ignore[attr-defined]  (the ClientHello waits for start_tls)
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) else "local"
        if not self.host.admission.hold_handshake(address):
            transport.abort()  # type: ignore[attr-defined]
            return
        self.host.admission.run(self._upgrade(transport, address))

    async def _upgrade(self, transport: Any, address: str) -> None:
        session = Session(self.host)
        try:
            secure = await asyncio.get_running_loop().start_tls(
                transport, session, self.context, server_side=True,
                ssl_handshake_timeout=self.host.limits.hello_timeout)
        except (OSError, ssl.SSLError, ConnectionError, asyncio.TimeoutError, RuntimeError):
            transport.abort()
            return
        finally:
            self.host.admission.end_handshake(address)
        if secure is None or secure.is_closing():
            return
        session.connection_made(secure)

    def connection_lost(self, exc: Exception | None) -> None:
        pass  # (before the upgrade: ``_upgrade`` sees it fail; after: the session's transport)


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

    def __init__(self, host: Reception, first: dict[str, Any] | None = None, rest: bytes = b""):
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
        admission = self.host.admission
        conn = self.conn = Conn(admission, None, _Writer(transport, self.gone))  # type: ignore[arg-type]
        conn.session = self
        refusal = admission.admit(conn)
        if refusal is not None:
            conn.error(*refusal, fatal=True)
            self._end()
            return
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
            if self.buf:
                self._frames()

    def data_received(self, data: bytes) -> None:
        if self.conn is None:  # (bytes right after a TLS handshake, before the session is made)
            self.buf += data
            return
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
            self.host.admission.release(conn)

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
            self.host.admission.count_cut("drain")
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
            msg = messages.parse_client(obj)
        except FrameError as exc:
            conn.errors += 1
            conn.error("bad-message", str(exc), fatal=conn.errors > self.host.limits.max_errors)
            return
        if isinstance(msg, messages.Act):
            table.client_act(conn, msg)
        elif isinstance(msg, messages.Undo):
            table.client_undo(conn, msg)
        elif isinstance(msg, messages.Chat):
            table.client_chat(conn, msg)
        elif isinstance(msg, messages.Rematch):
            table.client_rematch(conn, msg)
        elif isinstance(msg, messages.Ping):
            conn.send_bytes(pack_frame({"v": messages.PROTOCOL, "t": "pong", "n": msg.n}))
        elif isinstance(msg, messages.Bye):
            conn.said_bye = True  # left on purpose: before the start the seat is freed
            self._end()
        else:
            conn.errors += 1
            conn.error("already-hello", "Hello was already said.", fatal=conn.errors > self.host.limits.max_errors)

    def _hello(self, obj: dict[str, Any]) -> None:
        conn = self.conn
        assert conn is not None
        try:
            hello = messages.parse_client(obj)
        except FrameError as exc:
            conn.error("bad-frame", str(exc), fatal=True)
            return
        if not isinstance(hello, messages.Hello):  # (a table server's lobby request: one, answered)
            self.phase = _ASKING
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
            try:
                self.transport.pause_reading()
            except (AttributeError, RuntimeError):  # pragma: no cover - closing
                pass
            self.host.admission.run(self._request(hello))
            return
        table = self.host.welcome(conn, hello)
        if table is None:
            if not conn.closed:  # (a probe: answered)
                self._end()
            return
        conn.table = table
        self.phase = _PLAY
        self.heard = self.loop.time()
        self.begun = None
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self._arm()

    async def _request(self, msg: messages.Msg) -> None:
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
