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
unless it is a legal action of that client's own seat on its current view.  The
connections themselves (frames parsed as they arrive, their deadlines, a peer that does
not read) are ``netplay.conn``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
import ssl
import time
from typing import Any, Callable

from engine.text import counted

from . import messages
from .conn import Admission, Conn, Session, TlsAccept  # noqa: F401  (Conn re-exported: part of the host's API)
from .limits import Limits  # noqa: F401  (re-exported: part of the host's API)
from .table import (  # noqa: F401  (re-exported: the tables are part of the host's API)
    RECORD_KIND, SEAT_KINDS, Audience, HostTable, Slot, deputy_level, make_kinds, seat_kinds, token_hash,
)
from .text import clean_name
from .thinking import Thinker
from .tls import Certificate, load_certificate

log = logging.getLogger("atlantis.host")


class Host:
    """An asyncio TCP server holding one or more tables."""

    def __init__(self, tables: list[HostTable], host: str = "127.0.0.1", port: int = 0,
                 limits: Limits | None = None, bot_delay: float = 0.0, *, plain: bool = False,
                 certificate: Certificate | None = None):
        """``certificate``: what every connection is served inside TLS with (None: this
        machine's, ``netplay.tls.load_certificate``, made on first use); ``plain``: no TLS
        at all, for a link that never leaves the machine (the SSH front's own table server)."""
        self.tables = {t.id: t for t in tables}
        self.plain = plain
        self.certificate = certificate
        self.tls: ssl.SSLContext | None = None
        self.bind = host
        self.port = port
        self.limits = limits or Limits()
        self.bot_delay = bot_delay
        self.server: asyncio.base_events.Server | None = None
        self.admission = Admission(self.limits)  # its connections, refusals and cuts (its sessions keep it)
        self.done = asyncio.Event()
        #: Told of each rematch: the old table, the new one, the players' new tokens by seat
        #: (the web front keeps each browser's seat through it).
        self.rematch_listeners: list[Callable[[HostTable, HostTable, dict[int, str]], None]] = []
        self.thinker = Thinker()  # where its slow (hard) bots decide: worker processes, off the loop

    @property
    def table(self) -> HostTable:
        return next(iter(self.tables.values()))

    # (the admission's books, read by the bench and the tests)
    @property
    def conns(self) -> set[Conn]:
        return self.admission.conns

    @property
    def per_address(self) -> dict[str, int]:
        return self.admission.per_address

    @property
    def refused(self) -> int:
        return self.admission.refused

    @property
    def cuts(self) -> dict[str, int]:
        return self.admission.cuts

    @property
    def fingerprint(self) -> str | None:
        """The SHA-256 fingerprint of the host's certificate (None: plain, or not started)."""
        return None if self.plain or self.certificate is None else self.certificate.fingerprint

    def _load_tls(self) -> None:
        if not self.plain and self.tls is None:
            if self.certificate is None:
                self.certificate = load_certificate()[0]
            self.tls = self.certificate.server_context()

    async def start(self) -> int:
        loop = asyncio.get_running_loop()
        self._load_tls()
        await self._listen()
        for t in self.tables.values():
            self._serve_table(t, loop)
        self._check_done()  # (a resumed game may be over already)
        log.info("listening on %s:%d with %s", self.bind, self.port, counted(len(self.tables), "table"))
        return self.port

    def _serve_table(self, t: HostTable, loop: asyncio.AbstractEventLoop) -> None:
        t.loop = loop
        t.thinker = self.thinker
        t.bot_delay = self.bot_delay
        t.seats_interval = self.limits.seats_interval
        t.limits = self.limits
        # The header keeps where the host listens: --resume listens there again.
        t.port, t.bind = self.port, self.bind
        if t.log is not None and (not t.log.sizes or t.where() != t.logged):
            t.write_log()
            t.logged = t.where()
        t.over_listeners.append(self._check_done)
        t.on_rematch = self.rematch
        for slot in t.slots:  # (a resumed table: its players are away until they come back)
            t.player_away(slot)
        if any(slot.bot is not None and slot.bot.slow for slot in t.slots):
            self.thinker.warm()
        t.kick_bots()

    def rematch(self, table: HostTable) -> HostTable:
        """Every human at ``table`` asked for a rematch: a new table (same seats, options
        and bots, a new secret seed) beside it, and everyone there is moved to it."""
        path = None
        if table.log is not None:
            path = table.log.path.with_name(f"{table.log.path.stem.split('-rematch-')[0]}-rematch-"
                                            f"{secrets.token_hex(3)}{table.log.path.suffix}")
        new, tokens = table.rematch(path)
        self.tables[new.id] = new
        self._serve_table(new, asyncio.get_running_loop())
        log.info("table %s: rematch at table %s", table.id, new.id)
        for listener in list(self.rematch_listeners):
            listener(table, new, tokens)
        table.move_to(new, tokens)
        return new

    async def _listen(self) -> None:
        """Listen on ``bind:port``, or on the Unix socket ``bind`` when it is a path (the
        SSH front's table server: only its own sessions reach it).  A worker of
        ``netplay.workers`` does not listen: the front process hands it each connection
        (``serve_handed``)."""
        loop = asyncio.get_running_loop()
        if self.bind.startswith("/"):  # the SSH front's own table server: a Unix socket, no TLS
            self.server = await loop.create_unix_server(lambda: Session(self), self.bind)
            return
        if self.tls is not None:  # counted from the accept, the handshake after (``TlsAccept``)
            tls = self.tls
            self.server = await loop.create_server(lambda: TlsAccept(self, tls), self.bind, self.port)
        else:
            self.server = await loop.create_server(lambda: Session(self), self.bind, self.port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def serve_handed(self, sock: socket.socket, first: dict[str, Any] | None, rest: bytes = b"") -> None:
        """Serve a connection another process accepted: with TLS, one it read nothing
        of (the handshake is made here); plain, one it read the first frame of (``first``,
        decoded; ``rest``: bytes it read past that frame)."""
        loop = asyncio.get_running_loop()
        tls = self.tls if first is None else None
        await loop.connect_accepted_socket(lambda: Session(self, first, rest), sock, ssl=tls,
                                           ssl_handshake_timeout=self.limits.hello_timeout if tls else None)

    def _check_done(self) -> None:
        if self.tables and all(t.over for t in self.tables.values()):
            self.done.set()

    async def close(self) -> None:
        for t in self.tables.values():
            t.stop_thinking()
        self.thinker.close()
        with contextlib.suppress(asyncio.TimeoutError):
            await self.thinker.wait_closed()
        if self.server is not None:
            self.server.close()
        # Say why before going: a client told "table-closed" stops reconnecting at once
        # (it keeps its token to rejoin a resumed host) instead of retrying to its bound.
        await self.admission.close(messages.Error(
            code="table-closed", fatal=True,
            message="The host closed the table (it may resume it: rejoin with your token)."))
        if self.server is not None:
            try:
                await asyncio.wait_for(self.server.wait_closed(), 2)
            except asyncio.TimeoutError:  # pragma: no cover
                pass
        for t in self.tables.values():
            if t.log is not None:
                t.log.close()
            t.chat.close()

    def welcome(self, conn: Conn, hello: messages.Hello) -> HostTable | None:
        """Seat ``conn`` at the table its hello names (by its token, or at the next open
        seat), or let it watch: the table it is at.  None: it sits at none (a probe,
        answered; or refused with an error that closes it)."""
        lim = self.limits
        if hello.probe:
            conn.send(messages.Info(host="atlantis", tables=[t.info() for t in self.tables.values()]))
            return None
        table = self.tables.get(hello.table) if hello.table else self.default_table()
        if table is None:
            conn.error("no-table", "There is no such table here.", fatal=True)
            return None
        if hello.token is not None:
            slot = table.slot_for_token(hello.token)
            if slot is None:
                conn.error("bad-token", "That token holds no seat at this table.", fatal=True)
                return None
            slot.player = table.player_name(slot, hello.name)
            table.attach(conn, slot, hello.token)
        elif hello.spectate:
            if len(table.spectators) >= lim.max_spectators:
                self.admission.refused += 1
                conn.error("spectators-full", f"This table has {lim.max_spectators} spectators, "
                           "the most it takes; try again later.", fatal=True)
                return None
            conn.name = clean_name(hello.name, "Spectator")
            table.attach(conn, None, None)
        else:
            refusal = self.claim_refusal(table)
            if refusal is not None:
                self.admission.refused += 1
                conn.error(*refusal, fatal=True)
                return None
            claimed = table.claim(hello.name)
            if claimed is None:
                conn.error("full", "Every seat at this table is taken; you may join as a spectator.",
                           fatal=True)
                return None
            table.attach(conn, claimed[0], claimed[1])
        return table

    def default_table(self) -> HostTable | None:
        """The table a hello that names none is for: the only one, or after rematches the
        only one still being played, else the last one opened (None: none is)."""
        playing = [t for t in self.tables.values() if not t.over]
        if len(playing) == 1:
            return playing[0]
        return list(self.tables.values())[-1] if self.tables and not playing else None

    def claim_refusal(self, table: HostTable) -> tuple[str, str] | None:
        """Why a hello without a token may not take ``table``'s next open seat (an error
        code and a sentence), or None: it may (a single-table host; a table server's
        seats are taken through its lobby, ``netplay.server``)."""
        return None

    async def request(self, conn: Conn, msg: messages.Msg) -> bool:
        """A first message that is not a hello: a table server (``netplay.server``)
        answers its lobby requests here; a single-table host answers none (False)."""
        return False

    async def _drain(self, conn: Conn) -> None:
        """Wait (at most ``drain_timeout``: then the peer is cut off) while the peer has
        much unread.  Returns at once when little is queued."""
        if not conn.closed and conn.session is not None:
            await conn.session.drain()


async def serve(host: Host, exit_when_done: bool = False, announce: Callable[[str], None] | None = None,
                advertise: Any = None, beside: tuple[Any, ...] = ()) -> None:
    """Run a headless host until it is cancelled (or, with ``exit_when_done``, until every
    table is over and its clients have had a moment to read the result).  ``beside``:
    servers in front of the host (``start()``, ``close()``: the web front), started once
    it listens and closed before it."""
    await host.start()
    started: list[Any] = []
    try:
        for front in beside:
            await front.start()
            started.append(front)
    except BaseException:
        for front in reversed(started):
            await front.close()
        await host.close()
        raise
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
        for front in reversed(started):
            await front.close()
        await host.close()
