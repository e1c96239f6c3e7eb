"""Host limits (``netplay.host.Limits``): one test per limit, over loopback only, each
with small limits so it runs fast.  Every refusal or cut is an ``error`` (a code and a
sentence) and then the host closes the connection; the host keeps serving the rest."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl

import pytest

from netplay import messages
from netplay.host import Limits
from netplay.wire import MAX_HOST_FRAME, encode_frame, read_frame

from netplay_helpers import LOOPBACK, running_host, until, raw_connection, tls_socket
from netplay_toygame import TOY


class Peer:
    """A raw connection from a loopback address (``source`` picks 127.0.0.x)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, host, source: str = LOOPBACK, rcvbuf: int | None = None) -> "Peer":
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.bind((source, 0))
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (LOOPBACK, host.port))
        r, w = await raw_connection(host.port, sock=sock)
        return cls(r, w)

    def send(self, obj: dict) -> None:
        self.writer.write(encode_frame({"v": messages.PROTOCOL, **obj}))

    async def recv(self, timeout: float = 5.0) -> dict:
        return await read_frame(self.reader, MAX_HOST_FRAME, timeout)

    async def until(self, kind: str, timeout: float = 5.0) -> dict:
        while True:
            msg = await self.recv(timeout)
            if msg["t"] == kind:
                return msg

    async def refused(self, code: str, msg: dict | None = None) -> dict:
        """The next message is a fatal error with ``code`` and a sentence; then EOF."""
        msg = msg or await self.until("error")
        assert msg["code"] == code and msg["fatal"], msg
        assert len(msg["message"]) > 20 and msg["message"].endswith("."), msg
        try:
            assert await asyncio.wait_for(self.reader.read(), 5) == b""  # and the host hung up
        except ConnectionResetError:
            pass  # (hung up while a dripped byte was on its way: a reset)
        return msg

    async def drip(self, data: bytes, every: float) -> dict:
        """Send ``data`` a byte at a time until the host answers; return its answer."""
        answer = asyncio.ensure_future(self.until("error"))
        try:
            for i in range(len(data)):
                if answer.done():
                    break
                self.writer.write(data[i:i + 1])
                await asyncio.wait([answer], timeout=every)
            return await asyncio.wait_for(answer, 5)
        finally:
            answer.cancel()

    async def probe(self) -> dict:
        self.send({"t": "hello", "probe": True})
        return await self.until("info")

    def close(self) -> None:
        self.writer.close()


async def sink(host, hello: dict) -> socket.socket:
    """A connection that says ``hello`` and then never reads a byte (a small receive
    window, and no asyncio reader draining the socket behind its back)."""
    def made() -> socket.socket:  # (blocking, in a thread: the host answers the handshake meanwhile)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.settimeout(5)
        sock.connect((LOOPBACK, host.port))
        sock = tls_socket(sock)
        sock.sendall(encode_frame({"v": messages.PROTOCOL, **hello}))
        return sock

    return await asyncio.to_thread(made)


def _send_until_stopped(sock: socket.socket, data: bytes) -> None:
    with contextlib.suppress(OSError):  # (cut off, or the peer stopped taking it: the test closes it)
        sock.sendall(data)


async def turned_away(host, source: str = LOOPBACK) -> None:
    """A connection over a limit is closed at its accept, before its TLS handshake."""
    with pytest.raises((ConnectionError, ssl.SSLError, asyncio.IncompleteReadError, OSError)):
        peer = await Peer.open(host, source)
        await peer.recv(2.0)


async def test_connections_in_their_tls_handshake_count_against_the_limits():
    """Silent TCP connections that never start TLS hold a place each until the hello
    deadline: past the per-address cap the next one is closed at once."""
    limits = Limits(max_per_address=3, hello_timeout=5.0)
    async with running_host(TOY, ["open", "open"], limits=limits) as host:
        silent = []
        for _ in range(3):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            await asyncio.get_running_loop().sock_connect(sock, (LOOPBACK, host.port))
            silent.append(sock)
        await until(lambda: host.admission.handshakes.get(LOOPBACK) == 3)
        await turned_away(host)
        assert host.refused == 1
        for sock in silent:
            sock.close()
        await until(lambda: not host.admission.handshakes)
        again = await Peer.open(host)
        assert (await again.probe())["tables"][0]["game"] == TOY.slug
        again.close()


async def test_total_connections_are_capped():
    limits = Limits(max_connections=3, max_per_address=100)
    async with running_host(TOY, ["open", "open"], limits=limits) as host:
        held = [await Peer.open(host) for _ in range(3)]
        await until(lambda: len(host.conns) == 3)
        await turned_away(host)  # (before TLS: nothing can be said, the connection is closed)
        assert host.refused == 1
        held.pop().close()
        await until(lambda: len(host.conns) == 2)
        again = await Peer.open(host)
        assert (await again.probe())["tables"][0]["game"] == TOY.slug  # room again
        for p in held + [again]:
            p.close()


