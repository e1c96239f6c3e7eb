"""Sharded table server: one front process on the address and port, N worker processes.

Tables share nothing, so ``atlantis serve --workers N`` runs each table in one of N
worker processes, each an ordinary ``TableServer`` with its own event loop (seats,
tokens, spectators, bots, logs, limits: all as in one process).  The front process
listens on the one address and port and routes each connection:

* Every connection is inside TLS (``netplay.tls``), and TLS state cannot move between
  processes, so the front routes on the ClientHello, before any handshake: it peeks at
  it (``MSG_PEEK``, within ``Limits.hello_timeout``) for the server name (SNI), where a
  client names the table it wants (``tls.sni_name``).  A table's connection is handed,
  untouched, to the table's worker over a Unix socket pair with SCM_RIGHTS
  (``socket.send_fds``); the worker makes the handshake and serves it from there
  (``Host.serve_handed``) and the front forgets it.  Every other connection (no name:
  a probe, the lobby requests ``list-tables``, ``open-table``, ``take-seat``) the front
  serves itself, inside TLS, asking the workers (one small request each over the same
  pair).  The cost: the table id goes in the clear in the ClientHello (the lobby lists
  it anyway; seats, tokens and views stay inside TLS), and each table connection's
  ClientHello is parsed twice (by the front's peek, then by the worker's handshake).
* Plain (``plain=True``: a link that never leaves the machine), the front reads the
  first frame itself and hands the socket with it (the frame and any bytes read past it).

A table's worker is fixed by its id (``shard_of``): a worker draws the ids of the
tables it opens among those of its shard, so any front finds a table from its id
alone.  Identities (the secrets the front gives out, and the SSH front's
``register_identity``) and the practice seeds of tests and benches live in the front;
the global caps of ``ServerLimits`` (tables in all, tables and seats per player) are
checked in the front, one ``open-table`` or ``take-seat`` at a time.  Each worker gives
up its own idle seats; the front removes old logs (asking the workers which are still
being written).  The
connection caps of ``Limits`` apply in the front to connections before their first
frame, and in each worker to the connections it serves.

``make_server(workers=...)``: 0 or 1 is the in-process ``TableServer`` as before.
A worker that dies takes its tables with it (their logs stay); the others go on.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
import secrets
import socket
import ssl
import sys
import zlib
from pathlib import Path
from typing import Any, Callable

import msgpack

from engine.text import counted

from . import messages
from .host import Limits
from .server import Identities, ServerLimits, TableServer, limit_text, log_names, no_identity, player_seats_error
from .server import prune_logs
from .tls import Certificate, ServerNameReader, load_certificate, peek_server_name, table_of_sni
from .wire import MAX_CLIENT_FRAME, FrameError, read_frame

log = logging.getLogger("atlantis.server")

CONTROL_BYTES = 1 << 20  # the largest control message (a worker's table list)


def shard_of(table_id: str, workers: int) -> int:
    """The worker (0 .. workers-1) that holds the table ``table_id``."""
    try:
        return int(table_id, 16) % workers
    except ValueError:
        return zlib.crc32(table_id.encode()) % workers


def make_server(workers: int | None = None, **kwargs: Any) -> Any:
    """``atlantis serve``'s server: ``TableServer`` in this process for 0 or 1 workers,
    else a ``ShardedServer`` (default: one worker per CPU)."""
    n = (os.cpu_count() or 1) if workers is None else workers
    if n <= 1:
        return TableServer(**kwargs)
    return ShardedServer(workers=n, **kwargs)


# --- control messages: one msgpack map per SOCK_SEQPACKET message --------------------------
def _send(sock: socket.socket, obj: dict[str, Any], fds: list[int] = ()) -> None:
    data = msgpack.packb(obj, use_bin_type=True)
    if fds:
        socket.send_fds(sock, [data], list(fds))
    else:
        sock.send(data)


def _pair() -> tuple[socket.socket, socket.socket]:
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    for s in (a, b):
        for opt in (socket.SO_SNDBUF, socket.SO_RCVBUF):
            try:
                s.setsockopt(socket.SOL_SOCKET, opt, CONTROL_BYTES)
            except OSError:  # pragma: no cover
                pass
    return a, b


class _Listed:
    """A worker's table as the front knows it (for the LAN announcement)."""

    def __init__(self, info: dict[str, Any]):
        self.info = info
        self.over = bool(info.get("over"))

    def open_seats(self) -> int:
        return int(self.info.get("open", 0))


