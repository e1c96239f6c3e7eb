"""Finding tables on the LAN: zeroconf (mDNS/DNS-SD) service ``_atlantis._tcp.local.``.

The host advertises one service per table with TXT keys ``game``, ``name`` (table
name), ``open`` (open seats), ``v`` (protocol version), ``fp`` (rules fingerprint),
``table`` (its id) and ``tls`` (the SHA-256 fingerprint of the host's TLS certificate,
``netplay.tls``); a table server (``netplay.server``) is one service with ``server=1``,
its name, ``tables``, ``open`` (seats open in all) and ``tls``.  The browser lists tables
as they appear and go; a crashed host sends no goodbye, so every table is confirmed with
a ``probe`` hello before it is offered (inside TLS, the certificate checked against the
announced fingerprint: a table whose host shows another is not listed), and listed
tables are probed again every few seconds.

``interfaces`` limits both sides to some addresses (the tests use ``["127.0.0.1"]``
so nothing is sent anywhere but loopback); ``None`` means every interface.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from dataclasses import asdict, dataclass
from typing import Any, Callable

from zeroconf import IPVersion, ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from . import messages
from .client import probe
from .tls import FingerprintError, Trust

log = logging.getLogger("atlantis.discovery")


def _zeroconf(interfaces: list[str] | None) -> AsyncZeroconf:
    if interfaces:
        v6 = any(":" in i for i in interfaces)
        v4 = any(":" not in i for i in interfaces)
        version = IPVersion.All if v4 and v6 else (IPVersion.V6Only if v6 else IPVersion.V4Only)
        return AsyncZeroconf(interfaces=list(interfaces), ip_version=version)
    return AsyncZeroconf(ip_version=IPVersion.V4Only)


def _label(text: str, limit: int = 60) -> str:
    """A DNS-SD instance label: printable, no dots, at most ``limit`` bytes."""
    clean = "".join(c if c.isprintable() and c != "." else "-" for c in text).strip() or "table"
    while len(clean.encode()) > limit:
        clean = clean[:-1]
    return clean


class Advertiser:
    """Advertises every table of a ``Host``; keeps the open-seat count current."""

    def __init__(self, interfaces: list[str] | None = None, address: str | None = None):
        self.interfaces = interfaces
        self.address = address
        self.zc: AsyncZeroconf | None = None
        self.infos: dict[str, AsyncServiceInfo] = {}
        self._pending: set[asyncio.Task] = set()
        self.registered = asyncio.Event()

    def _addresses(self, host: Any) -> list[bytes]:
        if self.address:
            return [socket.inet_aton(self.address)]
        if self.interfaces:
            return [socket.inet_aton(i) for i in self.interfaces if ":" not in i]
        if host.bind not in ("", "0.0.0.0", "::"):
            return [socket.inet_aton(host.bind)]
        from zeroconf import get_all_addresses

        return [socket.inet_aton(a) for a in get_all_addresses() if not a.startswith("127.")] \
            or [socket.inet_aton("127.0.0.1")]

    def _info(self, host: Any, table: Any) -> AsyncServiceInfo:
        label = _label(f"{table.name} {table.id}")
        props = {"game": table.game.slug, "name": table.name[:60], "open": str(table.open_seats()),
                 "v": str(messages.PROTOCOL), "fp": table.fingerprint, "table": table.id,
                 "over": "1" if table.over else "0", "tls": host.fingerprint or ""}
        return AsyncServiceInfo(messages.SERVICE_TYPE, f"{label}.{messages.SERVICE_TYPE}",
                                addresses=self._addresses(host), port=host.port, properties=props,
                                server=f"atlantis-{table.id}.local.")

    async def start(self, host: Any) -> None:
        self.zc = _zeroconf(self.interfaces)
        for table in host.tables.values():
            info = self._info(host, table)
            self.infos[table.id] = info
            # the first await probes (about 1.2 s); the task it returns announces
            await (await self.zc.async_register_service(info, allow_name_change=True))
            table.seat_listeners.append(lambda t=table: self._changed(host, t))
        if hasattr(host, "rematch_listeners"):
            host.rematch_listeners.append(lambda old, new, tokens: self._rematched(host, old, new))
        self.registered.set()

    def _rematched(self, host: Any, old: Any, new: Any) -> None:
        """A rematch moved a table's players to a new table: announce the new one and say
        goodbye for the old (a browser would otherwise offer the finished game)."""
        if self.zc is None:
            return

        async def swap() -> None:
            info = self._info(host, new)
            self.infos[new.id] = info
            await (await self.zc.async_register_service(info, allow_name_change=True))
            new.seat_listeners.append(lambda: self._changed(host, new))
            gone = self.infos.pop(old.id, None)
            if gone is not None:
                await (await self.zc.async_unregister_service(gone))

        self._run(swap())

    def _run(self, work: Any) -> None:
        """Run an announcement's ``work`` in the background (``stop`` waits for it)."""
        task = asyncio.get_running_loop().create_task(work)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    def _changed(self, host: Any, table: Any) -> None:
        old = self.infos.get(table.id)
        if self.zc is None or old is None:
            return
        new = self._info(host, table)
        new = AsyncServiceInfo(old.type, old.name, addresses=new.addresses, port=new.port,
                               properties=new.properties, server=old.server)
        if new.properties == old.properties:
            return
        self.infos[table.id] = new
        async def update() -> None:
            await (await self.zc.async_update_service(new))

        self._run(update())

    async def stop(self) -> None:
        if self.zc is None:
            return
        for task in list(self._pending):
            try:
                await task
            except Exception:
                pass
        for info in self.infos.values():
            try:
                # the returned task sends the goodbye the browsers hear: wait for it
                await (await self.zc.async_unregister_service(info))
            except Exception:  # pragma: no cover
                log.exception("unregister failed")
        await self.zc.async_close()
        self.zc = None