async def test_connections_per_address_are_capped():
    limits = Limits(max_per_address=2)
    async with running_host(TOY, ["open", "open"], limits=limits) as host:
        held = [await Peer.open(host) for _ in range(2)]
        await until(lambda: host.per_address.get(LOOPBACK) == 2)
        await turned_away(host)
        assert host.refused == 1
        other = await Peer.open(host, source="127.0.0.2")  # another address still gets in
        assert (await other.probe())["tables"]
        for p in held:
            p.close()
        await until(lambda: LOOPBACK not in host.per_address)
        back = await Peer.open(host)
        assert (await back.probe())["tables"]
        back.close(), other.close()


async def test_spectators_per_table_are_capped():
    limits = Limits(max_spectators=2)
    async with running_host(TOY, ["open", "open"], limits=limits) as host:
        watchers = []
        for _ in range(2):
            w = await Peer.open(host)
            w.send({"t": "hello", "spectate": True})
            await w.until("update")
            watchers.append(w)
        third = await Peer.open(host)
        third.send({"t": "hello", "spectate": True})
        await third.refused("spectators-full")
        assert len(host.table.spectators) == 2
        player = await Peer.open(host)  # seats are not spectators: a player still joins
        player.send({"t": "hello", "name": "P"})
        assert (await player.until("welcome"))["seat"] == 0
        watchers.pop().close()
        await until(lambda: len(host.table.spectators) == 1)
        late = await Peer.open(host)
        late.send({"t": "hello", "spectate": True})
        assert (await late.until("welcome"))["seat"] is None
        for p in watchers + [player, late]:
            p.close()


async def test_the_hello_must_arrive_whole_in_time():
    limits = Limits(hello_timeout=0.3)
    async with running_host(TOY, ["open", "open"], limits=limits) as host:
        drip = await Peer.open(host)
        frame = encode_frame({"v": messages.PROTOCOL, "t": "hello", "name": "slow"})
        assert len(frame) * 0.05 > 1  # a byte every 50 ms: the hello would take over a second
        msg = await drip.refused("timeout", await drip.drip(frame, 0.05))
        assert "hello" in msg["message"]
        assert host.table.open_seats() == 2


async def test_a_frame_after_the_hello_must_arrive_whole_in_time():
    limits = Limits(idle_timeout=5.0, frame_timeout=0.3)
    async with running_host(TOY, ["open", "open"], limits=limits) as host:
        peer = await Peer.open(host)
        peer.send({"t": "hello", "spectate": True})
        await peer.until("update")
        # Silence longer than the frame deadline is fine (only idle_timeout bounds it) ...
        await asyncio.sleep(0.45)
        peer.send({"t": "ping", "n": 7})
        assert (await peer.until("pong"))["n"] == 7
        # ... but a frame that has begun must be whole within frame_timeout.
        frame = encode_frame({"v": messages.PROTOCOL, "t": "ping", "n": 8})
        assert len(frame) * 0.1 > 1  # one byte per 0.1 s: the ping would take over a second
        msg = await peer.refused("slow-frame", await peer.drip(frame, 0.1))
        assert "0.3 s" in msg["message"]
        await until(lambda: not host.table.spectators)


async def test_a_peer_that_never_reads_is_cut_off_at_the_unsent_bytes_cap():
    cap = 32 * 1024
    limits = Limits(write_buffer=cap)
    async with running_host(TOY, ["open", "open"], limits=limits) as host:
        peer = await sink(host, {"t": "hello", "spectate": True})  # a spectator that never reads
        await until(lambda: host.table.spectators)
        conn = host.table.spectators[0]
        conn.writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        transport = conn.writer.transport
        biggest = frame = 0
        for _ in range(20_000):  # the table keeps sending it views, as a game in play would
            if conn.closed:
                break
            before = transport.get_write_buffer_size()
            host.table.resync(conn)
            after = transport.get_write_buffer_size()
            if before:
                frame = max(frame, after - before)
            biggest = max(biggest, after)
            await asyncio.sleep(0)
        assert conn.closed, "a peer that does not read must be cut off"
        assert 0 < frame and biggest <= cap  # (it never held more than the cap)
        await until(lambda: not host.table.spectators and conn not in host.conns)
        # everyone else is served as before
        other = await Peer.open(host)
        other.send({"t": "hello", "name": "A"})
        assert (await other.until("welcome"))["seat"] == 0
        other.close(), peer.close()


async def test_a_peer_that_does_not_take_its_replies_is_cut_off_after_the_drain_deadline():
    limits = Limits(drain_timeout=0.3, rate=1e9, burst=1e9)
    async with running_host(TOY, ["open", "open"], limits=limits) as host:
        peer = await sink(host, {"t": "hello", "spectate": True})
        await until(lambda: host.table.spectators)
        conn = host.table.spectators[0]
        conn.writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        # many pings, never reading a pong: the host waits (bounded) for it to read, then cuts it
        pings = encode_frame({"v": messages.PROTOCOL, "t": "ping", "n": 1}) * 20_000
        sender = asyncio.ensure_future(asyncio.to_thread(_send_until_stopped, peer, pings))
        await until(lambda: conn.closed and conn not in host.conns, timeout=10)
        assert conn.writer.transport.get_write_buffer_size() <= limits.write_buffer
        sender.cancel()
        peer.close()


