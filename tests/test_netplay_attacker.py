"""Play the attacker: what a seat or a spectator receives over the wire, byte for byte.

A recording proxy on 127.0.0.1 sits between each client and the host and keeps every
byte the host sends down.  The host here is plain (no TLS): this is what a seat itself
reads once TLS is taken off (tests/test_netplay_tls.py records the encrypted wire).  Before the ``over`` frame (which opens the seed commitment
on purpose) no seat and no spectator may receive the seed, the salt, the game's RNG
key, or another seat's token or token hash; after it, still no other seat's token.
And the seed itself must not be guessable: 128 bits from ``secrets``, a new one for
every table.
"""

from __future__ import annotations

import asyncio
import secrets
import struct
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest

from engine.registry import GAMES
from engine.storage import load_record
from netplay.client import Client, run_bot
from netplay.host import Host, HostTable, token_hash
from netplay.tls import PLAIN

from netplay_helpers import LOOPBACK

GAME_SLUGS = sorted(GAMES)


class RecordingProxy:
    """Forwards loopback connections to the host and records what the host sends."""

    def __init__(self, target_port: int):
        self.target_port = target_port
        self.downstream: list[bytearray] = []  # one per connection, in connection order
        self.upstream: list[bytearray] = []    # what the clients sent, likewise
        self.server: asyncio.base_events.Server | None = None
        self.port = 0
        self._tasks: set[asyncio.Task] = set()

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, LOOPBACK, 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self.port

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(LOOPBACK, self.target_port)
        seen, sent = bytearray(), bytearray()
        self.downstream.append(seen)
        self.upstream.append(sent)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter, keep: bytearray | None) -> None:
            try:
                while data := await src.read(65536):
                    if keep is not None:
                        keep += data
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                dst.close()

        tasks = [asyncio.create_task(pipe(reader, up_writer, sent)),
                 asyncio.create_task(pipe(up_reader, writer, seen))]
        self._tasks.update(tasks)
        await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        assert self.server is not None
        self.server.close()
        for t in list(self._tasks):
            t.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


def split_frames(stream: bytes) -> list[tuple[str, bytes]]:
    """(kind, raw frame bytes) of every whole frame in a downstream recording."""
    out, pos = [], 0
    while pos + 4 <= len(stream):
        (size,) = struct.unpack(">I", stream[pos:pos + 4])
        body = stream[pos + 4:pos + 4 + size]
        if len(body) < size:
            break
        out.append((msgpack.unpackb(body, raw=False).get("t", "?"), stream[pos:pos + 4 + size]))
        pos += 4 + size
    return out


def forms_of_seed(seed: int) -> list[bytes]:
    """Every way the seed could travel: text, msgpack, raw big and little endian."""
    forms = [str(seed).encode(), msgpack.packb(str(seed)), seed.to_bytes(16, "big"),
             seed.to_bytes(16, "little"), f"{seed:x}".encode()]
    if seed < 2**64:
        forms.append(msgpack.packb(seed))
    return forms


async def _attacked_game(slug: str, tmp_path: Path) -> dict:
    game = GAMES[slug]
    n = game.min_players
    table = HostTable.create(game, {}, ["open"] * n, None, name="attacked", log_path=tmp_path / "t.atlrec")
    host = Host([table], host=LOOPBACK, port=0, plain=True)
    await host.start()
    proxy = RecordingProxy(host.port)
    await proxy.start()
    try:
        spectator = Client(LOOPBACK, proxy.port, spectate=True, read_timeout=10.0, backoff=(0.02, 0.2),
                           games=GAMES, trust=PLAIN)
        spectator.start()
        await asyncio.wait_for(spectator.ready.wait(), 10)
        clients = [Client(LOOPBACK, proxy.port, name=f"seat{i}", read_timeout=10.0, backoff=(0.02, 0.2),
                          games=GAMES, trust=PLAIN) for i in range(n)]
        await asyncio.wait_for(asyncio.gather(*(run_bot(c) for c in clients)), 60)
        await asyncio.wait_for(spectator.finished.wait(), 10)
        key = table.match.game.setup(table.match.options, n, table.match.seed).rng.key
        return {"seed": table.match.seed, "salt": table.salt, "key": key, "practice": table.match.practice,
                "tokens": [c.token for c in clients], "seats": [c.seat for c in clients],
                "streams": [bytes(s) for s in proxy.downstream], "over": table.over}
    finally:
        await proxy.close()
        await host.close()