class Worker:
    """The front's end of one worker process."""

    def __init__(self, index: int, sock: socket.socket, proc: Any, front: "ShardedServer"):
        self.index, self.sock, self.proc, self.front = index, sock, proc, front
        self.calls: dict[int, asyncio.Future] = {}
        self.n = 0
        self.tables: dict[str, _Listed] = {}
        self.alive = True
        sock.setblocking(False)
        asyncio.get_running_loop().add_reader(sock.fileno(), self._readable)

    def _readable(self) -> None:
        while True:
            try:
                data = self.sock.recv(CONTROL_BYTES)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                data = b""
            if not data:
                self._lost()
                return
            obj = msgpack.unpackb(data, raw=False)
            if "id" in obj:
                fut = self.calls.pop(obj["id"], None)
                if fut is not None and not fut.done():
                    fut.set_result(obj)
            elif obj.get("op") == "changed":
                self.tables = {t["table"]: _Listed(t) for t in obj["tables"]}
                self.front.changed()

    def _lost(self) -> None:
        if not self.alive:
            return
        self.alive = False
        try:
            asyncio.get_running_loop().remove_reader(self.sock.fileno())
        except (ValueError, OSError):  # pragma: no cover
            pass
        for fut in self.calls.values():
            if not fut.done():
                fut.set_exception(ConnectionError(f"worker {self.index} is gone"))
        self.calls.clear()
        if self.tables:
            self.tables = {}
            self.front.changed()
        if not self.front.closing:
            log.error("worker %d (pid %s) is gone: its tables with it", self.index, self.proc.pid)

    def hand(self, sock: Any, first: dict[str, Any] | None, rest: bytes = b"") -> None:
        _send(self.sock, {"op": "conn", "first": first, "rest": rest}, [sock.fileno()])

    async def call(self, op: str, timeout: float = 10.0, **args: Any) -> dict[str, Any]:
        if not self.alive:
            raise ConnectionError(f"worker {self.index} is gone")
        self.n += 1
        fut = asyncio.get_running_loop().create_future()
        self.calls[self.n] = fut
        _send(self.sock, {"id": self.n, "op": op, **args})
        return await asyncio.wait_for(fut, timeout)


