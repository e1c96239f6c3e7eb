"""A table server: one ``Host`` where players open their own tables (``atlantis serve``).

Built on ``netplay.host``: every table is an ordinary ``HostTable`` of one ``Host``
(so seats, tokens, spectators, bots, logs and every ``Limits`` cap work as for
``atlantis host``), and a seat is taken with the ordinary ``hello``.  What the server
adds is three lobby requests (``netplay.messages``), each one request on its own
connection, answered once:

* ``list-tables``: every table, the seats the asker holds (``mine``), what may be opened;
* ``open-table``: a new table (game, options, players, how many are bots); the opener
  holds its first seat at once and gets the seat's ``ticket`` (table id and token);
* ``take-seat``: the next open seat of a table, as a ticket.

Who is asking (the *identity*): a session secret the SSH front registered with
``register_identity`` (it stands for the player's key fingerprint), or else the
peer's address.  The server remembers every ticket it gave an identity until the
table is gone, so an SSH player who comes back with the same key finds the seat in
``mine`` and takes it again without typing a token.

Limits (``ServerLimits``): tables open at once, and per identity; a refusal is an
``error`` with a code (``tables-full``, ``player-tables``) and a sentence.  A finished
table stays listed for ``keep_finished`` seconds; its log, a normal record, stays in the
records folder.  A table nobody ever joined is dropped after ``abandon_after``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from engine.record import RecordError
from engine.registry import GAMES

from . import messages as M
from .client import open_stream
from .host import Conn, Host, HostTable, Limits, make_kinds, token_hash

log = logging.getLogger("atlantis.server")


@dataclass
class ServerLimits:
    """What players may open (README, "Table server")."""

    max_tables: int = 32              # tables at once (finished ones count until dropped)
    max_tables_per_player: int = 2    # unfinished tables one identity opened
    keep_finished: float = 120.0      # seconds a finished table stays listed
    abandon_after: float = 600.0      # a table with nobody connected and no move is dropped after this
    sweep_every: float = 5.0


@dataclass
class Owned:
    owner: str
    opened: float
    tickets: dict[str, M.Ticket] = field(default_factory=dict)  # identity -> ticket at this table


def record_name(game: str) -> str:
    """``GAME-server-YYYYmmdd-HHMMSS-XXXXXX.atlrec`` (the same shape as ``tui.app``'s)."""
    import secrets
    from datetime import datetime

    return f"{game}-server-{datetime.now().strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}.atlrec"


class TableServer(Host):
    """A ``Host`` whose tables are opened by its players."""

    def __init__(self, name: str = "atlantis", host: str = "127.0.0.1", port: int = 0,
                 limits: Limits | None = None, server_limits: ServerLimits | None = None,
                 records: Path | None = None, bot_delay: float = 0.0, games: dict[str, Any] | None = None,
                 seeds: Any = None):
        super().__init__([], host=host, port=port, limits=limits, bot_delay=bot_delay)
        self.name = name
        self.server_limits = server_limits or ServerLimits()
        self.records = records            # where tables' logs go (None: no logs)
        self.games = GAMES if games is None else games
        self.identities: dict[str, str] = {}   # session secret -> identity (the SSH front's)
        self.owned: dict[str, Owned] = {}      # table id -> who opened it, tickets given
        self.listeners: list[Callable[[], None]] = []  # the table list changed (discovery)
        self._sweeper: asyncio.Task | None = None
        # Tests only: an iterator of practice seeds for the tables opened (None: every
        # table draws a secret seed, as it must in play).
        self.seeds = seeds

    # --- life -------------------------------------------------------------------------
    async def start(self) -> int:
        port = await super().start()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())
        return port

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        await super().close()

    def _check_done(self) -> None:  # a server is never done
        pass

    # --- identities ---------------------------------------------------------------------
    def register_identity(self, secret: str, identity: str) -> None:
        """The SSH front: a child that sends ``secret`` speaks for ``identity``."""
        self.identities[secret] = identity

    def forget_identity(self, secret: str) -> None:
        self.identities.pop(secret, None)

    def identity(self, conn: Conn, sent: str | None) -> str:
        if sent is not None and sent in self.identities:
            return self.identities[sent]
        return f"addr:{conn.address}"

    def tickets_of(self, who: str) -> list[M.Ticket]:
        """The seats ``who`` holds at unfinished tables (a seat given up before the start,
        by saying bye, is no longer held)."""
        return [o.tickets[who] for tid, o in self.owned.items()
                if who in o.tickets and tid in self.tables and not self.tables[tid].over
                and self.holds(self.tables[tid], o.tickets[who])]

    @staticmethod
    def holds(table: HostTable, ticket: M.Ticket) -> bool:
        slot = table.slots[ticket.seat]
        return slot.token_hash is not None and slot.token_hash == token_hash(ticket.token)

    def open_by(self, who: str) -> int:
        return sum(1 for tid, o in self.owned.items()
                   if o.owner == who and tid in self.tables and not self.tables[tid].over)

    def limit_text(self) -> str:
        lim = self.server_limits
        return (f"{len(self.tables)} of {lim.max_tables} tables in use; "
                f"each player may have {lim.max_tables_per_player} open.")

    def table_list(self, who: str) -> M.TableList:
        lim = self.server_limits
        return M.TableList(server=self.name, tables=[t.info() for t in self.tables.values()],
                           mine=self.tickets_of(who), games=sorted(self.games),
                           can_open=len(self.tables) < lim.max_tables
                           and self.open_by(who) < lim.max_tables_per_player,
                           limit=self.limit_text())

    # --- lobby requests (Host.request is the hook) -------------------------------------
    async def request(self, conn: Conn, msg: M.Msg) -> bool:
        if isinstance(msg, M.ListTables):
            conn.send(self.table_list(self.identity(conn, msg.identity)))
        elif isinstance(msg, M.OpenTable):
            who = self.identity(conn, msg.identity)
            answer = self.open_table(who, msg)
            if isinstance(answer, M.Error):
                self.refused += 1
                conn.send(answer)
            else:
                conn.send(M.Seated(ticket=answer))
        elif isinstance(msg, M.TakeSeat):
            who = self.identity(conn, msg.identity)
            answer = self.take_seat(who, msg.table, msg.name)
            conn.send(answer if isinstance(answer, M.Error) else M.Seated(ticket=answer))
        else:
            return False
        await self._drain(conn)
        return True

    def open_table(self, who: str, msg: M.OpenTable, seed: int | None = None) -> M.Ticket | M.Error:
        """A new table for ``who``, who holds its first seat (the ticket)."""
        lim = self.server_limits
        if len(self.tables) >= lim.max_tables:
            return M.Error(code="tables-full", message=f"The server holds {lim.max_tables} tables, its limit: "
                           "join one of them or try again later.", fatal=True)
        if self.open_by(who) >= lim.max_tables_per_player:
            return M.Error(code="player-tables", message=f"You have {lim.max_tables_per_player} tables open "
                           "here, the most one player may: finish or leave one first.", fatal=True)
        game = self.games.get(msg.game)
        if game is None:
            return M.Error(code="no-game", message=f"This server has no game {msg.game[:40]!r}; it has "
                           f"{', '.join(sorted(self.games))}.", fatal=True)
        if not game.min_players <= msg.players <= game.max_players:
            return M.Error(code="bad-table", message=f"{game.title} takes {game.min_players}-"
                           f"{game.max_players} players.", fatal=True)
        try:
            kinds = make_kinds(msg.players, msg.bots)
            if "open" not in kinds:
                raise ValueError("at least one seat must be a player's: fewer bots")
            options = game.parse_options({k: v for k, v in msg.options.items()}).model_dump(mode="json")
        except (ValueError, TypeError) as exc:
            return M.Error(code="bad-table", message=f"Cannot open that table: {str(exc)[:160]}", fatal=True)
        if seed is None and self.seeds is not None:
            seed = next(self.seeds, None)
        path = self.records / record_name(game.slug) if self.records is not None else None
        try:
            table = HostTable.create(game, options, kinds, seed, name=msg.table_name.strip()[:40]
                                     or f"{msg.name[:20]}'s {game.title}", log_path=path)
        except (RecordError, OSError) as exc:
            return M.Error(code="bad-table", message=f"Cannot open that table: {exc}", fatal=True)
        table.id = self.new_table_id(table.id)
        self.add_table(table, who)
        return self.take_seat(who, table.id, msg.name)  # (the first seat is open: a ticket)

    def new_table_id(self, drawn: str) -> str:
        """The id a new table gets (a worker of ``netplay.workers`` draws one of its shard)."""
        return drawn

    def add_table(self, table: HostTable, owner: str) -> None:
        """Serve ``table`` (as ``Host.start`` does for the tables it starts with)."""
        self.tables[table.id] = table
        self.owned[table.id] = Owned(owner=owner, opened=time.monotonic())
        loop = asyncio.get_running_loop()
        table.loop = loop
        table.bot_delay = self.bot_delay
        table.seats_interval = self.limits.seats_interval
        table.port, table.bind = self.port, self.bind
        table.write_log()
        table.logged = table.where()
        table.over_listeners.append(lambda: self._finished(table))
        table.seat_listeners.append(self._changed)
        table.kick_bots()
        self._changed()

    def take_seat(self, who: str, table_id: str, name: str) -> M.Ticket | M.Error:
        table = self.tables.get(table_id)
        owned = self.owned.get(table_id)
        if table is None or owned is None:
            return M.Error(code="no-table", message="There is no such table here (it may have ended).",
                           fatal=True)
        if table.over:
            return M.Error(code="over", message="That game is over; you may watch it.", fatal=True)
        held = owned.tickets.get(who)
        if held is not None and self.holds(table, held):  # (the same player asks again: the same seat)
            return held
        claimed = table.claim(name)
        if claimed is None:
            return M.Error(code="full", message="Every seat at this table is taken; you may watch it.",
                           fatal=True)
        slot, token = claimed
        ticket = M.Ticket(table=table.id, seat=slot.index, token=token)
        owned.tickets[who] = ticket
        table.seats_changed()
        return ticket

    # --- tables that end --------------------------------------------------------------
    def _changed(self) -> None:
        for fn in list(self.listeners):
            fn()

    def _finished(self, table: HostTable) -> None:
        if table.loop is not None:
            table.loop.call_later(self.server_limits.keep_finished, self.drop_table, table.id)
        self._changed()

    def drop_table(self, table_id: str) -> None:
        """Stop serving a table (its log stays where it was written)."""
        table = self.tables.pop(table_id, None)
        self.owned.pop(table_id, None)
        if table is None:
            return
        for conn in table.connections():
            conn.close()
        if table.log is not None:
            table.log.close()
        self._changed()

    def sweep(self) -> None:
        now = time.monotonic()
        for tid, table in list(self.tables.items()):
            owned = self.owned.get(tid)
            if (owned is not None and not table.match.record.moves and not table.connections()
                    and not table.over and now - owned.opened > self.server_limits.abandon_after):
                log.info("table %s abandoned: dropped", tid)
                self.drop_table(tid)

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.server_limits.sweep_every)
            self.sweep()


