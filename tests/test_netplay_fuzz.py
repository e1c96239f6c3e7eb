"""Bad input: fuzzed frames (hypothesis and a seeded generator), floods, silent clients.

Every bad frame gets an error reply or a disconnect; the host keeps serving the other
seats; the state digest does not change.  The host runs in a thread with its own
event loop on 127.0.0.1; the fuzzer talks to it through blocking sockets, every read
with a timeout.
"""

from __future__ import annotations

import asyncio
import random
import socket
import struct
import threading
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.registry import GAMES
from netplay import messages
from netplay.host import Host, HostTable, Limits
from netplay.wire import HEADER, MAX_CLIENT_FRAME, MAX_HOST_FRAME, encode_frame

from netplay_helpers import LOOPBACK, client, play_with_bots, running_host, until, raw_connection, tls_socket

GAME = GAMES["pathways"]
FRAMES = {"count": 0}
TARGET = 10_000


class SyncConn:
    """A blocking client socket; every read has a timeout."""

    def __init__(self, port: int):
        self.sock = tls_socket(socket.create_connection((LOOPBACK, port), timeout=5))
        self.sock.settimeout(5)
        self.buf = b""

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def send(self, obj: dict) -> None:
        self.send_raw(encode_frame(obj))

    def _exact(self, n: int) -> bytes:
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self) -> dict:
        (size,) = HEADER.unpack(self._exact(4))
        assert size <= MAX_HOST_FRAME
        return msgpack.unpackb(self._exact(size), raw=False)

    def close(self) -> None:
        self.sock.close()


class ThreadHost:
    """A Host on its own event loop in a thread (so sync hypothesis tests can hit it)."""

    def __init__(self, kinds: list[str], limits: Limits):
        self.loop = asyncio.new_event_loop()
        self.table = HostTable.create(GAME, {}, kinds, 77, name="fuzz")
        self.host = Host([self.table], host=LOOPBACK, port=0, limits=limits)
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.port = self.call(self.host.start())

    def call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    def stop(self) -> None:
        self.call(self.host.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


class Seat:
    """A seat held through a SyncConn; reconnects with its token when cut off."""

    def __init__(self, th: ThreadHost, name: str):
        self.th = th
        self.conn = SyncConn(th.port)
        self.conn.send({"t": "hello", "v": messages.PROTOCOL, "name": name})
        self.token = self._until("welcome")["token"]
        self.seq = self._until("update")["seq"]
        self.pings = 0

    def _until(self, kind: str) -> dict:
        while True:
            msg = self.conn.recv()
            if msg["t"] == "update":
                self.seq = msg["seq"]
            if msg["t"] == kind:
                return msg

    def reconnect(self) -> None:
        self.conn.close()
        self.conn = SyncConn(self.th.port)
        self.conn.send({"t": "hello", "v": messages.PROTOCOL, "token": self.token})
        self._until("welcome")
        self._until("update")

    def exchange(self, raw: bytes) -> list[dict]:
        """Send one frame then a ping; return the replies before the pong (reconnecting
        if the frame got us disconnected)."""
        FRAMES["count"] += 1
        self.pings += 1
        n = self.pings
        replies: list[dict] = []
        try:
            self.conn.send_raw(raw + encode_frame({"t": "ping", "v": messages.PROTOCOL, "n": n}))
            while True:
                msg = self.conn.recv()
                if msg["t"] == "update":
                    self.seq = msg["seq"]
                if msg["t"] == "pong" and msg["n"] == n:
                    return replies
                replies.append(msg)
                if msg["t"] == "error" and msg["fatal"]:
                    raise ConnectionError("cut off")
        except (ConnectionError, OSError):
            self.reconnect()
            replies.append({"t": "disconnected"})
            return replies


@pytest.fixture(scope="module")
def fuzz_table():
    th = ThreadHost(["open", "open"], Limits(hello_timeout=1.0, idle_timeout=60.0, rate=1e9, burst=1e9,
                                             max_errors=10**9))
    good = Seat(th, "Good")      # seat 0: to act first
    fuzzer = Seat(th, "Fuzzer")  # seat 1: everything it sends is out of turn
    yield th, good, fuzzer
    th.stop()


def body(obj: Any) -> bytes:
    data = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(data)) + data


# --- hypothesis: any frame from the seat that is not to act --------------------------------
leaf = st.one_of(st.none(), st.booleans(), st.integers(-2**40, 2**40), st.floats(allow_nan=False),
                 st.text(max_size=20), st.binary(max_size=20))
values = st.recursive(leaf, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                                   st.dictionaries(st.text(max_size=8), kids, max_size=4)),
                      max_leaves=12)
