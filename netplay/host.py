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
import hashlib
import logging
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from engine.core import Game, IllegalAction, SeatInfo
from engine.match import Delivery, Match
from engine.record import Move, RecordError
from engine.registry import get_game

from . import messages as M
from .log import HostLog, read_log
from .wire import MAX_CLIENT_FRAME, FrameError, read_frame

log = logging.getLogger("atlantis.host")

SEAT_KINDS = ("open", "bot", "local")
RECORD_KIND = {"open": "remote", "bot": "bot", "local": "human"}


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Limits:
    hello_timeout: float = 5.0      # a connection must say hello this fast
    idle_timeout: float = 60.0      # silence allowed after hello (clients ping every few s)
    rate: float = 200.0             # frames per second a client may send, on average
    burst: float = 400.0            # ... and in one burst
    max_errors: int = 50            # bad frames before a client is cut off
    write_buffer: int = 8 * 1024 * 1024  # unread bytes before a slow client is cut off


@dataclass
class Slot:
    index: int
    kind: str
    name: str
    token_hash: str | None = None
    conn: "Conn | None" = None
    bot: Any = None
    version: int = 0
    last_view: Any = None
    player: str = ""  # the name the remote player gave
    last_sent: int = 0
    # Staleness: an action is judged on the view it was chosen on (its ``seq``).  It is
    # stale if that view is older than this seat's own last accepted move (a double
    # submit) or than the moment the seat last came to act (a view from before its
    # turn).  Views that changed only because *other* seats acted meanwhile (secret
    # simultaneous choices) do not make it stale: the engine still checks it.
    window: int = 0
    own: int = 0
    acked: int = 0
    acting: bool = False

    @property
    def taken(self) -> bool:
        return self.kind != "open" or self.token_hash is not None


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
        self.errors = 0
        self.bucket = host.limits.burst
        self.refilled = time.monotonic()
        self.version = 0        # spectators: version of their view
        self.last_view: Any = None
        self.last_sent = 0
        peer = writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)

    def send(self, msg: M.Msg) -> None:
        if self.closed:
            return
        self.send_bytes(M.frame(msg))

    def send_bytes(self, data: bytes) -> None:
        if self.closed:
            return
        transport = self.writer.transport
        if transport.is_closing():
            self.closed = True
            return
        self.writer.write(data)
        if transport.get_write_buffer_size() > self.host.limits.write_buffer:
            log.warning("%s reads too slowly: disconnected", self.peer)
            self.abort()

    def error(self, code: str, message: str, fatal: bool = False, ack: int | None = None) -> None:
        self.send(M.Error(code=code, message=message, fatal=fatal, ack=ack))
        if fatal:
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