class ShardedServer:
    """The front of a table server whose tables live in worker processes (the same
    constructor and public methods as ``TableServer`` that ``atlantis serve`` and the
    SSH front use: ``start``, ``close``, ``port``, ``register_identity`` ...)."""

    def __init__(self, name: str = "atlantis", host: str = "127.0.0.1", port: int = 0,
                 limits: Limits | None = None, server_limits: ServerLimits | None = None,
                 records: Path | None = None, bot_delay: float = 0.0, games: Any = None,
                 seeds: Any = None, workers: int = 2, plain: bool = False,
                 certificate: Certificate | None = None):
        self.name, self.bind, self.port = name, host, port
        self.plain, self.certificate = plain, certificate
        self.tls: Any = None
        self.names: ServerNameReader | None = None
        self.listener: socket.socket | None = None
        self._acceptor: asyncio.Task | None = None
        self.limits = limits or Limits()
        self.server_limits = server_limits or ServerLimits()
        self.records, self.bot_delay, self.seeds = records, bot_delay, seeds
        self.games = sorted(games) if games is not None else None  # slugs (None: every game)
        self.count = workers
        self.workers: list[Worker] = []
        self.ids = Identities(records)
        self.listeners: list[Callable[[], None]] = []
        self.pending: set[asyncio.Task] = set()
        self.per_address: dict[str, int] = {}
        self.refused = 0
        self.closing = False
        self._opening = asyncio.Lock()
        self._pruner: asyncio.Task | None = None

    # --- life -------------------------------------------------------------------------
    @property
    def fingerprint(self) -> str | None:
        return None if self.plain or self.certificate is None else self.certificate.fingerprint

    async def start(self) -> int:
        if not self.plain:
            if self.certificate is None:
                self.certificate = load_certificate()[0]
            self.tls = self.certificate.server_context()
            self.names = ServerNameReader(self.certificate)
        family = socket.AF_INET6 if ":" in self.bind else socket.AF_INET
        self.listener = socket.create_server((self.bind, self.port), family=family, backlog=1024)
        self.listener.setblocking(False)
        self.port = self.listener.getsockname()[1]
        config = {"certificate": None if self.plain else str(self.certificate.path),"name": self.name, "bind": self.bind, "port": self.port, "workers": self.count,
                  "limits": dataclasses.asdict(self.limits), "server_limits": dataclasses.asdict(self.server_limits),
                  "records": str(self.records) if self.records is not None else None,
                  "bot_delay": self.bot_delay, "games": self.games}
        ready = []
        for i in range(self.count):
            mine, theirs = _pair()
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "netplay.workers", str(theirs.fileno()), str(i),
                json.dumps(config), pass_fds=(theirs.fileno(),))
            theirs.close()
            worker = Worker(i, mine, proc, self)
            self.workers.append(worker)
            ready.append(worker.call("ready", timeout=60))
        await asyncio.gather(*ready)
        self._acceptor = asyncio.get_running_loop().create_task(self._accept_loop())
        self._pruner = asyncio.get_running_loop().create_task(self._prune_loop())
        return self.port

    async def _prune_loop(self) -> None:
        while True:
            try:
                await self.prune_logs()
            except (ConnectionError, asyncio.TimeoutError):
                pass  # (a worker gone or slow: nothing removed this time)
            except Exception:
                log.exception("pruning old logs failed")
            await asyncio.sleep(self.server_limits.prune_every)

    async def prune_logs(self, now: float | None = None) -> list[Path]:
        """Remove old logs of tables no longer played (as ``TableServer.prune_logs``).
        The folder is listed first, then every live worker says which logs it still
        writes: a table opened meanwhile is not among the files looked at, and when a
        worker does not answer nothing is removed."""
        lim = self.server_limits
        if self.records is None:
            return []
        listed = log_names(self.records)
        running: set[str] = set()
        for w in self.workers:
            if w.alive:
                running.update((await w.call("logs"))["logs"])  # (a worker that fails: no pruning now)
        return prune_logs(self.records, running, lim.keep_logs_days, lim.max_logs, now, among=listed)

    def worker_pids(self) -> list[int]:
        return [w.proc.pid for w in self.workers]

    async def close(self) -> None:
        self.closing = True
        if self._pruner is not None:
            self._pruner.cancel()
        if self._acceptor is not None:
            self._acceptor.cancel()
        if self.listener is not None:
            self.listener.close()
        for task in list(self.pending):
            task.cancel()
        if self.pending:
            await asyncio.gather(*self.pending, return_exceptions=True)
        loop = asyncio.get_running_loop()
        for w in self.workers:
            w.alive = False
            try:
                loop.remove_reader(w.sock.fileno())
            except (ValueError, OSError):  # pragma: no cover
                pass
            w.sock.close()  # (the worker sees the end of its control socket and stops)
        for w in self.workers:
            try:
                await asyncio.wait_for(w.proc.wait(), 10)
            except asyncio.TimeoutError:  # pragma: no cover
                w.proc.kill()
                await w.proc.wait()

    # --- what the LAN announcement reads (``discovery.ServerAdvertiser``) ----------------
    @property
    def tables(self) -> dict[str, _Listed]:
        return {tid: t for w in self.workers for tid, t in w.tables.items()}

    def changed(self) -> None:
        for fn in list(self.listeners):
            fn()

    # --- identities (as ``TableServer``) ---------------------------------------------------
    @property
    def identities(self) -> dict[str, str]:
        return self.ids.registered

    def register_identity(self, secret: str, identity: str) -> None:
        self.ids.registered[secret] = identity

    def forget_identity(self, secret: str) -> None:
        self.ids.registered.pop(secret, None)

    def identity(self, sent: str | None) -> str | None:
        return self.ids.who(sent)

    def worker_for(self, table_id: str) -> Worker:
        return self.workers[shard_of(table_id, self.count)]

    # --- connections ------------------------------------------------------------------------
    async def _accept_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                sock, peer = await loop.sock_accept(self.listener)
            except OSError as exc:  # (out of descriptors, say: the next accept may work)
                log.warning("accept failed: %s", exc)
                await asyncio.sleep(0.1)
                continue
            task = loop.create_task(self._accept(sock, peer))
            self.pending.add(task)
            task.add_done_callback(self.pending.discard)

    async def _streams(self, sock: socket.socket) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """The connection as streams: inside TLS (the handshake made here) unless plain."""
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=MAX_CLIENT_FRAME + 64)
        transport, protocol = await loop.connect_accepted_socket(
            lambda: asyncio.StreamReaderProtocol(reader), sock, ssl=self.tls,
            ssl_handshake_timeout=self.limits.hello_timeout if self.tls else None)
        return reader, asyncio.StreamWriter(transport, protocol, reader, loop)

    async def _accept(self, sock: socket.socket, peer: Any) -> None:
        address = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        lim = self.limits
        handed = False
        writer: asyncio.StreamWriter | None = None
        try:
            refusal = None
            if len(self.pending) > lim.max_connections:
                refusal = ("busy", f"The host has {counted(lim.max_connections, 'connection')} open, its limit; try again later.")
            elif self.per_address.get(address, 0) >= lim.max_per_address:
                refusal = ("busy-address", f"{lim.max_per_address} connections from {address} are open already, "
                           "the most one address may hold.")
            if refusal is not None:
                self.refused += 1
                reader, writer = await self._streams(sock)
                return self._fail(writer, *refusal)
            self.per_address[address] = self.per_address.get(address, 0) + 1
            try:
                if self.names is not None:  # (a table named in the ClientHello: to its worker, untouched)
                    table = table_of_sni(await peek_server_name(sock, self.names, lim.hello_timeout))
                    if table is not None and self.worker_for(table).alive:
                        self.worker_for(table).hand(sock, None)
                        handed = True
                        return
                reader, writer = await self._streams(sock)
                handed = await self._first(reader, writer, address)
            finally:
                left = self.per_address.get(address, 1) - 1
                if left > 0:
                    self.per_address[address] = left
                else:
                    self.per_address.pop(address, None)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError, TimeoutError, ValueError,
                ssl.SSLError):
            pass
        except Exception:  # never let one connection stop the front
            log.exception("connection from %s failed", address)
        finally:
            if writer is None:
                sock.close()  # (our copy only: a handed socket lives on in its worker)
            elif not handed:
                writer.close()

    def _fail(self, writer: asyncio.StreamWriter, code: str, message: str) -> None:
        writer.write(messages.frame(messages.Error(code=code, message=message, fatal=True)))

    async def _first(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, address: str) -> bool:
        """Read and route the first frame; True when the socket went to a worker."""
        lim = self.limits
        try:
            obj = await read_frame(reader, MAX_CLIENT_FRAME, lim.hello_timeout)
            msg = messages.parse_client(obj)
        except asyncio.TimeoutError:
            self._fail(writer, "timeout", f"No hello within {lim.hello_timeout:g} s.")
            return False
        except FrameError as exc:
            self._fail(writer, "bad-frame", str(exc))
            return False
        if isinstance(msg, messages.Hello) and not msg.probe and self.tls is not None:
            self._fail(writer, "no-table", "There is no such table here (name the table: --table ID).")
            return False
        if isinstance(msg, messages.Hello) and not msg.probe:
            table = msg.table
            if table is None:  # (one table in all: that one, as a one-table host does)
                ids = [tid for w in await self._everyone("ids") for tid in w["ids"]]
                if len(ids) != 1:
                    self._fail(writer, "no-table", "There is no such table here.")
                    return False
                table = ids[0]
            worker = self.worker_for(table)
            if not worker.alive:
                self._fail(writer, "no-table", "There is no such table here (its worker is gone).")
                return False
            writer.transport.pause_reading()
            rest = bytes(getattr(reader, "_buffer", b""))  # (read past the hello: the worker reads it)
            sock = writer.get_extra_info("socket")
            worker.hand(sock, obj, rest)
            writer.transport.close()  # (closes our copy only: no shutdown, no FIN; the worker has it)
            return True
        answer = await self.answer(msg)
        writer.write(messages.frame(answer))
        try:
            async with asyncio.timeout(lim.drain_timeout):
                await writer.drain()
        except TimeoutError:
            writer.transport.abort()
        return False

    async def _everyone(self, op: str, **args: Any) -> list[dict[str, Any]]:
        """Every live worker's answer (one that dies meanwhile is left out)."""
        got = await asyncio.gather(*(w.call(op, **args) for w in self.workers if w.alive), return_exceptions=True)
        for x in got:
            if isinstance(x, BaseException) and not isinstance(x, (ConnectionError, asyncio.TimeoutError)):
                raise x
        return [x for x in got if not isinstance(x, BaseException)]

    async def answer(self, msg: Any) -> messages.Msg:
        """The front's answer to a probe hello or a lobby request."""
        if isinstance(msg, messages.Hello):  # (a probe)
            infos = [t for r in await self._everyone("list", who="") for t in r["tables"]]
            return messages.Info(host="atlantis", tables=[messages.TableInfo(**t) for t in infos])
        if isinstance(msg, messages.ListTables):
            secret = msg.identity
            if self.identity(secret) is None:
                secret = self.ids.issue()
            return (await self.table_list(self.identity(secret))).model_copy(update={"identity": secret})
        if isinstance(msg, (messages.OpenTable, messages.TakeSeat)):
            who = self.identity(msg.identity)
            if who is None:
                return no_identity()
            if isinstance(msg, messages.OpenTable):
                return await self.open_table(who, msg)
            return await self.take_seat(who, msg)
        return messages.Error(code="hello-first", message="Say hello first.", fatal=True)

    async def table_list(self, who: str) -> messages.TableList:
        lim = self.server_limits
        parts = await self._everyone("list", who=who)
        tables = [messages.TableInfo(**t) for r in parts for t in r["tables"]]
        mine = [messages.Ticket(**t) for r in parts for t in r["mine"]]
        held = {t.table for t in mine}  # (the asker's games in progress first)
        tables.sort(key=lambda t: t.table not in held)
        open_by = sum(r["open_by"] for r in parts)
        games = parts[0]["games"] if parts else []
        return messages.TableList(server=self.name, tables=tables, mine=mine, games=games,
                           your_turn=[t for r in parts for t in r.get("your_turn", [])],
                           can_open=len(tables) < lim.max_tables and open_by < lim.max_tables_per_player
                           and len(mine) < lim.max_seats_per_player,
                           limit=limit_text(len(tables), lim))

    async def take_seat(self, who: str, msg: messages.TakeSeat) -> messages.Msg:
        async with self._opening:  # (one at a time: the seats one identity holds, exactly)
            try:
                seats = sum(p["seats"] for p in await self._everyone("count", who=who))
                got = await self.worker_for(msg.table).call("take", who=who, table=msg.table, name=msg.name,
                                                            seats=seats)
            except (ConnectionError, asyncio.TimeoutError):
                return messages.Error(code="no-table", message="There is no such table here (it may have ended).",
                               fatal=True)
        return _answer(got)

    async def open_table(self, who: str, msg: messages.OpenTable) -> messages.Msg:
        lim = self.server_limits
        async with self._opening:  # (one at a time: the global caps hold exactly)
            parts = await self._everyone("count", who=who)
            alive = [w for w in self.workers if w.alive]
            if not alive:
                return messages.Error(code="tables-full", message="The server has no worker left.", fatal=True)
            if sum(p["tables"] for p in parts) >= lim.max_tables:
                return messages.Error(code="tables-full", message=f"The server holds {counted(lim.max_tables, 'table')}, its limit: "
                               "join one of them or try again later.", fatal=True)
            if sum(p["open_by"] for p in parts) >= lim.max_tables_per_player:
                return messages.Error(code="player-tables", message=f"You have {counted(lim.max_tables_per_player, 'table')} open "
                               "here, the most one player may: finish or leave one first.", fatal=True)
            if sum(p["seats"] for p in parts) >= lim.max_seats_per_player:
                return player_seats_error(lim.max_seats_per_player)
            worker = min(zip(alive, parts), key=lambda wp: (wp[1]["tables"], wp[0].index))[0]
            seed = next(self.seeds, None) if self.seeds is not None else None
            try:
                got = await worker.call("open", who=who, msg=msg.model_dump(mode="json"),
                                        seed=None if seed is None else str(seed))
            except (ConnectionError, asyncio.TimeoutError):
                return messages.Error(code="bad-table", message="Cannot open that table: the server's worker failed.",
                               fatal=True)
            return _answer(got)