kinds = st.sampled_from(["hello", "act", "undo", "ping", "zzz", "welcome", "update", "", "over"])
action = st.one_of(
    st.dictionaries(st.sampled_from(["k", "tile", "rot", "cell", "pod", "side", "x"]),
                    st.one_of(st.integers(-5, 500), st.sampled_from(list(GAME.codec.kinds)), leaf), max_size=5),
    values)
message = st.fixed_dictionaries(
    {"t": kinds, "v": st.sampled_from([messages.PROTOCOL] * 3 + [0, messages.PROTOCOL + 1, str(messages.PROTOCOL), None])},
    optional={"seq": st.one_of(st.integers(-3, 50), leaf), "action": action, "seat": st.integers(-2, 5),
              "n": st.integers(-2, 2**33), "token": st.text(max_size=70), "name": st.text(max_size=30),
              "spectate": leaf, "probe": leaf, "extra": values})
frames = st.one_of(
    message.map(body),
    values.map(body),
    st.binary(min_size=1, max_size=200).map(lambda b: struct.pack(">I", len(b)) + b),
)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(batch=st.lists(frames, min_size=1, max_size=8))
def test_hypothesis_frames_get_an_answer_and_change_nothing(fuzz_table, batch):
    th, good, fuzzer = fuzz_table
    before = th.table.match.digest()
    for raw in batch:
        replies = fuzzer.exchange(raw)
        ping = raw[4:] == msgpack.packb({"t": "ping", "v": messages.PROTOCOL}) or b"ping" in raw
        assert replies or ping or raw.endswith(msgpack.packb("bye")) or b"bye" in raw or _harmless(raw), raw
    assert th.table.match.digest() == before
    assert th.table.match.record.moves == []
    FRAMES["hypothesis"] = True


def _harmless(raw: bytes) -> bool:
    """Frames that need no answer: a valid ping (answered by a pong) or a bye."""
    try:
        obj = msgpack.unpackb(raw[4:], raw=False)
        msg = messages.parse_client(obj)
    except Exception:
        return False
    return isinstance(msg, (messages.Ping, messages.Bye))


# --- a seeded generator: many more frames, including from the seat to act -------------------
def generated(rng: random.Random, seq: int, legal: list[Any]) -> tuple[bytes, str]:
    r = rng.random()
    kinds = list(GAME.codec.kinds)
    if r < 0.12:
        return struct.pack(">I", n := rng.randint(1, 300)) + rng.randbytes(n), "garbage"
    if r < 0.2:
        return body(rng.choice([[1, 2], 7, "x", None, 1.5, b"\x00"])), "not a map"
    if r < 0.3:
        return body({"t": rng.choice(["zzz", "update", "over", ""]), "v": messages.PROTOCOL}), "unknown kind"
    if r < 0.38:
        return body({"t": "act", "v": rng.choice([0, messages.PROTOCOL + 1, 99]), "seq": seq, "action": {}}), "version"
    if r < 0.48:
        return body({"t": "act", "v": messages.PROTOCOL, "seq": rng.choice(["1", None, 1.5, [1]]),
                     "action": rng.choice([{}, [], "place"])}), "wrong types"
    if r < 0.58:
        return body({"t": "act", "v": messages.PROTOCOL, "seq": seq, "seat": 1, "action": {"k": "end_plays"}}), "another seat"
    if r < 0.68:
        return body({"t": "act", "v": messages.PROTOCOL, "seq": seq + rng.randint(1, 9), "action": {"k": "end_plays"}}), "stale"
    if r < 0.74:
        return body({"t": "hello", "v": messages.PROTOCOL, "name": "again"}), "hello again"
    if r < 0.78:
        return body({"t": "undo", "v": messages.PROTOCOL, "seq": seq}), "undo"
    # an action of the seat to act, on its current view, that the engine must refuse
    while True:
        kind = rng.choice(kinds)
        fields = GAME.codec.kinds[kind]._fields
        act = {"k": kind, **{f: rng.choice([rng.randint(-3, 130), 10**12, -1]) for f in fields}}
        if rng.random() < 0.2:
            act[rng.choice(["zz", "tile", "k"])] = rng.choice(["x", None, [1]])
        try:
            decoded = GAME.codec.decode(act)
        except Exception:
            break
        if decoded not in legal:
            break
    return body({"t": "act", "v": messages.PROTOCOL, "seq": seq, "action": act}), "illegal"


def test_seeded_frames_from_the_seat_to_act(fuzz_table):
    th, good, fuzzer = fuzz_table
    rng = random.Random(5)
    before = th.table.match.digest()
    legal = GAME.legal(th.table.match.view(0))
    seen: dict[str, int] = {}
    for _ in range(TARGET - 800):
        raw, what = generated(rng, good.seq, legal)
        replies = good.exchange(raw)
        assert replies, what  # every bad frame gets an answer (or a disconnect)
        seen[what] = seen.get(what, 0) + 1
        replies = [r for r in replies if r["t"] != "seats"]  # (the fuzzer's reconnects)
        if what == "stale":
            assert [r["t"] for r in replies] == ["error", "update"], replies
            assert replies[0]["code"] == "stale"
    assert th.table.match.digest() == before
    assert len(seen) == 10
    FRAMES["seeded"] = True