async def _seated(host) -> Peer:
    a = await Peer.open(host)
    a.send({"t": "hello", "name": "A"})
    assert (await a.recv())["t"] == "welcome"
    first = await a.recv()  # the joiner has the seat list before its first view
    assert first["t"] == "seats" and first["seats"][0]["name"] == "A"
    assert (await a.recv())["t"] == "update"
    return a


async def _seats_before_pong(a: Peer, n: int) -> list[dict]:
    a.send({"t": "ping", "n": n})
    got = []
    while True:
        msg = await a.recv()
        if msg["t"] == "pong" and msg["n"] == n:
            return got
        if msg["t"] == "seats":
            got.append(msg)


async def test_seat_list_broadcasts_are_coalesced():
    limits = Limits(max_per_address=64, max_spectators=64, seats_interval=0.0)
    async with running_host(TOY, ["open", "open"], limits=limits) as host:
        a = await _seated(host)
        await _seats_before_pong(a, 1)
        for _ in range(500):  # many changes in one turn of the loop: one message
            host.table.seats_changed()
        assert len(await _seats_before_pong(a, 2)) == 1
        # a crowd of spectators joining at once: the last seat list A sees is the current one
        crowd = [await Peer.open(host) for _ in range(40)]
        for w in crowd:
            w.send({"t": "hello", "spectate": True})
        await until(lambda: len(host.table.spectators) == 40)
        lists = await _seats_before_pong(a, 3)
        assert 1 <= len(lists) <= 40 and lists[-1]["spectators"] == 40
        for w in crowd:  # each of them got the current seat list before its view
            assert (await w.recv())["t"] == "welcome"
            assert (await w.recv())["t"] == "seats"
            assert (await w.recv())["t"] == "update"
            w.close()
        a.close()


async def test_seat_lists_go_out_at_most_once_per_interval():
    limits = Limits(max_per_address=64, max_spectators=64, seats_interval=1.0)
    async with running_host(TOY, ["open", "open"], limits=limits) as host:
        a = await _seated(host)
        await asyncio.sleep(1.0)  # (A's own join was the last broadcast)
        host.table.seats_changed()
        assert len(await _seats_before_pong(a, 1)) == 1  # the first change goes out at once
        for _ in range(3):  # more changes inside the interval wait for its end: one message
            host.table.seats_changed()
            assert await _seats_before_pong(a, 2) == []
        late = await a.until("seats", timeout=5)  # the rest, together, at the interval's end
        assert late["seats"][0]["name"] == "A"
        assert await _seats_before_pong(a, 3) == []
        # a joiner never waits for the interval: its own seat list comes with its welcome
        b = await Peer.open(host)
        b.send({"t": "hello", "name": "B"})
        assert [(await b.recv())["t"] for _ in range(3)] == ["welcome", "seats", "update"]
        a.close(), b.close()


async def test_the_default_limits_are_documented():
    lim = Limits()
    assert (lim.max_connections, lim.max_spectators, lim.max_per_address) == (256, 32, 16)
    assert (lim.hello_timeout, lim.frame_timeout, lim.write_buffer) == (5.0, 10.0, 512 * 1024)
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = readme[readme.index("### Host limits"):]
    for field in ("max_connections", "max_spectators", "max_per_address", "hello_timeout",
                  "idle_timeout", "frame_timeout", "write_buffer", "send_buffer", "drain_timeout",
                  "seats_interval", "rate", "burst", "max_errors"):
        assert f"`{field}`" in section, field


async def test_spectators_share_one_encoded_view_and_still_verify():
    """(Coalesced fan-out) every spectator gets the same update frame, encoded once; one
    who joins mid-game gets the cached resync, and both check the game at the end."""
    from engine.registry import GAMES

    from netplay.client import run_bot
    from netplay_helpers import client

    game = GAMES["pathways"]
    async with running_host(game, ["open", "open"], seed=4) as host:
        early = client(host, spectate=True)
        early.start()
        players = [client(host, name=f"p{i}") for i in range(2)]
        tasks = [asyncio.ensure_future(run_bot(c, seed=i, delay=0.001)) for i, c in enumerate(players)]
        await until(lambda: len(host.table.match.record.moves) >= 10, timeout=20)
        late = [client(host, spectate=True) for _ in range(2)]
        for c in late:
            c.start()
        await asyncio.wait_for(asyncio.gather(*tasks), 40)
        for c in [early] + late:
            await asyncio.wait_for(c.finished.wait(), 10)
            assert c.verification.ok, c.verification.text
            assert c.view == game.view(host.table.match.state, None)
        assert late[0].version == late[1].version == early.version  # one public version for all
