"""``atlantis serve-ssh`` at the door: connections that never log in hold no session
place; ``--auth keys`` honours the options of ``authorized_keys``; the table server
behind the front takes only the front's own sessions."""

from __future__ import annotations

import asyncio
import sys

import asyncssh
import pytest

from tests.test_ssh_serve import LOOPBACK, connect, new_key, running_front, until
from tui.ssh.server import SshLimits

pytestmark = pytest.mark.timeout(45)

QUIET = [sys.executable, "-c", "import time; print('child up', flush=True); time.sleep(60)"]


async def silent_connections(port: int, n: int) -> list[asyncio.StreamWriter]:
    """``n`` TCP connections that read the server's banner and then say nothing."""
    writers = []
    for _ in range(n):
        reader, writer = await asyncio.open_connection(LOOPBACK, port)
        await asyncio.wait_for(reader.readline(), 5)  # SSH-2.0-...: the front accepted it
        writers.append(writer)
    return writers


class Listener(asyncssh.SSHClient):
    """Keeps why the server ended the connection."""

    why: Exception | None = None

    def connection_lost(self, exc: Exception | None) -> None:
        self.why = exc


async def refusal(front, key=None) -> str:
    """The one line a refused connection is told (after logging in, or before)."""
    try:
        conn, client = await asyncssh.create_connection(Listener, LOOPBACK, front.port, known_hosts=None,
                                                        username="x", client_keys=[key or new_key()],
                                                        agent_path=None)
    except asyncssh.DisconnectError as exc:  # (refused before logging in)
        return exc.reason
    await asyncio.wait_for(conn.wait_closed(), 5)  # (refused a session once logged in)
    assert isinstance(client.why, asyncssh.DisconnectError), client.why
    return client.why.reason


async def test_the_session_limits_refuse_with_one_line(tmp_path):
    limits = SshLimits(max_sessions=3, max_per_address=2, rate=3, rate_window=60, child_grace=0.5)
    async with running_front(tmp_path, limits=limits, child_argv=lambda name: QUIET) as front:
        a = await connect(front, new_key())
        b = await connect(front, new_key())
        await a.sees("child up")
        assert "2 sessions from 127.0.0.1 are open already" in await refusal(front)
        await a.close()
        await until(lambda: len(front.connections) == 1, 5, "a closed")
        # Three new connections a minute from one address: the next one is refused.
        assert "3 new sessions from 127.0.0.1 within 60 s" in await refusal(front)
        await b.close()
        assert front.refused == 2
    limits = SshLimits(max_sessions=1, max_per_address=5, child_grace=0.5)
    async with running_front(tmp_path, limits=limits, child_argv=lambda name: QUIET) as front:
        a = await connect(front, new_key())
        assert "the server has 1 sessions, its limit" in await refusal(front)
        await a.close()


async def test_a_player_logs_in_while_forty_silent_connections_wait(tmp_path):
    limits = SshLimits(max_sessions=32, max_per_address=4, rate=1000, child_grace=0.5)
    async with running_front(tmp_path, limits=limits, child_argv=lambda name: QUIET) as front:
        silent = await silent_connections(front.port, 40)
        player = await connect(front, new_key())
        await player.sees("child up")
        assert len(front.connections) == 1 and front.refused == 0
        await player.close()
        for w in silent:
            w.close()


async def test_logins_have_their_own_cap_and_a_freed_place_lets_the_next_in(tmp_path):
    limits = SshLimits(max_sessions=2, max_logins=3, rate=1000, child_grace=0.5)
    async with running_front(tmp_path, limits=limits, child_argv=lambda name: QUIET) as front:
        silent = await silent_connections(front.port, 3)
        assert "3 connections are logging in at once" in await refusal(front)
        silent.pop().close()
        await until(lambda: len(front.logins) < 3, 5, "a login place freed")
        player = await connect(front, new_key())
        await player.sees("child up")
        await player.close()
        for w in silent:
            w.close()