def test_fatal_frames_on_fresh_connections(fuzz_table):
    th, good, fuzzer = fuzz_table
    before = th.table.match.digest()
    rng = random.Random(9)
    for i in range(150):
        c = SyncConn(th.port)
        FRAMES["count"] += 1
        kind = i % 5
        if kind == 0:    # oversized: the header alone is refused
            c.send_raw(struct.pack(">I", MAX_CLIENT_FRAME + 1 + rng.randint(0, 1 << 30)))
        elif kind == 1:  # a hello with a wrong token
            c.send({"t": "hello", "v": messages.PROTOCOL, "token": "A" * rng.randint(8, 64)})
        elif kind == 2:  # anything but hello first
            c.send({"t": "ping", "v": messages.PROTOCOL})
        elif kind == 3:  # a join when every seat is taken
            c.send({"t": "hello", "v": messages.PROTOCOL, "name": "late"})
        else:            # an empty frame
            c.send_raw(struct.pack(">I", 0))
        msg = c.recv()
        assert msg["t"] == "error" and msg["fatal"]
        with pytest.raises((ConnectionError, OSError)):
            c.recv()  # and then the host hangs up
        c.close()
    for i in range(20):  # truncated frames: the client leaves mid-frame
        c = SyncConn(th.port)
        FRAMES["count"] += 1
        c.send_raw(struct.pack(">I", 50) + b"\x81\xa1t")
        c.close()
    assert th.table.match.digest() == before
    FRAMES["fatal"] = True


def test_the_host_still_serves_everyone_after_the_fuzzing(fuzz_table):
    th, good, fuzzer = fuzz_table
    if FRAMES.get("seeded") and FRAMES.get("hypothesis") and FRAMES.get("fatal"):  # (the whole file ran)
        assert FRAMES["count"] >= TARGET, FRAMES["count"]
    assert th.table.match.record.moves == []
    legal = GAME.legal(th.table.match.view(0))
    replies = good.exchange(body({"t": "act", "v": messages.PROTOCOL, "seq": good.seq, "action": GAME.codec.encode(legal[0])}))
    assert replies and replies[0]["t"] == "update"
    assert len(th.table.match.record.moves) == 1
    seen = fuzzer.exchange(body({"t": "ping", "v": messages.PROTOCOL, "n": 0}))
    assert any(r["t"] == "update" for r in seen) or fuzzer.seq > 1  # the other seat saw the move


# --- floods and silence (in-process host with the normal limits) --------------------------
async def test_a_flooding_client_is_cut_off_and_the_game_goes_on():
    limits = Limits(rate=200, burst=400)
    async with running_host(GAME, ["open", "open"], seed=3, limits=limits) as host:
        players = asyncio.ensure_future(play_with_bots(host, 2))
        await until(lambda: host.table.started)
        r, w = await raw_connection(host.port)
        w.write(encode_frame({"t": "hello", "v": messages.PROTOCOL, "spectate": True}))
        w.write(encode_frame({"t": "ping", "v": messages.PROTOCOL}) * 5000)
        codes = []
        while True:
            try:
                header = await asyncio.wait_for(r.readexactly(4), 10)
            except asyncio.IncompleteReadError:
                break
            msg = msgpack.unpackb(await asyncio.wait_for(r.readexactly(HEADER.unpack(header)[0]), 10))
            if msg["t"] == "error":
                codes.append(msg["code"])
        assert codes == ["flood"]
        w.close()
        clients = await players
        assert all(c.verification.ok for c in clients)


async def test_a_client_that_says_nothing_is_dropped():
    limits = Limits(hello_timeout=0.2, idle_timeout=0.4)
    async with running_host(GAME, ["open", "open"], seed=3, limits=limits) as host:
        silent = await raw_connection(host.port)
        header_only = await raw_connection(host.port)
        header_only[1].write(struct.pack(">I", 100))
        quiet = client(host, ping_interval=100)  # says hello, then nothing
        quiet.start()
        for r, _ in (silent, header_only):
            msg = msgpack.unpackb((await asyncio.wait_for(r.read(1000), 5))[4:])
            assert msg["code"] == "timeout"
            assert await asyncio.wait_for(r.read(), 5) == b""
        await until(lambda: quiet.status == "reconnecting" or quiet.attempt > 0, timeout=5)
        assert "timeout" in quiet.last_error.lower() or quiet.attempt > 0
        await quiet.close()
        for _, w in (silent, header_only):
            w.close()
