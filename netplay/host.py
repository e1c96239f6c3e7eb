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
import socket
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
from .text import clean_name
from .wire import MAX_CLIENT_FRAME, FrameError, SlowFrame, read_frame

log = logging.getLogger("atlantis.host")

SEAT_KINDS = ("open", "bot", "local")
RECORD_KIND = {"open": "remote", "bot": "bot", "local": "human"}


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


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


@dataclass
class Audience:
    """The version of the public view that every spectator of a table is sent."""
    version: int = 0
    last_view: Any = None
    last_sent: int = 0


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
        self.public = Audience()  # the spectators' view version (they share one public view)
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
        """Rebuild a table from its log (after a crash): same moves, same digest.

        The whole file is read and checked first: a host log whose header and moves
        are whole and whose moves replay with their digests.  Only then is a move the
        crash cut short dropped from its end; anything else wrong raises
        ``RecordError`` (one sentence) and leaves the file byte for byte as it was."""
        found = read_log(path)
        record, meta = found.record, found.meta
        try:
            game = get_game(record.game)
        except KeyError:
            raise RecordError(f"it is a log of the game {record.game[:40]!r}, which this program "
                              "does not know.") from None
        try:
            match = Match.from_record(record, game)
        except RecordError as exc:
            raise RecordError(f"its moves do not replay: {str(exc).rstrip('.')}.") from None
        except Exception as exc:  # an engine bug on a strange move: still one sentence
            raise RecordError(f"its moves do not replay: replaying them raised {type(exc).__name__}.") from None
        kinds, hashes = meta.get("kinds"), meta.get("tokens")
        if not (isinstance(kinds, list) and isinstance(hashes, list)
                and len(kinds) == len(hashes) == len(match.seats)
                and all(k in SEAT_KINDS and RECORD_KIND[k] == s.kind for k, s in zip(kinds, match.seats))
                and all(h is None or (isinstance(h, str) and len(h) == 64) for h in hashes)):
            raise RecordError("its netplay header does not match its seats (seat kinds or token hashes).")
        where = {"port": meta.get("port", 0), "bind": meta.get("bind"), "advertise": meta.get("advertise"),
                 "interfaces": meta.get("interfaces")}
        if not (all(isinstance(meta.get(k), str) for k in ("table", "name", "salt"))
                and isinstance(where["port"], int) and 0 <= where["port"] <= 65535
                and isinstance(where["bind"], (str, type(None)))
                and isinstance(where["advertise"], (bool, type(None)))
                and (where["interfaces"] is None or (isinstance(where["interfaces"], list)
                                                     and all(isinstance(i, str) for i in where["interfaces"])))):
            raise RecordError("its netplay header is malformed (table, name, salt or listening address).")
        table = cls(game, match, list(kinds), name=meta["name"], table_id=meta["table"], salt=meta["salt"])
        table.port, table.bind, table.advertise = where["port"], where["bind"], where["advertise"]
        table.interfaces = where["interfaces"]
        table.logged = table.where()
        for slot, h in zip(table.slots, hashes):
            slot.token_hash = h
        table.log = HostLog(Path(path))
        table.log.adopt(found)  # (the one write: a partial last move is cut off)
        return table

    # Where the host listens (the port is an instance field): kept in the log's header,
    # so that ``--resume`` listens and announces itself as before unless told otherwise.
    bind: str | None = None                # None: not known (the command's default)
    advertise: bool | None = None          # announced by zeroconf (None: not known)
    interfaces: list[str] | None = None    # ... on these interfaces only (None: all)
    logged: dict[str, Any] | None = None   # what the log's header says about it

    def where(self) -> dict[str, Any]:
        return {"port": self.port, "bind": self.bind, "advertise": self.advertise,
                "interfaces": self.interfaces}

    def header(self) -> dict[str, Any]:
        head = self.match.record.header_map()
        head["netplay"] = {
            "table": self.id, "name": self.name, "kinds": [s.kind for s in self.slots],
            "salt": self.salt, "tokens": [s.token_hash for s in self.slots], **self.where(),
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
                slot.player = self.player_name(slot, name)
                self.write_log()  # the header keeps the token's hash (for --resume)
                return slot, token
        return None

    def player_name(self, slot: Slot, sent: str) -> str:
        """The name a remote player gets at ``slot`` from the name it sent: printable
        only, trimmed, 1-24 characters (``netplay.text.clean_name``; nothing printable
        left: the seat's own name), unique among the names in use at the table (the
        other taken seats: players, bots and local seats; an open seat nobody holds
        yet does not keep its colour from a newcomer who asks for it)."""
        others = [n for s, n in zip(self.slots, self.names()) if s is not slot and s.taken]
        return clean_name(sent, slot.name, others)

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
                            names=self.names(), commitment=self.commitment,
                            practice=self.match.practice))
        self.seats_changed(conn)  # (before the view: the client knows whether play has begun)
        self.resync(conn)
        self._sync_windows()
        if self.over:
            conn.send(self.over_message())

    def detach(self, conn: Conn) -> None:
        if conn.spectator:
            if conn in self.spectators:
                self.spectators.remove(conn)
        elif conn.seat is not None and self.slots[conn.seat].conn is conn:
            # The seat stays its player's, before the start as during play: it shows as
            # taken but disconnected, and their client comes back with its token.  A
            # claimed seat counts as taken, so the game begins once every seat is claimed.
            # A player who says goodbye before the start gives the seat up for someone else.
            slot = self.slots[conn.seat]
            slot.conn = None
            if conn.said_bye and not self.started:
                slot.token_hash = None
                slot.player = ""
                self.write_log()
        self.seats_changed()

    def seats_changed(self, joined: Conn | None = None) -> None:
        """The seat list changed (a join, a leave, a spectator more or fewer).

        Coalesced: every connection gets the new ``seats`` message once, when this turn
        of the event loop is done, however many changes the turn brought, and at most
        once per ``seats_interval`` (``Limits.seats_interval``) while a crowd keeps
        arriving: n joins cost far fewer than n encodings and n x connections sends.
        ``joined``, a connection that has just attached, gets it at once: it must know
        whether play has begun before its first view arrives."""
        self._seats_gen += 1
        if joined is not None and not joined.closed:
            joined.seats_gen = self._seats_gen
            joined.send(self.seats_message())
        self.kick_bots()  # (the table may just have started)
        if self._seats_flush is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # (no event loop: a table driven directly)
            self._flush_seats()
            return
        wait = self._seats_sent + self.seats_interval - loop.time()
        if wait > 0:  # (a crowd arriving: at most one seat list per interval)
            self._seats_flush = loop.call_later(wait, self._flush_seats)
        else:
            self._seats_flush = loop.call_soon(self._flush_seats)

    _seats_gen = 0
    _seats_flush: asyncio.TimerHandle | asyncio.Handle | None = None
    _seats_sent = float("-inf")  # loop time of the last broadcast
    seats_interval = 0.0         # (the Host sets it from its Limits)

    def _flush_seats(self) -> None:
        self._seats_flush = None
        try:
            self._seats_sent = asyncio.get_running_loop().time()
        except RuntimeError:
            pass
        gen, frame = self._seats_gen, None
        for c in self.connections():
            if c.seats_gen != gen:
                if frame is None:
                    frame = M.frame(self.seats_message())
                c.seats_gen = gen
                c.send_bytes(frame)
        for fn in list(self.seat_listeners) + list(self.listeners):
            fn()

    # --- views out --------------------------------------------------------------------
    def _update(self, conn: Conn, holder: Any, delivery: Delivery, resync: bool = False) -> None:
        """Send ``conn`` its view (``holder`` keeps the view's version) and events."""
        frame = self._frame(holder, delivery, conn.seat, resync)
        if frame is not None:
            conn.send_bytes(frame)

    def _frame(self, holder: Any, delivery: Delivery, seat: int | None, resync: bool = False) -> bytes | None:
        """The update frame for ``seat`` (None: every spectator), or None if it has no news."""
        data = M.ViewData(delivery.view)
        if data.data != holder.last_view:
            holder.last_view = data.data
            holder.version += 1
        events = delivery.events
        if not events and not resync and holder.last_sent == holder.version:
            return None
        holder.last_sent = holder.version
        frame = M.frame(M.Update(seq=holder.version, view=data, resync=resync,
                                 events=[M.WireEvent.of(e) for e in events if e.visible_to(seat)],
                                 to_act=sorted(self.match.to_act()), ack=getattr(holder, "acked", 0)))
        if self.update_sizes is not None and not resync:
            self.update_sizes.append(len(frame))
        return frame

    update_sizes: list[int] | None = None  # bench: the byte size of every update sent

    def resync(self, conn: Conn) -> None:
        """The seat's full view and whole event log (on join, reconnect, stale action).
        Spectators all get the same frame: it is made once per state of the table."""
        seat = conn.seat
        if seat is None and self._public_resync is not None:
            conn.send_bytes(self._public_resync)
            return
        holder = self.slots[seat] if seat is not None else self.public
        log_events = tuple(self.match.events_for(seat))
        delivery = Delivery(self.match.view(seat), log_events)
        frame = self._frame(holder, delivery, seat, resync=True)
        if seat is None:
            self._public_resync = frame
        if frame is not None:
            conn.send_bytes(frame)

    _public_resync: bytes | None = None  # the spectators' resync frame, until the state changes

    def publish(self, deliveries: dict[int | None, Delivery]) -> None:
        self._public_resync = None
        for slot in self.slots:
            if slot.conn is not None:
                self._update(slot.conn, slot, deliveries[slot.index])
        if self.spectators:  # one public view for all of them: encoded once, sent to each
            frame = self._frame(self.public, deliveries[None], None)
            if frame is not None:
                for conn in self.spectators:
                    conn.send_bytes(frame)
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
                      seed=str(self.match.seed), salt=self.salt,
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
        self.server = await asyncio.start_server(self._serve, self.bind, self.port,
                                                 limit=MAX_CLIENT_FRAME + 64)
        self.port = self.server.sockets[0].getsockname()[1]
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

    def count_cut(self, code: str) -> None:
        self.cuts[code] = self.cuts.get(code, 0) + 1

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
            await self._session(conn)
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