@pytest.mark.timeout(120)
@pytest.mark.parametrize("slug", GAME_SLUGS)
async def test_no_frame_to_a_seat_or_spectator_carries_the_seed_salt_key_or_other_tokens(slug, tmp_path):
    got = await _attacked_game(slug, tmp_path)
    assert got["over"] and not got["practice"]
    assert got["seed"].bit_length() > 64  # a secret 128-bit seed, not a typed one
    tokens = got["tokens"]
    assert all(tokens) and len(set(tokens)) == len(tokens)
    secret_before_over = forms_of_seed(got["seed"]) + [
        got["salt"].encode(), got["key"], got["key"].hex().encode()]
    streams = got["streams"]  # every connection, reconnections included
    seen_views = over_seen = 0
    for i, stream in enumerate(streams):
        frames = split_frames(stream)
        kinds = [k for k, _ in frames]
        end = kinds.index("over") if "over" in kinds else len(frames)
        before = b"".join(raw for _, raw in frames[:end])
        seen_views += "update" in kinds
        over_seen += "over" in kinds
        for canary in secret_before_over:
            assert canary not in before, f"connection {i} received a secret before the game ended"
        welcome = b"".join(raw for k, raw in frames if k == "welcome")
        mine = [t for t in tokens if t.encode() in welcome]  # a seat's own token: its welcome
        assert len(mine) <= 1
        for t in tokens:
            if t not in mine:
                assert t.encode() not in stream, f"connection {i} received another seat's token"
            assert token_hash(t).encode() not in stream, f"connection {i} received a token hash"
    assert seen_views >= len(tokens) + 1 and over_seen >= len(tokens) + 1
    # The scan can fail: the over frame opens the commitment, so the same canaries are
    # found there, and each seat's own token is found in its own welcome.
    ended = [s for s in streams if "over" in [k for k, _ in split_frames(s)]]
    assert len(ended) >= len(tokens) + 1
    assert all(str(got["seed"]).encode() in s and got["salt"].encode() in s for s in ended)
    assert all(any(t.encode() in s for s in streams) for t in tokens)


async def test_two_freshly_hosted_tables_never_share_a_seed_and_draw_128_bits(monkeypatch, tmp_path):
    """Through the command's own path (``atlantis host`` builds its table with make_table)."""
    import argparse

    from tui.lan import commands

    asked: list[int] = []
    real = secrets.randbits

    def spy(k: int) -> int:
        asked.append(k)
        return real(k)

    monkeypatch.setattr(secrets, "randbits", spy)
    seeds = []
    for i in range(2):
        args = argparse.Namespace(resume=None, game="pathways", players=2, bots=0, level=None, seats=None, local=0, headless=True,
                                  option=[], seed=None, log=tmp_path / f"{i}.atlrec", name="t", force=False)
        table = commands.make_table(args)
        seeds.append(table.match.seed)
        assert not table.match.practice
    assert asked and min(asked) >= 128
    assert seeds[0] != seeds[1]
    assert all(0 <= s < 2**128 for s in seeds)


@pytest.mark.timeout(90)
def test_atlantis_host_prints_no_seed_salt_or_token_hash(tmp_path):
    log = tmp_path / "host.atlrec"
    cmd = [sys.executable, "-m", "tui.cli"]
    host = subprocess.Popen([*cmd, "host", "pathways", "--players", "2", "--port", "0", "--bind", LOOPBACK,
                             "--headless", "--no-advertise", "--exit-when-done", "--log", str(log)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = host.stdout.readline()
        address = first.split()[2]
        joins = [subprocess.Popen([*cmd, "join", address, "--bot", "--headless", "--name", f"B{i}"],
                                  stdout=subprocess.PIPE, text=True) for i in range(2)]
        for j in joins:
            j.communicate(timeout=60)
        printed = first + host.communicate(timeout=30)[0]
    finally:
        host.kill()
    record = load_record(log)
    meta = next(iter(msgpack.Unpacker(open(log, "rb"), raw=False)))["netplay"]
    assert not record.practice and "Game over" in printed
    for secret in [str(record.seed), f"{record.seed:x}", str(meta["salt"]),
                   *(h for h in meta["tokens"] if h)]:
        assert secret not in printed
    assert str(record.seed) not in log.name
