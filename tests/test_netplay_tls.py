"""TLS on the LAN: a whole game recorded on the wire reads as nothing but TLS records,
and a client refuses a host whose certificate is not the one it pinned (or was told)."""

from __future__ import annotations

import asyncio
import os
import stat
import struct

import msgpack
import pytest

from engine.registry import GAMES
from netplay.client import Client, probe, run_bot
from netplay.host import Host, HostTable
from netplay.tls import (
    FingerprintError, Trust, load_certificate, read_known_hosts, sni_name, table_of_sni,
)

from netplay_helpers import ALL_GAMES, LOOPBACK
from test_netplay_attacker import RecordingProxy

GAME = GAMES["pathways"]


def tls_records(stream: bytes) -> int:
    """How many TLS records ``stream`` is, asserting it is nothing else, to its last byte."""
    pos = count = 0
    while pos < len(stream):
        assert pos + 5 <= len(stream), f"{len(stream) - pos} bytes after the last record"
        kind, major, minor, size = struct.unpack(">BBBH", stream[pos:pos + 5])
        assert kind in (20, 21, 22, 23) and (major, minor) in ((3, 1), (3, 3)), f"no TLS record at {pos}"
        pos += 5 + size
        count += 1
    assert pos == len(stream)
    return count


def readable_frames(stream: bytes) -> int:
    """Frames that decode at any offset: a length, then a msgpack map saying its type."""
    found = 0
    for i in range(len(stream) - 4):
        (size,) = struct.unpack(">I", stream[i:i + 4])
        if 0 < size <= len(stream) - i - 4:
            try:
                obj = msgpack.unpackb(stream[i + 4:i + 4 + size], raw=False)
            except Exception:
                continue
            if isinstance(obj, dict) and "t" in obj:
                found += 1
    return found


async def test_a_whole_game_on_the_wire_is_tls_and_nothing_readable(tmp_path):
    n = GAME.min_players
    table = HostTable.create(GAME, {}, ["open"] * n, None, name="secret table name", log_path=tmp_path / "t.atlrec")
    cert, _ = load_certificate(tmp_path / "cert.pem")
    host = Host([table], host=LOOPBACK, port=0, certificate=cert)
    await host.start()
    proxy = RecordingProxy(host.port)
    await proxy.start()
    trust = Trust(known_hosts=tmp_path / "known_hosts")
    try:
        spectator = Client(LOOPBACK, proxy.port, spectate=True, read_timeout=10.0, games=GAMES, trust=trust)
        spectator.start()
        await asyncio.wait_for(spectator.ready.wait(), 10)
        clients = [Client(LOOPBACK, proxy.port, name=f"Seatname{i}", read_timeout=10.0, games=GAMES, trust=trust)
                   for i in range(n)]
        await asyncio.wait_for(asyncio.gather(*(run_bot(c) for c in clients)), 60)
        await asyncio.wait_for(spectator.finished.wait(), 10)
    finally:
        await proxy.close()
        await host.close()
    assert all(c.verification.ok for c in clients) and table.over
    streams = proxy.downstream + proxy.upstream
    assert len(proxy.downstream) >= n + 1 and sum(len(s) for s in proxy.downstream) > 10_000
    secrets = [c.token.encode() for c in clients] + [f"Seatname{i}".encode() for i in range(n)] + [
        b"secret table name", table.salt.encode(), b"welcome", b"update", GAME.slug.encode()]
    for stream in streams:
        assert tls_records(stream) > 0
        assert readable_frames(stream) == 0
        for secret in secrets:
            assert secret not in stream
    wire = b"".join(streams)
    assert cert.fingerprint.encode() not in wire  # (the certificate goes encrypted too: TLS 1.3)


async def _serve(tmp_path, name: str, port: int = 0) -> Host:
    table = HostTable.create(GAME, {}, ["open", "open"], 1, name=name)
    cert, _ = load_certificate(tmp_path / f"{name}.pem")
    host = Host([table], host=LOOPBACK, port=port, certificate=cert)
    await host.start()
    return host