# --- the client side of the lobby requests ----------------------------------------------
async def ask(host: str, port: int, msg: M.Msg, timeout: float = 5.0) -> Any:
    """Send one lobby request to a server and return its answer (``TableList``,
    ``Seated`` or ``Error``).  A single-table host answers ``Error(hello-first)``."""
    from .wire import MAX_HOST_FRAME, read_frame

    async def go() -> Any:
        reader, writer = await open_stream(host, port)
        try:
            writer.write(M.frame(msg))
            return M.parse_host(await read_frame(reader, MAX_HOST_FRAME, timeout))
        finally:
            writer.close()

    return await asyncio.wait_for(go(), timeout)


async def is_server(host: str, port: int, timeout: float = 3.0) -> bool:
    """Whether ``host:port`` is a table server (else a single-table host)."""
    try:
        return isinstance(await ask(host, port, M.ListTables(), timeout), M.TableList)
    except Exception:
        return False


async def serve_forever(server: TableServer, announce: Callable[[str], None] | None = None,
                        advertise: Any = None, stop: asyncio.Event | None = None) -> None:
    """Run a table server until cancelled (or ``stop`` is set)."""
    await server.start()
    if announce is not None:
        announce(f"{server.bind}:{server.port}")
    try:
        if advertise is not None:
            try:
                await advertise.start(server)
            except Exception as exc:  # no multicast here: joining by address still works
                log.warning("not announced on the LAN: %s", exc)
                advertise = None
        await (stop or asyncio.Event()).wait()
    finally:
        if advertise is not None:
            await advertise.stop()
        await server.close()
