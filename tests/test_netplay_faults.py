"""Faults: the host process is SIGKILLed mid-game and restarted with ``--resume``; the
clients reconnect by themselves and the game ends with the same digest as the same
game played without the crash."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import sys
from pathlib import Path

from engine.match import Match
from engine.match import replay_states
from engine.record import digest
from engine.registry import GAMES
from engine.storage import load_record
from netplay.client import Client, run_bot

from netplay_helpers import LOOPBACK, play_with_bots, running_host, until

GAME = GAMES["pathways"]
SEED, BOT_SEED = 5, 100


def free_port() -> int:
    s = socket.socket()
    s.bind((LOOPBACK, 0))
    port = s.getsockname()[1]
    s.close()
    return port


async def start_host(*args: str) -> tuple[asyncio.subprocess.Process, list[str]]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "host", *args, "--headless", "--no-advertise", "--bind", LOOPBACK,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    lines = [(await asyncio.wait_for(proc.stdout.readline(), 20)).decode()]
    assert lines[0].startswith("Listening on"), (lines, await proc.stderr.read())
    return proc, lines


async def uninterrupted_digest() -> str:
    async with running_host(GAME, ["open", "open"], seed=SEED) as host:
        clients = [Client(LOOPBACK, host.port, name=f"c{i}", backoff=(0.02, 0.2)) for i in range(2)]
        await asyncio.wait_for(asyncio.gather(*(run_bot(c, seed=BOT_SEED) for c in clients)), 30)
        return clients[0].over.digest


async def test_sigkill_mid_game_then_resume_ends_with_the_same_digest(tmp_path):
    log = tmp_path / "crash.atlrec"
    port = free_port()
    proc, _ = await start_host("pathways", "--players", "2", "--port", str(port), "--log", str(log),
                               "--seed", str(SEED))
    clients = [Client(LOOPBACK, port, name=f"c{i}", backoff=(0.05, 0.3), read_timeout=5) for i in range(2)]
    tasks = [asyncio.ensure_future(run_bot(c, seed=BOT_SEED, delay=0.004)) for c in clients]
    try:
        await until(lambda: len(clients[0].events) >= 12, timeout=20)
        os.kill(proc.pid, signal.SIGKILL)  # no goodbye, no flush, mid-game
        await proc.wait()
        await until(lambda: all(c.status == "reconnecting" for c in clients), timeout=10)
        before = load_record(log)
        assert 0 < len(before.moves) and clients[0].over is None

        proc, lines = await start_host("--resume", str(log), "--exit-when-done")
        assert f":{port} " in lines[0]  # the same port: clients find it again
        rest = ""
        for _ in range(6):  # (the announcement's lines: addresses, how to join, the log, ...)
            rest += (await asyncio.wait_for(proc.stdout.readline(), 10)).decode()
            if "Resumed after" in rest:
                break
        m = re.search(r"Resumed after (\d+) moves?, digest (\w+)", rest)
        assert m, rest
        n, resumed = int(m.group(1)), m.group(2)
        states = [s for _, s, _ in replay_states(load_record(log), GAME)]
        assert resumed == digest(states[n])  # rebuilt exactly where the log stopped

        await asyncio.wait_for(asyncio.gather(*tasks), 40)
        await asyncio.wait_for(proc.wait(), 20)  # --exit-when-done
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    final = Match.from_record(load_record(log), GAME)  # every digest of the log checks
    assert final.result() is not None
    for c in clients:
        assert c.over.digest == final.digest()
        assert c.verification.ok, c.verification.text
    assert final.digest() == await uninterrupted_digest()


async def test_a_truncated_last_move_in_the_log_is_dropped_on_resume(tmp_path):
    from netplay.host import HostTable

    log = tmp_path / "cut.atlrec"
    async with running_host(GAME, ["open", "open"], seed=2, log=log) as host:
        await play_with_bots(host, 2)
    data = log.read_bytes()
    log.write_bytes(data[:-7])  # the host died while writing its last move
    table = HostTable.resume(log)
    assert len(table.match.record.moves) == len(host.table.match.record.moves) - 1
    assert load_record(log).moves == table.match.record.moves
    table.log.close()
    _ = Path