class ServerAdvertiser(Advertiser):
    """Advertises a table server (``netplay.server.TableServer``) as one service: TXT
    ``server=1``, its name, how many tables it holds and how many seats are open in all
    (kept current as tables open, fill and end)."""

    def _server_info(self, server: Any) -> AsyncServiceInfo:
        tables = list(server.tables.values())
        open_seats = sum(t.open_seats() for t in tables if not t.over)
        props = {"server": "1", "name": server.name[:60], "tables": str(len(tables)), "open": str(open_seats),
                 "v": str(messages.PROTOCOL), "game": "", "fp": "", "table": "", "over": "0",
                 "tls": server.fingerprint or ""}
        return AsyncServiceInfo(messages.SERVICE_TYPE, f"{_label(server.name + ' server')}.{messages.SERVICE_TYPE}",
                                addresses=self._addresses(server), port=server.port, properties=props,
                                server=f"atlantis-server-{server.port}.local.")

    async def start(self, host: Any) -> None:
        self.zc = _zeroconf(self.interfaces)
        info = self._server_info(host)
        self.infos["server"] = info
        await (await self.zc.async_register_service(info, allow_name_change=True))
        host.listeners.append(lambda: self._server_changed(host))
        self.registered.set()

    def _server_changed(self, server: Any) -> None:
        old = self.infos.get("server")
        if self.zc is None or old is None:
            return
        fresh = self._server_info(server)
        if fresh.properties == old.properties:
            return
        new = AsyncServiceInfo(old.type, old.name, addresses=fresh.addresses, port=fresh.port,
                               properties=fresh.properties, server=old.server)
        self.infos["server"] = new

        async def update() -> None:
            await (await self.zc.async_update_service(new))

        self._run(update())