class HostTable:
    """One game at the host."""

    def __init__(self, game: Game, match: Match, kinds: list[str], *, name: str, table_id: str,
                 salt: str, bot_seed: int | None = None):
        self.game = game
        self.match = match
        self.name = name
        self.id = table_id
        self.salt = salt
        self.commitment = M.commitment(match.seed, salt)
        self.fingerprint = M.rules_fingerprint(game.slug, game.rules_version, match.record.options)
        self.slots = [Slot(i, k, match.seats[i].name) for i, k in enumerate(kinds)]
        seed = match.seed if bot_seed is None else bot_seed
        for slot in self.slots:
            if slot.kind == "bot":
                slot.bot = game.make_bot(slot.index, seed)
        self.spectators: list[Conn] = []
        self.listeners: list[Callable[[], None]] = []   # the host's own screen
        self.seat_listeners: list[Callable[[], None]] = []  # discovery (open seats)
        self.over_listeners: list[Callable[[], None]] = []
        self.log: HostLog | None = None
        self.port = 0
        self.over = match.result() is not None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.bot_delay = 0.0
        self._bot_pending: set[int] = set()
        self.last_error: str = ""
        match.on_move = self._logged

    # --- making tables ------------------------------------------------------------
    @classmethod
    def create(cls, game: Game, options: Any, kinds: list[str], seed: int, *, name: str = "",
               names: list[str] | None = None, log_path: Path | None = None) -> "HostTable":
        if any(k not in SEAT_KINDS for k in kinds):
            raise ValueError(f"seat kinds are {', '.join(SEAT_KINDS)}")
        base = list(names or []) + list(game.seat_names[len(names or []):])
        seats = [SeatInfo(base[i], RECORD_KIND[k]) for i, k in enumerate(kinds)]
        match = Match(game, options, seats, seed)
        table = cls(game, match, list(kinds), name=name or f"{game.title} table",
                    table_id=secrets.token_hex(4), salt=secrets.token_hex(16))
        if log_path is not None:
            table.log = HostLog(log_path)
        return table

    @classmethod
    def resume(cls, path: Path) -> "HostTable":
        """Rebuild a table from its log (after a crash): same moves, same digest."""
        record, meta, sizes = read_log(path)
        game = get_game(record.game)
        match = Match.from_record(record, game)
        try:
            kinds = [str(k) for k in meta["kinds"]]
            hashes = list(meta["tokens"])
            table = cls(game, match, kinds, name=str(meta["name"]), table_id=str(meta["table"]),
                        salt=str(meta["salt"]))
            table.port = int(meta.get("port", 0))
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"host log header is malformed: {exc}") from None
        if len(kinds) != len(match.seats) or len(hashes) != len(kinds):
            raise RecordError("host log header does not match its seats")
        for slot, h in zip(table.slots, hashes):
            slot.token_hash = h if isinstance(h, str) else None
        table.log = HostLog(Path(path))
        table.log.adopt(sizes)
        return table

    def header(self) -> dict[str, Any]:
        head = self.match.record.header_map()
        head["netplay"] = {
            "table": self.id, "name": self.name, "kinds": [s.kind for s in self.slots],
            "salt": self.salt, "tokens": [s.token_hash for s in self.slots], "port": self.port,
        }
        return head

    def write_log(self) -> None:
        if self.log is not None:
            self.log.write(self.header(), self.match.record.moves)

    def _logged(self, move: Move) -> None:
        if self.log is not None:
            self.log.append(move)

    # --- state of the table --------------------------------------------------------
    @property
    def started(self) -> bool:
        """Play begins once every seat is taken, and then stays begun."""
        if not self._started and (all(s.taken for s in self.slots) or self.match.record.moves):
            self._started = True
        return self._started

    _started = False

    def open_seats(self) -> int:
        return sum(1 for s in self.slots if not s.taken)

    def names(self) -> list[str]:
        return [s.player or s.name for s in self.slots]

    def info(self) -> M.TableInfo:
        return M.TableInfo(table=self.id, name=self.name, game=self.game.slug,
                           rules=self.game.rules_version, fingerprint=self.fingerprint,
                           players=len(self.slots), open=self.open_seats(), started=self.started,
                           over=self.over, options=self.match.record.options)

    def seats_message(self) -> M.Seats:
        return M.Seats(seats=[M.SeatStatus(name=n, kind=s.kind, taken=s.taken,
                                           connected=s.kind != "open" or s.conn is not None)
                              for s, n in zip(self.slots, self.names())],
                       started=self.started, spectators=len(self.spectators))

    def connections(self) -> list[Conn]:
        return [s.conn for s in self.slots if s.conn is not None] + list(self.spectators)

    # --- seats ------------------------------------------------------------------------
    def claim(self, name: str) -> tuple[Slot, str] | None:
        """Give the first free open seat to a newcomer: the slot and its new token."""
        for slot in self.slots:
            if slot.kind == "open" and not slot.taken:
                token = secrets.token_urlsafe(24)
                slot.token_hash = token_hash(token)
                slot.player = name
                self.write_log()  # the header keeps the token's hash (for --resume)
                return slot, token
        return None

    def slot_for_token(self, token: str) -> Slot | None:
        h = token_hash(token)
        for slot in self.slots:
            if slot.token_hash is not None and secrets.compare_digest(slot.token_hash, h):
                return slot
        return None

    def attach(self, conn: Conn, slot: Slot | None, token: str | None) -> None:
        conn.table = self
        if slot is None:
            conn.spectator = True
            self.spectators.append(conn)
        else:
            if slot.conn is not None and slot.conn is not conn:
                slot.conn.error("replaced", "Your seat was taken over by a new connection with your token.",
                                fatal=True)
            slot.conn = conn
            conn.seat = slot.index
        conn.send(M.Welcome(table=self.id, table_name=self.name, game=self.game.slug,
                            rules=self.game.rules_version, options=self.match.record.options,
                            fingerprint=self.fingerprint, seat=conn.seat, token=token,
                            names=self.names(), commitment=self.commitment))
        self.seats_changed()  # (before the view: the client knows whether play has begun)
        self.resync(conn)
        self._sync_windows()
        if self.over:
            conn.send(self.over_message())

    def detach(self, conn: Conn) -> None:
        if conn.spectator:
            if conn in self.spectators:
                self.spectators.remove(conn)
        elif conn.seat is not None and self.slots[conn.seat].conn is conn:
            slot = self.slots[conn.seat]
            slot.conn = None
            if not self.started:  # left before the game began: the seat is open again
                slot.token_hash = None
                slot.player = ""
                self.write_log()
        self.seats_changed()

    def seats_changed(self) -> None:
        msg = M.frame(self.seats_message())
        for c in self.connections():
            c.send_bytes(msg)
        for fn in list(self.seat_listeners) + list(self.listeners):
            fn()
        self.kick_bots()

    # --- views out --------------------------------------------------------------------
    def _update(self, conn: Conn, holder: Any, delivery: Delivery, resync: bool = False) -> None:
        """Send ``conn`` its view (``holder`` keeps the view's version) and events."""
        data = M.ViewData(delivery.view)
        if data.data != holder.last_view:
            holder.last_view = data.data
            holder.version += 1
        events = delivery.events
        if not events and not resync and holder.last_sent == holder.version:
            return
        holder.last_sent = holder.version
        frame = M.frame(M.Update(seq=holder.version, view=data, resync=resync,
                                 events=[M.WireEvent.of(e) for e in events if e.visible_to(conn.seat)],
                                 to_act=sorted(self.match.to_act()), ack=getattr(holder, "acked", 0)))
        if self.update_sizes is not None and not resync:
            self.update_sizes.append(len(frame))
        conn.send_bytes(frame)

    update_sizes: list[int] | None = None  # bench: the byte size of every update sent

    def resync(self, conn: Conn) -> None:
        """The seat's full view and whole event log (on join, reconnect, stale action)."""
        seat = conn.seat
        holder = self.slots[seat] if seat is not None else conn
        log_events = tuple(self.match.events_for(seat))
        delivery = Delivery(self.match.view(seat), log_events)
        self._update(conn, holder, delivery, resync=True)

    def publish(self, deliveries: dict[int | None, Delivery]) -> None:
        for slot in self.slots:
            if slot.conn is not None:
                self._update(slot.conn, slot, deliveries[slot.index])
        for conn in self.spectators:
            self._update(conn, conn, deliveries[None])
        self._sync_windows()
        for fn in list(self.listeners):
            fn()
        if self.match.result() is not None:
            self.finish()
        else:
            self.kick_bots()

    def _sync_windows(self) -> None:
        to_act = self.match.to_act() if self.started else frozenset()
        for slot in self.slots:
            now = slot.index in to_act
            if now and not slot.acting:
                slot.window = slot.version
            slot.acting = now

    def over_message(self) -> M.Over:
        result = self.match.result()
        return M.Over(scores=list(result.scores), winners=list(result.winners), reason=result.reason,
                      seed=self.match.seed, salt=self.salt,
                      moves=[{"seat": m.seat, "action": m.action} for m in self.match.record.moves],
                      digest=self.match.digest())

    def finish(self) -> None:
        if self.over and self._over_sent:
            return
        self.over = True
        self._over_sent = True
        msg = M.frame(self.over_message())
        for c in self.connections():
            c.send_bytes(msg)
        for fn in list(self.over_listeners) + list(self.seat_listeners):
            fn()

    _over_sent = False

    # --- acting -----------------------------------------------------------------------
    def submit(self, seat: int, action: Any) -> str | None:
        """Apply an action of ``seat`` (a local human, a bot, or a client's, once checked).
        Returns None when accepted, else the reason it was refused."""
        if self.over:
            return "The game is over."
        if not self.started:
            return "The table is waiting for players to join."
        try:
            deliveries = self.match.submit(seat, action)
        except IllegalAction as exc:
            return exc.reason
        except Exception as exc:  # an engine bug on a strange action: refuse, keep serving
            log.exception("action %r of seat %s raised", action, seat)
            return f"That action cannot be played ({type(exc).__name__})."
        self.publish(deliveries)
        self.slots[seat].own = self.slots[seat].version
        return None

    def undo(self, seat: int) -> str | None:
        if self.over:
            return "The game is over."
        try:
            deliveries = self.match.undo(seat)
        except IllegalAction as exc:
            return exc.reason
        if self.log is not None:
            self.log.pop()
        self.publish(deliveries)
        self.slots[seat].own = self.slots[seat].version
        return None

    def kick_bots(self) -> None:
        if self.over or not self.started or self.loop is None:
            return
        for seat in sorted(self.match.to_act()):
            slot = self.slots[seat]
            if slot.kind == "bot" and seat not in self._bot_pending:
                self._bot_pending.add(seat)
                self.loop.call_later(self.bot_delay, self._bot_step, seat)

    def _bot_step(self, seat: int) -> None:
        self._bot_pending.discard(seat)
        if self.over or seat not in self.match.to_act():
            return
        view = self.match.view(seat)
        action = self.slots[seat].bot.choose(view, self.game.legal(view))
        error = self.submit(seat, action)
        if error:
            log.error("bot of seat %d chose a refused action: %s", seat, error)

    # --- what clients send -----------------------------------------------------------------
    def client_act(self, conn: Conn, msg: M.Act) -> None:
        if conn.seat is None:
            conn.error("spectator", "Spectators cannot act.", ack=msg.n)
            return
        if msg.seat is not None and msg.seat != conn.seat:
            conn.error("not-your-seat", f"You hold seat {conn.seat}, not seat {msg.seat}.", ack=msg.n)
            return
        slot = self.slots[conn.seat]
        slot.acked = max(slot.acked, msg.n)
        if self.over:
            conn.error("over", "The game is over.", ack=msg.n)
            return
        if not self.started:
            conn.error("not-started", "The table is waiting for players to join.", ack=msg.n)
            return
        if not max(slot.window, slot.own) <= msg.seq <= slot.version:
            conn.error("stale", "That action was chosen on an older view: here is the current one.", ack=msg.n)
            self.resync(conn)
            return
        try:
            action = self.game.codec.decode(msg.action)
        except IllegalAction as exc:
            conn.error("bad-action", exc.reason, ack=msg.n)
            return
        error = self.submit(conn.seat, action)
        if error:
            conn.error("illegal", error, ack=msg.n)

    def client_undo(self, conn: Conn, msg: M.Undo) -> None:
        if conn.seat is None:
            conn.error("spectator", "Spectators cannot undo.")
            return
        slot = self.slots[conn.seat]
        if not max(slot.window, slot.own) <= msg.seq <= slot.version:
            conn.error("stale", "Undo was asked on an older view: here is the current one.")
            self.resync(conn)
            return
        error = self.undo(conn.seat)
        if error:
            conn.error("undo", error)


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
        self._tasks: set[asyncio.Task] = set()
        self.done = asyncio.Event()

    @property
    def table(self) -> HostTable:
        return next(iter(self.tables.values()))

    async def start(self) -> int:
        loop = asyncio.get_running_loop()
        self.server = await asyncio.start_server(self._serve, self.bind, self.port,
                                                 limit=MAX_CLIENT_FRAME + 64)
        self.port = self.server.sockets[0].getsockname()[1]
        for t in self.tables.values():
            t.loop = loop
            t.bot_delay = self.bot_delay
            if t.log is not None and (t.port != self.port or not t.log.sizes):
                t.port = self.port  # the header keeps the port: --resume listens there again
                t.write_log()
            t.port = self.port
            t.over_listeners.append(self._check_done)
            t.kick_bots()
        self._check_done()  # (a resumed game may be over already)
        return self.port

    def _check_done(self) -> None:
        if self.tables and all(t.over for t in self.tables.values()):
            self.done.set()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
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

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        conn = Conn(self, reader, writer)
        self.conns.add(conn)
        try:
            await self._session(conn)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            pass  # the host is closing (re-raising only makes asyncio's stream callback log it)
        except Exception:  # never let one client stop the host
            log.exception("connection %s failed", conn.peer)
        finally:
            self.conns.discard(conn)
            if conn.table is not None:
                conn.table.detach(conn)
            conn.close()
            if task is not None:
                self._tasks.discard(task)

    async def _session(self, conn: Conn) -> None:
        lim = self.limits
        try:
            obj = await read_frame(conn.reader, MAX_CLIENT_FRAME, lim.hello_timeout)
            hello = M.parse_client(obj)
        except asyncio.TimeoutError:
            conn.error("timeout", f"No hello within {lim.hello_timeout:g} s.", fatal=True)
            return
        except FrameError as exc:
            conn.error("bad-frame", str(exc), fatal=True)
            return
        if not isinstance(hello, M.Hello):
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
            slot.player = hello.name
            table.attach(conn, slot, hello.token)
        elif hello.spectate:
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

    async def _drain(self, conn: Conn) -> None:
        if not conn.closed:
            try:
                await asyncio.wait_for(conn.writer.drain(), self.limits.idle_timeout)
            except asyncio.TimeoutError:
                conn.abort()

    async def _loop(self, conn: Conn, table: HostTable) -> None:
        lim = self.limits
        while not conn.closed:
            try:
                obj = await read_frame(conn.reader, MAX_CLIENT_FRAME, lim.idle_timeout)
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
                return
            else:
                conn.errors += 1
                conn.error("already-hello", "Hello was already said.", fatal=conn.errors > lim.max_errors)
            await self._drain(conn)


def make_kinds(players: int, bots: int, local: int = 0) -> list[str]:
    """N seats: ``local`` humans at the host first, then the open ones, then ``bots``."""
    if bots < 0 or local < 0 or bots + local > players:
        raise ValueError(f"bots and local seats must fit in {players} seats")
    return ["local"] * local + ["open"] * (players - bots - local) + ["bot"] * bots


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