async def test_a_changed_certificate_is_refused_with_both_fingerprints(tmp_path):
    trust = Trust(known_hosts=tmp_path / "known_hosts")
    first = await _serve(tmp_path, "first")
    port = first.port
    try:
        await probe(LOOPBACK, port, 5, trust)  # (first use: pinned)
    finally:
        await first.close()
    assert read_known_hosts(trust.path()) == {f"{LOOPBACK}:{port}": first.fingerprint}
    assert stat.S_IMODE(os.stat(trust.path()).st_mode) == 0o600
    impostor = await _serve(tmp_path, "impostor", port)
    try:
        assert impostor.fingerprint != first.fingerprint
        with pytest.raises(FingerprintError):
            await probe(LOOPBACK, port, 5, trust)
        c = Client(LOOPBACK, port, name="Ann", games=ALL_GAMES, trust=trust)
        c.start()
        await asyncio.wait_for(c.finished.wait(), 10)
        assert c.status == "refused"
        assert first.fingerprint in c.last_error and impostor.fingerprint in c.last_error
        assert "--accept-new-fingerprint" in c.last_error
        assert impostor.table.open_seats() == 2 and not impostor.conns  # no hello was sent
        assert read_known_hosts(trust.path())[f"{LOOPBACK}:{port}"] == first.fingerprint

        accepting = Client(LOOPBACK, port, name="Ann", games=ALL_GAMES,
                           trust=Trust(known_hosts=trust.known_hosts, accept_new=True))
        accepting.start()
        await asyncio.wait_for(accepting.ready.wait(), 10)
        assert accepting.status == "connected" and accepting.seat == 0
        assert read_known_hosts(trust.path())[f"{LOOPBACK}:{port}"] == impostor.fingerprint
        await accepting.close()
    finally:
        await impostor.close()


async def test_the_announced_fingerprint_is_checked_before_anything_is_sent(tmp_path):
    host = await _serve(tmp_path, "announced")
    try:
        c = Client(LOOPBACK, host.port, name="Ann", games=ALL_GAMES,
                   trust=Trust(known_hosts=tmp_path / "known_hosts", expected="SHA256:" + "A" * 43))
        c.start()
        await asyncio.wait_for(c.finished.wait(), 10)
        assert c.status == "refused" and "announced" in c.last_error and host.fingerprint in c.last_error
        assert not (tmp_path / "known_hosts").exists() and host.table.open_seats() == 2
        ok = Client(LOOPBACK, host.port, name="Ann", games=ALL_GAMES,
                    trust=Trust(known_hosts=tmp_path / "known_hosts", expected=host.fingerprint))
        ok.start()
        await asyncio.wait_for(ok.ready.wait(), 10)
        assert ok.status == "connected"
        await ok.close()
    finally:
        await host.close()


def test_the_certificate_is_made_once_and_private(tmp_path):
    path = tmp_path / "config" / "lan_certificate.pem"
    cert, made = load_certificate(path)
    again, made_again = load_certificate(path)
    assert made and not made_again and again.fingerprint == cert.fingerprint
    assert cert.fingerprint.startswith("SHA256:") and len(cert.fingerprint) == 7 + 43
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
    assert load_certificate(tmp_path / "other.pem")[0].fingerprint != cert.fingerprint


def test_a_table_is_named_in_sni_and_read_back():
    assert table_of_sni(sni_name("a1b2c3d4")) == "a1b2c3d4"
    assert sni_name("not a label!") is None and sni_name(None) is None and table_of_sni(None) is None


async def test_a_plain_host_is_only_made_on_purpose(tmp_path):
    table = HostTable.create(GAME, {}, ["open", "open"], 1, name="t")
    host = Host([table], host=LOOPBACK, port=0)
    await host.start()
    try:
        assert host.fingerprint is not None and host.tls is not None
        with pytest.raises((ConnectionError, asyncio.IncompleteReadError, OSError, asyncio.TimeoutError)):
            await probe(LOOPBACK, host.port, 3, Trust(plain=True))  # (cleartext gets no answer)
    finally:
        await host.close()