@dataclass
class FoundTable:
    service: str
    host: str
    port: int
    table: str
    name: str
    game: str
    open: int
    players: int
    started: bool
    over: bool
    fingerprint: str
    rules: str
    protocol: int
    seen_at: float
    server: bool = False  # a table server: ``name`` is the server's, ``open`` its open seats in all
    tls: str = ""         # the host's certificate fingerprint, as announced and checked by the probe

    @property
    def address(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["address"] = self.address
        out.pop("seen_at")
        return out


class Browser:
    """Lists the tables on the LAN as they come and go (each confirmed by a probe)."""

    def __init__(self, on_change: Callable[[], None] | None = None, interfaces: list[str] | None = None,
                 probe_timeout: float = 2.0, recheck: float = 3.0):
        self.on_change = on_change
        self.interfaces = interfaces
        self.probe_timeout = probe_timeout
        self.recheck = recheck
        self.tables: dict[str, FoundTable] = {}
        self.zc: AsyncZeroconf | None = None
        self.browser: AsyncServiceBrowser | None = None
        self._tasks: set[asyncio.Task] = set()
        self._gone: set[str] = set()
        self.started_at = 0.0

    async def start(self) -> None:
        self.started_at = time.monotonic()
        self.zc = _zeroconf(self.interfaces)
        self.browser = AsyncServiceBrowser(self.zc.zeroconf, messages.SERVICE_TYPE, handlers=[self._handler])
        self._spawn(self._recheck_loop())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _handler(self, zeroconf: Any, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            self._gone.add(name)  # (a resolve still running must not bring it back)
            if self.tables.pop(name, None) is not None:
                self._notify()
        else:
            self._gone.discard(name)
            self._spawn(self._resolve(name))

    def _notify(self) -> None:
        if self.on_change is not None:
            self.on_change()

    async def _resolve(self, name: str) -> None:
        assert self.zc is not None
        info = AsyncServiceInfo(messages.SERVICE_TYPE, name)
        if not await info.async_request(self.zc.zeroconf, 3000):
            return
        props = {k.decode(errors="replace"): (v or b"").decode(errors="replace")
                 for k, v in (info.properties or {}).items()}
        addresses = info.parsed_addresses()
        if not addresses or not info.port:
            return
        for host in addresses:
            found = await self._confirm(name, host, info.port, props)
            if name in self._gone:
                return
            if found is not None:
                self.tables[name] = found
                self._notify()
                return
        if self.tables.pop(name, None) is not None:
            self._notify()

    async def _confirm(self, service: str, host: str, port: int, props: dict[str, str]) -> FoundTable | None:
        announced = props.get("tls") or None
        try:
            answer = await probe(host, port, self.probe_timeout, Trust(pin=False, expected=announced))
        except FingerprintError as exc:
            log.warning("%s not listed: %s", service, exc)
            return None
        except Exception:
            return None
        if props.get("server") == "1":  # a table server: listed as itself, with its open seats
            live = [t for t in answer.tables if not t.over]
            return FoundTable(service=service, host=host, port=port, table="", name=props.get("name", "server"),
                              game=f"server: {len(answer.tables)} table{'' if len(answer.tables) == 1 else 's'}", open=sum(t.open for t in live),
                              players=sum(t.players for t in live), started=False, over=False,
                              fingerprint="", rules="", protocol=messages.PROTOCOL,
                              seen_at=time.monotonic() - self.started_at, server=True, tls=announced or "")
        tables = [t for t in answer.tables if t.table == props.get("table")] or answer.tables[:1]
        if not tables:
            return None
        t = tables[0]
        return FoundTable(service=service, host=host, port=port, table=t.table, name=t.name, game=t.game,
                          open=t.open, players=t.players, started=t.started, over=t.over,
                          fingerprint=t.fingerprint, rules=t.rules, protocol=messages.PROTOCOL,
                          seen_at=time.monotonic() - self.started_at, tls=announced or "")

    async def _recheck_loop(self) -> None:
        while True:
            await asyncio.sleep(self.recheck)
            for name, found in list(self.tables.items()):
                fresh = await self._confirm(name, found.host, found.port,
                                            {"table": found.table, "server": "1" if found.server else "",
                                             "name": found.name, "tls": found.tls})
                if name not in self.tables:
                    continue
                if fresh is None:
                    self.tables.pop(name, None)
                    self._notify()
                elif (fresh.open, fresh.started, fresh.over) != (found.open, found.started, found.over):
                    fresh.seen_at = found.seen_at
                    self.tables[name] = fresh
                    self._notify()

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.browser is not None:
            await self.browser.async_cancel()
        if self.zc is not None:
            await self.zc.async_close()
        self.browser = self.zc = None


async def browse(timeout: float = 3.0, interfaces: list[str] | None = None,
                 until_found: bool = False) -> list[FoundTable]:
    """Tables found within ``timeout`` seconds (or as soon as one is, with ``until_found``)."""
    found = asyncio.Event()
    browser = Browser(on_change=found.set, interfaces=interfaces)
    await browser.start()
    try:
        if until_found:
            try:
                await asyncio.wait_for(found.wait(), timeout)
            except asyncio.TimeoutError:
                pass
        else:
            await asyncio.sleep(timeout)
    finally:
        tables = sorted(browser.tables.values(), key=lambda t: (t.name, t.address))
        await browser.stop()
    return tables