def _answer(got: dict[str, Any]) -> messages.Msg:
    if "error" in got:
        return messages.Error(**got["error"])
    return messages.Seated(ticket=messages.Ticket(**got["ticket"]))


# --- the worker process ----------------------------------------------------------------
class WorkerServer(TableServer):
    """A ``TableServer`` that listens nowhere: the front hands it its connections."""

    def __init__(self, index: int, count: int, port: int, **kwargs: Any):
        super().__init__(**kwargs)
        self.index, self.count = index, count
        self.port = port
        self._notify: Any = None
        self.control: socket.socket | None = None
        self.listeners.append(self._table_list_changed)

    async def _listen(self) -> None:
        pass  # (the front listens; ``port`` is the front's, for the logs' headers)

    async def prune_logs(self, now: float | None = None) -> list[Path]:
        """Nothing: the records folder is shared, and only the front knows the logs
        every worker still writes (``ShardedServer.prune_logs``)."""
        return []

    def restores(self, table_id: str) -> bool:
        return shard_of(table_id, self.count) == self.index

    def new_table_id(self, drawn: str) -> str:
        while shard_of(drawn, self.count) != self.index:
            drawn = secrets.token_hex(4)
        return drawn

    def _table_list_changed(self) -> None:
        if self._notify is None and self.control is not None:
            self._notify = asyncio.get_running_loop().call_soon(self._send_tables)

    def _send_tables(self) -> None:
        self._notify = None
        if self.control is not None:
            try:
                _send(self.control, {"op": "changed",
                                     "tables": [t.info().model_dump(mode="json") for t in self.tables.values()]})
            except OSError:
                pass

    def handle(self, obj: dict[str, Any], fds: list[int]) -> dict[str, Any] | None:
        op = obj.get("op")
        if op == "conn":
            sock = socket.socket(fileno=fds[0])
            self.admission.run(self.serve_handed(sock, obj.get("first"), obj.get("rest", b"")))
            return None
        for fd in fds:  # (only a connection comes with a descriptor)
            os.close(fd)
        if op == "ready":  # (with the collector's thresholds: every worker tunes them as the host does)
            import gc

            return {"gc": list(gc.get_threshold())}
        if op == "ids":
            return {"ids": list(self.tables)}
        if op == "count":
            return {"tables": len(self.tables), "open_by": self.open_by(obj["who"]), "seats": self.seats_of(obj["who"])}
        if op == "logs":
            return {"logs": sorted(self.running_logs())}
        if op == "list":
            who = obj["who"]
            mine = self.tickets_of(who) if who else []
            return {"tables": [t.info().model_dump(mode="json") for t in self.tables.values()],
                    "mine": [t.model_dump(mode="json") for t in mine], "your_turn": self.your_turn(mine),
                    "open_by": self.open_by(who) if who else 0, "games": sorted(self.games)}
        if op == "open":
            seed = obj.get("seed")
            got = self.open_table(obj["who"], messages.OpenTable(**obj["msg"]), None if seed is None else int(seed))
            return _reply(got)
        if op == "take":
            return _reply(self.take_seat(obj["who"], obj["table"], obj["name"], obj.get("seats")))
        return {"error": {"code": "bad-request", "message": f"unknown request {op!r:.40}", "fatal": True}}


