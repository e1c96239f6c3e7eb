"""Shared helpers of the netplay tests: in-process hosts on 127.0.0.1, port 0."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
from pathlib import Path
from typing import Any, AsyncIterator

from engine.registry import GAMES
from netplay.client import Client, run_bot
from netplay.host import Host, HostTable, Limits
from netplay.tls import client_context
from netplay.wire import MAX_HOST_FRAME

from netplay_toygame import TOY

ALL_GAMES = {**GAMES, TOY.slug: TOY}
LOOPBACK = "127.0.0.1"


def client(host: Host, **kw: Any) -> Client:
    kw.setdefault("read_timeout", 10.0)
    kw.setdefault("backoff", (0.02, 0.2))
    kw.setdefault("games", ALL_GAMES)
    return Client(LOOPBACK, host.port, **kw)


@contextlib.asynccontextmanager
async def running_host(game: Any, kinds: list[str], seed: int = 1, log: Path | None = None,
                       options: dict | None = None, limits: Limits | None = None,
                       port: int = 0) -> AsyncIterator[Host]:
    table = HostTable.create(game, options or {}, kinds, seed, name="test table", log_path=log)
    host = Host([table], host=LOOPBACK, port=port, limits=limits)
    await host.start()
    try:
        yield host
    finally:
        await host.close()


async def play_with_bots(host: Host, n: int, timeout: float = 30.0) -> list[Client]:
    clients = [client(host, name=f"bot{i}") for i in range(n)]
    await asyncio.wait_for(asyncio.gather(*(run_bot(c) for c in clients)), timeout)
    return clients


async def until(pred: Any, timeout: float = 5.0, step: float = 0.01) -> None:
    """Wait for a condition (never asserts on time: a generous ceiling only)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not pred():
        if loop.time() > end:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(step)


async def wait(pilot: Any, pred: Any, tries: int = 300) -> None:
    """Let the app run (20 ms at a time) until ``pred()`` holds; fail after ``tries``."""
    for _ in range(tries):
        if pred():
            return
        await pilot.pause(0.02)
    raise AssertionError("condition not reached")


async def raw_connection(port: int, host: str = LOOPBACK, limit: int = MAX_HOST_FRAME + 64,
                         sock: Any = None) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection that speaks frames by hand, inside TLS as every connection to a host
    is (the certificate is not checked: these test the protocol behind it)."""
    if sock is not None:
        return await asyncio.open_connection(sock=sock, limit=limit, ssl=client_context(), server_hostname="")
    return await asyncio.open_connection(host, port, limit=limit, ssl=client_context(), server_hostname="")


def tls_socket(sock: socket.socket) -> ssl.SSLSocket:
    """A connected blocking socket, inside TLS (the handshake made now)."""
    return client_context().wrap_socket(sock)