def _reply(got: Any) -> dict[str, Any]:
    if isinstance(got, messages.Error):
        return {"error": got.model_dump(mode="json", exclude={"v", "t"})}
    return {"ticket": got.model_dump(mode="json")}


async def worker_main(fd: int, index: int, config: dict[str, Any]) -> None:
    import gc

    from engine.process import tune
    from engine.registry import GAMES

    tune()  # (a worker is a process of many moves, as ``atlantis host`` is: tui/cli.py main)
    gc.freeze()  # (what the imports made lives as long as the worker: out of the collector's reach)

    games = None if config["games"] is None else {g: GAMES[g] for g in config["games"]}
    server = WorkerServer(index, config["workers"], config["port"], name=config["name"], host=config["bind"],
                          limits=Limits(**config["limits"]), server_limits=ServerLimits(**config["server_limits"]),
                          records=Path(config["records"]) if config["records"] else None,
                          bot_delay=config["bot_delay"], games=games, plain=config["certificate"] is None,
                          certificate=load_certificate(Path(config["certificate"]))[0] if config["certificate"] else None)
    ctrl = socket.socket(fileno=fd)
    ctrl.setblocking(False)
    server.control = ctrl
    await server.start()
    loop = asyncio.get_running_loop()
    gone = loop.create_future()

    def readable() -> None:
        while True:
            try:
                data, fds, _flags, _addr = socket.recv_fds(ctrl, CONTROL_BYTES, 4)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                data, fds = b"", []
            if not data:
                if not gone.done():
                    gone.set_result(None)
                loop.remove_reader(fd)
                return
            obj = msgpack.unpackb(data, raw=False)
            try:
                answer = server.handle(obj, fds)
            except Exception as exc:  # a bad request must not stop the worker
                log.exception("worker %d: request %r failed", index, obj.get("op"))
                answer = {"error": {"code": "server-error", "message": f"The server failed ({type(exc).__name__}).",
                                    "fatal": True}}
            if answer is not None and "id" in obj:
                _send(ctrl, {"id": obj["id"], **answer})

    loop.add_reader(fd, readable)
    try:
        await gone
    finally:
        server.control = None
        await server.close()


if __name__ == "__main__":
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (the front stops the workers: ^C goes to it)
    logging.basicConfig(level=logging.WARNING)
    asyncio.run(worker_main(int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])))
